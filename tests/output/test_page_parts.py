"""output.page_parts: what the build adds around an article's text.

The line under an article's header that says where its outputs come from («Cómo se
comprueba») belongs to an article with executed blocks: an article that runs nothing, the home
page and a page that is no article never show it. Articles from the scaffold (`docverify new`),
its block written inline; the one without blocks shows its code in a fence that is not run.
And the page's <meta name="description"> where it is not the `description` as written (the
coverage sentence of the home page is tests/site/test_coverage.py's).
"""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace
from types import SimpleNamespace as NS
from typing import NamedTuple

import pytest
from conftest import Project
from docverify import build
from docverify.core.findings import Finding, Level
from docverify.core.kinds import Kind
from docverify.core.request import Request
from docverify.output import markup, notebook_links, page_parts, verification_page
from docverify.parsing.pages import read_page, read_site
from docverify.running.executor import Executor
from docverify.site import scaffold

pytestmark = pytest.mark.usefixtures("local_author")

EXECUTED = '```python exec="on" id="primer-bloque"'
LINE = "[Cómo se comprueba]("


def _article(slug: str, fence: str) -> str:
    text = scaffold.page_text(slug, "Un artículo", "2026-01-01")
    include = f'--8<-- "articulos/{slug}/{scaffold.FIRST_SNIPPET}"'
    assert EXECUTED in text and include in text
    return text.replace(EXECUTED, fence, 1).replace(include, "print(1)", 1)


def test_only_an_article_with_executed_blocks_says_how_they_are_checked(
    project: Project, executor: Executor
) -> None:
    project.page("articulos/con-bloques.md", _article("con-bloques", EXECUTED))
    project.page("articulos/sin-bloques.md", _article("sin-bloques", "```python"))
    project.page("index.md", "# Inicio\n\n" + EXECUTED + "\nprint(2)\n```\n")
    project.page("otra.md", "# Otra\n\n" + EXECUTED.replace("primer", "otro") + "\nprint(3)\n```\n")
    cfg = project.config
    pages = {page.rel: page for page in read_site(cfg)}
    assert [len(pages[rel].blocks) for rel in sorted(pages)] == [1, 0, 1, 1]
    result = build.run(cfg, list(pages.values()), Request(runner="cpu"), executor)
    assert result.complete("articulos/con-bloques.md")
    assert result.complete("articulos/sin-bloques.md")
    shown = {
        rel: page_parts.page_markdown(result, rel, page.body, "", None)
        for rel, page in pages.items()
    }
    assert [rel for rel in sorted(shown) if LINE in shown[rel]] == ["articulos/con-bloques.md"]
    said = shown["articulos/con-bloques.md"]
    assert f"{LINE}../" in said and "{: .dv-verified-line }" in said, said


SEED_LEAD = "La frase inicial del texto original."
OURS = "Lo que enseña el artículo, dicho para quien lo busca."


def _result(project: Project, front: str) -> SimpleNamespace:
    """A build result with one article (coverage None: no page says where the site ran)."""
    text = f'---\ntitle: "T"\ndescription: "{SEED_LEAD}"\n{front}---\n\n## Texto\n\nAlgo.\n'
    page = read_page(project.config, project.page("articulos/a.md", text))
    return SimpleNamespace(pages={page.rel: page}, coverage=None)


def test_a_seed_articles_editorial_description_is_its_meta_description(project: Project) -> None:
    """A seed article's `editorial_description` replaces, in its meta description only, the
    seed's lead sentence (the page's lead stays the seed's: it is rendered from `description`);
    without one, the build leaves the description as written ({})."""
    ours = _result(project, f'editorial_description: "{OURS}"\n')
    assert page_parts.description_meta(ours, "articulos/a.md") == {"description": OURS}
    assert ours.pages["articulos/a.md"].meta["description"] == SEED_LEAD
    assert page_parts.description_meta(_result(project, ""), "articulos/a.md") == {}
    assert page_parts.description_meta(ours, "articulos/otra.md") == {}


# --- Each part on its own: the other modules stubbed, results written by hand -----------------


@pytest.mark.parametrize(
    ("target", "start", "link"),
    [
        ("articulos/b/", "articulos/a/", "../b/"),
        ("articulos/a/cuaderno/", "articulos/a/", "cuaderno/"),
        ("articulos/a.ipynb", "articulos/a/", "../a.ipynb"),
        ("articulos/a/", "articulos/a/", "./"),
        ("", "articulos/a/", "../.."),
        ("articulos/b/", "articulos/a.html", "b/"),
        ("articulos/b.html", "articulos/a.html", "b.html"),
        # From the site's root (the home page): never a path of the machine that builds it.
        ("articulos/b/", "", "articulos/b/"),
        ("articulos/b/", "index.html", "articulos/b/"),
        ("glosario/", "", "glosario/"),
    ],
)
def test_a_link_is_relative_to_the_page_it_is_on(target: str, start: str, link: str) -> None:
    assert page_parts.relative(target, start) == link


