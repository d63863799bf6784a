# Where a page becomes what the generator builds: the one render of the site, for every generator.
"""One render of the site for every generator: a build's result in, its pages and files out.

`site(result)` is the one function. From the build's result (site/result.py, frozen) it makes
every file the build adds to the docs (`Site.files`: the verification page and its JSON, the
glossary page, each article's notebook), and the site's pages (`Site.pages`: the parsed ones,
the generated ones and the notebooks' pages). `Site.page` gives each page as the generator
converts it: its Markdown, every executed fence replaced by its code and its panel (blocks.py,
panel.py) at the fence's indentation (inside an admonition or a tab too) with what the build
adds around the text (page_parts.py), and the metadata the build sets on it (`Site.meta`: an
article's search boost, a description that says where this version ran, a notebook page's
description and its exclusion from search; `Site.whole_meta`, with the front matter under it;
`Site.front_matter`, as YAML for a generator that reads it from the page's file). `Site.finish`
is the one step on the HTML the generator made of a page: an article's glossary links, lighter
highlighting, a notebook page's links.

The MkDocs adapter maps these onto MkDocs' files, `page.meta` and content; the Zensical path
(zensical/docs_folder.py) writes them to disk and finishes the pages Zensical built. Where a
file is published is the generator's to say (`Links`). No generator parses an executed fence,
sets a page's metadata or lists the generated files itself.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import yaml

from docverify.core.kinds import Kind
from docverify.output import (
    blocks,
    glossary_links,
    glossary_page,
    highlight,
    notebook_links,
    notebook_page,
    notebooks,
    page_parts,
    verification_page,
)
from docverify.parsing.pages import Page, included_snippet
from docverify.site import anatomy, navigation
from docverify.site.result import BuildResult

JSON_NAME = "verificacion.json"  # this build's verification, in the site beside its pages
# Read by the engine, never published: the glossary's data file (its page is generated).
UNPUBLISHED = (navigation.GLOSSARY_DATA,)


def _nowhere(_: str) -> tuple[str, str] | None:
    return None


@dataclass(frozen=True)
class Links:
    """Where the generator publishes the site, seen from one page."""

    # The page's links are written relative to this: its URL, site-relative (or its source
    # path, for a generator that maps each relative link to its URL itself).
    url: str
    # A docs file → its URL and the file it is served from, site-relative (None: unpublished).
    where: Callable[[str], tuple[str, str] | None] = _nowhere

    def url_of(self, path: str) -> str | None:
        found = self.where(path)
        return found[0] if found else None


@dataclass(frozen=True)
class Shown:
    """A page as its generator converts it."""

    markdown: str
    meta: dict[str, Any]  # what the build sets in the page's metadata, over its front matter


@dataclass(frozen=True)
class Notebook:
    """An article's notebook in the site."""

    article: str  # the article it is made from (docs-relative)
    path: str  # the .ipynb (docs-relative)
    page: str  # the page that shows it: the .ipynb itself (a notebook plugin), or a Markdown page


def _without_missing_snippets(parsed: Page, lines: list[str]) -> list[str]:
    """`lines` (the page's body) with a comment in place of the `--8<--` line of each fence
    whose snippet is missing: a finding already says so, and the generator's snippets
    extension would stop the whole build there (`mkdocs serve` too), with a traceback and
    before any page could show its errors."""
    for finding in parsed.findings:
        if finding.kind is not Kind.MISSING_SNIPPET:
            continue
        for index in range(max(finding.line - parsed.body_line + 1, 0), len(lines)):
            if (name := included_snippet(lines[index])) is not None:
                indent = lines[index][: len(lines[index]) - len(lines[index].lstrip())]
                lines[index] = f"{indent}# falta el snippet «{name}» (ver el error de la página)"
                break
    return lines


