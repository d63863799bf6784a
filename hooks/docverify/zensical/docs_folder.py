# The docs folder Zensical builds: the site's one render written to disk, static files copied.
"""The docs folder of a generator that has no hooks (Zensical): the rendered site, on disk.

Everything in it is the site's one render (output/render.py), the same the MkDocs adapter maps
onto MkDocs: each page's Markdown after a front matter that holds the metadata the build sets
on it (over the author's, as MkDocs' `page.meta` gets it), and every generated file (the
verification page and `verificacion.json`, the glossary, each notebook, its .ipynb beside it).
Static files of the docs are copied as they are. Nothing here renders or decides anything:
`finish` hands each page Zensical built to the render's finishing step (what the MkDocs adapter
does in on_page_content) and gives Zensical's search index each page's search boost (what
Material reads from `page.meta`).

Links are written relative to the page's source file, as Markdown links are (`../b.md`, and the
same for the raw HTML links the build adds): such a generator maps every relative link of a page
to its URLs itself (Zensical does, for `use_directory_urls` too).
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from docverify import api


@dataclass
class Folder:
    """A docs folder to write: generated texts, and files copied as they are (docs-relative)."""

    texts: dict[str, str] = field(default_factory=dict)
    copies: dict[str, Path] = field(default_factory=dict)

    def where(self, path: str, directory_urls: bool) -> tuple[str, str] | None:
        """Where Zensical publishes docs file `path` of this folder: its URL and its file."""
        if path not in self.texts and path not in self.copies:
            return None
        url = page_url(path, directory_urls) if path.endswith(".md") else path
        return url, _dest(url)


def page_url(rel: str, directory_urls: bool = True) -> str:
    """The site-relative URL of the page at docs path `rel`."""
    stem = rel.removesuffix(".md")
    if not directory_urls:
        return stem + ".html"
    if stem == "index" or stem.endswith("/index"):
        return stem.removesuffix("index")
    return stem + "/"


def _dest(url: str) -> str:
    """The file a page URL is served from."""
    return url + "index.html" if url.endswith("/") or not url else url


def build(site: api.Site, docs_dir: Path, directory_urls: bool = True) -> Folder:
    """The docs folder of `site`, with the static files under `docs_dir`."""
    folder = Folder()
    for path in sorted(p for p in docs_dir.rglob("*") if p.is_file()):
        rel = path.relative_to(docs_dir).as_posix()
        if path.suffix != ".md" and rel not in api.UNPUBLISHED:
            folder.copies[rel] = path
    folder.texts.update(site.files)
    folder.texts.update(dict.fromkeys(site.pages, ""))  # each page is in the folder: linkable

    def where(path: str) -> tuple[str, str] | None:
        return folder.where(path, directory_urls)

    for rel in site.pages:
        shown = site.page(rel, api.Links(rel, where))
        folder.texts[rel] = site.front_matter(rel) + shown.markdown
    return folder


# The article's content in the page a Material-like theme writes: what the MkDocs hook gets in
# on_page_content, so what the finishing step adds goes exactly where it goes on the MkDocs site.
_CONTENT = re.compile(
    r'(<article class="md-content__inner md-typeset">)(.*?)(</article>)', re.DOTALL
)


def finish(site: api.Site, folder: Folder, site_dir: Path, directory_urls: bool = True) -> None:
    """What a generator with hooks does while it builds, done to what Zensical built: each
    page's content through the render's finishing step (api.Site.finish), and each page's
    search boost in Zensical's search index (output/search.py)."""

    def where(path: str) -> tuple[str, str] | None:
        return folder.where(path, directory_urls)

    boosts: dict[str, object] = {}
    for rel in site.pages:
        url = page_url(rel, directory_urls)
        searched = site.whole_meta(rel).get("search") or {}
        if (boost := searched.get("boost")) is not None:  # as Material reads it
            boosts[url] = boost
        path = site_dir / _dest(url)
        raw = path.read_text(encoding="utf-8") if path.is_file() else ""
        if (found := _CONTENT.search(raw)) is None:
            continue
        content = site.finish(rel, found.group(2), api.Links(url, where))
        finished = raw[: found.start(2)] + content + raw[found.end(2) :]
        if finished != raw:
            path.write_text(finished, encoding="utf-8")
    api.boost_zensical_index(site_dir / api.ZENSICAL_INDEX, boosts)


def write(folder: Folder, dest: Path) -> int:
    """Write `folder` into `dest`: only the files that changed (a serving generator
    rebuilds what changed), and every other file under `dest` removed. Returns how many files
    were written or removed."""
    changed = 0
    wanted = set(folder.texts) | set(folder.copies)
    if dest.is_dir():
        for path in sorted(dest.rglob("*"), reverse=True):
            rel = path.relative_to(dest).as_posix()
            if path.is_file() and rel not in wanted:
                path.unlink()
                changed += 1
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()
    for rel, text in folder.texts.items():
        changed += put(dest / rel, text.encode("utf-8"))
    for rel, source in folder.copies.items():
        changed += put(dest / rel, source.read_bytes())
    return changed


def put(path: Path, data: bytes) -> int:
    """Write `data` at `path` (atomically) unless it is there already; 1 when written."""
    if path.is_file() and path.read_bytes() == data:
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(handle, "wb") as out:
        out.write(data)
    Path(temp).replace(path)
    return 1
