"""parsing.pages: block identity and the languages that may execute."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Project
from docverify.core import policies
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing import frontmatter
from docverify.parsing.pages import Page, page_stem, read_site
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


def test_a_broken_front_matter_is_a_finding_and_the_blocks_are_still_read(
    project: Project,
) -> None:
    text = "---\ntitle: [uno\n---\n\n" + block("print(1)", "uno")
    project.page("a.md", text)
    with pytest.raises(frontmatter.FrontMatterError) as raised:
        frontmatter.split(text)
    page = read_site(project.config)[0]
    assert page.findings == [
        Finding(
            Kind.FRONT_MATTER,
            str(raised.value),
            "docs/a.md",
            raised.value.line,
            "corrige el YAML entre las líneas «---» del principio.",
        )
    ]
    assert str(raised.value).startswith("YAML no válido en el front matter:")
    assert (page.meta, page.meta.key_lines, page.meta_line("title")) == ({}, {}, 1)
    assert (page.body, page.body_line, page.head) == (text, 1, "")
    assert [(b.id, b.fence_line) for b in page.blocks] == [("uno", 5)]


def test_the_front_matter_and_the_body_are_kept_apart(project: Project) -> None:
    head = "---\ntitle: Una\ndevice_policy: as-written\n---\n"
    body = "\n# Una\n\n" + block("print(1)", "uno")
    project.page("a.md", head + body)
    page = read_site(project.config)[0]
    assert (page.head, page.body, page.front) == (
        head,
        body,
        "title: Una\ndevice_policy: as-written\n",
    )
    assert (page.meta_line("device_policy"), page.meta_line("otra")) == (3, 1)
    assert page.blocks[0].device_policy == "as-written"


def test_a_page_whose_meta_has_no_lines_places_every_key_on_line_1(tmp_path: Path) -> None:
    bare = Page(tmp_path / "a.md", "a.md", frontmatter.LineDict(title="x"), "", 1)
    assert bare.meta_line("title") == 1


@pytest.mark.parametrize(
    ("name", "last"), [("device_policy", "as-written"), ("last_value", "show")]
)
def test_a_wrong_policy_in_the_front_matter_is_an_error_at_its_key(
    project: Project, name: str, last: str
) -> None:
    project.page("a.md", f"---\ntitle: Una\n{name}: otra\n---\n\n" + block("print(1)", "uno"))
    page = read_site(project.config)[0]
    assert page.findings == [
        Finding(
            Kind.INVALID_OPTION,
            policies.problem(name, "otra") or "",
            "docs/a.md",
            3,
            f"escribe {name}: {last} o quita la clave.",
        )
    ]


def test_the_numbers_of_a_block_and_their_defaults(project: Project) -> None:
    project.page("a.md", block("print(1)", "uno", ' timeout="2.5"'))
    found = read_site(project.config)[0].blocks[0]
    assert (found.number("timeout", 60.0), found.number("rtol", 0.125)) == (2.5, 0.125)


@pytest.mark.parametrize(
    ("rel", "stem"),
    [("a.md", "a"), ("guia/b.md", "guia/b"), ("notas", "notas"), ("c.mdx", "c.mdx")],
)
def test_the_stem_of_a_page_drops_only_md(rel: str, stem: str) -> None:
    assert page_stem(rel) == stem


# Last lines whose end only a strip of blank lines must leave alone: spaces, a letter.
LAST_LINES = ["yX", "y  "]


@pytest.mark.parametrize("last", LAST_LINES)
def test_code_keeps_its_own_ends_but_blank_lines_at_the_end(project: Project, last: str) -> None:
    """Trailing blank lines go, nothing else: not a leading blank line, not the spaces or the
    letters that end the last line."""
    project.page("a.md", f'# A\n\n```python exec="on" id="uno"\n\nx = 1\n{last}\n\n\n```\n')
    found = read_site(project.config)[0].blocks[0]
    assert (found.code, found.origin_line, found.fence_line, found.fence_end) == (
        f"\nx = 1\n{last}\n",
        4,
        3,
        9,
    )
    assert (found.snippet, found.origin) == (None, project.config.docs_dir / "a.md")


@pytest.mark.parametrize("last", LAST_LINES)
def test_a_snippet_keeps_its_own_ends_but_blank_lines_at_the_end(
    project: Project, last: str
) -> None:
    path = project.snippet("a/uno.py", "x = 1\n")
    path.write_text(f"\nx = 1\n{last}\n\n", encoding="utf-8")
    project.page("a.md", '```python exec="on" id="uno"\n--8<-- "a/uno.py"\n```\n')
    found = read_site(project.config)[0].blocks[0]
    assert (found.code, found.origin, found.origin_line, found.snippet) == (
        f"\nx = 1\n{last}\n",
        path,
        1,
        "a/uno.py",
    )


def test_an_indented_fence_drops_its_indent_and_expands_tabs_from_its_column(
    project: Project,
) -> None:
    """A less indented line loses only its own indent; a tab is expanded as Markdown does,
    counting the fence's column (2 here: «x» at column 2, the tab reaches column 4)."""
    project.page(
        "a.md",
        '- Uno:\n\n  ```python exec="on" id="uno"\n  if True:\n      y = 1\n y\n  x\t= 2\n  ```\n',
    )
    found = read_site(project.config)[0].blocks[0]
    assert found.code == "if True:\n    y = 1\ny\nx = 2\n"
    assert (found.fence_line, found.fence_end) == (3, 8)


