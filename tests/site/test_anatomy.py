"""site.anatomy: an article's required parts, on the article `docverify new` writes.

The scaffold's page (site/scaffold.page_text) passes the check as written; each test breaks
one part of it and expects the finding that names that part, at its line.
"""

from __future__ import annotations

import pytest
import yaml
from conftest import Project
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_page
from docverify.site import anatomy, scaffold

PAGE = "articulos/nuevo.md"


def _scaffold() -> str:
    return scaffold.page_text("nuevo", "Un artículo nuevo", "2026-01-01")


def _front(text: str) -> dict[str, object]:
    return yaml.safe_load(text.split("---\n")[1])


def _check(project: Project, text: str) -> list[tuple[Kind, int, str]]:
    path = project.page(PAGE, text)
    found = anatomy.check(project.config, read_page(project.config, path))
    return [(f.kind, f.line, f.message) for f in found]


# The parts the scaffold writes as YAML lists: each one is rendered item by item.
LISTS = [key for key, value in _front(_scaffold()).items() if isinstance(value, list)]


def test_the_scaffold_has_every_part(project: Project) -> None:
    assert _check(project, _scaffold()) == []
    assert set(LISTS) >= {"goals", "prerequisites", "takeaways", "faq", "sources"}


@pytest.mark.parametrize("key", LISTS)
def test_a_list_part_written_as_text_is_named(project: Project, key: str) -> None:
    """A list part written as one string would be rendered letter by letter (or fail later):
    the check names it, at its line."""
    text = _scaffold()
    front = text.split("---\n")[1]
    start = front.index(f"\n{key}:\n") + 1
    end = start + len(f"{key}:\n")
    while front[end:].startswith(" "):
        end = front.index("\n", end) + 1
    broken = text.replace(front, front[:start] + f'{key}: "un texto"\n' + front[end:], 1)
    assert isinstance(_front(broken)[key], str)
    line = broken.split("\n").index(f'{key}: "un texto"') + 1
    found = _check(project, broken)
    assert (Kind.MALFORMED_PART, line) in [(kind, at) for kind, at, _ in found], found
    assert anatomy.META_PARTS[key] in next(m for k, _, m in found if k is Kind.MALFORMED_PART)


@pytest.mark.parametrize("key", sorted(anatomy.EDITORIAL_LISTS))
def test_an_editorial_list_written_as_text_is_named(project: Project, key: str) -> None:
    """A seed article's lists for a learner are optional, and lists when written."""
    text = _scaffold()
    assert _check(project, text.replace("approach:", f"{key}:\n  - Algo\napproach:", 1)) == []
    broken = text.replace("approach:", f'{key}: "un texto"\napproach:', 1)
    line = broken.split("\n").index(f'{key}: "un texto"') + 1
    found = _check(project, broken)
    assert [(k, at) for k, at, _ in found] == [(Kind.MALFORMED_PART, line)], found
    assert anatomy.EDITORIAL_LISTS[key] in found[0][2]
