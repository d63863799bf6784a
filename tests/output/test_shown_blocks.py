"""output.blocks: how an executed fence becomes its code and its output, for every generator."""

from __future__ import annotations

import pytest
from docverify.output import blocks
from docverify.parsing.options import LAYOUTS

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


def test_options_of_a_fence_as_written() -> None:
    options = {"exec": "on", "id": "x", "source": "below", "tabs": r"A\|B|C", "title": "t.py"}
    assert blocks.options_of(options) == {
        "layout": "below",
        "tabs": (r"A\|B", "C"),
        "extra": options,
    }
    assert blocks.options_of({"exec": "on"})["tabs"] is None
