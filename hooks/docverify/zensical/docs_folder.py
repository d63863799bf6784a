# The docs folder Zensical builds: every page already rendered by the engine, static files copied.
"""The docs folder of a generator that has no hooks (Zensical): rendered pages, copied files.

Each page is what output/page.py renders for every generator (the MkDocs adapter returns the
same Markdown from on_page_markdown), written with its front matter; then the verification page,
the glossary, each notebook (.ipynb) and the page that shows it (output/notebook_page.py), and
`verificacion.json`. Static files of the docs are copied as they are. Nothing here renders a
panel, a part or a banner of its own; `finish_pages` does to the built HTML what the MkDocs
adapter does in on_page_content.

Links are written relative to the page's source file, as Markdown links are (`../b.md`, and the
same for the raw HTML links the build adds): such a generator maps every relative link of a page
to its URLs itself (Zensical does, for `use_directory_urls` too). A notebook's page is
`cuadernos/<name>/index.md` with its .ipynb beside it: the URLs mkdocs-jupyter gives them.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from docverify.output import glossary_page, notebook_page, page, page_parts, verification_page
from docverify.site import navigation
from docverify.site.result import BuildResult

JSON_NAME = "verificacion.json"


@dataclass
class Folder:
    """A docs folder to write: generated texts, and files copied as they are (docs-relative)."""

    texts: dict[str, str] = field(default_factory=dict)
    copies: dict[str, Path] = field(default_factory=dict)


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


def build(result: BuildResult, docs_dir: Path, directory_urls: bool = True) -> Folder:
    """The docs folder of `result`, from the pages and files under `docs_dir`."""
    folder = Folder()
    notebooks: dict[str, page_parts.NotebookFile] = {}
    for article, (uri, text) in result.notebooks.items():
        rel = posixpath.join(uri.removesuffix(".ipynb"), "index.md")
        url = page_url(rel, directory_urls)
        notebooks[article] = page_parts.NotebookFile(url, _dest(url))
        folder.texts[posixpath.join(posixpath.dirname(rel), posixpath.basename(uri))] = text
        article_url = page_url(article, directory_urls)
        folder.texts[rel] = notebook_page.markdown(result, article, rel, article_url)
    for path in sorted(p for p in docs_dir.rglob("*") if p.is_file()):
        rel = path.relative_to(docs_dir).as_posix()
        if rel == navigation.GLOSSARY_DATA:
            continue  # read by the engine, never published: its page is generated below
        if path.suffix != ".md":
            folder.copies[rel] = path
            continue
        folder.texts[rel] = page_source(result, rel, path, notebooks.get(rel))
    generated = {verification_page.URI: result.verification_text}
    if result.glossary_text:
        generated[glossary_page.URI] = result.glossary_text
    for uri, text in generated.items():
        if uri not in folder.texts:
            folder.texts[uri] = page.render(result, uri, page.Links(uri), text)
    folder.texts[JSON_NAME] = result.verification_json()
    return folder


# The article's content in the page a Material-like theme writes: what the MkDocs hook gets in
# on_page_content, so what finish_pages adds goes exactly where it goes on the MkDocs site.
_CONTENT = re.compile(
    r'(<article class="md-content__inner md-typeset">)(.*?)(</article>)', re.DOTALL
)


def finish_pages(result: BuildResult, site_dir: Path, directory_urls: bool = True) -> None:
    """Rewrite each built Markdown page's content as the MkDocs hook does while rendering
    (page_parts.content_html: an article's glossary links, lighter highlighting): a generator
    without hooks leaves that to the build that follows it."""
    glossary_url = page_url(glossary_page.URI, directory_urls) if result.glossary_text else None
    for rel in result.pages:
        url = page_url(rel, directory_urls)
        path = site_dir / _dest(url)
        if not path.is_file():
            continue
        raw = path.read_text(encoding="utf-8")
        found = _CONTENT.search(raw)
        if found is None:
            continue
        content = page_parts.content_html(result, rel, found.group(2), glossary_url, url)
        finished = raw[: found.start(2)] + content + raw[found.end(2) :]
        if finished != raw:
            path.write_text(finished, encoding="utf-8")


def page_source(
    result: BuildResult, rel: str, path: Path, notebook: page_parts.NotebookFile | None
) -> str:
    """Page `rel` as the site shows it (output/page.py), its links relative to its source file,
    after its front matter: as written, or with the description the MkDocs adapter sets."""
    parsed = result.pages.get(rel)
    links = page.Links(rel, notebook)
    if parsed is None:  # not parsed by the engine: its text as it is, with the build's parts
        return page.render(result, rel, links, path.read_text(encoding="utf-8"))
    front = parsed.head
    if updates := page_parts.description_meta(result, rel):  # as the MkDocs hook sets it
        meta = json.loads(json.dumps({**parsed.meta, **updates}, default=str))
        dumped = yaml.safe_dump(meta, allow_unicode=True, sort_keys=False, width=10_000)
        front = f"---\n{dumped}---\n"
    return front + page.render(result, rel, links)


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
