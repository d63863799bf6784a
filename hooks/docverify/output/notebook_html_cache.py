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

The plugin reads an entry with no second thought: one cut short (a build stopped while it wrote
it, a full disk) would fail every later build with a traceback. So before each build `ready`
deletes any entry the plugin could not read (it is converted again), and the folders of other
versions, which nothing reads any more.
"""

from __future__ import annotations

import hashlib
import json
import platform
import shutil
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
    # Python too: its XML writer makes the headings' anchors.
    stamp = (platform.python_version(), *(versions.installed(name) for name in SHAPERS))
    return root / FOLDER / hashlib.sha256(repr(stamp).encode()).hexdigest()[:16]


def ready(root: Path, cache: CacheUse) -> Path | None:
    """`folder`, once the entries the plugin could not read and the other versions' folders are
    deleted (see above)."""
    current = folder(root, cache)
    if current is None:
        return None
    if current.parent.is_dir():
        for other in current.parent.iterdir():
            if other != current and other.is_dir():
                shutil.rmtree(other, ignore_errors=True)
    for entry in current.glob("*.json"):
        if not readable(entry):
            entry.unlink(missing_ok=True)
    return current


def readable(entry: Path) -> bool:
    """Whether mkdocs-jupyter can take a page from `entry`: JSON with its HTML and its table of
    contents."""
    try:
        data = json.loads(entry.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # UnicodeDecodeError is a ValueError
        return False
    return (
        isinstance(data, dict)
        and isinstance(data.get("content"), str)
        and isinstance(data.get("toc_tokens"), list)
    )
