"""Reading a project's pages and a built site the way a reader sees them."""

from __future__ import annotations

import html
import re
from pathlib import Path

# An opening fence, as an author writes it (a scanner independent of the engine's parser).
_FENCE = re.compile(r"^\s*(?P<marks>`{3,}|~{3,})(?P<info>.*)$")
_EXECUTED = re.compile(r'^\s*python\b.*\bexec="on"')


def executed_fences_in(page: Path) -> int:
    """How many executed Python fences the Markdown page opens."""
    count, fence = 0, None
    for line in page.read_text(encoding="utf-8").split("\n"):
        match = _FENCE.match(line)
        if fence is None and match:
            fence = match.group("marks")
            count += bool(_EXECUTED.match(match.group("info")))
        elif (
            fence is not None
            and match
            and match.group("marks").startswith(fence)
            and not match.group("info").strip()
        ):
            fence = None
    return count


def executed_fences(root: Path) -> int:
    """How many executed Python fences the Markdown pages under root/docs open."""
    return sum(executed_fences_in(page) for page in sorted((root / "docs").rglob("*.md")))


def text_of(site: Path, page: str) -> str:
    """The visible text of a built page's article (its <article>, or the whole page)."""
    raw = (site / page / "index.html").read_text(encoding="utf-8")
    article = re.search(r"<article[^>]*>(.*)</article>", raw, re.DOTALL)
    raw = article.group(1) if article else raw
    raw = re.sub(r"<[^>]+>", "", raw)
    return re.sub(r"\s+", " ", html.unescape(raw))
