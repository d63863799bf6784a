"""The page that shows an article's notebook, for a generator without a notebook plugin.

MkDocs publishes each generated .ipynb with mkdocs-jupyter; Zensical has no such plugin, so the
site's render (output/render.py) gives it this Markdown page beside the .ipynb instead: the
download and back links, then the cells, Markdown as it is (its links made relative to this
page) and code with its verified outputs as fences. Its metadata (out of search, like the
notebook pages of the MkDocs site) is render.py's, as every page's.
"""

from __future__ import annotations

import json
import posixpath

from docverify.output import markup, notebook_links, page_parts


def markdown(text: str, uri: str, article: str, title: str, rel: str, article_url: str) -> str:
    """The page `rel` that shows notebook `uri` (its JSON `text`) of `article`, titled
    `title` and published at `article_url`."""
    back = page_parts.relative(article_url, rel)
    parts = [notebook_links.links(posixpath.basename(uri), back, title)]
    for cell in json.loads(text)["cells"]:
        source = _text(cell.get("source", ""))
        if cell["cell_type"] == "markdown":
            parts.append(notebook_links.relink_markdown(source, article, rel))
            continue
        parts.append(markup.fence(source, "python"))
        parts += [markup.fence(shown) for out in cell.get("outputs", []) if (shown := _output(out))]
    # One block around the cells: the site's CSS fits their tables to a phone (.dv-notebook).
    cells = "\n\n".join(parts[1:])
    return f'{parts[0]}\n\n<div class="dv-notebook" markdown>\n\n{cells}\n\n</div>\n'


def _text(value: str | list[str]) -> str:
    return "".join(value)  # a string, or its lines as nbformat may store them


def _output(output: dict[str, object]) -> str:
    """What Jupyter prints for one output of a code cell."""
    if output.get("output_type") == "stream":
        return _text(output.get("text", "")).rstrip("\n")  # type: ignore[arg-type]
    if output.get("output_type") == "error":
        return "\n".join(output.get("traceback", []))  # type: ignore[arg-type]
    data = output.get("data") or {}
    return _text(data.get("text/plain", "")).rstrip("\n")  # type: ignore[union-attr]
