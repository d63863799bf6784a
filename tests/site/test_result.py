"""site.result.BuildResult's look-ups, on a result put together here (no build runs): the
errors, the articles and which are complete, each page's sources, and each page's errors with
the anchor of the place that shows them. tests/site/test_build_result.py checks real builds."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

from conftest import Project
from docverify.core.findings import Finding, Level
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_site
from docverify.site import navigation
from docverify.site.result import BuildResult, block_anchor, source_anchor
from support.blocks import block

ARTICLE = "articulos/a.md"


def _finding(message: str, path: str, level: Level = Level.ERROR) -> Finding:
    return Finding(Kind.DIVERGENCE, message, path, 1, "arréglalo", level)


def _source(page: str, *findings: Finding) -> SimpleNamespace:
    return SimpleNamespace(source=SimpleNamespace(page=page), findings=list(findings))


def _result(project: Project, **parts: object) -> BuildResult:
    cfg = project.config
    pages = {p.rel: p for p in read_site(cfg)}
    made = {
        "config": cfg,
        "today": dt.date(2030, 1, 1),
        "pages": pages,
        "verification": SimpleNamespace(outcomes={}),
        "fresh": SimpleNamespace(statuses=[]),
        "anatomy": {},
        "findings": [],
    }
    return BuildResult(**(made | parts))  # type: ignore[arg-type]


def _pages(project: Project) -> None:
    project.page(ARTICLE, "# A\n\n" + block("print(1)", "b1") + block("print(2)", "b2"))
    project.page("articulos/b.md", "# B\n")
    project.page("otra.md", "# Otra\n")


def test_errors_articles_complete_and_sources(project: Project) -> None:
    _pages(project)
    error, warning = _finding("mal", "docs/otra.md"), _finding("ojo", "x", Level.WARNING)
    mine, theirs = _source(ARTICLE), _source("otra.md")
    nav = navigation.Nav(
        project.root / "mkdocs.yml",
        (navigation.NavEntry("articulos/b.md", None, 1), navigation.NavEntry(ARTICLE, None, 2)),
    )
    result = _result(
        project,
        findings=[warning, error],
        anatomy={"articulos/b.md": [error]},
        fresh=SimpleNamespace(statuses=[mine, theirs, mine]),
        nav=nav,
        verification=SimpleNamespace(outcomes={}, outcome=lambda rel, block_id: (rel, block_id)),
    )
    assert result.outcome(ARTICLE, "b2") == (ARTICLE, "b2")
    assert result.errors == [error]
    assert [p.rel for p in result.articles()] == ["articulos/b.md", ARTICLE]
    assert [p.rel for p in _result(project).articles()] == [ARTICLE, "articulos/b.md"]
    assert result.complete(ARTICLE)
    assert not result.complete("articulos/b.md")  # it has anatomy findings
    assert not result.complete("otra.md")  # not an article
    assert not result.complete("articulos/nada.md")  # no such page
    assert result.sources(ARTICLE) == [mine, mine] and result.sources("nada.md") == []


def test_page_errors_come_with_the_anchor_that_shows_them(project: Project) -> None:
    _pages(project)
    page = next(p for p in read_site(project.config) if p.rel == ARTICLE)
    of_block = _finding("del bloque", "snippets/articulos/a/b1.py")
    block_warning = _finding("aviso del bloque", "docs/articulos/a.md", Level.WARNING)
    # A source's finding is located in the page's front matter: linked to its source only.
    first_source = _finding("fuente 1", "docs/articulos/a.md")
    second_source = _finding("fuente 2", "x")
    own = _finding("de la página, localizado en otro archivo", "snippets/otro.py")
    located = _finding("en la página", "docs/articulos/a.md")
    elsewhere = _finding("en otra página", "docs/otra.md")
    result = _result(
        project,
        pages={ARTICLE: page},
        verification=SimpleNamespace(
            outcomes={"articulos/a/b1": SimpleNamespace(findings=[block_warning, of_block])}
        ),
        fresh=SimpleNamespace(
            statuses=[
                _source(ARTICLE, first_source),
                _source("otra.md", elsewhere),
                _source(ARTICLE, _finding("aviso", "x", Level.WARNING), second_source),
            ]
        ),
        findings=[of_block, block_warning, elsewhere, own, located, first_source],
    )
    page.findings.append(own)
    assert result.page_errors(ARTICLE) == [
        (of_block, "dv-problema-b1"),
        (first_source, "dv-fuente-1"),
        (second_source, "dv-fuente-2"),
        (own, None),
        (located, None),
    ]
    assert result.page_errors("otra.md") == []  # not among this result's pages
    assert (block_anchor("x"), source_anchor(3)) == ("dv-problema-x", "dv-fuente-3")
