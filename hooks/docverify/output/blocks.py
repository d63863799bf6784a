# An executed fence as every site generator shows it: the code, and the output the build verified.
"""How an executed fence becomes the code and the verified output under (or beside) it.

One function for both generators: render.py (`Site.page`) writes this Markdown in place of each
executed fence, from the engine's one parse of the page. The layouts are the ones of
markdown-exec's `source` option (parsing/options.py lists them), with the tab titles in Spanish;
the fence's `title` stays on the shown code fence, and a code line marked «markdown-exec: hide»
runs but is not shown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from textwrap import indent

from docverify.output import panel
from docverify.parsing.options import MDEXEC_OPTIONS, OUR_OPTIONS
from docverify.report.canary import CanaryView
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


def shown(outcome: Outcome, canary_view: CanaryView | None = None) -> ShownBlock:
    """The block of `outcome` as its page shows it: its code, its panel (panel.py) and the
    layout, tab titles and code fence options its fence asks for."""
    options = outcome.block.options
    tabs = tuple(_TAB_SPLIT.split(options["tabs"], maxsplit=1)) if "tabs" in options else ()
    titles = (tabs[0], tabs[1]) if len(tabs) == 2 else DEFAULT_TABS
    kept = {k: str(v) for k, v in options.items() if k not in _NOT_SHOWN}
    code = _shown_code(outcome.block.code)
    layout = options.get("source") or DEFAULT_LAYOUT
    return ShownBlock(code, panel.markdown(outcome, canary_view), layout, titles, kept)


# Where each layout of markdown-exec's `source` option puts the two parts: their order, and
# whether they become content tabs or the output sits in a `result` container.
_ORDER = {
    "above": ("code", "output"),
    "below": ("output", "code"),
    "block": ("code", "result"),
    "material-block": ("code", "result"),
    "tabbed-left": ("code", "output"),
    "tabbed-right": ("output", "code"),
}
_TABBED = {"tabbed-left", "tabbed-right"}
# Eight backticks: longer than any fence an output or a block's code could hold.
_FENCE = "`" * 8


def markdown(shown: ShownBlock) -> str:
    """The Markdown of a shown block: its code fence placed by its layout around its output.
    A layout the parse reported as invalid is shown as "above" (the build fails on that finding).
    tests/output/test_layouts_as_markdown_exec.py holds this to markdown-exec's own layouts."""
    options = " ".join(f'{name}="{value}"' for name, value in shown.fence_options.items())
    parts = {
        "code": f"{_FENCE}python {options}".rstrip() + f"\n{shown.code}\n{_FENCE}",
        "output": shown.output,
        "result": f'<div class="result" markdown="1" >\n\n{shown.output}\n\n</div>',
    }
    order = _ORDER.get(shown.layout, _ORDER["above"])
    if shown.layout not in _TABBED:
        return "\n\n".join(parts[name] for name in order)
    titles = {"code": shown.tabs[0], "output": shown.tabs[1]}
    return "\n".join(_tab(titles[name], parts[name]) for name in order)


def _shown_code(code: str) -> str:
    kept = [line for line in code.split("\n") if HIDE not in line]
    return "\n".join(kept).strip()


def _tab(title: str, content: str) -> str:
    """One content tab of pymdownx.tabbed: its title (an escaped bar is a bar), then its content
    indented by four spaces."""
    title = title.replace("\\|", "|").strip()
    return f'=== "{title}"\n{indent(content, "    ")}\n'
