"""A page's Markdown as Jupyter renders it: admonitions become titles, seed notes <details>."""

from __future__ import annotations

import re

from docverify.site import anatomy

_ADMONITION = re.compile(
    r'^(?P<indent> *)(?P<marker>!!!|\?\?\?\+?) +(?P<kind>[\w-]+)[^"]*(?:"(?P<title>[^"]*)")?\s*$'
)


_ATTRS = re.compile(r"\s*\{:?\s*[.#][^}]*\}\s*$")


def notebook_markdown(lines: list[str]) -> list[str]:
    """The page's Markdown as Jupyter renders it, line for line (block positions stay valid).

    Jupyter knows no admonitions: a heading line becomes a bold title (a seed note, which holds no
    block, a collapsed <details>) and its content loses the admonition's indentation; attribute
    lists on headings go.
    """
    out: list[str] = []
    stack: list[tuple[int, str]] = []  # (indent of the header, closing text)
    for line in lines:
        if line.strip():
            depth = len(line) - len(line.lstrip())
            while stack and depth <= stack[-1][0]:
                closing = stack.pop()[1]
                if closing and out:  # on the line before, so every line keeps its place
                    out[-1] = f"{out[-1]}\n\n{closing}\n" if out[-1].strip() else f"\n{closing}\n"
        level = 4 * len(stack)
        text = line[level:] if line[:level].strip() == "" else line.lstrip()
        match = _ADMONITION.match(line)
        if match:
            title = match.group("title") or match.group("kind").capitalize()
            if match.group("kind") == anatomy.SEED_NOTE:
                text = f"<details><summary>{title}</summary>"
                stack.append((len(match.group("indent")), "</details>"))
            else:
                text = f"**{title}**"
                stack.append((len(match.group("indent")), ""))
        elif text.startswith("#"):
            text = _ATTRS.sub("", text)
        out.append(text)
    if stack and any(closing for _, closing in stack):
        out.append("".join(closing for _, closing in reversed(stack)))
    return out
