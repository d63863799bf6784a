# Where mkdocs-jupyter keeps each notebook page's HTML between builds.
"""mkdocs-jupyter converts every notebook to HTML with nbconvert on every build: with every block
served from the local cache, that is more than half of what a `mkdocs serve` rebuild of this
site costs. Its own cache keys an entry by the notebook's bytes and the plugin's options, but
not by the versions of the packages that write the HTML, and it keeps its entries in a folder
relative to the working directory. The MkDocs adapter turns it on with `folder`: one folder of
the project's .cache per set of those versions (an upgrade starts an empty one, and a stale
page is never served), and only when the run reads the local cache (core/request.py: never in
CI, nor with DOCVERIFY_CACHE=0). The engine's finishing step on each page's HTML
(render.Site.finish) runs after it, on a cached page as on a fresh one.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from docverify.core import versions
from docverify.core.request import CacheUse

FOLDER = Path(".cache") / "mkdocs-jupyter"
# The distributions whose versions shape a notebook page's HTML: the plugin and its template,
# nbconvert with its templates, its reader, its Markdown, its highlighting and their styles, its
# last pass over the HTML, and the table of contents the plugin makes with Python-Markdown.
SHAPERS = (
    "mkdocs-jupyter",
    "nbconvert",
    "nbformat",
    "jinja2",
    "mistune",
    "pygments",
    "jupyterlab_pygments",
    "beautifulsoup4",
    "markdown",
)


def folder(root: Path, cache: CacheUse) -> Path | None:
    """The folder of `root`'s notebook pages for the installed SHAPERS, or None when `cache`
    does not read the local cache (no page is then taken from an earlier build)."""
    if cache is not CacheUse.READ:
        return None
    stamp = "\n".join(f"{name}=={versions.installed(name)}" for name in SHAPERS)
    return root / FOLDER / hashlib.sha256(stamp.encode()).hexdigest()[:16]
