"""Search: accent-insensitive matches in Material's index, and articles first for their titles.

Material's Spanish search indexes words as written (its pipeline keeps no stemmer), so a reader who
types without tildes finds nothing. Each entry gets one more field holding its accented words
without their accents; the results still show the entry's own title and text.

The home page introduces the whole site: its title and text share words with every article's
title («Qué es PyTorch: tensores…» and «Tensores en PyTorch»), and its long text matches them
often, so it could rank above the article whose exact title a reader typed. Every article gets
Material's per-page search boost (`search: boost:` in the page's meta): among pages that match a
query equally, an article comes first; between articles nothing changes. An author's own
`search:` settings in the front matter are kept.

Zensical's search reads no page's meta: the build writes each page's boost into its index
(`boost_zensical_index`, every entry of the page, as Material does), and its search worker,
patched (zensical/patches.py), puts the boosted entry first between two that match the query
equally (in fields of the same weight, two titles, with as many of its words).
"""

from __future__ import annotations

import html
import json
import re
import unicodedata
from pathlib import Path
from typing import Any

FIELD = "sin_tildes"
ZENSICAL_INDEX = "search.json"  # Zensical's search index, in its site folder
# Material's document boost for every article (1.0: none). 2 already put «Tensores en PyTorch» above
# the home page; 4 leaves room for a home page that grows.
ARTICLE_BOOST = 4.0
_TAG = re.compile(r"<[^>]+>")
_WORD = re.compile(r"\w+")


def fold(text: str) -> str:
    """`text` without diacritics (á→a, ü→u, ñ→n), lower-cased."""
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def add_folded_field(index: dict[str, Any]) -> dict[str, Any]:
    """Add the unaccented words of each entry as a field of Material's search_index.json data."""
    index.setdefault("config", {}).setdefault("fields", {})[FIELD] = {"boost": 1.0}
    for doc in index.get("docs", []):
        text = html.unescape(_TAG.sub(" ", f"{doc.get('title', '')} {doc.get('text', '')}"))
        words = {fold(w) for w in _WORD.findall(text) if fold(w) != w.lower()}
        doc[FIELD] = " ".join(sorted(words))
    return index


def fold_index_file(path: Path) -> None:
    """Add the unaccented field to a search_index.json written by the search plugin, if any."""
    if path.is_file():
        data = add_folded_field(json.loads(path.read_text(encoding="utf-8")))
        path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), "utf-8")


def article_meta(meta: dict[str, Any]) -> dict[str, Any]:
    """The `search` meta of an article: Material's boost, unless the author set one."""
    search = dict(meta.get("search") or {})
    search.setdefault("boost", ARTICLE_BOOST)
    return {"search": search}


def boost_zensical_index(path: Path, boosts: dict[str, object]) -> None:
    """Give each entry of Zensical's search index at `path` its page's boost (`boosts`: by the
    page's URL, site-relative), as Material's index has it; nothing without an index."""
    if not path.is_file():
        return
    data = json.loads(path.read_text(encoding="utf-8"))
    for item in data.get("items", []):
        boost = boosts.get(item.get("location", "").split("#", 1)[0])
        if boost is not None:
            item["boost"] = boost
    path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), "utf-8")