def test_a_fence_that_does_not_execute_is_skipped_and_reading_goes_on(project: Project) -> None:
    project.page(
        "a.md",
        '```python\nprint(0)\n```\n\n~~~~python exec="on" id="dos"\n```\nprint(2)\n~~~~\n',
    )
    found = read_site(project.config)[0].blocks
    assert [(b.id, b.code, b.fence_line) for b in found] == [("dos", "```\nprint(2)\n", 5)]


def test_a_fence_left_open_on_the_last_line_is_an_empty_block_there(project: Project) -> None:
    project.page("a.md", 'print("fuera")\n```python exec="on" id="uno"')
    found = read_site(project.config)[0].blocks
    assert [(b.id, b.code, b.fence_line, b.fence_end) for b in found] == [("uno", "\n", 2, 3)]


def test_a_duplicate_id_names_the_first_one(project: Project) -> None:
    project.page("a.md", block("print(1)", "uno") + "\n" + block("print(2)", "uno"))
    assert read_site(project.config)[0].findings == [
        Finding(
            Kind.DUPLICATE_ID,
            "id «uno» repetido en la página (ya usado en la línea 1).",
            "docs/a.md",
            5,
            "da a cada bloque un id único en su página.",
        )
    ]


MIXED = Finding(
    Kind.MIXED_SNIPPET,
    "un bloque ejecutado incluye un único snippet o lleva su código en línea, no ambos.",
    "docs/a.md",
    1,
    'deja en el bloque solo la línea --8<-- "archivo.py".',
)


@pytest.mark.parametrize(
    "content", ['--8<-- "a/uno.py"\nprint(2)', '--8<-- "a/uno.py"\n--8<-- "a/uno.py"']
)
def test_a_snippet_with_code_or_another_snippet_is_refused(project: Project, content: str) -> None:
    project.snippet("a/uno.py", "print(1)\n")
    project.page("a.md", f'```python exec="on" id="uno"\n{content}\n```\n')
    page = read_site(project.config)[0]
    assert (page.findings, page.blocks) == ([MIXED], [])


def test_a_missing_snippet_names_where_it_was_looked_for(project: Project) -> None:
    project.page("a.md", '```python exec="on" id="uno"\n--8<-- "a/otro.py"\n```\n')
    page = read_site(project.config)[0]
    assert page.findings == [
        Finding(
            Kind.MISSING_SNIPPET,
            "el snippet «a/otro.py» no existe en snippets/.",
            "docs/a.md",
            1,
            "crea snippets/a/otro.py o corrige la ruta del --8<--.",
        )
    ]
    assert page.blocks == []


def test_a_missing_snippet_suggests_the_closest_one_in_its_folder(project: Project) -> None:
    """A typo in the path: the message names the snippet the author probably meant, and the
    fence's id is kept as unread (its recording is no orphan: site/usage.py)."""
    project.snippet("a/media_por_filas.py", "print(1)\n")
    project.snippet("a/otra_cosa.py", "print(2)\n")
    project.page("a.md", '```python exec="on" id="media"\n--8<-- "a/media_filas.py"\n```\n')
    page = read_site(project.config)[0]
    assert [(f.kind, f.message, f.fix) for f in page.findings] == [
        (
            Kind.MISSING_SNIPPET,
            "el snippet «a/media_filas.py» no existe en snippets/; ¿querías decir "
            "«a/media_por_filas.py»?",
            'corrige la ruta: --8<-- "a/media_por_filas.py"; o crea snippets/a/media_filas.py.',
        )
    ]
    assert (page.blocks, page.unread) == ([], {"media"})


def test_a_missing_snippet_like_none_in_its_folder_suggests_nothing(project: Project) -> None:
    project.snippet("a/media_por_filas.py", "print(1)\n")
    project.page("a.md", '```python exec="on" id="uno"\n--8<-- "a/gradiente.py"\n```\n')
    [finding] = read_site(project.config)[0].findings
    assert finding.message == "el snippet «a/gradiente.py» no existe en snippets/."


def test_read_site_reads_the_pages_it_is_given(project: Project) -> None:
    project.page("a.md", block("print(1)", "uno"))
    only = project.page("b.md", block("print(2)", "dos"))
    assert [p.rel for p in read_site(project.config, [only])] == ["b.md"]
    assert [p.rel for p in read_site(project.config, [])] == []
    assert [p.rel for p in read_site(project.config)] == ["a.md", "b.md"]
