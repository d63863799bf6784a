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
