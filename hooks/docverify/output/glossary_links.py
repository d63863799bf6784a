"""Links to the glossary: each article's first use of a term links to the term's entry.

The build adds the links to the article's HTML, so authors never write them and a term can't be
left unlinked: the first occurrence of each term in the article's prose (the term or its
plural, matched as the lint matches: site/glossary.py) becomes a link. Never inside code, a
heading, a link, an admonition's title, a collapsed summary, an output panel, a drawn picture or
a note that keeps a seed's original, nor inside a phrase of the term's `other_senses` (where the
word means something else); a term whose first occurrence is in such a place is linked at its next
one in prose. A `code: true` term is linked at its first inline `<code>` in prose that names it
(`backward`, `y.backward()`): the whole code element inside the link, the code itself
untouched. The words never change: only `<a>` tags are inserted.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from html.parser import HTMLParser

from docverify.site.glossary import Glossary, Term, any_of, fold, phrase_pattern

LINK_CLASS = "dv-glossary"
# Elements whose text is not prose to link: code, headings, links, titles, controls, pictures.
SKIP_TAGS = frozenset(
    {"a", "code", "pre", "kbd", "samp", "script", "style", "svg", "button", "summary", "label"}
    | {"textarea", "select", "option", "title", "figure"}
    | {f"h{n}" for n in range(1, 7)}
)
# Classes of what the engine or Material add around prose, and of a seed's kept original.
SKIP_CLASSES = frozenset(
    {
        "admonition-title",
        "headerlink",
        "dv-output",
        "dv-legend",
        "dv-notebook",
        "dv-sources",
        "dv-banner",
        "dv-problem",
        "semilla",
        "tabbed-labels",
    }
)
VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
    | {"track", "wbr"}
)
_CALL = re.compile(r"^(?:[\w.]*\.)?(?P<name>\w+)(?:\(.*\))?$", re.DOTALL)


@dataclass
class _Open:
    tag: str
    skip: bool  # this element or one around it is not prose
    start: int  # offset of its start tag
    code: list[str] | None = None  # the text of an inline <code> in prose, as it is read


class _Linker(HTMLParser):
    """Finds where to insert the links: offsets in the original HTML, nothing rewritten."""

    def __init__(self, source: str, terms: list[Term]) -> None:
        super().__init__(convert_charrefs=False)
        self._source = source
        self._line_starts = [0]
        for line in source.split("\n")[:-1]:
            self._line_starts.append(self._line_starts[-1] + len(line) + 1)
        words = sorted((t for t in terms if not t.code), key=lambda t: -len(t.term))
        # Each word with its anchor and patterns, worked out once per page, not once per text.
        self._words = [
            (t.anchor, t, phrase_pattern(t.term), [phrase_pattern(o) for o in t.other_senses])
            for t in words
        ]
        # Most texts hold no word of the glossary: one search says so (site/glossary.any_of).
        self._any_word = any_of(tuple(pattern for _, _, pattern, _ in self._words))
        self._code_terms = {fold(t.term): t for t in terms if t.code}
        self.stack: list[_Open] = []
        self.linked: set[str] = set()  # anchors already linked
        self.inserts: list[tuple[int, int, Term]] = []  # (start, end, term) in `source`

    def _here(self) -> int:
        line, column = self.getpos()
        return self._line_starts[line - 1] + column

    def skipping(self) -> bool:
        return bool(self.stack) and self.stack[-1].skip

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            return
        classes = set((dict(attrs).get("class") or "").split())
        skip = self.skipping() or tag in SKIP_TAGS or bool(classes & SKIP_CLASSES)
        # An inline <code> in prose: its text is code, but the element may be linked whole.
        code: list[str] | None = [] if tag == "code" and not self.skipping() else None
        self.stack.append(_Open(tag, skip, self._here(), code))

    def _code_text(self, text: str) -> None:
        inner = next((o for o in reversed(self.stack) if o.code is not None), None)
        if inner is not None:
            inner.code.append(text)

    def handle_endtag(self, tag: str) -> None:
        if not any(o.tag == tag for o in self.stack):
            return
        while self.stack:
            opened = self.stack.pop()
            if opened.tag == tag:
                break
        if opened.code is not None:
            end = self._source.index(">", self._here()) + 1
            self._code(opened, "".join(opened.code), end)

    def handle_data(self, data: str) -> None:
        self._code_text(data)
        if self.skipping():
            return
        folded = fold(data)
        if self._any_word is None or not self._any_word.search(folded):
            return
        start = self._here()
        taken: list[tuple[int, int]] = []
        for anchor, term, pattern, senses in self._words:
            if anchor in self.linked:
                continue
            other = [m.span() for sense in senses for m in sense.finditer(folded)]
            for match in pattern.finditer(folded):
                a, b = match.span()
                if all(b <= x or a >= y for x, y in taken + other):
                    taken.append((a, b))
                    self.linked.add(anchor)
                    self.inserts.append((start + a, start + b, term))
                    break

    def handle_entityref(self, name: str) -> None:
        self._code_text(html.unescape(f"&{name};"))

    def handle_charref(self, name: str) -> None:
        self._code_text(html.unescape(f"&#{name};"))

    def _code(self, opened: _Open, text: str, end: int) -> None:
        if self.skipping():
            return
        match = _CALL.match(text.strip())
        term = match and self._code_terms.get(fold(match.group("name")))
        if term and term.anchor not in self.linked:
            self.linked.add(term.anchor)
            self.inserts.append((opened.start, end, term))


def link_first_uses(content: str, glossary: Glossary | None, glossary_url: str) -> str:
    """`content` (an article's HTML) with its first use of each term linked to
    `glossary_url#<anchor>` (a URL relative to the article)."""
    if glossary is None or not glossary.terms:
        return content
    linker = _Linker(content, list(glossary.terms))
    linker.feed(content)
    linker.close()
    out, cursor = [], 0
    for start, end, term in sorted(linker.inserts, key=lambda item: item[0]):
        out.append(content[cursor:start])
        out.append(
            f'<a class="{LINK_CLASS}" href="{html.escape(glossary_url)}#{term.anchor}" '
            f'title="{html.escape(term.definition.replace("`", ""))}">{content[start:end]}</a>'
        )
        cursor = end
    out.append(content[cursor:])
    return "".join(out)
