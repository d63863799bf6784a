"""output.blocks against markdown-exec itself: an executed fence keeps markdown-exec's documented
`source` layouts, tab titles and hidden lines, although the engine (which never imports MkDocs,
and markdown-exec's package does) writes them with its own code.

The reference is markdown-exec's `add_source`, the function its formatters call to place a block's
source around its result. Only the trailing space markdown-exec leaves on a fence without options
differs (it changes nothing in Markdown)."""

from __future__ import annotations

import re
import warnings

import pytest
from docverify.output import blocks
from docverify.parsing.options import LAYOUTS

markdown_exec = pytest.importorskip("markdown_exec")

OUTPUT = '!!! success dv-output "una salida"\n\n    ```dv-output\n    2\n    ```\n'
CODE = "x = 1 + 1  # markdown-exec: hide\nprint(x)\n"
CASES = [
    ({}, blocks.DEFAULT_TABS),
    ({"title": "suma.py"}, ("Fuente", "Resultado \\| tabla")),
]


def reference(layout: str, options: dict[str, str], tabs: tuple[str, str]) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # "material-block", renamed "block"
        text = markdown_exec.add_source(
            source=CODE, location=layout, output=OUTPUT, language="python", tabs=tabs, **options
        )
    return re.sub(r" +\n", "\n", text)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize(("options", "tabs"), CASES)
def test_each_layout_is_markdown_execs(
    layout: str, options: dict[str, str], tabs: tuple[str, str]
) -> None:
    shown = blocks.ShownBlock(blocks._shown_code(CODE), OUTPUT, layout, tabs, options)
    assert blocks.markdown(shown) == reference(layout, options, tabs)
