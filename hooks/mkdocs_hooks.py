"""MkDocs hooks: translate MkDocs events into docverify calls; the engine does the work."""

from __future__ import annotations

import logging
import posixpath
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import markdown_exec
from docverify import anatomy, render, site
from docverify import config as config_mod
from docverify.cache import Cache
from docverify.cache import allowed as cache_allowed
from docverify.executor import Executor
from docverify.findings import Finding, Level
from docverify.pages import Page, read_page
from docverify.sources import read_sources
from docverify.verify import Report, execution_enabled, verify

log = logging.getLogger("mkdocs.hooks.docverify")
INDEX_MARKER = "<!-- docverify:articulos -->"


def on_config(config: Any) -> Any:
    _state.config = config_mod.load(Path(config.config_file_path).parent)
    fences = config.mdx_configs.setdefault("pymdownx.superfences", {})
    custom = fences.setdefault("custom_fences", [])
    custom[:] = [f for f in custom if f.get("name") not in ("python", "py")]
    for name in ("python", "py"):
        custom.append({"name": name, "class": "python", "validator": markdown_exec.validator,
                       "format": _format_block})
    markdown_exec.markdown_config.save(config.markdown_extensions, config.mdx_configs)
    return config


def on_files(files: Any, config: Any) -> Any:
    cfg = _state.config
    pages = [read_page(cfg, Path(f.abs_src_path)) for f in files.documentation_pages()
             if f.abs_src_path and f.src_uri.endswith(".md")]
    _state.pages = {p.rel: p for p in pages}
    if _state.executor is None:
        _state.executor = Executor()  # kept across `mkdocs serve` rebuilds: warm, runner known
    executing = execution_enabled()
    requested = config_mod.runner_from_env()
    # Execution off: never start the torch fork server just to pick a runner.
    runner = (_state.executor.resolve_runner(requested) if executing or requested != "auto"
              else "cpu")
    cache = Cache.for_config(cfg) if cache_allowed() else None  # off under CI=true
    _state.report = verify(cfg, pages, runner, _state.executor, cache=cache,
                           execute_blocks=executing)
    if cache is not None:
        log.info("docverify: %d bloques ejecutados, %d desde la caché local (%s)", cache.misses,
                 cache.hits, cfg.rel(cache.folder))
    _emit(site.check(cfg, pages) + _state.report.findings)
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    parsed = _state.pages.get(page.file.src_uri)
    _state.current = parsed
    if parsed is None:
        return markdown
    if anatomy.is_article(parsed) and not anatomy.check(_state.config, parsed):
        sources, _ = read_sources(_state.config, parsed)
        markdown = (anatomy.render_header(parsed) + markdown
                    + anatomy.render_footer(parsed, sources, {}))
    if INDEX_MARKER in markdown:
        markdown = markdown.replace(INDEX_MARKER, _article_list(page, files))
    return markdown


def on_post_build(config: Any) -> None:
    _state.current = None
    markdown_exec.markdown_config.reset()


def _format_block(source: str, language: str, css_class: str, options: dict[str, Any],
                  md: Any, **_: Any) -> str:
    """SuperFences formatter for executed blocks: render the engine's result, no execution."""
    options = dict(options)
    block_id = options.pop("id", "")
    page, report = _state.current, _state.report
    outcome = report.outcome(page.rel, block_id) if page and report else None
    if outcome is None:
        message = f"bloque «{block_id}» sin resultado del motor: revisa los errores de arriba."
        return f'<div class="admonition failure"><p>{message}</p></div>'
    if source.strip() != outcome.block.code.strip():
        log.error("%s:%s: el código del bloque «%s» que ve MkDocs no es el que verificó el "
                  "motor.", page.rel, outcome.block.fence_line, block_id)

    def run(*_: Any, **__: Any) -> str:
        return render.render_outcome(outcome, report.env, config_mod.today(), _state.config)

    options.pop("returncode", None)
    options["source"] = options.get("source") or "above"
    if options.get("tabs") == markdown_exec.default_tabs:
        options["tabs"] = ("Código", "Salida")
    return markdown_exec.base_format(language="python", run=run, code=source, md=md,
                                     id=block_id, **options)


def _article_list(page: Any, files: Any) -> str:
    items = []
    for parsed in site.articles(list(_state.pages.values())):
        url = posixpath.relpath(parsed.rel, posixpath.dirname(page.file.src_uri) or ".")
        goals = "\n".join(f"    - {g}" for g in parsed.meta.get("goals") or [])
        items.append(f"-   **[{parsed.meta.get('title', parsed.rel)}]({url})**\n\n"
                     f"    {parsed.meta.get('description', '')}\n\n"
                     f"    Qué aprenderás:\n\n{goals}")
    return '<div class="grid cards" markdown>\n\n' + "\n\n".join(items) + "\n\n</div>"


def _emit(findings: list[Finding]) -> None:
    for finding in findings:
        level = {Level.ERROR: logging.ERROR, Level.WARNING: logging.WARNING,
                 Level.INFO: logging.INFO}[finding.level]
        log.log(level, finding.format())


@dataclass
class _State:
    config: config_mod.Config | None = None
    executor: Executor | None = None
    pages: dict[str, Page] = field(default_factory=dict)
    report: Report | None = None
    current: Page | None = None


_state = _State()
