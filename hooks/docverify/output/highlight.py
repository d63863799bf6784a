"""Highlighted code with fewer elements, and the same picture.

Pygments wraps every token in a span; in a Python block most of them are names (`n`) and
whitespace (`w`). The theme colours a name exactly as the code's own text
(`.highlight .n{color:var(--md-code-hl-name-color)}` with `--md-code-hl-name-color:
var(--md-code-fg-color)`, in both palettes) and has no rule for `w`, so those spans change
nothing a reader sees, yet every one is an element the browser restyles each time the theme's
script touches the page (its palette, its copy buttons, its scroll reads): on the longest article
they were a quarter of the page's elements. `lighten` unwraps them inside `<code>` only, the text
untouched. `theme_keeps_plain` is the premise, read from a theme's stylesheets; the tests check
it against the installed themes, so a theme that starts colouring names stops this (and fails).
"""

from __future__ import annotations

import re

# Token classes the theme draws as plain code text: a name, whitespace.
PLAIN = ("n", "w")
_CODE = re.compile(r"(<code\b[^>]*>)(.*?)(</code>)", re.DOTALL)
_PLAIN_SPAN = re.compile(r'<span class="(?:%s)">([^<]*)</span>' % "|".join(PLAIN))


def lighten(content: str) -> str:
    """`content` with each plain token's span inside `<code>` replaced by its text."""
    if '<span class="' not in content:
        return content
    return _CODE.sub(lambda m: m.group(1) + _PLAIN_SPAN.sub(r"\1", m.group(2)) + m.group(3), content)


_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_NAME_VAR = "--md-code-hl-name-color"


def theme_keeps_plain(css: str) -> list[str]:
    """What in `css` (a theme's stylesheets, concatenated) colours a plain token unlike the
    code's text: one line per rule or declaration; empty when `lighten` changes nothing seen."""
    problems = []
    for found in _RULE.finditer(css):
        selectors, body = found.group(1), found.group(2)
        for selector in selectors.split(","):
            for token in PLAIN:
                if re.search(rf"\.{token}(?![\w-])", selector) is None:
                    continue
                if token == "n" and selector.strip() == ".highlight .n":
                    declarations = [d.strip() for d in body.split(";") if d.strip()]
                    if declarations == [f"color:var({_NAME_VAR})"]:
                        continue
                problems.append(f"{selector.strip()} {{{body}}}")
        for declaration in body.split(";"):
            name, _, value = declaration.partition(":")
            if name.strip() == _NAME_VAR and value.strip() != "var(--md-code-fg-color)":
                problems.append(declaration.strip())
    return problems
