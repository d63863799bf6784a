"""output.page_parts: the page's <meta name="description"> where it is not the `description`
as written (the coverage sentence of the home page is tests/site/test_coverage.py's)."""

from __future__ import annotations

from types import SimpleNamespace

from conftest import Project
from docverify.output import page_parts
from docverify.parsing.pages import read_page

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
