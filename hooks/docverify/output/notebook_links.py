"""A notebook's place in the site: the box under its article, its page's metadata and HTML."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from typing import Any

from docverify.output import highlight, notebook_css

# A script loaded from another host, or from src="" (the page itself, parsed as JavaScript).
_FOREIGN_SCRIPT = re.compile(
    r"""<script\b[^>]*\bsrc=(["'])(?:(?:https?:)?//[^"']*)?\1[^>]*>\s*</script>""", re.IGNORECASE
)


# The cell toolbar mkdocs-jupyter draws for tagged cells ("raises-exception").
_TAG_TOOLBAR = re.compile(
    r'<div class="celltoolbar">\s*(?:<div class="button_container tags_button_container">\s*'
    r'<span class="tag-container">\s*<span class="cell-tag">[^<]*</span>\s*</span>\s*</div>\s*)*'
    r"</div>"
)


def article_box(
    notebook_url: str, download_url: str, data: list[tuple[str, str]] | None = None
) -> str:
    """One line placed under an article's header: where to see and download its notebook, and
    the data files its code reads (`data`: each file's name and link), to keep beside it."""
    files = ""
    if data:
        links = ", ".join(f'<a href="{url}" download><code>{name}</code></a>' for name, url in data)
        files = f". Su código lee {links}: {_keep(len(data))} junto al cuaderno"
    return (
        '<p class="dv-notebook">Este artículo en un cuaderno de Jupyter, con su código y sus '
        f'salidas: <a href="{notebook_url}">ver el cuaderno</a> · '
        f'<a href="{download_url}" download>descargarlo (.ipynb)</a>{files}</p>\n\n'
    )


def _keep(count: int) -> str:
    return "descárgalo y guárdalo" if count == 1 else "descárgalos y guárdalos"


def data_note(data: list[tuple[str, str]]) -> str:
    """The notebook's own line on the data files its code reads (`data`: name and link)."""
    links = ", ".join(f"[`{name}`]({url})" for name, url in data)
    return f"> El código de este cuaderno lee {links}: {_keep(len(data))} junto al cuaderno."


def page_meta(title: str) -> dict[str, Any]:
    """Front matter of a notebook page: its own description, and out of search (it repeats
    the article, which search should find instead)."""
    return {
        "description": f"Cuaderno de Jupyter del artículo «{title}», con sus salidas verificadas.",
        "search": {"exclude": True},
    }


def notebook_html(content: str, download_name: str, article_url: str, title: str) -> str:
    """A notebook page's HTML as readers get it: links first, no script from another host.

    nbconvert's template always adds a MathJax <script src> (a public CDN, or "" when no URL is
    set, which loads the page itself as a script); these notebooks have no formulas, and the site
    loads nothing from other hosts.
    """
    content = _FOREIGN_SCRIPT.sub("", content)
    content = _TAG_TOOLBAR.sub("", content)  # cell tags are for Jupyter, not for readers
    # Lighter to download and to draw, the same picture: see highlight.py and notebook_css.py.
    content = notebook_css.prune(highlight.lighten_notebook(content))
    # Long code lines scroll inside their cell: keyboard users must be able to focus it.
    content = content.replace(
        '<div class="highlight-ipynb', '<div tabindex="0" class="highlight-ipynb'
    )
    # Code in a Markdown cell (nbconvert renders it as a plain <pre>) scrolls too.
    content = content.replace(
        '<div class="highlight"><pre>', '<div class="highlight"><pre tabindex="0">'
    )
    return links(download_name, article_url, title) + content


def links(download_name: str, article_url: str, title: str) -> str:
    """The first paragraph of a notebook page: download the .ipynb, back to the article."""
    return (
        f'<p class="dv-notebook-links"><a class="md-button md-button--primary" '
        f'href="{download_name}" download>Descargar el cuaderno (.ipynb)</a> '
        f'<a class="md-button" href="{article_url}">Volver al artículo «{title}»</a></p>'
    )


# A link that names another file of the docs relative to the page that holds it: no scheme, not
# absolute, not an anchor of the same page.
_RELATIVE = re.compile(r"^(?![a-z][a-z0-9+.-]*:|/|#)(?P<path>[^#?]+)(?P<rest>[#?].*)?$", re.I)
_HREF = re.compile(r'(?P<lead>\shref=")(?P<target>[^"]*)(?=")')
_MD_LINK = re.compile(r"(?P<lead>\]\()(?P<target>[^)\s]+)(?=[)\s])")


def link_target(target: str, article: str) -> tuple[str, str] | None:
    """The docs file that a relative link written in page `article` names, and what follows
    its path (#anchor); None for any other link. A notebook shows its article's text, so its
    links are the article's: relative to the article, not to the notebook."""
    match = _RELATIVE.match(target)
    if not match:
        return None
    base = posixpath.dirname(article)
    path = posixpath.normpath(posixpath.join(base, match.group("path")))
    if path.startswith("../"):
        return None
    return path, match.group("rest") or ""


def relink_html(content: str, article: str, shown: Callable[[str], str | None]) -> str:
    """The notebook page's HTML with each link of its article pointing where the article's
    does: `shown(docs file)` is the link from the notebook page (None: left as it is)."""

    def one(match: re.Match[str]) -> str:
        found = link_target(match.group("target"), article)
        url = shown(found[0]) if found else None
        return match.group("lead") + (url + found[1] if found and url else match.group("target"))

    return _HREF.sub(one, content)


def relink_markdown(text: str, article: str, page: str) -> str:
    """A notebook's Markdown, shown as the docs page `page`, with the links of its article
    (`[…](file.md#anchor)`) written relative to `page`: the site generator resolves them."""

    def one(match: re.Match[str]) -> str:
        found = link_target(match.group("target"), article)
        if not found:
            return match.group(0)
        moved = posixpath.relpath(found[0], posixpath.dirname(page) or ".")
        return match.group("lead") + moved + found[1]

    return _MD_LINK.sub(one, text)
