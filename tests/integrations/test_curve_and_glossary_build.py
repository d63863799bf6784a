"""A small MkDocs site with a curve block and a glossary, built with the project's hook.

The curve is drawn under its block from the recording that `docverify record` wrote; recording
other numbers redraws it. The glossary's page is generated, in the navigation, with an anchor
per term; its data file is not published; the article links a term's first use to it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import docverify, mkdocs_build, zensical_build
from docverify.output import curve_picture as drawing
from docverify.verifying import curve, recordings
from support.glossary import GLOSSARY
from support.mkdocs_site import EPOCH, Site

pytestmark = pytest.mark.slow

CURVE_CODE = (
    'for paso in range(1, 5):\n    print(f"paso {{paso}}: pérdida {{{scale} / paso:.3f}}")\n'
)
FENCE = (
    '```python exec="on" id="curva" curve="Pérdida por paso"\n--8<-- "articulos/a/curva.py"\n```'
)


def _record(site: Site) -> None:
    done = docverify(site.root, "record", "--runner", "cpu", "docs/articulos/a.md")
    assert done.returncode == 0, done.stdout + done.stderr


def _build(site: Site, out: Path) -> BeautifulSoup:
    done = mkdocs_build(site.root, out, env={"SOURCE_DATE_EPOCH": EPOCH})
    assert done.returncode == 0, done.stdout + done.stderr
    return BeautifulSoup(
        (out / "articulos/a/index.html").read_text(encoding="utf-8"), "html.parser"
    )


def _points(article: BeautifulSoup) -> list[str]:
    [figure] = article.select("figure.dv-curve")
    return figure.find("polyline")["points"].split()


def _drawn_from(site: Site) -> list[str]:
    """The points the recording of the curve block gives, drawn by output/curve_picture.py."""
    body = recordings.read(site.root / "snippets/articulos/a/curva.cpu.txt", "cpu").body
    svg = drawing.svg(curve.parse(body.strip()), "", "")
    return re.search(r'class="dv-curve-line"[^>]* points="([^"]*)"', svg).group(1).split()


def test_curve_and_glossary_in_a_built_site(tmp_path: Path, local_author: None) -> None:
    site = Site(tmp_path / "site")
    site.edit(
        site.article, "## Cuerpo\n\nTexto.", f"## Cuerpo\n\nEl grafo de la pérdida.\n\n{FENCE}"
    )
    site.edit(
        site.root / "mkdocs.yml", "  - articulos/a.md\n", "  - articulos/a.md\n  - glosario.md\n"
    )
    (site.root / "docs/glosario.yml").write_text(GLOSSARY, encoding="utf-8")
    code = site.root / "snippets/articulos/a/curva.py"
    code.write_text(CURVE_CODE.format(scale=1), encoding="utf-8")
    _record(site)

    out = tmp_path / "out"
    article = _build(site, out)
    [figure] = article.select("figure.dv-curve")
    svg = figure.find("svg")
    assert svg["role"] == "img" and svg.find("title").get_text() == "Pérdida por paso"
    assert "4 puntos" in svg.find("desc").get_text()
    first = _points(article)
    assert first == _drawn_from(site)
    panel = figure.find_previous(class_="dv-output")
    assert "paso 4: pérdida 0.250" in panel.get_text()

    page = BeautifulSoup((out / "glosario/index.html").read_text(encoding="utf-8"), "html.parser")
    assert {"grafo", "retropropagacion", "hoja", "backward", "grad-fn"} <= {
        h.get("id") for h in page.find_all("h2")
    }
    assert not list(out.rglob("glosario.yml")), "el archivo de datos se publicó"
    nav = [
        a.get("href", "") for a in article.find_all("a") if "dv-glossary" not in a.get("class", [])
    ]
    assert "../../glosario/" in nav  # the navigation lists the page
    [link] = article.select("a.dv-glossary")
    assert (link["href"], link.get_text()) == ("../../glosario/#grafo", "grafo")

    # The Zensical path: the same figure, page and first link, added after Zensical built it.
    pytest.importorskip("zensical")
    done = zensical_build(site.root, tmp_path / "z", env={"SOURCE_DATE_EPOCH": EPOCH})
    assert done.returncode == 0, done.stdout + done.stderr
    built = tmp_path / "z" / "site"
    other = BeautifulSoup(
        (built / "articulos/a/index.html").read_text(encoding="utf-8"), "html.parser"
    )
    assert _points(other) == first
    [same] = other.select("a.dv-glossary")
    assert (same["href"], same.get_text()) == (link["href"], link.get_text())
    assert (built / "glosario/index.html").is_file() and not list(built.rglob("glosario.yml"))

    # Other numbers, recorded: the picture is redrawn from the new recording.
    code.write_text(CURVE_CODE.format(scale=3), encoding="utf-8")
    _record(site)
    again = _points(_build(site, tmp_path / "out2"))
    assert again != first and again == _drawn_from(site)
