"""What a reader reads on a built page, and two properties of it: build words, repeated sentences.

The text is the page's <article> as shown, code excluded (<pre>, <code>, the SVG of a figure),
folded parts included: a reader who opens them reads them too.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from bs4 import BeautifulSoup, SoupStrainer, Tag

# The build's own words, for the verification page and the author guide only (issue 33): a
# reader's page says what ran and where in a learner's words.
BUILD_WORDS = re.compile(
    r"\b(?:runners?|grabaci[oó]n(?:es)?|grabad[oa]s?|grabar(?:se|la|lo)?|informes?)\b",
    re.IGNORECASE,
)
# Where one sentence ends: its final mark, or a separator the line under an output uses.
_SENTENCE_END = re.compile(r"[.!?;:·\n]+")
_WORD = re.compile(r"\w+(?:[-'’.]\w+)*")


def parsed_article(html: str) -> Tag | None:
    """The <article> of a page's HTML, as parsed alone: nothing outside it (the theme's
    navigation, its header and footer) becomes a tree. None when the page has none."""
    return BeautifulSoup(html, "html.parser", parse_only=SoupStrainer("article")).find("article")


def article(path: Path) -> Tag:
    """The <article> of a built page (its <body> when it has none), without its code, pictures
    and permalink marks."""
    html = path.read_text(encoding="utf-8")
    found = parsed_article(html) or BeautifulSoup(html, "html.parser").body
    assert found is not None, path
    for hidden in found.find_all(["pre", "code", "svg", "script", "style"]):
        hidden.decompose()
    for link in found.select("a.headerlink"):
        link.decompose()
    return found


def build_words(root: Tag) -> list[str]:
    """Each build word in the text of `root`, with a few words around it."""
    text = re.sub(r"\s+", " ", root.get_text(" "))
    return [text[max(0, m.start() - 40) : m.end() + 40] for m in BUILD_WORDS.finditer(text)]


def repeated_sentences(root: Tag, words: int = 6, times: int = 3) -> dict[str, int]:
    """The sentences of at least `words` words that `root` says more than `times` times, each
    with its count. Each block-level element is read on its own, so a sentence never runs from
    one into the next; a table's cells are data (a status, a date, a rule's name in each row),
    not sentences, and are not read."""
    counts: Counter[str] = Counter()
    for element in root.find_all(["p", "li", "summary", "h1", "h2", "h3", "dd"]):
        if element.find(["p", "li", "ul", "ol", "table"]) or element.find_parent("table"):
            continue  # its own blocks are read one by one; a table is data
        for sentence in _SENTENCE_END.split(element.get_text(" ")):
            said = _WORD.findall(sentence.lower())
            if len(said) >= words:
                counts[" ".join(said)] += 1
    return {sentence: n for sentence, n in counts.items() if n > times}
