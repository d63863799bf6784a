"""MkDocs hooks: translate MkDocs events into docverify calls; the engine does the work.

One `BuildResult` per build (docverify.build), made in on_files and dropped in
on_post_build (or on_build_error), so every `mkdocs serve` rebuild starts clean. Each page's
Markdown is the engine's one render of it (output/page.py, the same as the Zensical build's),
executed fences already replaced by their code and panel: MkDocs never reads an executed fence.
Any error of the build fails `mkdocs build` and `gh-deploy` (Abort, whatever `strict` says);
`mkdocs serve` keeps serving and each page shows its errors.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from pathlib import Path
from typing import Any

from docverify import build
from docverify.core.findings import Finding, Level
from docverify.integrations import templates
from docverify.output import (
    glossary_page,
    markup,
    notebooks,
    page_parts,
    search,
    verification_page,
)
from docverify.output.page import Links, render
from docverify.running import executor as executor_mod
from docverify.site import navigation
from mkdocs.exceptions import Abort, PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File
from pathspec.gitignore import GitIgnoreSpec

log = logging.getLogger("mkdocs.hooks.docverify")
_LEVELS = {Level.ERROR: logging.ERROR, Level.WARNING: logging.WARNING, Level.INFO: logging.INFO}


def on_startup(command: str, dirty: bool) -> None:
    _session["command"] = command  # "build", "gh-deploy" or "serve": kept for the process


def on_config(config: Any) -> Any:
    fences = config.mdx_configs.setdefault("pymdownx.superfences", {})
    fences["custom_fences"] = markup.custom_fences(fences.get("custom_fences") or [])
    # Notebooks are reached from their article, never from the nav: no «not in the nav» INFO.
    # (mkdocs-jupyter wraps each File after on_files, so MkDocs reads this pattern, not an
    # inclusion level set on the File.)
    spec = GitIgnoreSpec.from_lines([f"/{notebooks.FOLDER}/*.ipynb"])
    current = config.get("not_in_nav")
    config["not_in_nav"] = current + spec if current else spec
    return config


def on_env(env: Any, config: Any, files: Any) -> Any:
    env.bytecode_cache = templates.CACHE  # each template compiled once per process
    return env


@event_priority(50)  # before mkdocs-jupyter's on_files, so it renders the generated notebooks
def on_files(files: Any, config: Any) -> Any:
    mkdocs_yml = Path(config.config_file_path)
    docs = files.documentation_pages()
    pages = [Path(f.abs_src_path) for f in docs if f.abs_src_path and f.src_uri.endswith(".md")]
    executor = executor_mod.shared()  # warm across serve rebuilds
    try:
        result = _state["result"] = build.run_site(mkdocs_yml.parent, pages, executor, mkdocs_yml)
    except ValueError as exc:  # an unknown DOCVERIFY_RUNNER
        raise PluginError(f"docverify: {exc}") from exc
    for note in result.notes:
        log.info(note)
    _emit(result.findings)
    # The site's description ends with where this version ran (output/coverage.py).
    config["site_description"] = page_parts.with_sentence(config.get("site_description"), result)
    if files.get_file_from_path(verification_page.URI) is None:
        files.append(
            File.generated(config, verification_page.URI, content=result.verification_text)
        )
    # The glossary's data file is read by the engine, never published; its page is generated.
    data = files.get_file_from_path(navigation.GLOSSARY_DATA)
    if data is not None:
        files.remove(data)
    if result.glossary_text and files.get_file_from_path(glossary_page.URI) is None:
        files.append(File.generated(config, glossary_page.URI, content=result.glossary_text))
    folder = _state["notebook_dir"] = tempfile.mkdtemp(prefix="docverify-cuadernos-")
    for uri, text in result.notebooks.values():
        Path(folder, uri).parent.mkdir(parents=True, exist_ok=True)
        Path(folder, uri).write_text(text, encoding="utf-8")
        files.append(File(uri, folder, config.site_dir, config.use_directory_urls))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    result, uri = _state["result"], page.file.src_uri
    if page_parts.notebook_article(result, uri):
        page.meta.update(page_parts.notebook_meta(result, uri))
    page.meta.update(page_parts.search_meta(result, uri, page.meta))
    page.meta.update(page_parts.description_meta(result, uri))
    notebook = result.notebooks.get(uri)
    nb_file = files.get_file_from_path(notebook[0]) if notebook else None
    where = nb_file and page_parts.NotebookFile(nb_file.url, nb_file.dest_uri)
    # The engine's render of its own parse: `markdown` is only what MkDocs read of a page the
    # engine generated (the verification page, the glossary).
    return render(result, uri, Links(page.file.url, where), markdown)


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    result, uri = _state["result"], page.file.src_uri
    article = page_parts.notebook_article(result, uri)
    if article is None:
        glossary = files.get_file_from_path(glossary_page.URI)
        url = glossary.url if glossary is not None else None
        return page_parts.content_html(result, uri, html, url, page.file.url)

    def url_of(path: str) -> str | None:
        found = files.get_file_from_path(path)
        return found.url if found else None

    return page_parts.notebook_page(
        result, uri, html, files.get_file_from_path(article).url, page.file.url, url_of
    )


@event_priority(-50)  # after the search plugin has written its index
def on_post_build(config: Any) -> None:
    result = _state["result"]
    _reset()
    Path(config.site_dir, "verificacion.json").write_text(result.verification_json(), "utf-8")
    search.fold_index_file(Path(config.site_dir, "search", "search_index.json"))
    if result.errors and _session.get("command") == "serve":
        log.error(
            "%s mkdocs serve sigue sirviendo: cada página muestra los suyos.",
            build.summary(result.errors),
        )
    elif result.errors:
        raise Abort(build.summary(result.errors))


def on_build_error(error: Exception) -> None:
    _reset()


def _emit(findings: list[Finding]) -> None:
    for finding in findings:
        log.log(_LEVELS[finding.level], finding.format())


def _reset() -> None:
    """Drop everything this build kept: the next (serve) rebuild starts from nothing."""
    if _state.get("notebook_dir"):
        shutil.rmtree(_state["notebook_dir"], ignore_errors=True)
    _state.clear()


_session: dict[str, Any] = {}  # the whole process: the command
_state: dict[str, Any] = {}  # one build: its result and its notebook folder
