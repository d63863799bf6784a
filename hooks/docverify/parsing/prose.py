"""Prose: the text a reader reads on a page, with the file line of every part of it.

Three sources, each cut into pieces of text (`Text`):

- the page body outside code: paragraphs, list items, headings, admonition titles, table rows
  (one piece per cell for comparisons), with fenced code, HTML comments, inline code spans, link
  targets, HTML tags and attribute lists masked;
- the front matter's strings (title, description, goals…), which the build renders as prose;
- the comments of executed blocks' code (snippets included), which readers see on the page.

`Text.text` keeps the raw offsets (masked characters become spaces), so a match in it maps back
to its line; `Text.plain` is what a reader reads, normalised, to compare with another text.
Pure functions: no MkDocs.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from docverify.parsing.pages import Block, Page, closing_fence

_FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})")
# A line that starts a new piece of prose: heading, list item, table row, quote, admonition.
_STARTS = re.compile(r"^\s*(?:#{1,6}\s|[-*+]\s|\d+[.)]\s|\||>|!!!|\?\?\?)")
# Pieces of one line: a heading or an admonition's header (its title is prose).
_ONE_LINE = re.compile(r"^\s*(?:#{1,6}\s|!!!|\?\?\?)")
_PREFIX = re.compile(
    r"^[ \t]*(?:>[ \t]*)*(?:#{1,6}[ \t]+|[-*+][ \t]+|\d+[.)][ \t]+|(?:!!!|\?\?\?\+?)[ \t]+[\w-]+)?"
)
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(?P<code>.+?)(?<!`)\1(?!`)", re.DOTALL)
# Markup that is not prose, and what a reader sees in its place (a space between words, or
# nothing where the markup is glued to the text it decorates).
_MASKED = [
    (re.compile(r"<!--.*?-->", re.DOTALL), " "),  # comments
    (re.compile(r"<(?:https?|mailto):[^>\s]*>"), " "),  # autolinks
    (re.compile(r"</?[A-Za-z][^<>]*>"), " "),  # HTML tags (their text stays)
    (re.compile(r"(?<=\])\([^)\s]*(?:\s+\"[^\"]*\")?\)"), ""),  # link targets: [text](url)
    (re.compile(r"(?<=\])\[[^\]]*\]"), ""),  # reference links: [text][ref]
    (re.compile(r"^[ \t]*\[[^\]]+\]:.*$", re.MULTILINE), " "),  # reference definitions
    (re.compile(r"[ \t]*\{[ \t]*[:#.][^}]*\}"), ""),  # attribute lists: { .dv-editorial }
]
_HTML_COMMENT_OPEN, _HTML_COMMENT_CLOSE = "<!--", "-->"
_COMMENT_END = re.compile(re.escape(_HTML_COMMENT_CLOSE))


@dataclass(frozen=True)
class Text:
    """A piece of reader-facing text: its file, the line of each of its lines, its text."""

    path: Path
    lines: tuple[int, ...]  # file line of each "\n"-separated line of `raw`
    raw: str  # as written
    text: str  # `raw` with code and markup replaced by spaces: same offsets, only prose left
    plain: tuple[str, ...]  # what a reader reads, whitespace-normalised (a table: one per cell)
    comment: bool = False  # a comment of a block's code, not prose

    def line_at(self, offset: int) -> int:
        """The file line of character `offset` of `raw`."""
        return self.lines[min(self.raw[:offset].count("\n"), len(self.lines) - 1)]


def _blank(match: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", match.group())


def mask(raw: str) -> str:
    """`raw` with inline code, comments, tags, link targets and attribute lists blanked."""
    text = _CODE_SPAN.sub(_blank, raw)
    for pattern, _ in _MASKED:
        text = pattern.sub(_blank, text)
    return text


def plain(raw: str) -> str:
    """What a reader reads of Markdown `raw`: code without its backticks, links as their text,
    no tags, emphasis marks or attribute lists; whitespace collapsed."""
    text = _CODE_SPAN.sub(lambda m: m.group("code"), raw)
    for pattern, seen in _MASKED:
        text = pattern.sub(seen, text)
    text = re.sub(r"\*+", "", text).replace("[", "").replace("]", "")
    return normalise(text)


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _unmarked(line: str) -> str:
    """`line` with its marker (list bullet, heading hashes, quote, admonition kind) blanked:
    markers are not prose. _PREFIX matches at the start of every line, if only emptily."""
    rest = _PREFIX.sub("", line)
    return " " * (len(line) - len(rest)) + rest


def _piece(path: Path, lines: list[tuple[int, str]]) -> Text:
    numbers = tuple(n for n, _ in lines)
    raw = "\n".join(line for _, line in lines)
    body = "\n".join(_unmarked(line) for _, line in lines)
    text = mask(body)
    if lines[0][1].lstrip().startswith("|"):
        cells = tuple(plain(cell) for cell in body.split("|"))
        return Text(path, numbers, raw, text, tuple(c for c in cells if c))
    said = plain(body)
    if re.match(r"^\s*(?:!!!|\?\?\?)", lines[0][1]):  # an admonition's title, without quotes
        said = said.strip('"')
    return Text(path, numbers, raw, text, (said,))


def body(page: Page) -> list[Text]:
    """The prose of the page's body, piece by piece, outside fenced code and HTML comments."""
    pieces: list[Text] = []
    current: list[tuple[int, str]] = []
    until: re.Pattern[str] | None = None  # what ends the fenced code or comment we are in

    def close() -> None:
        if current:
            pieces.append(_piece(page.path, current))
            current.clear()

    for offset, line in enumerate(page.body.split("\n")):
        number = page.body_line + offset
        if until is not None:
            if until.search(line):
                until = None
            continue
        if match := _FENCE.match(line):
            close()
            until = closing_fence(match.group("fence"))
            continue
        stripped = line.strip()
        if stripped.startswith(_HTML_COMMENT_OPEN) and _HTML_COMMENT_CLOSE not in stripped:
            close()
            until = _COMMENT_END
            continue
        if not stripped:
            close()
            continue
        if _STARTS.match(line) or (current and _ONE_LINE.match(current[-1][1])):
            close()
        current.append((number, line))
    close()
    return pieces


