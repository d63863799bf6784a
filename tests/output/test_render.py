"""The site's one render (output/render.py): its files, its pages, their metadata and HTML.

One small project (an article with a block inside an admonition and one outside, an article
without a title, a page that is not an article, a home page with the coverage marker and a
glossary) is recorded and built once; each test renders it and reads one part. The expected
values are written here from what a reader must get, not read back from the render.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json

import pytest
import yaml
from conftest import Project, as_local_author
from docverify import build
from docverify.core.kinds import Kind
from docverify.core.request import Request
from docverify.output import coverage_text, render
from docverify.parsing.pages import read_page, read_site
from docverify.running.executor import Executor
from docverify.site.result import BuildResult
from docverify.verifying.outcome import Provenance, SeenIn
from docverify.verifying.record import record
from support.glossary import GLOSSARY

ARTICLE = """\
---
title: "Tensores"
description: "Desc."
goals: [Un objetivo]
prerequisites: [Un requisito]
approach: "Enfoque."
takeaways: [Una conclusión.]
faq:
  - question: "¿Pregunta?"
    answer: "Respuesta."
sources:
  - title: "Fuente"
    reference: "PyTorch / README.md"
    verified: "2026-05-01"
---

## Cuerpo

El grafo y el grafo. Ver [la otra](../otra.md).

!!! note "Nota"

    Antes.

    ```python exec="on" id="uno"
    print(1)
    ```

    Después.

```python exec="on" id="dos"
print("a\\n\\nb")
```

Final.

## Cómo elegir

Texto.

## Pasos de implementación

1. Paso.

## Ejemplo para copiar

Fin.
"""
UNTITLED = '# B\n\n```python exec="on" id="tres"\nprint(3)\n```\n'
OTHER = '---\ntitle: "Otra"\n---\n\n# Otra\n\nEl grafo.\n'
# A date the author tagged as one (the front matter reads dates as text otherwise).
HOME = (
    '---\ndescription: "Inicio."\nfecha: !!timestamp 2026-05-01\n---\n\n'
    f"# Inicio\n\n{coverage_text.MARKER}\n"
)
DAY = dt.date(2026, 5, 2)
# Where a generator publishes each docs file: its URL and the file served, site-relative.
PUBLISHED = {
    "articulos/a.md": ("articulos/a/", "articulos/a/index.html"),
    "otra.md": ("otra/", "otra/index.html"),
    "glosario.md": ("glosario/", "glosario/index.html"),
    "cuadernos/a.ipynb": ("cuadernos/a/", "cuadernos/a/index.html"),
    "cuadernos/a/index.md": ("cuadernos/a/", "cuadernos/a/index.html"),
}
NOTEBOOK_META = {
    "description": "Cuaderno de Jupyter del artículo «Tensores», con sus salidas verificadas.",
    "search": {"exclude": True},
}


def _links(url: str, *unpublished: str) -> render.Links:
    table = {k: v for k, v in PUBLISHED.items() if k not in unpublished}
    return render.Links(url, table.get)


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory, executor: Executor) -> tuple[BuildResult, ...]:
    """The project's build, and the same pages built without running a block."""
    project = Project(tmp_path_factory.mktemp("render") / "proj")
    project.page("articulos/a.md", ARTICLE)
    project.page("articulos/b.md", UNTITLED)
    project.page("articulos/c.md", "# C\n\nSin bloques.\n")
    project.page("otra.md", OTHER)
    project.page("index.md", HOME)
    (project.root / "docs" / "glosario.yml").write_text(GLOSSARY, encoding="utf-8")
    cfg = project.config
    with as_local_author():
        assert len(record(cfg, read_site(cfg), "cpu", executor).written) == 3
    ran = build.run(cfg, read_site(cfg), Request(runner="cpu", day=DAY), executor)
    unrun = build.run(cfg, read_site(cfg), Request(runner="cpu", execute=False, day=DAY), executor)
    return ran, unrun


@pytest.fixture
def result(builds: tuple[BuildResult, ...]) -> BuildResult:
    return builds[0]


def test_links_say_where_a_file_is_published() -> None:
    assert render.Links("a/").url_of("articulos/a.md") is None  # by default nothing is
    links = _links("a/")
    assert links.url_of("articulos/a.md") == "articulos/a/"
    assert links.url_of("no-existe.md") is None


