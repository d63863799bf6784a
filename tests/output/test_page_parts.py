"""output.page_parts: what the build adds around an article's text.

The line under an article's header that says where its outputs come from («Cómo se
comprueba») belongs to an article with executed blocks: an article that runs nothing, the home
page and a page that is no article never show it. Articles from the scaffold (`docverify new`),
its block written inline; the one without blocks shows its code in a fence that is not run.
And the page's <meta name="description"> where it is not the `description` as written (the
coverage sentence of the home page is tests/site/test_coverage.py's).
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from conftest import Project
from docverify import build
from docverify.core.request import Request
from docverify.output import page_parts
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