def front_matter(page: Page, keys: tuple[str, ...]) -> list[Text]:
    """The strings under `keys` of the page's front matter (lists and mappings walked), each
    with its line in the page: the build renders them as prose (title, goals, FAQ…)."""
    root = page.front_nodes
    if root is None:
        return []  # none, or the page's parse reports it
    found = []
    for key, value in root.value:
        if isinstance(key, yaml.ScalarNode) and key.value in keys:
            for node in _scalars(value):
                line = node.start_mark.line + 2  # the opening «---» is line 1
                found.append(
                    Text(page.path, (line,), node.value, mask(node.value), (plain(node.value),))
                )
    return found


def _scalars(node: yaml.Node) -> Iterator[yaml.ScalarNode]:
    if isinstance(node, yaml.ScalarNode):
        if node.tag == "tag:yaml.org,2002:str" and node.value.strip():
            yield node
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            yield from _scalars(item)
    elif isinstance(node, yaml.MappingNode):
        for _, value in node.value:
            yield from _scalars(value)


def comments(block: Block) -> list[Text]:
    """The comments of a block's code as shown on the page, each with its line in the file
    that holds the code (the snippet, or the page for inline code)."""
    found = []
    for offset, raw in _comment_tokens(block.code):
        line = block.origin_line + offset
        body_text = " " + raw[1:]  # the «#» is not prose
        found.append(
            Text(block.origin, (line,), raw, mask(body_text), (plain(body_text),), comment=True)
        )
    return found


@lru_cache(maxsize=4096)
def _comment_tokens(code: str) -> tuple[tuple[int, str], ...]:
    """Each comment of `code` with its line (0 for the first): every lint and build reads the
    same blocks again, and tokenizing them was most of the time the prose checks took."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError):
        return ()  # the block's run reports broken code
    return tuple((t.start[0] - 1, t.string) for t in tokens if t.type == tokenize.COMMENT)
