"""parsing.pages: block identity and the languages that may execute."""

from __future__ import annotations

from conftest import Project
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_site
from support.blocks import block, kinds


def test_missing_and_duplicate_ids_are_located(project: Project) -> None:
    project.page(
        "a.md",
        "# A\n\n" + block("print(1)", "uno") + '\n```python exec="on"\n'
        "print(2)\n```\n\n" + block("print(3)", "uno"),
    )
    pages = read_site(project.config)
    found = {f.kind: f for f in pages[0].findings}
    assert set(found) == {Kind.MISSING_ID, Kind.DUPLICATE_ID}
    assert found[Kind.MISSING_ID].where == "docs/a.md:7"
    assert found[Kind.DUPLICATE_ID].where == "docs/a.md:11"
    assert [b.key for b in pages[0].blocks] == ["a/uno"]


def test_id_is_stable_when_the_page_changes_elsewhere(project: Project) -> None:
    project.page("a.md", block("print(1)", "uno"))
    first = read_site(project.config)[0].blocks[0].key
    project.page("a.md", "# Título nuevo\n\nTexto.\n\n" + block("print(1)", "uno"))
    assert read_site(project.config)[0].blocks[0].key == first == "a/uno"


def test_other_languages_cannot_execute_unverified(project: Project) -> None:
    project.page("a.md", '```bash exec="on" id="x"\necho hola\n```\n')
    assert kinds(read_site(project.config)[0].findings) == [Kind.UNVERIFIED_LANGUAGE]


def test_a_layout_no_site_generator_can_show_is_an_invalid_option(project: Project) -> None:
    """`source="console"` would print the output panel's Markdown inside the code: refused at
    its fence line, like any other invalid option; markdown-exec's other layouts pass."""
    project.page(
        "a.md",
        '```python exec="on" id="uno" source="console"\nprint(1)\n```\n\n'
        '```python exec="on" id="dos" source="tabbed-left"\nprint(2)\n```\n',
    )
    page = read_site(project.config)[0]
    assert [(f.kind, f.where) for f in page.findings] == [(Kind.INVALID_OPTION, "docs/a.md:1")]
    assert 'source="console"' in page.findings[0].message
