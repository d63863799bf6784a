"""MkDocs hooks: translate MkDocs events into docverify calls; the engine does the work."""

from __future__ import annotations

import json
import logging
import posixpath
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import markdown_exec
from docverify.core import config as config_mod
from docverify.core.findings import Finding, Level
from docverify.output import notebooks, render, report_page, search
from docverify.parsing.pages import OUR_OPTIONS, Page, read_page
from docverify.running.executor import Executor
from docverify.site import anatomy, navigation
from docverify.site import checks as site
from docverify.sources import freshness
from docverify.sources.model import read_sources
from docverify.verifying import peers
from docverify.verifying.cache import Cache
from docverify.verifying.cache import allowed as cache_allowed
from docverify.verifying.verify import Report, execution_enabled, verify
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

log = logging.getLogger("mkdocs.hooks.docverify")
INDEX_MARKER = "<!-- docverify:articulos -->"


def on_config(config: Any) -> Any:
    _state.config = config_mod.load(Path(config.config_file_path).parent)
    fences = config.mdx_configs.setdefault("pymdownx.superfences", {})
    custom = fences.setdefault("custom_fences", [])
    custom[:] = [f for f in custom if f.get("name") not in ("python", "py", render.OUTPUT_FENCE)]
    for name in ("python", "py"):
        custom.append(
            {
                "name": name,
                "class": "python",
                "validator": markdown_exec.validator,
                "format": _format_block,
            }
        )
    custom.append(
        {"name": render.OUTPUT_FENCE, "class": "dv-output-text", "format": render.format_output}
    )
    markdown_exec.markdown_config.save(config.markdown_extensions, config.mdx_configs)
    return config


@event_priority(50)  # before mkdocs-jupyter's on_files, so it renders the generated notebooks
def on_files(files: Any, config: Any) -> Any:
    cfg = _state.config
    pages = [
        read_page(cfg, Path(f.abs_src_path))
        for f in files.documentation_pages()
        if f.abs_src_path and f.src_uri.endswith(".md")
    ]
    _state.pages = {p.rel: p for p in pages}
    if _state.executor is None:
        _state.executor = Executor()  # kept across `mkdocs serve` rebuilds: warm, runner known
    executing = execution_enabled()
    requested = config_mod.runner_from_env()
    # Execution off: never start the torch fork server just to pick a runner.
    try:
        runner = (
            _state.executor.resolve_runner(requested) if executing or requested != "auto" else "cpu"
        )
    except ValueError as exc:
        raise PluginError(f"docverify: {exc}") from exc
    cache = Cache.for_config(cfg) if cache_allowed() else None  # off under CI=true
    _state.report = verify(
        cfg, pages, runner, _state.executor, cache=cache, execute_blocks=executing
    )
    if cache is not None:
        log.info(
            "docverify: %d bloques ejecutados, %d desde la caché local (%s)",
            cache.misses,
            cache.hits,
            cfg.rel(cache.folder),
        )
    if (gpu_report := peers.from_env()) is not None:  # CI's publishing build: the gpu job's report
        _state.report.findings.extend(peers.attach(cfg, _state.report, gpu_report))
    nav = navigation.read(Path(config.config_file_path))
    _emit(site.check(cfg, pages, nav=nav) + _state.report.findings)
    _add_report_page(files, config)
    _add_notebooks(files, config)
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    parsed = _state.pages.get(page.file.src_uri)
    _state.current = parsed
    if page.file.src_uri in _state.notebooks.values():
        page.meta.update(_notebook_meta(page))
    if parsed is None:
        return markdown
    if anatomy.is_article(parsed) and not anatomy.check(_state.config, parsed):
        sources, _ = read_sources(_state.config, parsed)
        markdown = (
            anatomy.render_header(parsed)
            + _notebook_box(parsed, page, files)
            + markdown
            + anatomy.render_footer(parsed, sources, freshness.footer_notes(_state.config, sources))
        )
    if INDEX_MARKER in markdown:
        markdown = markdown.replace(INDEX_MARKER, _article_list(page, files))
    return markdown


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    article = next((a for a, nb in _state.notebooks.items() if nb == page.file.src_uri), None)
    if article is None:
        return html
    url = _relative(files.get_file_from_path(article).url, page.file.url)
    return notebooks.notebook_html(
        html,
        posixpath.basename(page.file.src_uri),
        url,
        str(_state.pages[article].meta.get("title", article)),
    )


@event_priority(-50)  # after the search plugin has written its index
def on_post_build(config: Any) -> None:
    report = _state.report
    if report is not None:
        executed = [k for k, o in report.outcomes.items() if o.result is not None]
        summary = {"runner": report.runner, "env": report.env, "executed": executed}
        (Path(config.site_dir) / "verificacion.json").write_text(
            json.dumps(summary, ensure_ascii=False, indent=2), encoding="utf-8"
        )
    index = Path(config.site_dir, "search", "search_index.json")
    if index.is_file():
        data = search.add_folded_field(json.loads(index.read_text(encoding="utf-8")))
        index.write_text(
            json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8"
        )
    _state.current = None
    _state.notebooks = {}
    if _state.notebook_dir:
        shutil.rmtree(_state.notebook_dir, ignore_errors=True)
        _state.notebook_dir = None
    markdown_exec.markdown_config.reset()


