# The docs as a site generator that runs nothing builds them: everything the build adds, written.
"""A docs tree with everything the build adds already in its Markdown.

For a site generator that has no hooks (Zensical): each page with its executed fences replaced by
their code and verified output (output/blocks.py), its article parts, banner and home-page list
(output/page_parts.py), the verification page, each notebook (.ipynb) and a page that shows it, and
`verificacion.json`. The same functions render the MkDocs site through its hook: nothing here
renders a panel, a part or a banner of its own. Static files of the docs are copied as they are.

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

from docverify.output import (
    blocks,
    glossary_page,
    notebook_links,
    page_parts,
    render,
    verification_page,
)
from docverify.parsing.pages import Page
from docverify.site import navigation
from docverify.site.result import BuildResult

JSON_NAME = "verificacion.json"


@dataclass
class Tree:
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


def build(result: BuildResult, docs_dir: Path, directory_urls: bool = True) -> Tree:
    """The generated docs of `result`, built from the pages and files under `docs_dir`."""
    tree = Tree()
    notebook_pages: dict[str, page_parts.NotebookFile] = {}
    for article, (uri, text) in result.notebooks.items():
        rel = posixpath.join(uri.removesuffix(".ipynb"), "index.md")
        url = page_url(rel, directory_urls)
        notebook_pages[article] = page_parts.NotebookFile(url, _dest(url))
        tree.texts[posixpath.join(posixpath.dirname(rel), posixpath.basename(uri))] = text
        tree.texts[rel] = notebook_source(result, article, rel, directory_urls)
    for path in sorted(p for p in docs_dir.rglob("*") if p.is_file()):
        rel = path.relative_to(docs_dir).as_posix()
        if rel == navigation.GLOSSARY_DATA:
            continue  # read by the engine, never published: its page is generated below
        if path.suffix != ".md":
            tree.copies[rel] = path
            continue
        text = path.read_text(encoding="utf-8")
        tree.texts[rel] = page_source(result, rel, text, notebook_pages.get(rel))
    if verification_page.URI not in tree.texts:
        tree.texts[verification_page.URI] = page_parts.page_markdown(
            result, verification_page.URI, result.verification_text, verification_page.URI, None
        )
    if result.glossary_text and glossary_page.URI not in tree.texts:
        tree.texts[glossary_page.URI] = page_parts.page_markdown(
            result, glossary_page.URI, result.glossary_text, glossary_page.URI, None
        )
    tree.texts[JSON_NAME] = result.verification_json()
    return tree


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
    result: BuildResult, rel: str, text: str, notebook: page_parts.NotebookFile | None
) -> str:
    """Page `rel` (its source `text`) as the site shows it: front matter kept, each executed
    fence replaced by its code and verified output, then the parts page_parts adds (its links
    relative to the source file: page_parts takes `rel` for the page's URL)."""
    page = result.pages.get(rel)
    lines = text.split("\n")
    front: list[str] = []
    if page is not None:
        front, lines = lines[: page.body_line - 1], _with_blocks(result, page, lines)
        lines = lines[page.body_line - 1 :]
        if updates := page_parts.description_meta(result, rel):  # as the MkDocs hook sets it
            meta = json.loads(json.dumps({**page.meta, **updates}, default=str))
            dumped = yaml.safe_dump(meta, allow_unicode=True, sort_keys=False, width=10_000)
            front = ["---", *dumped.rstrip("\n").split("\n"), "---"]
    body = page_parts.page_markdown(result, rel, "\n".join(lines), rel, notebook)
    return "\n".join(front) + ("\n" if front else "") + body


def _with_blocks(result: BuildResult, page: Page, lines: list[str]) -> list[str]:
    """The page's lines with each executed fence replaced by what blocks.markdown shows, at
    the fence's indentation (inside an admonition or a tab too)."""
    out = list(lines)
    for block in sorted(page.blocks, key=lambda b: b.fence_line, reverse=True):
        start, end = block.fence_line - 1, min(block.fence_end, len(lines)) - 1
        opening = out[start]
        indent = opening[: len(opening) - len(opening.lstrip())]
        shown = blocks.shown_block(
            result, page.rel, block.id, block.code, **blocks.options_of(block.options)
        )
        replaced = [indent + line if line.strip() else "" for line in _lines(shown)]
        out[start : end + 1] = replaced
    return out


def _lines(shown: blocks.ShownBlock) -> list[str]:
    return blocks.markdown(shown).rstrip("\n").split("\n")


def notebook_source(
    result: BuildResult, article: str, rel: str, directory_urls: bool = True
) -> str:
    """The page `rel` that shows the notebook of `article`: download and back links, then its
    cells: Markdown as it is (its links made relative to this page), code and verified outputs
    as fences. Out of search, like the notebook pages of the MkDocs site."""
    uri, text = result.notebooks[article]
    title = str(result.pages[article].meta.get("title", article))
    front = yaml.safe_dump(notebook_links.page_meta(title), allow_unicode=True, sort_keys=False)
    back = page_parts.relative(page_url(article, directory_urls), rel)
    parts = [notebook_links.links(posixpath.basename(uri), back, title)]
    for cell in json.loads(text)["cells"]:
        source = _text(cell.get("source", ""))
        if cell["cell_type"] == "markdown":
            parts.append(notebook_links.relink_markdown(source, article, rel))
            continue
        parts.append(render.fence(source, "python"))
        parts += [render.fence(shown) for out in cell.get("outputs", []) if (shown := _output(out))]
    # One block around the cells: the site's CSS fits their tables to a phone (.dv-notebook).
    cells = "\n\n".join(parts[1:])
    return (
        f"---\n{front}---\n\n{parts[0]}\n\n"
        f'<div class="dv-notebook" markdown>\n\n{cells}\n\n</div>\n'
    )


def _text(value: str | list[str]) -> str:
    return value if isinstance(value, str) else "".join(value)


def _output(output: dict[str, object]) -> str:
    """What Jupyter prints for one output of a code cell."""
    if output.get("output_type") == "stream":
        return _text(output.get("text", "")).rstrip("\n")  # type: ignore[arg-type]
    if output.get("output_type") == "error":
        return "\n".join(output.get("traceback", []))  # type: ignore[arg-type]
    data = output.get("data") or {}
    return _text(data.get("text/plain", "")).rstrip("\n")  # type: ignore[union-attr]


def write(tree: Tree, dest: Path) -> int:
    """Write `tree` into the folder `dest`: only the files that changed (a serving generator
    rebuilds what changed), and every other file under `dest` removed. Returns how many files
    were written or removed."""
    changed = 0
    wanted = set(tree.texts) | set(tree.copies)
    if dest.is_dir():
        for path in sorted(dest.rglob("*"), reverse=True):
            rel = path.relative_to(dest).as_posix()
            if path.is_file() and rel not in wanted:
                path.unlink()
                changed += 1
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()
    for rel, text in tree.texts.items():
        changed += put(dest / rel, text.encode("utf-8"))
    for rel, source in tree.copies.items():
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
