"""One render of the site for both generators: the same pages, metadata, files and search.

A small site with the real site's theme and plugins (Material, its search in Spanish,
mkdocs-jupyter), a home page, an article with a block and its notebook, a glossary and the
verification page, built once by MkDocs and once by `docverify zensical build`. Both come from
the same render (output/render.py): every page carries the same metadata (title, description,
search boost, left out of search or not), the build generates the same files in both, and each
site's own search engine, run in Node on the index it built, finds the article first by its
title, also where the home page's title holds the same words.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import mkdocs_build, zensical_build
from docverify.output import coverage_text, search
from support.glossary import GLOSSARY
from support.mkdocs_site import EPOCH, Site

HERE = Path(__file__).resolve().parent
ENV = {"SOURCE_DATE_EPOCH": EPOCH}
TITLE = "Tensores en PyTorch"  # the article's; the home page's title starts with it
ARTICLE_URL = "articulos/a/"
HOME = f"""\
---
title: "{TITLE}: un recorrido"
description: "Un recorrido por los tensores."
---

# {TITLE}: un recorrido

Los tensores en PyTorch, paso a paso: cada tensor, cada operación con tensores en PyTorch.

{coverage_text.MARKER}
"""
THEME = """\
theme:
  name: material
  language: es
  font: false
plugins:
  - search:
      lang: es
  - mkdocs-jupyter:
      include: ["*.ipynb"]
      ignore: ["*.md"]
      include_source: true
      execute: false
"""
# What the build generates in the site, from this fixture's sources (the .ipynb beside its page).
GENERATED = {
    "verificacion.json",
    "verificacion/index.html",
    "glosario/index.html",
    "cuadernos/a/index.html",
    "cuadernos/a/a.ipynb",
}
ADDRESS = re.compile(r"0x[0-9a-f]{6,16}")


@dataclass
class Built:
    mkdocs: Path  # the site MkDocs built
    zensical: Path  # the site Zensical built


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    pytest.importorskip("zensical")
    folder = tmp_path_factory.mktemp("una-render")
    site = Site(folder / "src")
    mkdocs_yml = site.root / "mkdocs.yml"
    site.edit(mkdocs_yml, "theme:\n  name: mkdocs\nplugins: []\n", THEME)
    nav = "nav:\n  - articulos/a.md\n"
    site.edit(mkdocs_yml, nav, "nav:\n  - index.md\n  - articulos/a.md\n  - glosario.md\n")
    site.edit(site.article, 'title: "Un artículo"', f'title: "{TITLE}"')
    (site.root / "docs/index.md").write_text(HOME, encoding="utf-8")
    (site.root / "docs/glosario.yml").write_text(GLOSSARY, encoding="utf-8")
    done = mkdocs_build(site.root, folder / "mkdocs", env=ENV)
    assert done.returncode == 0, done.stdout + done.stderr
    done = zensical_build(site.root, folder / "z", env=ENV)
    assert done.returncode == 0, done.stdout + done.stderr
    return Built(folder / "mkdocs", folder / "z" / "site")


def search_entries(site: Path) -> dict[str, dict[str, object]]:
    """The site's search index, by location: Material's or Zensical's."""
    material = site / "search" / "search_index.json"
    path = material if material.is_file() else site / search.ZENSICAL_INDEX
    data = json.loads(path.read_text(encoding="utf-8"))
    return {entry["location"]: entry for entry in data.get("docs", data.get("items", []))}


def page_meta(site: Path) -> dict[str, tuple[object, ...]]:
    """Each built page, by URL: its title, its description, whether search holds it, and the
    boost of each of its entries in the search index."""
    entries = search_entries(site)
    found: dict[str, tuple[object, ...]] = {}
    for path in sorted(site.rglob("*.html")):
        if path.name == "404.html":
            continue  # each theme's own
        html = path.read_text(encoding="utf-8")
        url = path.relative_to(site).as_posix().removesuffix("index.html")
        title = re.search(r"<title>([^<]*)</title>", html)
        described = re.search(r'<meta name="description" content="([^"]*)"', html)
        boosts = sorted(
            (location, str(entry.get("boost")))
            for location, entry in entries.items()
            if location.split("#", 1)[0] == url
        )
        found[url] = (
            title and title.group(1),
            described and described.group(1),
            url in entries,
            tuple(boosts),
        )
    return found


