# The notebook pages' JupyterLab stylesheet, cut to the rules that can style them.
"""mkdocs-jupyter inlines JupyterLab's whole stylesheet (~575 KB) in every notebook page: its
toolbars, menus, dialogs, widgets (Blueprint's `bp3-`), editors (CodeMirror), for a page that
shows static cells. A reader downloads it with each notebook page, and the browser parses it and
matches it against every element, which made a notebook page cost twice an article to open.

`prune` keeps every rule that can match an element of the page. It drops a selector only when
the selector needs a class of JupyterLab's own (PREFIXES) that no element of the page has:
nothing adds such a class on these pages once they are built (they run none of JupyterLab's
scripts), so that selector can never match; nor can one that puts `:root` below another element
(mkdocs-jupyter prefixes every selector of the sheet with `.jupyter-wrapper`, `:root` included).
Classes inside :not(), :is(), :where(), :has() and attribute selectors are not counted as needed
(:not(.x) matches where .x is absent), nor is any other class; a selector with an escape is
kept. A rule keeps the selectors that may match, in their order; a rule left with none goes, as
does an @media or @supports block left empty. The other at-rules (@keyframes, @font-face…) stay
as they are, and a stylesheet it cannot read (a brace without its pair) is returned unchanged.
The browser tests compare every element's computed style with the whole stylesheet and with the
cut one, on the notebook page that uses the most of JupyterLab's classes (tests/browser).
"""

from __future__ import annotations

import re
from functools import lru_cache

PREFIXES = ("jp-", "lm-", "p-", "bp3-", "CodeMirror", "cm-")
NEVER = frozenset({" "})  # a class no page has: the selector is dropped
_STYLE = re.compile(r"(<style\b[^>]*>)(.*?)(</style>)", re.DOTALL)
_CLASS_ATTR = re.compile(r'\bclass="([^"]*)"')
_CLASS = re.compile(r"\.(-?[A-Za-z_][\w-]*)")
_GROUP = re.compile(r":{1,2}[\w-]+\(|\[")  # :not( :is( ::part( … and [attr…]
_PRELUDE_END = re.compile(r"[{;\"'/]")
_COMBINATOR = re.compile(r"\s*[>+~]\s*|\s+")
_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
_NESTED = ("@media", "@supports")
_JUPYTERLAB = ".jupyter-wrapper"  # every rule of JupyterLab's sheet starts with it


def prune(html: str) -> str:
    """`html` (a notebook page's content) with JupyterLab's stylesheet cut to the rules that can
    match one of its elements; other stylesheets untouched."""
    present = {c for value in _CLASS_ATTR.findall(html) for c in value.split()}

    def cut(match: re.Match[str]) -> str:
        css = match[2]
        if css.count(_JUPYTERLAB) < 100:  # not JupyterLab's whole sheet
            return match[0]
        try:
            statements = _parse(css)
        except ValueError:
            return match[0]
        return match[1] + _render(statements, present) + match[3]

    return _STYLE.sub(cut, html)


class _Unreadable(ValueError):
    """A brace, string or comment that does not close: `prune` keeps the sheet whole (no
    message: nothing shows it)."""


# A statement: text kept as it is, a style rule (its selectors, each with the classes it
# needs, and its declarations) or an @media/@supports block (its prelude and statements).
Statement = tuple[str, object, object]