@dataclass(frozen=True)
class Site:
    """The site of one build: every page and generated file, rendered from its result."""

    result: BuildResult
    files: Mapping[str, str]  # every file the build adds to the docs: docs path → text
    pages: tuple[str, ...]  # every page, docs paths: parsed, generated, notebooks' pages
    notebooks: Mapping[str, Notebook]  # by the page that shows each

    def page(self, rel: str, links: Links, text: str = "") -> Shown:
        """Page `rel` as its generator converts it. `text`: what the generator read of a page
        the engine did not parse (the generated ones are in `files`)."""
        result, parsed = self.result, self.result.pages.get(rel)
        if (notebook := self.notebooks.get(rel)) is not None:
            return Shown(self._notebook_markdown(notebook, links, text), self.meta(rel))
        body = text or self.files.get(rel, "")
        if parsed is not None:  # each executed fence: its code and its panel, at its indentation
            lines = _without_missing_snippets(parsed, parsed.body.split("\n"))
            for block in sorted(parsed.blocks, key=lambda b: b.fence_line, reverse=True):
                outcome = result.verification.outcomes[block.key]
                start = block.fence_line - parsed.body_line
                end = min(block.fence_end - parsed.body_line, len(lines) - 1)
                indent = lines[start][: len(lines[start]) - len(lines[start].lstrip())]
                shown = blocks.markdown(blocks.shown(outcome, result.canary)).rstrip("\n")
                lines[start : end + 1] = [
                    indent + line if line.strip() else "" for line in shown.split("\n")
                ]
            body = "\n".join(lines)
        markdown = page_parts.page_markdown(
            result, rel, body, links.url, self._notebook_file(rel, links)
        )
        return Shown(markdown, self.meta(rel))

    def meta(self, rel: str) -> dict[str, Any]:
        """What the build sets in page `rel`'s metadata, over its front matter ({}: nothing)."""
        if (notebook := self.notebooks.get(rel)) is not None:
            return notebook_links.page_meta(self._title(notebook))
        if (parsed := self.result.pages.get(rel)) is None:
            return {}
        return {
            **page_parts.search_meta(self.result, rel, parsed.meta),
            **page_parts.description_meta(self.result, rel),
        }

    def whole_meta(self, rel: str, meta: dict[str, Any] | None = None) -> dict[str, Any]:
        """Page `rel`'s whole metadata, as MkDocs' `page.meta` holds it: its front matter with
        `meta` (by default `meta(rel)`) over it (dates as text, as a generator hands them to
        its theme)."""
        parsed = self.result.pages.get(rel)
        built = self.meta(rel) if meta is None else meta
        merged = {**(parsed.meta if parsed is not None else {}), **built}
        return json.loads(json.dumps(merged, default=str))

    def front_matter(self, rel: str) -> str:
        """Page `rel`'s front matter for a generator that reads it from the page's file (one
        without a hook to set `page.meta`): the author's as written, or, where the build sets
        metadata (`meta`), the whole metadata (`whole_meta`) as YAML."""
        if not (meta := self.meta(rel)):
            parsed = self.result.pages.get(rel)
            return parsed.head if parsed is not None else ""
        dumped = yaml.safe_dump(
            self.whole_meta(rel, meta), allow_unicode=True, sort_keys=False, width=10_000
        )
        return f"---\n{dumped}---\n"

    def finish(self, rel: str, html: str, links: Links) -> str:
        """The HTML the generator made of page `rel` (whose URL is `links.url`) as the site
        serves it: a notebook plugin's page with its links and without foreign scripts
        (page_parts.notebook_page); any other with, in an article, the first use of each
        glossary term linked to the glossary page (when the site has one), and highlighted code
        with fewer elements (output/highlight.py)."""
        notebook = self.notebooks.get(rel)
        if notebook is not None and notebook.page == notebook.path:
            return page_parts.notebook_page(
                notebook.article,
                self._title(notebook),
                notebook.path,
                html,
                links.url_of(notebook.article) or "",
                links.url,
                links.url_of,
            )
        page = self.result.pages.get(rel)
        glossary_url = links.url_of(glossary_page.URI)
        if page is not None and anatomy.is_article(page) and glossary_url is not None:
            html = glossary_links.link_first_uses(
                html, self.result.glossary, page_parts.relative(glossary_url, links.url)
            )
        return highlight.lighten(html)

    def description(self, authored: object) -> str:
        """The site's description: the author's, then where this version ran."""
        return page_parts.with_sentence(authored, self.result)

    def _notebook_markdown(self, notebook: Notebook, links: Links, text: str) -> str:
        """A notebook plugin's page: what the generator read; else our page of its cells."""
        if notebook.page == notebook.path:
            return text or self.files[notebook.path]
        return notebook_page.markdown(
            self.files[notebook.path],
            notebook.path,
            notebook.article,
            self._title(notebook),
            notebook.page,
            links.url_of(notebook.article) or notebook.article,
        )

    def _title(self, notebook: Notebook) -> str:
        return str(self.result.pages[notebook.article].meta.get("title", notebook.article))

    def _notebook_file(self, rel: str, links: Links) -> page_parts.NotebookFile | None:
        """Where the notebook of article `rel` is published: its page, and its .ipynb beside
        the page's file (where mkdocs-jupyter copies it, and where Zensical's is written)."""
        notebook = next((n for n in self.notebooks.values() if n.article == rel), None)
        found = links.where(notebook.page) if notebook else None
        if notebook is None or found is None:
            return None
        url, dest = found
        download = posixpath.join(posixpath.dirname(dest), posixpath.basename(notebook.path))
        return page_parts.NotebookFile(url, download)