def _format_block(
    source: str, language: str, css_class: str, options: dict[str, Any], md: Any, **_: Any
) -> str:
    """SuperFences formatter for executed blocks: render the engine's result, no execution."""
    options = dict(options)
    block_id = options.pop("id", "")
    page, report = _state.current, _state.report
    outcome = report.outcome(page.rel, block_id) if page and report else None
    if outcome is None:
        message = f"bloque «{block_id}» sin resultado del motor: revisa los errores de arriba."
        return f'<div class="admonition failure"><p>{message}</p></div>'
    if source.strip() != outcome.block.code.strip():
        log.error(
            "%s:%s: el código del bloque «%s» que ve MkDocs no es el que verificó el motor.",
            page.rel,
            outcome.block.fence_line,
            block_id,
        )

    def run(*_: Any, **__: Any) -> str:
        return render.render_outcome(outcome, report.env, config_mod.today(), _state.config)

    options.pop("returncode", None)
    # Engine options (raises="…", rtol, runner…) would be copied onto the shown fence and break it.
    options["extra"] = {k: v for k, v in options.get("extra", {}).items() if k not in OUR_OPTIONS}
    options["source"] = options.get("source") or "above"
    if options.get("tabs") == markdown_exec.default_tabs:
        options["tabs"] = ("Código", "Salida")
    return markdown_exec.base_format(
        language="python", run=run, code=source, md=md, id=block_id, **options
    )


def _article_list(page: Any, files: Any) -> str:
    items = []
    for parsed in site.articles(list(_state.pages.values())):
        url = posixpath.relpath(parsed.rel, posixpath.dirname(page.file.src_uri) or ".")
        goals = "\n".join(f"    - {g}" for g in parsed.meta.get("goals") or [])
        items.append(
            f"-   **[{parsed.meta.get('title', parsed.rel)}]({url})**\n\n"
            f"    {parsed.meta.get('description', '')}\n\n"
            f"    Qué aprenderás:\n\n{goals}"
        )
    return '<div class="grid cards" markdown>\n\n' + "\n\n".join(items) + "\n\n</div>"


def _add_report_page(files: Any, config: Any) -> None:
    """The «Informe de verificación», written by the engine, added as a generated page."""
    if files.get_file_from_path(report_page.URI) is not None:
        log.error(
            "docs/%s: ese nombre está reservado para el informe de verificación que se "
            "genera al construir; renombra la página.",
            report_page.URI,
        )
        return
    text = report_page.build(
        _state.config, list(_state.pages.values()), _state.report, config_mod.today()
    )
    files.append(File.generated(config, report_page.URI, content=text))


def _add_notebooks(files: Any, config: Any) -> None:
    """Write each article's notebook to a scratch folder and add it as a page of the site."""
    _state.notebook_dir = _state.notebook_dir or tempfile.mkdtemp(prefix="docverify-cuadernos-")
    _state.notebooks = {}
    for parsed in site.articles(list(_state.pages.values())):
        if not parsed.blocks:
            continue
        uri = notebooks.notebook_path(parsed)
        path = Path(_state.notebook_dir, uri)
        path.parent.mkdir(parents=True, exist_ok=True)
        notebook = notebooks.build(_state.config, parsed, _state.report, config_mod.today())
        path.write_text(notebooks.dumps(notebook), encoding="utf-8")
        files.append(File(uri, _state.notebook_dir, config.site_dir, config.use_directory_urls))
        _state.notebooks[parsed.rel] = uri


def _notebook_box(parsed: Page, page: Any, files: Any) -> str:
    uri = _state.notebooks.get(parsed.rel)
    notebook = files.get_file_from_path(uri) if uri else None
    if notebook is None:
        return ""
    # mkdocs-jupyter copies the .ipynb beside the notebook page's index.html.
    download = posixpath.join(posixpath.dirname(notebook.dest_uri), posixpath.basename(uri))
    return notebooks.article_box(
        _relative(notebook.url, page.file.url), _relative(download, page.file.url)
    )


def _notebook_meta(page: Any) -> dict[str, Any]:
    article = next(a for a, nb in _state.notebooks.items() if nb == page.file.src_uri)
    return notebooks.page_meta(str(_state.pages[article].meta.get("title", article)))


def _relative(target_url: str, from_url: str) -> str:
    """A link from the page at `from_url` to `target_url` (both site-relative URLs)."""
    base = from_url if from_url.endswith("/") else posixpath.dirname(from_url) + "/"
    rel = posixpath.relpath(target_url or ".", base or ".")
    return rel + "/" if target_url.endswith("/") and not rel.endswith("/") else rel


def _emit(findings: list[Finding]) -> None:
    for finding in findings:
        level = {
            Level.ERROR: logging.ERROR,
            Level.WARNING: logging.WARNING,
            Level.INFO: logging.INFO,
        }[finding.level]
        log.log(level, finding.format())


@dataclass
class _State:
    config: config_mod.Config | None = None
    executor: Executor | None = None
    pages: dict[str, Page] = field(default_factory=dict)
    report: Report | None = None
    current: Page | None = None
    notebooks: dict[str, str] = field(default_factory=dict)  # article rel → notebook uri
    notebook_dir: str | None = None


_state = _State()
