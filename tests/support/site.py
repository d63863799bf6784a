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


_HREF = re.compile(r'<a\b[^>]*?\shref="(?P<href>[^"]*)"')
_ID = re.compile(r'\sid="([^"]*)"')


def broken_links(site: Path, pages: list[str]) -> list[str]:
    """The links of the built `pages` (site-relative page URLs, as support.browser.site_pages
    lists them) that lead nowhere: a relative link to a file the site lacks, or to an anchor
    the target page lacks. Links to other hosts and to the same page's anchors are not read."""
    broken = []
    for page in pages:
        source = site / (page + "index.html" if page.endswith("/") or not page else page)
        for raw in _HREF.findall(source.read_text(encoding="utf-8")):
            href = html.unescape(raw)
            if not href or re.match(r"^[a-z][a-z0-9+.-]*:|^/|^#", href, re.IGNORECASE):
                continue
            path, _, anchor = href.partition("#")
            target = (source.parent / path.split("?")[0]).resolve()
            if target.is_dir():
                target /= "index.html"
            if not target.is_file():
                broken.append(f"{page or '/'}: {href} (no existe {target})")
            elif anchor and target.suffix == ".html":
                ids = _ID.findall(target.read_text(encoding="utf-8"))
                if anchor not in ids:
                    broken.append(f"{page or '/'}: {href} (no hay id «{anchor}» en {target.name})")
    return broken