def site(result: BuildResult, *, notebook_pages: bool = False) -> Site:
    """The site of `result`: its generated files and its pages. `notebook_pages`: the generator
    has no notebook plugin, so each notebook is shown by a Markdown page of ours
    (output/notebook_page.py, `cuadernos/<name>/index.md` with its .ipynb beside it: the URLs
    mkdocs-jupyter gives them); with a plugin, the .ipynb is the page (`cuadernos/<name>.ipynb`)."""
    files = {
        verification_page.URI: verification_page.render(
            result.config,
            list(result.pages.values()),
            result.verification,
            result.fresh,
            result.coverage,
            result.nav,
        )
    }
    if result.glossary is not None:
        files[glossary_page.URI] = glossary_page.render(result.glossary)
    shown: dict[str, Notebook] = {}
    for article in result.articles():
        if article.blocks:
            notebook = _notebook(article, notebook_pages)
            files[notebook.path] = _notebook_text(result, article)
            shown[notebook.page] = notebook
    files[JSON_NAME] = verification_json(result)
    generated = [rel for rel in files if rel.endswith(".md") and rel not in result.pages]
    pages = (*result.pages, *generated, *shown)
    return Site(result, files, pages, shown)


def _notebook(article: Page, own_page: bool) -> Notebook:
    path = notebooks.notebook_path(article)
    if not own_page:
        return Notebook(article.rel, path, path)
    folder = path.removesuffix(".ipynb")
    return Notebook(
        article.rel,
        posixpath.join(folder, posixpath.basename(path)),
        posixpath.join(folder, "index.md"),
    )


def _notebook_text(result: BuildResult, article: Page) -> str:
    """The article's notebook (notebooks.py), with the sources the build judged."""
    notebook = notebooks.build(
        result.config,
        article,
        result.verification,
        result.today,
        sources=[s.source for s in result.sources(article.rel)],
        coverage=result.coverage,
    )
    return notebooks.dumps(notebook)


def verification_json(result: BuildResult) -> str:
    """`verificacion.json` of the published site: runner, environment, executed blocks."""
    verification = result.verification
    executed = [k for k, o in verification.outcomes.items() if o.result is not None]
    summary: dict[str, object] = {
        "runner": verification.runner,
        "env": verification.env,
        "executed": executed,
    }
    if (origin := verification.origin) is not None:  # executed by the verification job
        summary["observed_in"] = {
            "run_url": origin.run_url,
            "date": origin.date,
            "reports": list(origin.reports),
        }
    if result.coverage is not None:
        summary["coverage"] = result.coverage.data()
    return json.dumps(summary, ensure_ascii=False, indent=2)
