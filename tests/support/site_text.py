"""The reader-visible text of a built page: its <article>, tags removed, spaces collapsed."""

from __future__ import annotations

import html
import re
from pathlib import Path


def text_of(site: Path, page: str) -> str:
    raw = (site / page / "index.html").read_text(encoding="utf-8")
    article = re.search(r"<article[^>]*>(.*)</article>", raw, re.DOTALL)
    raw = article.group(1) if article else raw
    raw = re.sub(r"<[^>]+>", "", raw)
    return re.sub(r"\s+", " ", html.unescape(raw))