def test_every_page_carries_the_same_metadata_in_both_builds(built: Built) -> None:
    on_mkdocs, on_zensical = page_meta(built.mkdocs), page_meta(built.zensical)
    assert on_mkdocs == on_zensical
    # What the pages are and carry, from this fixture (a second source than the render).
    assert {"", ARTICLE_URL, "glosario/", "verificacion/", "cuadernos/a/"} <= set(on_mkdocs)
    for generator, site in (("mkdocs", built.mkdocs), ("zensical", built.zensical)):
        entries = search_entries(site)
        article = [e for loc, e in entries.items() if loc.split("#", 1)[0] == ARTICLE_URL]
        assert len(article) > 1, generator  # the page and its sections
        assert all(e.get("boost") == search.ARTICLE_BOOST for e in article), generator
        assert "boost" not in entries[""], generator  # the home page is no article
        assert "cuadernos/a/" not in entries, generator  # a notebook repeats its article
    home_title, home_description, _, _ = on_mkdocs[""]
    assert home_title is not None and home_title.startswith(f"{TITLE}: un recorrido")
    # The home page holds the coverage marker: its description ends with where it ran.
    assert home_description is not None and "Un recorrido por los tensores. " in home_description


def test_the_build_generates_the_same_files_in_both(built: Built) -> None:
    """The files the build generates (GENERATED, written for this fixture) are in both sites,
    the glossary's data file in neither; both have the same pages; the JSON and the notebook
    are the same text (but for the 0x… addresses a run prints, none expected here)."""
    held = {}
    for generator, site in (("mkdocs", built.mkdocs), ("zensical", built.zensical)):
        held[generator] = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
        assert held[generator] >= GENERATED, (generator, GENERATED - held[generator])
        assert not [p for p in held[generator] if p.endswith("glosario.yml")], generator
    pages = {g: {p for p in files if p.endswith(".html")} for g, files in held.items()}
    assert pages["mkdocs"] == pages["zensical"]
    for rel in ("verificacion.json", "cuadernos/a/a.ipynb"):
        mkdocs, zensical = (
            ADDRESS.sub("0x…", (site / rel).read_text(encoding="utf-8"))
            for site in (built.mkdocs, built.zensical)
        )
        assert mkdocs == zensical, rel


def node_search(script: str, worker: Path, index: Path, query: str) -> list[str]:
    """The locations a search worker, run in Node (tests/zensical/*.js), finds for `query`,
    best first."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("hace falta node (Node.js) para ejecutar el trabajador de búsqueda")
    done = subprocess.run(
        [node, str(HERE / script), str(worker), str(index), query],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout)


def test_each_search_ranks_the_article_first_by_its_title(built: Built) -> None:
    """The home page's title holds the article's title, and its text those words again: each
    site's own search finds both, the article first (Material by the page's boost in its meta,
    Zensical by the boost the build writes into its index)."""
    import material  # noqa: PLC0415

    theme = Path(material.__file__).parent / "templates"
    (material_worker,) = theme.glob("assets/javascripts/workers/search.*.min.js")
    (zensical_worker,) = built.zensical.glob("assets/javascripts/workers/search.*.min.js")
    found = {
        "mkdocs": node_search(
            "material_search_worker.js",
            material_worker,
            built.mkdocs / "search" / "search_index.json",
            TITLE,
        ),
        "zensical": node_search(
            "search_worker.js", zensical_worker, built.zensical / search.ZENSICAL_INDEX, TITLE
        ),
    }
    for generator, locations in found.items():
        assert locations and locations[0] == ARTICLE_URL, (generator, locations)
        assert "" in locations, (generator, locations)  # the home page matched too
