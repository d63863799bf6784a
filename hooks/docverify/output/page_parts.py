# What the build adds around each page's text, looked up in one BuildResult.
"""What the build adds around a page's text, and to its metadata and its rendered HTML.

Everything is read from the build result (`site.result`): an article's header, notebook box and
footer; the home page's article list; the boxes of a page's failing sources; at the top of a
page with errors a banner that lists them with links to where each one is shown. Links are
relative to the page's URL. The blocks themselves are render.py's (and panel.py's); render.py
calls everything here, for every generator.
"""

from __future__ import annotations

import html
import posixpath
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from docverify.core.dates import spanish_date
from docverify.core.findings import Finding, Level
from docverify.output import (
    canary_output,
    coverage_text,
    credit,
    home,
    markup,
    notebook_links,
    search,
    verification_method,
    verification_page,
)
from docverify.site import anatomy
from docverify.site.result import BuildResult, source_anchor
from docverify.sources import freshness


@dataclass(frozen=True)
class NotebookFile:
    """Where the site generator publishes an article's notebook (site-relative URLs)."""

    url: str  # the notebook's page
    download: str  # the .ipynb


def page_markdown(
    result: BuildResult, rel: str, markdown: str, page_url: str, notebook: NotebookFile | None
) -> str:
    """Page `rel` as the site shows it: banner of errors, article parts, article list."""
    page = result.pages.get(rel)
    upcoming = canary_output.page_list(result.canary, page) if page is not None else ""
    quoted = credit.markdown(page) if page is not None else ""  # whatever else the page shows
    if page is not None and result.complete(rel):
        markdown = (
            anatomy.render_header(page)
            + quoted
            + (verification_method.article_line(result, rel) if page.blocks else "")
            + (notebook_box(result, rel, notebook, page_url) if notebook else "")
            + upcoming
            + markdown
            + anatomy.render_footer(
                page,
                [s.source for s in result.sources(rel)],
                # A reader needs a source's review-by date only when it is near or past.
                {
                    s.source: freshness.footer_note(s)
                    for s in result.sources(rel)
                    if s.status != "ok"
                },
            )
        )
    else:
        markdown = quoted + upcoming + markdown
    if page is not None:
        markdown += source_problems(result, rel)
    markdown = verification_method.fill(result, home.fill(result, rel, markdown))
    if coverage_text.MARKER_LINE.search(markdown):
        where_ran = coverage_text.home(result.coverage)
        markdown = coverage_text.MARKER_LINE.sub(lambda _: where_ran, markdown)
    if rel == verification_page.URI:
        return banner([(f, None) for f in result.errors], "en esta compilación") + markdown
    return banner(result.page_errors(rel), "en esta página") + markdown


def source_problems(result: BuildResult, rel: str) -> str:
    """A box per failing source of the page: its date, what is wrong, and the fix."""
    boxes = []
    for index, status in enumerate(result.sources(rel), 1):
        failures = [f for f in status.findings if f.level is Level.ERROR]
        if failures:
            source = status.source
            title = (
                f"Fuente «{source.reference}»: verificada el {spanish_date(source.verified)}, "
                f"revisar a más tardar el {spanish_date(status.review_by)}"
            )
            boxes.append(markup.problems_box(source_anchor(index), title, failures))
    return "".join(f"\n\n{box}" for box in boxes) + ("\n" if boxes else "")


def banner(found: list[tuple[Finding, str | None]], scope: str) -> str:
    """The list of a page's errors at its top, each linked to where the page shows it."""
    if not found:
        return ""
    count = len(found)
    title = f"{count} error{'es' if count != 1 else ''} de verificación {scope}"
    items = []
    for finding, anchor in found:
        text = html.escape(f"{finding.where}: [{finding.kind.label}] {finding.message}")
        text = f'<a href="#{anchor}">{text}</a>' if anchor else text
        items.append(f"<li>{text}<br>Cómo arreglarlo: {html.escape(finding.fix)}</li>")
    return (
        f'<div class="admonition failure dv-banner" role="alert">\n'
        f'<p class="admonition-title">{html.escape(title)}</p>\n'
        f"<ul>\n{''.join(items)}\n</ul>\n</div>\n\n"
    )


def notebook_box(result: BuildResult, rel: str, notebook: NotebookFile, page_url: str) -> str:
    """Under an article's header: links to its notebook's page and to the .ipynb file."""
    page = result.pages.get(rel)
    data = [(f.name, relative(f.rel, page_url)) for f in page.data_files] if page else []
    return notebook_links.article_box(
        relative(notebook.url, page_url), relative(notebook.download, page_url), data
    )


def notebook_page(
    article: str,
    title: str,
    uri: str,
    content: str,
    article_url: str,
    page_url: str,
    url_of: Callable[[str], str | None] = lambda _: None,
) -> str:
    """The HTML of the page a notebook plugin made of notebook `uri` (of `article`, titled
    `title`): download link, link back to its article, no foreign script, and the article's
    links pointing where they do on the article. `url_of(docs file)` is the site-relative URL
    the site generator gives that file (None: not in the site)."""

    def shown(path: str) -> str | None:
        url = url_of(path)
        return None if url is None else relative(url, page_url)

    content = notebook_links.relink_html(content, article, shown)
    return notebook_links.notebook_html(
        content, posixpath.basename(uri), relative(article_url, page_url), title
    )


def description_meta(result: BuildResult, rel: str) -> dict[str, Any]:
    """The page's `<meta name="description">` where it is not its `description` as written: a
    seed article's `editorial_description` (ours: its `description` is the seed's sentence,
    which the page still shows as its lead); on the page that tells where this version ran (it
    holds the marker coverage.MARKER), the author's description, then the build's sentence.
    {} for others."""
    page = result.pages.get(rel)
    if page is not None and (editorial := page.meta.get("editorial_description")):
        return {"description": str(editorial)}
    if page is None or result.coverage is None or not coverage_text.MARKER_LINE.search(page.body):
        return {}
    return {"description": with_sentence(page.meta.get("description"), result)}


def with_sentence(authored: object, result: BuildResult) -> str:
    """An author's description (the site's, or the home page's: free of claims about runners),
    then the build's sentence of where this version ran."""
    text = str(authored or "").strip()
    if result.coverage is None:
        return text
    return f"{text} {coverage_text.description(result.coverage)}".strip()


def search_meta(result: BuildResult, uri: str, meta: dict[str, Any]) -> dict[str, Any]:
    """What the page's meta needs for the site's search: an article ranks first for its own
    title, also when the home page shares its words (output/search.py)."""
    page = result.pages.get(uri)
    return search.article_meta(meta) if page is not None and anatomy.is_article(page) else {}


def relative(target_url: str, from_url: str) -> str:
    """A link from the page at `from_url` to `target_url` (both site-relative URLs)."""
    # The page's folder ("a/b/" → "a/b", "a/b.html" → "a"); "" at the site's root, which must not
    # become "/": posixpath.relpath would read it as the machine's root and answer with the
    # build's working folder. relpath never ends in "/": a folder's link gets its "/" back.
    rel = posixpath.relpath(target_url or ".", posixpath.dirname(from_url) or ".")
    return rel + "/" if target_url.endswith("/") else rel
