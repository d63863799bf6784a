"""The engine as the site generators' adapters see it: build, render the site, finish it.

hooks/mkdocs_hooks.py and zensical/ import this module and no other of the engine
(tests/core/test_api.py), so the engine's modules can move or change without an adapter
noticing, and an adapter reads here all it may use:

- build: `run_site` verifies a project's pages into one frozen `BuildResult` (build.py), with
  an `Executor` (`shared_executor`: the process's warm one); `summary` words its errors;
  `Finding` and `Level` are what it found; `load_config`, the project's [tool.docverify].
- render: `render_site` turns that result into the site (output/render.py): a `Site` with the
  generated files, each page's Markdown and metadata and the finishing step on its HTML, seen
  through the generator's `Links`; the build's own files that are never published
  (`UNPUBLISHED`).
- the generator's configuration and output: the fences that show an executed block's output
  (`custom_fences`), the notebooks' folder (`NOTEBOOK_FOLDER`), where mkdocs-jupyter keeps their
  pages' HTML between builds (`notebook_html_cache`), Jinja's compiled templates
  (`TEMPLATE_CACHE`), and the search finished as each generator writes it
  (`patch_material_worker` for Material's worker, `boost_zensical_index` and `ZENSICAL_INDEX` for
  Zensical's index), and the patches to a generator's scripts (`script_patch`: Zensical's are in
  zensical/patches.py), with the error of one that no longer applies (`PatchError`).
"""

from __future__ import annotations

from pathlib import Path

from docverify.build import run_site, summary
from docverify.core import script_patch
from docverify.core.config import load as load_config
from docverify.core.findings import Finding, Level
from docverify.core.request import cache_use
from docverify.core.script_patch import PatchError
from docverify.integrations.templates import CACHE as TEMPLATE_CACHE

# clash: `notebook_html_cache`, this module's function for the adapter
from docverify.output import notebook_html_cache as notebook_html_cache_mod
from docverify.output.markup import custom_fences
from docverify.output.notebooks import FOLDER as NOTEBOOK_FOLDER
from docverify.output.render import UNPUBLISHED, Links, Site
from docverify.output.render import site as render_site
from docverify.output.search import ZENSICAL_INDEX, boost_zensical_index, patch_material_worker
from docverify.running.executor import Executor
from docverify.running.executor import shared as shared_executor

__all__ = [
    "NOTEBOOK_FOLDER",
    "TEMPLATE_CACHE",
    "UNPUBLISHED",
    "ZENSICAL_INDEX",
    "Executor",
    "Finding",
    "Level",
    "Links",
    "PatchError",
    "Site",
    "boost_zensical_index",
    "custom_fences",
    "load_config",
    "notebook_html_cache",
    "patch_material_worker",
    "render_site",
    "run_site",
    "script_patch",
    "shared_executor",
    "summary",
]


def notebook_html_cache(root: Path) -> Path | None:
    """Where mkdocs-jupyter keeps `root`'s notebook pages for this process's environment, each
    entry readable, or None when this run reads no local cache (output/notebook_html_cache.py)."""
    return notebook_html_cache_mod.ready(root, cache_use())
