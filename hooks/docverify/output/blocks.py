# An executed fence as every site generator shows it: the code, and the output the build verified.
"""How an executed fence becomes the code and the verified output under (or beside) it.

One function for both adapters: the MkDocs hook formats each executed fence with it (SuperFences
hands it the fence) and converts the Markdown it returns; the tree for a generator that runs
nothing (output/tree.py) writes the same Markdown in place of the fence. The layouts are the ones
of markdown-exec's `source` option (parsing/options.py lists them), with the tab titles in Spanish.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from textwrap import indent

from docverify.output import page_parts
from docverify.parsing.options import MDEXEC_OPTIONS, OUR_OPTIONS
from docverify.site.result import BuildResult

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


def shown_block(
    result: BuildResult,
    rel: str,
    block_id: str,
    code: str,
    *,
    layout: str = "",
    tabs: tuple[str, ...] | None = None,
    extra: Mapping[str, object] | None = None,
) -> ShownBlock:
    """Block `block_id` of page `rel` as the page shows it. `code` is the fence's code as the
    site generator read it (compared with the code the engine ran: page_parts.block_markdown);
    `layout`, `tabs` and `extra` are the fence's own options (none: the defaults)."""
    output = page_parts.block_markdown(result, rel, block_id, code)
    kept = {k: str(v) for k, v in (extra or {}).items() if k not in _NOT_SHOWN}
    titles = (tabs[0], tabs[1]) if tabs and len(tabs) == 2 else DEFAULT_TABS
    return ShownBlock(_shown_code(code), output, layout or DEFAULT_LAYOUT, titles, kept)


def options_of(options: Mapping[str, str]) -> dict[str, object]:
    """The layout keywords of `shown_block` from a fence's options as written (`source="…"`,
    `tabs="Código|Salida"`, `title="…"`): what the engine's parse of the page holds."""
    tabs = tuple(_TAB_SPLIT.split(options["tabs"], maxsplit=1)) if "tabs" in options else None
    return {"layout": options.get("source", ""), "tabs": tabs, "extra": options}


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
