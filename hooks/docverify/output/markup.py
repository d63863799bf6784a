"""Markdown and raw HTML every part of a page uses: fences, diffs, boxes of problems.

An output is a fence of its own kind (OUTPUT_FENCE), and so is a block of raw HTML (RAW_FENCE):
both generators format them through pymdownx.superfences (`custom_fences` gives them the same
entries). A raw HTML block written as a fence stays a block wherever the block it belongs to
is (inside an admonition, a list or a content tab, indented): Python-Markdown only reads raw
HTML as a block at the start of a line, and would wrap an indented `<figure>` or `<p>` in a
paragraph of its own.
"""

from __future__ import annotations

import html
import re
from typing import Any

from docverify.core.findings import Finding

OUTPUT_FENCE = "dv-output"  # SuperFences custom fence for outputs, formatted by format_output
RAW_FENCE = "dv-html"  # SuperFences custom fence for raw HTML blocks, written as they are
_DIFF_CLASS = {"-": "dv-diff-del", "+": "dv-diff-add", "@": "dv-diff-hunk"}


def fence(text: str, info: str = OUTPUT_FENCE) -> str:
    """`text` in a Markdown fence longer than any run of backticks inside it: by default an
    output, as a fence of its own kind (OUTPUT_FENCE)."""
    longest = max((len(m) for m in re.findall(r"`{3,}", text)), default=2)
    ticks = "`" * (longest + 1)
    return f"{ticks}{info}\n{text}\n{ticks}"


def diff_html(text: str) -> str:
    """A unified diff with its removed/added lines marked, or a traceback as it is: raw HTML
    without blank lines (one would end the raw HTML block in Markdown)."""
    lines = []
    for line in text.rstrip("\n").split("\n"):
        kind = None if line.startswith(("---", "+++")) else _DIFF_CLASS.get(line[:1])
        escaped = html.escape(line) or "&#8203;"
        lines.append(f'<span class="{kind}">{escaped}</span>' if kind else escaped)
    return '<pre class="dv-diff"><code>' + "\n".join(lines) + "</code></pre>"


def format_output(source: str, *_: object, **__: object) -> str:
    """HTML of one output: program output (<samp>), not code, so it gets no copy button."""
    return f'<pre class="dv-output-text"><samp>{html.escape(source)}</samp></pre>'


def format_raw(source: str, *_: object, **__: object) -> str:
    """HTML of a raw HTML block: the block itself (see `raw`)."""
    return source


def raw(html_block: str) -> str:
    """A block of raw HTML as Markdown that stays a block at any indentation."""
    return fence(html_block.strip("\n"), RAW_FENCE)


def custom_fences(configured: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """pymdownx.superfences' custom fences as the build needs them: the output fence, and no
    fence of the generator's own that would render (or run) an executed block itself: the
    engine replaces every executed fence before the generator reads the page (render.py)."""
    ours = (OUTPUT_FENCE, RAW_FENCE)
    kept = [f for f in configured if f.get("name") not in ("python", "py", *ours)]
    return [
        *kept,
        {"name": OUTPUT_FENCE, "class": "dv-output-text", "format": format_output},
        {"name": RAW_FENCE, "class": "dv-html", "format": format_raw},
    ]


def problems_box(anchor: str, title: str, found: list[Finding]) -> str:
    """Raw HTML (no Markdown inside): one visually distinct box for the problems of one place."""
    parts = [
        f'<div class="admonition failure dv-problem" id="{anchor}">',
        f'<p class="admonition-title">{html.escape(title)}</p>',
    ]
    for finding in found:
        parts.append(
            f"<p><strong>[{html.escape(finding.kind.label)}]</strong> "
            f"{html.escape(finding.where)}: {html.escape(finding.message)}</p>"
        )
        if finding.detail:
            parts.append(diff_html(finding.detail))
        parts.append(f"<p>Cómo arreglarlo: <code>{html.escape(finding.fix)}</code></p>")
    parts.append("</div>")
    return raw("\n".join(parts)) + "\n"
