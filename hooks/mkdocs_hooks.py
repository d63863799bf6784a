"""MkDocs hooks: translate MkDocs events into docverify calls; the engine does the work.

One build and its one render (the same as the Zensical build's) per MkDocs build, through the
engine's API for adapters (docverify/api.py, the only engine module imported here), made in
on_files and dropped in on_post_build (or on_build_error), so every `mkdocs serve` rebuild
starts clean. The hooks only map that render onto MkDocs: its generated files onto MkDocs'
files, each page's Markdown and metadata onto on_page_markdown and `page.meta`, its finishing
step onto on_page_content. MkDocs never reads an executed fence.
Any error of the build fails `mkdocs build` and `gh-deploy` (Abort, whatever `strict` says);
`mkdocs serve` keeps serving and each page shows its errors.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from pathlib import Path
from typing import Any

from docverify import api
from mkdocs.exceptions import Abort, PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File
from pathspec.gitignore import GitIgnoreSpec

log = logging.getLogger("mkdocs.hooks.docverify")
_LEVELS = {
    api.Level.ERROR: logging.ERROR,
    api.Level.WARNING: logging.WARNING,
    api.Level.INFO: logging.INFO,
}


def on_startup(command: str, dirty: bool) -> None:
    _session["command"] = command  # "build", "gh-deploy" or "serve": kept for the process


def on_config(config: Any) -> Any:
    fences = config.mdx_configs.setdefault("pymdownx.superfences", {})
    fences["custom_fences"] = api.custom_fences(fences.get("custom_fences") or [])
    # Notebooks are reached from their article, never from the nav: no «not in the nav» INFO.
    # (mkdocs-jupyter wraps each File after on_files, so MkDocs reads this pattern, not an
    # inclusion level set on the File.)
    spec = GitIgnoreSpec.from_lines([f"/{api.NOTEBOOK_FOLDER}/*.ipynb"])
    current = config.get("not_in_nav")
    config["not_in_nav"] = current + spec if current else spec
    jupyter = config.plugins.get("mkdocs-jupyter")
    if jupyter is not None:  # each notebook page's HTML kept between builds, where allowed
        folder = api.notebook_html_cache(Path(config.config_file_path).parent)
        jupyter.config["cache"] = folder is not None
        if folder is not None:
            jupyter.config["cache_dir"] = str(folder)
    return config


def on_env(env: Any, config: Any, files: Any) -> Any:
    env.bytecode_cache = api.TEMPLATE_CACHE  # each template compiled once per process
    return env


@event_priority(50)  # before mkdocs-jupyter's on_files, so it renders the generated notebooks
def on_files(files: Any, config: Any) -> Any:
    mkdocs_yml = Path(config.config_file_path)
    docs = files.documentation_pages()
    pages = [Path(f.abs_src_path) for f in docs if f.abs_src_path and f.src_uri.endswith(".md")]
    executor = api.shared_executor()  # warm across serve rebuilds
    try:
        result = api.run_site(mkdocs_yml.parent, pages, executor, mkdocs_yml)
    except ValueError as exc:  # an unknown DOCVERIFY_RUNNER
        raise PluginError(f"docverify: {exc}") from exc
    site = _state["site"] = api.render_site(result)
    for note in result.notes:
        log.info(note)
    _emit(result.findings)
    config["site_description"] = site.description(config.get("site_description"))
    for unpublished in filter(None, map(files.get_file_from_path, api.UNPUBLISHED)):
        files.remove(unpublished)
    folder = _state["notebook_dir"] = tempfile.mkdtemp(prefix="docverify-cuadernos-")
    for uri, text in site.files.items():
        if files.get_file_from_path(uri) is not None:  # an author's own file wins
            continue
        if uri.endswith(".ipynb"):  # mkdocs-jupyter reads a notebook from its file
            Path(folder, uri).parent.mkdir(parents=True, exist_ok=True)
            Path(folder, uri).write_text(text, encoding="utf-8")
            files.append(File(uri, folder, config.site_dir, config.use_directory_urls))
        else:
            files.append(File.generated(config, uri, content=text))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    # `markdown` is only what MkDocs read of a page the engine did not parse.
    shown = _state["site"].page(page.file.src_uri, _links(page, files), markdown)
    page.meta.update(shown.meta)
    return shown.markdown


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    return _state["site"].finish(page.file.src_uri, html, _links(page, files))


@event_priority(-50)  # after the search plugin has written its index
def on_post_build(config: Any) -> None:
    result = _state["site"].result
    _reset()
    try:
        api.patch_material_worker(Path(config.site_dir))
    except api.PatchError as exc:
        raise Abort(str(exc)) from exc
    if result.errors and _session.get("command") == "serve":
        log.error(
            "%s mkdocs serve sigue sirviendo: cada página muestra los suyos.",
            api.summary(result.errors),
        )
    elif result.errors:
        raise Abort(api.summary(result.errors))


def on_build_error(error: Exception) -> None:
    _reset()


def _links(page: Any, files: Any) -> api.Links:
    """Where MkDocs publishes each file, seen from `page` (asked when needed: mkdocs-jupyter
    gives the notebooks their pages after on_files)."""

    def where(path: str) -> tuple[str, str] | None:
        found = files.get_file_from_path(path)
        return (found.url, found.dest_uri) if found is not None else None

    return api.Links(page.file.url, where)


def _emit(findings: list[api.Finding]) -> None:
    for finding in findings:
        log.log(_LEVELS[finding.level], finding.format())


def _reset() -> None:
    """Drop everything this build kept: the next (serve) rebuild starts from nothing."""
    if _state.get("notebook_dir"):
        shutil.rmtree(_state["notebook_dir"], ignore_errors=True)
    _state.clear()


_session: dict[str, Any] = {}  # the whole process: the command
_state: dict[str, Any] = {}  # one build: its rendered site and its notebook folder
