"""Tabs: the engine runs the code MkDocs shows (tabs expanded), and reports what cannot agree."""

from __future__ import annotations

import markdown
from conftest import Project
from docverify import build
from docverify.core.findings import errors
from docverify.core.kinds import Kind
from docverify.parsing import tabs
from docverify.parsing.pages import read_site
from docverify.running.executor import Executor
from docverify.verifying.verify import verify

TAB_INDENTED = "def f(x):\n\tif x:\n\t\treturn x * 2\n\treturn 0\n\nprint(f(3))\t# seis\n"


def _markdown_code(page_text: str, snippets: str) -> str:
    """The code of the first fence as Python-Markdown (snippets + superfences) hands it over."""
    seen: list[str] = []

    def keep(source: str, *_: object, **__: object) -> str:
        seen.append(source)
        return ""

    markdown.markdown(
        page_text,
        extensions=["pymdownx.snippets", "pymdownx.superfences"],
        extension_configs={
            "pymdownx.snippets": {"base_path": [snippets]},
            "pymdownx.superfences": {
                "custom_fences": [
                    {
                        "name": "python",
                        "class": "python",
                        "format": keep,
                        "validator": lambda *_, **__: True,
                    }
                ]
            },
        },
    )
    return seen[0]


def test_engine_code_is_what_markdown_shows(project: Project, executor: Executor) -> None:
    project.snippet("a/tabs.py", TAB_INDENTED)
    text = '# A\n\n```python exec="on" id="t"\n--8<-- "a/tabs.py"\n```\n'
    project.page("a.md", text)
    config = project.config
    (page,) = read_site(config)
    assert not page.findings
    code = page.blocks[0].code
    assert "\t" not in code
    assert code.strip() == _markdown_code(text, str(project.root / "snippets")).strip()
    report = verify(config, [page], "cpu", executor)
    assert report.outcomes["a/t"].result["output"] == "6\n"


def test_inline_block_in_an_indented_fence(project: Project) -> None:
    text = '- lista\n\n    ```python exec="on" id="t"\n    if True:\n    \tprint(1)\n    ```\n'
    project.page("a.md", text)
    (page,) = read_site(project.config)
    assert page.blocks[0].code == "if True:\n    print(1)\n"


def test_tab_inside_a_string_is_reported_with_its_line(project: Project) -> None:
    project.snippet("a/cadena.py", 'x = 1\nprint("a\tb")\n')
    project.page("a.md", '```python exec="on" id="t"\n--8<-- "a/cadena.py"\n```\n')
    config = project.config
    (finding,) = [f for f in read_site(config)[0].findings if f.kind == Kind.TAB_IN_CODE]
    assert finding.where == "snippets/a/cadena.py:2"
    assert finding.message == (
        "MkDocs convierte cada tabulador en espacios y aquí eso cambia lo que hace el código (un "
        "tabulador dentro de una cadena, o una sangría que depende del ancho del tabulador): la "
        "página mostraría y ejecutaría otro código que el archivo."
    )
    assert finding.fix == (
        "escribe el tabulador de la cadena como \\t y sangra con espacios (para sangrar, los "
        "tabuladores valen si no se mezclan con espacios)."
    )
    assert finding in errors(build.lint(config))


def test_expansion_that_keeps_the_meaning_is_silent() -> None:
    assert (
        tabs.changed_meaning(TAB_INDENTED, "\n".join(tabs.expand(TAB_INDENTED.split("\n")))) is None
    )
    raw = 'print("a\tb")\n'
    assert tabs.changed_meaning(raw, "\n".join(tabs.expand(raw.split("\n")))) == 1
    assert tabs.changed_meaning("def (:\n\tx", "def (:\n    x") is None  # the run reports it


def test_expand_counts_columns_from_the_code_start() -> None:
    # A tab stops at the next multiple of 4 counted from the page's column 0, not the code's.
    assert tabs.expand(["\tx", "ab\ty", "sin tab"]) == ["    x", "ab  y", "sin tab"]
    assert tabs.expand(["\tx", "a\ty", "sin tab"], column=2) == ["  x", "a y", "sin tab"]


def test_a_code_without_tabs_never_changed_meaning() -> None:
    assert tabs.changed_meaning("x = 1\n", "x = 2\n") is None


def test_changed_meaning_points_at_the_tab_in_a_string_else_at_the_first_tab() -> None:
    indented = "if 1:\n\tx = 1\n"  # line 2: a tab that only indents
    # A string's tab wins over an earlier indenting one; a tab in a comment is not a string.
    raw = indented + "y = 1  # a\tb\nprint('c\td')\n"
    assert tabs.changed_meaning(raw, raw.expandtabs(4)) == 4
    fstring = indented + "print(f'c\t{y}')\n"
    assert tabs.changed_meaning(fstring, fstring.expandtabs(4)) == 3
    # In a string over several lines, the line of its first tab, however many tabs follow.
    long = indented + "y = '''a\n\nb\tc\nd\te'''\n"
    assert tabs.changed_meaning(long, long.expandtabs(4)) == 5
    # Expanded code that no longer parses changed meaning, with no tab in a string: the line
    # of the first tab.
    raw = "\nx = 1\nif x:\n\ty = 2\n\tz = 3\n"
    assert tabs.changed_meaning(raw, "\nx = 1\nif x:\n    y = 2\n  z = 3\n") == 4