def test_the_files_and_pages_of_a_site_with_a_notebook_plugin(result: BuildResult) -> None:
    site = render.site(result)
    notebooks = {"cuadernos/a.ipynb", "cuadernos/b.ipynb"}
    assert set(site.files) == {"verificacion.md", "glosario.md", "verificacion.json", *notebooks}
    assert site.files["glosario.md"].startswith("# Glosario\n")
    parsed = ("articulos/a.md", "articulos/b.md", "articulos/c.md", "index.md", "otra.md")
    assert site.pages[:5] == parsed
    assert set(site.pages[5:]) == {"verificacion.md", "glosario.md", *notebooks}
    assert len(site.pages) == 9
    assert site.notebooks["cuadernos/a.ipynb"] == render.Notebook(
        "articulos/a.md", "cuadernos/a.ipynb", "cuadernos/a.ipynb"
    )
    assert set(site.notebooks) == notebooks  # an article without blocks has none


def test_without_a_notebook_plugin_each_notebook_gets_a_page_beside_it(
    result: BuildResult,
) -> None:
    site = render.site(result, notebook_pages=True)
    assert {"cuadernos/a/a.ipynb", "cuadernos/b/b.ipynb"} <= set(site.files)
    assert "cuadernos/a.ipynb" not in site.files
    assert site.notebooks["cuadernos/a/index.md"] == render.Notebook(
        "articulos/a.md", "cuadernos/a/a.ipynb", "cuadernos/a/index.md"
    )
    assert set(site.pages[-2:]) == {"cuadernos/a/index.md", "cuadernos/b/index.md"}


def test_a_site_without_glossary_generates_no_glossary_page(result: BuildResult) -> None:
    site = render.site(dataclasses.replace(result, glossary=None))
    assert "glosario.md" not in site.files and "glosario.md" not in site.pages


def test_the_notebook_holds_the_article_its_sources_and_where_the_version_ran(
    result: BuildResult,
) -> None:
    notebook = json.loads(render.site(result).files["cuadernos/a.ipynb"])
    assert notebook["metadata"]["docverify"]["page"] == "articulos/a.md"
    text = "\n".join(cell["source"] for cell in notebook["cells"])
    assert "print(1)" in text and 'print("a\\n\\nb")' in text
    assert "**PyTorch / README.md**: Fuente (verificada el 1 de mayo de 2026)" in text
    assert "Esta versión del sitio se verificó solo en CPU." in text


def test_the_verification_json_names_the_runner_and_what_ran(
    builds: tuple[BuildResult, ...],
) -> None:
    ran, unrun = builds
    text = render.verification_json(ran)
    summary = json.loads(text)
    assert summary["runner"] == "cpu"
    assert summary["env"] == dict(ran.verification.env) and "torch" in summary["env"]
    assert summary["executed"] == ["articulos/a/uno", "articulos/a/dos", "articulos/b/tres"]
    assert "observed_in" not in summary
    assert summary["coverage"]["blocks"] == 3 and summary["coverage"]["runner"] == "cpu"
    assert text.startswith('{\n  "runner": "cpu",\n')  # indented by two, as published
    assert json.loads(render.site(ran).files["verificacion.json"]) == summary
    assert json.loads(render.verification_json(unrun))["executed"] == []
    assert "coverage" not in json.loads(
        render.verification_json(dataclasses.replace(ran, coverage=None))
    )


def test_a_build_from_reports_says_which_run_observed_it(result: BuildResult) -> None:
    seen = Provenance(
        "cpu", "2.13.0", "cpu", "2026-05-01", SeenIn.REPORT, "https://ci/run/7", ("año.json",)
    )
    verification = dataclasses.replace(result.verification, origin=seen)
    text = render.verification_json(dataclasses.replace(result, verification=verification))
    assert json.loads(text)["observed_in"] == {
        "run_url": "https://ci/run/7",
        "date": "2026-05-01",
        "reports": ["año.json"],
    }
    assert "año.json" in text  # written as it is, not as \u escapes


def test_each_executed_fence_becomes_its_code_and_panel_at_its_indentation(
    result: BuildResult,
) -> None:
    shown = render.site(result).page("articulos/a.md", _links("articulos/a/"))
    markdown = shown.markdown
    assert '```python exec="on"' not in markdown
    # Inside the admonition: the code at its four spaces, the panel's own indentation under it.
    assert "    Antes.\n\n    ````````python\n    print(1)\n    ````````\n\n" in markdown
    assert "\n        ```dv-output\n        1\n        ```\n" in markdown
    assert "\n    Después.\n\n````````python\nprint(" in markdown
    # Outside: no indentation, and a blank line of the output stays empty, not spaces.
    assert "\n    ```dv-output\n    a\n\n    b\n    ```\n" in markdown
    assert markdown.index("Final.") > markdown.index("    b\n")
    assert shown.meta == {"search": {"boost": 4.0}}


