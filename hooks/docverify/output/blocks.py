# An executed fence as every site generator shows it: the code, and the output the build verified.
"""How an executed fence becomes the code and the verified output under (or beside) it.

One function for both generators: page.py writes this Markdown in place of each executed fence,
from the engine's one parse of the page. The layouts are the ones of markdown-exec's `source`
option (parsing/options.py lists them), with the tab titles in Spanish; the fence's `title`
stays on the shown code fence, and a code line marked «markdown-exec: hide» runs but is not
shown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from textwrap import indent

from docverify.output import canary, panel
from docverify.parsing.options import MDEXEC_OPTIONS, OUR_OPTIONS
from docverify.verifying.outcome import Outcome

DEFAULT_LAYOUT = "above"
DEFAULT_TABS = ("Código", "Salida")
HIDE = "markdown-exec: hide"  # a code line marked so runs but is not shown
_TAB_SPLIT = re.compile(r"(?<!\\)\|")
# Options of an executed fence that shape the layout or the run, never the shown code fence.
_NOT_SHOWN = (MDEXEC_OPTIONS - {"title"}) | OUR_OPTIONS


@dataclass(frozen=True)
class ShownBlock:
    code: str  # the code as the page shows it
    output: str  # Markdown: the verified output panel and, when the block failed, its problem
    layout: str = DEFAULT_LAYOUT  # where the code goes: one of LAYOUTS
    tabs: tuple[str, str] = DEFAULT_TABS  # titles of the code and output tabs (tabbed layouts)
    fence_options: dict[str, str] = field(default_factory=dict)  # kept on the shown code fence


def shown(outcome: Outcome, canary_view: canary.View | None = None) -> ShownBlock:
    """The block of `outcome` as its page shows it: its code, its panel (panel.py) and the
    layout, tab titles and code fence options its fence asks for."""
    options = outcome.block.options
    tabs = tuple(_TAB_SPLIT.split(options["tabs"], maxsplit=1)) if "tabs" in options else ()
    titles = (tabs[0], tabs[1]) if len(tabs) == 2 else DEFAULT_TABS
    kept = {k: str(v) for k, v in options.items() if k not in _NOT_SHOWN}
    code = _shown_code(outcome.block.code)
    layout = options.get("source") or DEFAULT_LAYOUT
    return ShownBlock(code, panel.markdown(outcome, canary_view), layout, titles, kept)


def markdown(shown: ShownBlock) -> str:
    """The Markdown of a shown block: its code fence placed by its layout around its output."""
    options = " ".join(f'{name}="{value}"' for name, value in shown.fence_options.items())
    # Eight backticks: longer than any fence an output or a block's code could hold.
    fence = f"````````python {options}".rstrip() + f"\n{shown.code}\n````````"
    if shown.layout == "below":
        return f"{shown.output}\n\n{fence}"
    if shown.layout in ("block", "material-block"):
        return f'{fence}\n\n<div class="result" markdown="1" >\n\n{shown.output}\n\n</div>'
    if shown.layout == "tabbed-left":
        return _tabbed((shown.tabs[0], fence), (shown.tabs[1], shown.output))
    if shown.layout == "tabbed-right":
        return _tabbed((shown.tabs[1], shown.output), (shown.tabs[0], fence))
    # "above", and any layout the parse reported as invalid (the build fails on that finding).
    return f"{fence}\n\n{shown.output}"


def _shown_code(code: str) -> str:
    return "\n".join(line for line in code.split("\n") if HIDE not in line).strip()


def _tabbed(*tabs: tuple[str, str]) -> str:
    """Content tabs (pymdownx.tabbed): each title, then its content indented by four spaces."""
    parts = []
    for title, content in tabs:
        parts += [f'=== "{title.replace(chr(92) + "|", "|").strip()}"', indent(content, "    "), ""]
    return "\n".join(parts)