def _finding(message: str, fix: str, line: int = 3, level: Level = Level.ERROR) -> Finding:
    return Finding(Kind.STALE_SOURCE, message, "docs/a.md", line, fix, level)


def test_the_banner_counts_escapes_and_links_each_error() -> None:
    one = _finding("<b> & «x»", "haz <esto>")
    two = _finding("otra", "arregla", line=0)
    assert page_parts.banner([], "en esta página") == ""
    assert page_parts.banner([(one, "dv-fuente-1")], "en esta página") == (
        '<div class="admonition failure dv-banner" role="alert">\n'
        '<p class="admonition-title">1 error de verificación en esta página</p>\n<ul>\n'
        '<li><a href="#dv-fuente-1">docs/a.md:3: [fuente-caducada] &lt;b&gt; &amp; «x»</a>'
        "<br>Cómo arreglarlo: haz &lt;esto&gt;</li>\n</ul>\n</div>\n\n"
    )
    shown = page_parts.banner([(one, None), (two, None)], "aquí")
    assert '<p class="admonition-title">2 errores de verificación aquí</p>' in shown
    assert (
        "<ul>\n<li>docs/a.md:3: [fuente-caducada] &lt;b&gt; &amp; «x»<br>Cómo arreglarlo: "
        "haz &lt;esto&gt;</li><li>docs/a.md: [fuente-caducada] otra<br>Cómo arreglarlo: "
        "arregla</li>\n</ul>"
    ) in shown


class _Source(NamedTuple):  # hashable, as a footer's notes need
    reference: str
    verified: dt.date


def _status(reference: str, status: str, *findings: Finding) -> NS:
    source = _Source(reference, dt.date(2026, 1, 2))
    return NS(source=source, status=status, review_by=dt.date(2026, 7, 1), findings=list(findings))


def test_a_box_per_source_with_errors_anchored_by_its_place_on_the_page() -> None:
    """Sources are numbered from 1 among all of the page's, failing or not; only errors count."""
    bad = _finding("caducada", "verifícala")
    note = _finding("pronto", "nada", level=Level.INFO)
    statuses = [_status("A", "ok", note), _status("B", "stale", note, bad)]
    result = NS(sources=lambda rel: statuses if rel == "docs.md" else [])
    title = (
        "Fuente «B»: verificada el 2 de enero de 2026, revisar a más tardar el 1 de julio de 2026"
    )
    box = markup.problems_box("dv-fuente-2", title, [bad])
    assert page_parts.source_problems(result, "docs.md") == f"\n\n{box}\n"
    assert page_parts.source_problems(result, "otra.md") == ""
    two = [_status("A", "stale", bad), _status("B", "stale", bad)]
    boxes = page_parts.source_problems(NS(sources=lambda _: two), "docs.md")
    dates = "verificada el 2 de enero de 2026, revisar a más tardar el 1 de julio de 2026"
    first = markup.problems_box("dv-fuente-1", f"Fuente «A»: {dates}", [bad])
    second = markup.problems_box("dv-fuente-2", f"Fuente «B»: {dates}", [bad])
    assert boxes == f"\n\n{first}\n\n{second}\n"


def test_the_notebook_box_links_relative_to_the_article() -> None:
    page = NS(data_files=[NS(name="datos.csv", rel="articulos/a/datos.csv")])
    result = NS(pages={"articulos/a.md": page})
    notebook = page_parts.NotebookFile("articulos/a/cuaderno/", "articulos/a.ipynb")
    shown = page_parts.notebook_box(result, "articulos/a.md", notebook, "articulos/a/")
    assert shown == notebook_links.article_box(
        "cuaderno/", "../a.ipynb", [("datos.csv", "datos.csv")]
    )
    alone = page_parts.notebook_box(result, "articulos/otro.md", notebook, "articulos/a/")
    assert alone == notebook_links.article_box("cuaderno/", "../a.ipynb", [])


def test_a_notebook_page_links_back_and_keeps_its_articles_links() -> None:
    content = '<p><a href="b.md#x">b</a> <a href="fuera.md">f</a> <a href="https://e.org">e</a></p>'
    urls = {"articulos/b.md": "articulos/b/"}
    shown = page_parts.notebook_page(
        "articulos/a.md", "Título", "articulos/a.ipynb", content, "articulos/a/",
        "articulos/a/cuaderno/", urls.get,
    )  # fmt: skip
    assert shown == notebook_links.notebook_html(
        '<p><a href="../../b/#x">b</a> <a href="fuera.md">f</a> <a href="https://e.org">e</a></p>',
        "a.ipynb",
        "../",
        "Título",
    )
    plain = page_parts.notebook_page("a.md", "T", "a.ipynb", content, "a/", "a/cuaderno/")
    assert 'href="b.md#x"' in plain  # no site map: the links stay as written