def test_an_article_links_its_notebook_where_the_generator_publishes_it(
    result: BuildResult,
) -> None:
    site = render.site(result)
    markdown = site.page("articulos/a.md", _links("articulos/a/")).markdown
    assert '<a href="../../cuadernos/a/">ver el cuaderno</a>' in markdown
    # The .ipynb beside the notebook page's file (cuadernos/a/index.html), under its own name.
    assert '<a href="../../cuadernos/a/a.ipynb" download>' in markdown
    unpublished = site.page("articulos/a.md", _links("articulos/a/", "cuadernos/a.ipynb"))
    assert 'class="dv-notebook"' not in unpublished.markdown


def test_a_page_the_engine_did_not_parse_is_shown_as_read(result: BuildResult) -> None:
    site = render.site(result)
    links = _links("x/")
    assert site.page("extra.md", links, "Hola.").markdown == "Hola."
    assert site.page("extra.md", links).markdown == ""
    assert site.page("glosario.md", links).markdown == site.files["glosario.md"]
    assert site.page("extra.md", links).meta == {}


def test_a_notebook_plugin_page_is_what_the_generator_read(result: BuildResult) -> None:
    site = render.site(result)
    links = _links("cuadernos/a/")
    assert site.page("cuadernos/a.ipynb", links, "LEÍDO").markdown == "LEÍDO"
    assert site.page("cuadernos/a.ipynb", links).markdown == site.files["cuadernos/a.ipynb"]
    assert site.page("cuadernos/a.ipynb", links).meta == NOTEBOOK_META
    assert site.meta("cuadernos/b.ipynb")["description"] == (
        "Cuaderno de Jupyter del artículo «articulos/b.md», con sus salidas verificadas."
    )


def test_our_notebook_page_links_back_to_the_article(result: BuildResult) -> None:
    site = render.site(result, notebook_pages=True)
    shown = site.page("cuadernos/a/index.md", _links("cuadernos/a/"))
    assert shown.markdown.startswith(
        '<p class="dv-notebook-links"><a class="md-button md-button--primary" href="a.ipynb" '
        'download>Descargar el cuaderno (.ipynb)</a> <a class="md-button" '
        'href="../../articulos/a/">Volver al artículo «Tensores»</a></p>\n\n'
    )
    assert "print(1)" in shown.markdown
    assert "Ver [la otra](../../otra.md)." in shown.markdown  # the article's link, moved
    assert shown.meta == NOTEBOOK_META
    # An article the generator does not publish: the link names its docs file.
    alone = site.page("cuadernos/a/index.md", _links("cuadernos/a/", "articulos/a.md"))
    assert 'href="../../articulos/a.md">Volver al artículo «Tensores»' in alone.markdown


def test_the_metadata_the_build_sets(result: BuildResult) -> None:
    site = render.site(result)
    assert site.meta("otra.md") == {}
    assert site.meta("extra.md") == {}
    assert site.meta("articulos/a.md") == {"search": {"boost": 4.0}}
    described = site.meta("index.md")["description"]
    assert described.startswith("Inicio. ") and "solo en CPU" in described
    assert "search" not in site.meta("index.md")
    # The site's own description gets the same sentence after the author's.
    assert site.description("Sitio.") == "Sitio." + described.removeprefix("Inicio.")


def test_the_whole_metadata_is_the_front_matter_under_the_builds(result: BuildResult) -> None:
    site = render.site(result)
    described = site.meta("index.md")["description"]
    assert site.whole_meta("index.md") == {"description": described, "fecha": "2026-05-01"}
    given = {"extra": 1}
    assert site.whole_meta("index.md", given) == {
        "description": "Inicio.",
        "fecha": "2026-05-01",
        "extra": 1,
    }
    assert site.whole_meta("index.md", {}) == {"description": "Inicio.", "fecha": "2026-05-01"}
    assert site.whole_meta("extra.md") == {}


def test_the_front_matter_for_a_generator_that_reads_it_from_the_file(
    result: BuildResult,
) -> None:
    site = render.site(result)
    article = site.front_matter("articulos/a.md")
    assert article.startswith("---\ntitle: Tensores\ndescription: Desc.\ngoals:\n")
    assert article.endswith("search:\n  boost: 4.0\n---\n")
    assert yaml.safe_load(article.strip("-\n")) == site.whole_meta("articulos/a.md")
    home = site.front_matter("index.md")
    described = site.meta("index.md")["description"]
    assert len(described) > 80  # longer than YAML's own line width: kept on one line
    assert f"\ndescription: {described}\n" in home  # its «versión», not an escape
    assert site.front_matter("otra.md") == '---\ntitle: "Otra"\n---\n'  # as written
    assert site.front_matter("extra.md") == ""