@lru_cache(maxsize=4)
def _parse(css: str) -> tuple[Statement, ...]:
    """The statements of `css` (every notebook page of a build has the same sheet: read once);
    ValueError where braces, strings or comments do not close."""
    out: list[Statement] = []
    at = 0
    while at < len(css):
        stop = _skip(css, at, _PRELUDE_END)
        if stop < 0:
            if _COMMENT.sub("", css[at:]).strip():
                raise _Unreadable  # a declaration without its end
            out.append(("text", css[at:], None))  # the whitespace (and comments) at the end
            break
        prelude = css[at:stop]
        if css[stop] == ";":  # @charset "UTF-8"; @import…
            out.append(("text", css[at : stop + 1], None))
            at = stop + 1
            continue
        end = _closing(css, stop)
        body = css[stop + 1 : end]
        head = prelude.strip()
        if head.startswith(_NESTED):
            out.append(("nested", prelude, _parse(body)))
        elif head.startswith("@"):
            out.append(("text", css[at : end + 1], None))
        else:
            selectors = tuple((s, _needed(s)) for s in _split(prelude))
            out.append(("rule", selectors, body))
        at = end + 1
    return tuple(out)


def _render(statements: tuple[Statement, ...], present: set[str]) -> str:
    out: list[str] = []
    for kind, first, second in statements:
        if kind == "text":
            out.append(str(first))
        elif kind == "nested":
            inner = _render(second, present)  # type: ignore[arg-type]
            if inner.strip():
                out.append(f"{first}{{{inner}}}")
        else:
            kept = [s for s, needed in first if needed <= present]  # type: ignore[attr-defined]
            if kept:
                out.append(f"{','.join(kept)}{{{second}}}")
    return "".join(out)


def _needed(selector: str) -> frozenset[str]:
    """The classes of JupyterLab's own that an element must have for `selector` to match;
    NEVER for a selector that matches nothing on any page."""
    if "\\" in selector:
        return frozenset()
    plain = _without_groups(_COMMENT.sub("", selector)).strip()
    # `.jupyter-wrapper :root`: the prefix mkdocs-jupyter puts before each selector of the sheet
    # leaves the root element below another one, where it never is.
    if any(":root" in compound for compound in _COMBINATOR.split(plain)[1:]):
        return NEVER
    return frozenset(c for c in _CLASS.findall(plain) if c.startswith(PREFIXES))


def _without_groups(selector: str) -> str:
    """`selector` without the insides of its functional pseudo-classes and attribute tests."""
    out: list[str] = []
    at = 0
    while at < len(selector):
        match = _GROUP.search(selector, at)
        if match is None:
            out.append(selector[at:])
            break
        start = match.end() - 1
        out.append(selector[at:start])
        close = ")" if selector[start] == "(" else "]"
        at = _closing(selector, start, selector[start], close) + 1
    return "".join(out)


def _split(prelude: str) -> list[str]:
    """A selector list's selectors: commas outside parentheses, brackets and strings."""
    parts, depth, start, quote = [], 0, 0, ""
    for i, char in enumerate(prelude):
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(prelude[start:i])
            start = i + 1
    parts.append(prelude[start:])
    return parts


def _skip(text: str, at: int, wanted: re.Pattern[str]) -> int:
    """Where the next character `wanted` matches is, from `at`, jumping over strings and
    comments; -1: nowhere."""
    while True:
        match = wanted.search(text, at)
        if match is None:
            return -1
        i = match.start()
        if text[i] in "\"'":
            at = _string_end(text, i) + 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise _Unreadable  # a comment without its end
            at = end + 2
        elif text[i] == "/":
            at = i + 1
        else:
            return i


def _closing(text: str, start: int, open_: str = "{", close: str = "}") -> int:
    """Where the `close` that pairs with the `open_` at `start` is; ValueError: nowhere."""
    wanted = re.compile("[" + re.escape(open_ + close) + "\"'/]")
    depth, at = 0, start
    while True:
        i = _skip(text, at, wanted)
        if i < 0:
            raise _Unreadable  # `open_` without its `close`
        depth += 1 if text[i] == open_ else -1
        if depth == 0:
            return i
        at = i + 1


def _string_end(text: str, start: int) -> int:
    quote, i = text[start], start + 1
    while i < len(text) and text[i] != quote:
        i += 2 if text[i] == "\\" else 1
    if i >= len(text):
        raise _Unreadable  # a string without its end
    return i