MARKER = "<!-- docverify:verificacion -->"


def test_the_description_with_the_builds_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(page_parts.coverage_text, "description", lambda cov: f"Frase de {cov}.")
    page = NS(meta={"description": "  Del autor. "}, body=f"Texto.\n\n{MARKER}\n")
    result = NS(pages={"v.md": page}, coverage="cpu")
    assert page_parts.description_meta(result, "v.md") == {
        "description": "Del autor. Frase de cpu."
    }
    assert page_parts.description_meta(result, "otra.md") == {}
    assert page_parts.description_meta(NS(pages={"v.md": page}, coverage=None), "v.md") == {}
    page.body = "Texto sin la marca.\n"
    assert page_parts.description_meta(result, "v.md") == {}
    assert page_parts.with_sentence(None, result) == "Frase de cpu."
    assert page_parts.with_sentence(" Solo. ", NS(coverage=None)) == "Solo."


def _stub_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each part another module writes, as a tag naming what it was given."""
    m = monkeypatch
    m.setattr(page_parts.anatomy, "render_header", lambda page: f"<H {page.name}>")
    m.setattr(page_parts.credit, "markdown", lambda page: f"<C {page.name}>")
    m.setattr(page_parts.verification_method, "article_line", lambda r, rel: f"<L {rel}>")
    m.setattr(page_parts.canary_output, "page_list", lambda view, page: f"<U {view} {page.name}>")
    m.setattr(
        page_parts.anatomy, "render_footer", lambda page, sources, notes: f"<F {sources} {notes}>"
    )
    m.setattr(
        page_parts.home, "fill", lambda r, rel, md: md.replace("<HOME>", f"<home {r.canary} {rel}>")
    )
    m.setattr(page_parts.verification_method, "fill", lambda r, md: md.replace("<VM>", "<vm>"))
    m.setattr(page_parts.coverage_text, "home", lambda cov: f"<cov {cov}>")


def _site(statuses: list[NS], errors: list[Finding]) -> NS:
    article = NS(name="a", blocks=["b"], data_files=[NS(name="d.csv", rel="articulos/a/d.csv")])
    runs_nothing = NS(name="n", blocks=[], data_files=[])
    plain = NS(name="p", blocks=[], data_files=[])
    return NS(
        pages={
            "articulos/a.md": article,
            "articulos/n.md": runs_nothing,
            "p.md": plain,
            verification_page.URI: plain,
        },
        canary="K",
        coverage="C",
        complete=lambda rel: rel.startswith("articulos/"),
        sources=lambda rel: statuses if rel == "articulos/a.md" else [],
        errors=errors,
        page_errors=lambda rel: [(f, "ancla") for f in errors] if rel == "articulos/a.md" else [],
    )


def test_an_article_in_the_order_a_reader_sees_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Banner, header, credit, verification line, notebook box, canary list, text, footer (with a
    note for each source not «ok»), boxes of failing sources; markers filled in the text."""
    _stub_parts(monkeypatch)
    bad = _finding("caducada", "verifícala")
    ok, soon = _status("A", "ok"), _status("B", "soon", bad)
    result = _site([ok, soon], [bad])
    notebook = page_parts.NotebookFile("articulos/a/cuaderno/", "articulos/a.ipynb")
    text = f"<HOME> <VM>\n{MARKER}\n"
    shown = page_parts.page_markdown(result, "articulos/a.md", text, "articulos/a/", notebook)
    notes = {soon.source: "revisar a más tardar el 1 de julio de 2026"}
    footer = f"<F {[ok.source, soon.source]} {notes}>"
    assert shown == (
        page_parts.banner([(bad, "ancla")], "en esta página")
        + "<H a><C a><L articulos/a.md>"
        + notebook_links.article_box("cuaderno/", "../a.ipynb", [("d.csv", "d.csv")])
        + "<U K a><home K articulos/a.md> <vm>\n<cov C>\n"
        + footer
        + page_parts.source_problems(result, "articulos/a.md")
    )
    assert "dv-fuente-2" in shown  # the failing source's box is there
    bare = page_parts.page_markdown(result, "articulos/n.md", "T", "articulos/n/", None)
    assert bare == "<H n><C n><U K n>T<F [] {}>"  # no blocks, no notebook: neither line


def test_other_pages_get_only_credit_canary_and_their_banner(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _stub_parts(monkeypatch)
    bad = _finding("rota", "arréglala")
    result = _site([], [bad])
    assert (
        page_parts.page_markdown(result, "p.md", "<HOME>", "p/", None)
        == "<C p><U K p><home K p.md>"
    )
    assert page_parts.page_markdown(result, "fuera.md", "Texto", "", None) == "Texto"
    on_report = page_parts.page_markdown(result, verification_page.URI, "T", "", None)
    assert on_report == page_parts.banner([(bad, None)], "en esta compilación") + "<C p><U K p>T"
