"""Fence options: the info string of a code fence, and which options an executed block takes."""

from __future__ import annotations

import re
from typing import Any

from docverify.core import policies

_OPTION = re.compile(r"""([A-Za-z_][\w-]*)(?:=("[^"]*"|'[^']*'|[^\s"']+))?""")
PYTHON = ("python", "py")
# markdown-exec options we accept on an executed block, then ours.
MDEXEC_OPTIONS = {"exec", "id", "source", "session", "tabs", "title", "updatetoc"}
# Where `source="…"` puts the code of an executed block (output/blocks.py): markdown-exec's
# layouts but "console", which would print the output panel's Markdown inside the code.
LAYOUTS = ("above", "below", "block", "material-block", "tabbed-left", "tabbed-right")
OUR_OPTIONS = {
    "timeout",
    "rtol",
    "atol",
    "raises",
    "runner",
    "reason",
    "graph",
    "curve",
    "literal",
    "own",  # a block of our own on a page of quoted code (parsing/origin.py)
    *policies.CHOICES,
}
TRUE = {"1", "yes", "on", "true"}


def parse_options(info: str) -> tuple[str, dict[str, str]]:
    """Split a fence info string into its language and its key=value options."""
    info = info.strip()
    if not info:
        return "", {}
    language, _, rest = info.partition(" ")
    options: dict[str, str] = {}
    for match in _OPTION.finditer(rest):
        key, value = match.group(1), match.group(2)
        options[key] = "true" if value is None else value.strip("\"'")
    return language.strip(), options


def is_executed(options: dict[str, Any]) -> bool:
    return "exec" in options and str(options["exec"]).lower() in TRUE
