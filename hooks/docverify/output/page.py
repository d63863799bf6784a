"""One render of a page: the Markdown every site generator builds, panels included.

`render` turns page `rel` of a build, from the engine's one parse of it (its text and its
verified blocks), into the Markdown a generator converts: every executed fence replaced by its
code and its panel (blocks.py, panel.py), at the fence's indentation (inside an admonition or a
tab too), then what the build adds around the text (page_parts.py: an article's header and
footer, the banner of errors, the home page's list). The MkDocs adapter returns it from
on_page_markdown; the Zensical path writes it into the docs folder Zensical builds. No
generator parses an executed fence again, and nothing else renders a block.
"""

from __future__ import annotations

from dataclasses import dataclass

from docverify.output import blocks, page_parts
from docverify.parsing.pages import Page
from docverify.site.result import BuildResult


@dataclass(frozen=True)
class Links:
    """Where the generator puts the page and its notebook: the page's own links (to its
    notebook, to other pages) are written relative to `url`."""

    url: str  # the page's URL, site-relative (or its source path, for a generator that maps it)
    notebook: page_parts.NotebookFile | None = None  # where its article's notebook is published


def render(result: BuildResult, rel: str, links: Links, generated: str = "") -> str:
    """Page `rel` as the site shows it. A page the build generates (the verification page, the
    glossary) is not among the parsed pages: its Markdown is `generated`."""
    page = result.pages.get(rel)
    body = generated if page is None else with_blocks(result, page)
    return page_parts.page_markdown(result, rel, body, links.url, links.notebook)


def with_blocks(result: BuildResult, page: Page) -> str:
    """The page's body with each executed fence replaced by what blocks.markdown shows."""
    lines = page.body.split("\n")
    for block in sorted(page.blocks, key=lambda b: b.fence_line, reverse=True):
        outcome = result.verification.outcomes[block.key]
        start = block.fence_line - page.body_line
        end = min(block.fence_end - page.body_line, len(lines) - 1)
        opening = lines[start]
        indent = opening[: len(opening) - len(opening.lstrip())]
        shown = blocks.markdown(blocks.shown(outcome, result.canary)).rstrip("\n")
        lines[start : end + 1] = [
            indent + line if line.strip() else "" for line in shown.split("\n")
        ]
    return "\n".join(lines)
