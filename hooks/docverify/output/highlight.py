"""Highlighted code with fewer elements, and the same picture.

Pygments wraps every token in a span; in a Python block most of them are names (`n`),
punctuation (`p`), operators (`o`, `ow`), whitespace (`w`). The theme draws names and `None`,
`True`, `False` (`kc`) in the code's own colour and has no rule for whitespace, and the site's
stylesheet gives operators and punctuation that colour too (docs/stylesheets/docverify.css), so
those spans change nothing a reader sees, yet each is an element the browser restyles every time
the theme's script touches the page while it starts (its palette, its copy buttons, its scroll
reads): on the longest article they were over half of the page's elements, and most of its
blocking time. `lighten` unwraps them inside `<code>` only, the characters untouched. The
browser tests check the premise on the built site, in both schemes: a span of each class drawn
exactly as the code around it (tests/browser, `test_unwrapped_tokens_look_like_the_code`).

A notebook page (mkdocs-jupyter's own Pygments sheet, under `.highlight-ipynb`) draws operators
and None/True/False in bold: there `lighten_notebook` unwraps names, whitespace and punctuation
(the site maps JupyterLab's punctuation colour to the code's own), inside each code cell's
`<pre>`, checked the same way; punctuation alone was two spans in five of a notebook page.
"""

from __future__ import annotations

import re
from functools import cache

# Token classes drawn in the code's own colour: name, None/True/False, operator, operator word,
# punctuation, whitespace.
PLAIN = ("n", "kc", "o", "ow", "p", "w")
NOTEBOOK_PLAIN = ("n", "p", "w")  # name, punctuation, whitespace
_CODE = re.compile(r"(<code\b[^>]*>)(.*?)(</code>)", re.DOTALL)
_NOTEBOOK_CODE = re.compile(
    r'(<div\b[^>]*\bclass="highlight-ipynb\b[^"]*"[^>]*>\s*<pre\b[^>]*>)(.*?)(</pre>)', re.DOTALL
)


def lighten(content: str) -> str:
    """`content` with each plain token's span inside `<code>` replaced by its text."""
    return _unwrap(content, _CODE, PLAIN)


def lighten_notebook(content: str) -> str:
    """A notebook page's `content` with each name's, punctuation's and whitespace's span inside
    a code cell replaced by its text."""
    return _unwrap(content, _NOTEBOOK_CODE, NOTEBOOK_PLAIN)


def _unwrap(content: str, code: re.Pattern[str], classes: tuple[str, ...]) -> str:
    if '<span class="' not in content:
        return content
    span = _span(classes)
    return code.sub(lambda m: m[1] + span.sub(r"\1", m[2]) + m[3], content)


@cache
def _span(classes: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r'<span class="(?:' + "|".join(classes) + r')">([^<]*)</span>')
