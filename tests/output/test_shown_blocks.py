"""output.blocks: how an executed fence becomes its code and its output, for every generator."""

from __future__ import annotations

import pytest
from conftest import Project
from docverify.output import blocks
from docverify.parsing.options import LAYOUTS
from docverify.parsing.pages import read_site
from docverify.verifying.verify import unrun

OUTPUT = '!!! success dv-output "Salida · CPU ✓"\n\n    ```dv-output\n    2\n    ```\n'


def shown(layout: str, **kw: object) -> blocks.ShownBlock:
    return blocks.ShownBlock("print(1 + 1)", OUTPUT, layout, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_layout_shows_the_code_once_and_the_output_once(layout: str) -> None:
    text = blocks.markdown(shown(layout))
    assert text.count("print(1 + 1)") == 1 and text.count("Salida · CPU ✓") == 1, text
    code_first = text.index("print(1 + 1)") < text.index("Salida")
    assert code_first == (layout not in ("below", "tabbed-right")), text


def test_tabbed_layouts_are_content_tabs_with_spanish_titles() -> None:
    left = blocks.markdown(shown("tabbed-left"))
    assert left.index('=== "Código"') < left.index('=== "Salida"'), left
    assert "\n    ````````python\n    print(1 + 1)\n" in left, left
    right = blocks.markdown(shown("tabbed-right", tabs=("Fuente", "Resultado")))
    assert right.index('=== "Resultado"') < right.index('=== "Fuente"'), right


def test_the_fence_options_as_written_shape_the_shown_block(project: Project) -> None:
    """source, tabs (a `|` escaped inside a title) and title, read from the engine's parse."""
    fence = 'exec="on" id="x" source="below" tabs="A\\|B|C" title="t.py"'
    project.page("a.md", f"```python {fence}\nprint(1)\n```\n")
    (page,) = read_site(project.config)
    (block,) = page.blocks
    verification = unrun(project.config, [page], "cpu")
    shown = blocks.shown(verification.outcomes[block.key])
    assert (shown.layout, shown.tabs, shown.fence_options) == (
        "below",
        ("A\\|B", "C"),
        {"title": "t.py"},
    )
    project.page("a.md", '```python exec="on" id="x"\nprint(1)\n```\n')
    (page,) = read_site(project.config)
    plain = blocks.shown(unrun(project.config, [page], "cpu").outcomes["a/x"])
    assert (plain.layout, plain.tabs, plain.fence_options) == ("above", blocks.DEFAULT_TABS, {})


def test_the_shown_code_drops_hidden_lines_and_the_second_bar_stays_in_the_output_title(
    project: Project,
) -> None:
    """Like markdown-exec, `tabs` is split at its first unescaped bar only; a line marked
    «markdown-exec: hide» runs but is not shown."""
    code = "x = 1  # markdown-exec: hide\nprint(x)\n"
    project.page("a.md", f'```python exec="on" id="x" tabs="A|B|C"\n{code}```\n')
    (page,) = read_site(project.config)
    shown = blocks.shown(unrun(project.config, [page], "cpu").outcomes["a/x"])
    assert (shown.code, shown.tabs) == ("print(x)", ("A", "B|C"))


def test_fence_options_are_written_in_order_separated_by_one_space() -> None:
    text = blocks.markdown(shown("above", fence_options={"title": "t.py", "linenums": "1"}))
    assert text.startswith('````````python title="t.py" linenums="1"\nprint(1 + 1)\n````````')


def test_an_unknown_layout_is_shown_as_above() -> None:
    assert (
        blocks.markdown(shown("de-lado")) == f"````````python\nprint(1 + 1)\n````````\n\n{OUTPUT}"
    )