def test_the_front_matter_computes_a_pages_metadata_once(
    result: BuildResult, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page's metadata (its search boost, its description) is computed once per front matter,
    not again for the whole metadata: the Zensical path writes one for every page."""
    site = render.site(result)
    asked: list[str] = []
    meta = render.Site.meta
    monkeypatch.setattr(render.Site, "meta", lambda self, rel: asked.append(rel) or meta(self, rel))
    assert site.front_matter("articulos/a.md").endswith("search:\n  boost: 4.0\n---\n")
    assert asked == ["articulos/a.md"]


PROSE = "<p>El grafo y el grafo.</p>"


def test_an_articles_html_links_its_first_use_of_a_term(result: BuildResult) -> None:
    site = render.site(result)
    linked = site.finish("articulos/a.md", PROSE, _links("articulos/a/"))
    assert linked.count('class="dv-glossary"') == 1
    assert 'href="../../glosario/#grafo"' in linked
    assert linked.endswith(" y el grafo.</p>")
    assert site.finish("otra.md", PROSE, _links("otra/")) == PROSE
    assert site.finish("articulos/a.md", PROSE, _links("articulos/a/", "glosario.md")) == PROSE
    without = render.site(dataclasses.replace(result, glossary=None))
    assert without.finish("articulos/a.md", PROSE, _links("articulos/a/")) == PROSE


def test_finished_code_has_fewer_spans(result: BuildResult) -> None:
    code = '<code><span class="n">x</span><span class="o">=</span><span class="mi">1</span></code>'
    lighter = '<code>x=<span class="mi">1</span></code>'
    site = render.site(result)
    assert site.finish("otra.md", code, _links("otra/")) == lighter
    assert site.finish("articulos/a.md", code, _links("articulos/a/")) == lighter


def test_a_notebook_plugin_page_gets_its_links_and_its_articles(result: BuildResult) -> None:
    site = render.site(result)
    html = '<p><a href="../otra.md">otra</a></p>'
    finished = site.finish("cuadernos/a.ipynb", html, _links("cuadernos/a/"))
    assert finished.startswith('<p class="dv-notebook-links">')
    assert 'href="../../articulos/a/">Volver al artículo «Tensores»</a>' in finished
    assert finished.endswith('<p><a href="../../otra/">otra</a></p>')
    alone = site.finish("cuadernos/a.ipynb", html, _links("cuadernos/a/", "articulos/a.md"))
    assert 'href="../..">Volver al artículo' in alone  # no URL: the site's root, not a guess
    # Our own notebook page is a page like the others: nothing added to its HTML.
    own = render.site(result, notebook_pages=True)
    assert own.finish("cuadernos/a/index.md", PROSE, _links("cuadernos/a/")) == PROSE


def test_a_missing_snippets_include_line_becomes_a_comment_at_its_indentation(
    project: Project,
) -> None:
    """The `--8<--` line of each fence whose snippet is missing (and only that line) turns into
    a comment at the same indentation, so the generator's snippets extension has nothing to
    stop on; a fence whose snippet exists keeps its line, and so does an include of the prose
    right above a fence; a finding of another kind before them changes nothing."""
    project.snippet("p/esta.py", "print(1)\n")
    project.snippet("p/texto.md", "Un texto.\n")
    text = (
        "---\ntitle: P\n---\n\n# P\n\n"
        '```python exec="on" id="esta" tolerancia="1"\n--8<-- "p/esta.py"\n```\n\n'
        '!!! note "Nota"\n\n'
        '    ```python exec="on" id="falta"\n    --8<-- "p/falta.py"\n    ```\n\n'
        '--8<-- "p/texto.md"\n'
        '```python exec="on" id="otra"\n--8<-- "p/otra.py"\n```\n'
    )
    path = project.page("p.md", text)
    parsed = read_page(project.config, path)
    kinds = [f.kind for f in parsed.findings]
    assert Kind.MISSING_SNIPPET in kinds and kinds[0] is not Kind.MISSING_SNIPPET, kinds
    body = parsed.body.split("\n")
    shown = render._without_missing_snippets(parsed, list(body))
    comment = "# falta el snippet «{}» (ver el error de la página)"
    expected = [
        {
            '    --8<-- "p/falta.py"': "    " + comment.format("p/falta.py"),
            '--8<-- "p/otra.py"': comment.format("p/otra.py"),
        }.get(line, line)
        for line in body
    ]
    assert shown == expected
    assert sum(line != old for line, old in zip(shown, body, strict=True)) == 2
