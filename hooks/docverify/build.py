# The build pipeline, the engine's top layer: verify, judge, and render what the site shows.
"""The one pipeline of the engine: a request (core/request.py) in, a `BuildResult` out.

`prepare` turns the request into a route (runner, cache, or the verification jobs' reports to
render instead of running anything: report/from_reports.py); `observe` verifies every block
(verifying/); `run` adds a gpu job's and a canary's reports and the checks of every page and of
the whole site (site/checks.py, the same functions `docverify lint` calls), into one frozen
`BuildResult`. Site generators call `run_site`, then turn its result into the site with the one
render (output/render.py), both through the adapters' API (api.py); `docverify check` calls
`prepare` and `observe` (it shards the pages in between). Nothing imports this module but that
API, the command line and the benchmark, so every package below it stays free of cycles.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from docverify.core import config as config_mod  # clash: `config`, each function's Config
from docverify.core import request as request_mod  # clash: `request`, each function's Request
from docverify.core.config import Config, today
from docverify.core.findings import Finding
from docverify.core.request import CacheUse, Request
from docverify.parsing.pages import Page, read_page, read_site
from docverify.report import canary, from_reports, gpu_report
from docverify.running.executor import Executor
from docverify.site import checks, coverage, navigation
from docverify.site import lint as lint_mod  # clash: this module's `lint`
from docverify.site.result import BuildResult
from docverify.verifying import cache as cache_mod  # clash: `cache`, the route's Cache
from docverify.verifying import summary as summary_mod  # clash: this module's `summary`
from docverify.verifying.outcome import Verification
from docverify.verifying.verify import verify


@dataclass
class Route:
    """How one request runs here: its runner, its cache, and the reports it renders instead."""

    runner: str
    cache: cache_mod.Cache | None = None
    reports: from_reports.GivenReports | None = None  # a build from the verification jobs' reports


def run_site(
    root: Path, page_paths: list[Path], executor: Executor, nav_path: Path | None = None
) -> BuildResult:
    """A site generator's build: the project at `root`, its pages, its navigation file, and
    the request of the environment (core/request.py; ValueError for an unknown runner)."""
    config = config_mod.load(root)
    pages = [read_page(config, path) for path in page_paths]
    nav = navigation.read(nav_path) if nav_path else None
    return run(config, pages, request_mod.from_env(), executor, nav=nav)


def prepare(config: Config, request: Request, executor: Executor) -> Route:
    """The runner, cache and reports of `request`: a build from reports takes their runner
    and uses no cache; execution off never starts the torch fork server to pick a runner."""
    if request.from_reports is not None:
        source = from_reports.load(config, list(request.from_reports), request.runner)
        return Route(source.runner, reports=source)
    asked = request.runner
    runner = executor.resolve_runner(asked) if request.execute or asked != "auto" else "cpu"
    cache = None
    if request.cache is not CacheUse.OFF:
        cache = cache_mod.Cache.for_config(config, read=request.cache is CacheUse.READ)
    return Route(runner, cache)


def observe(
    config: Config, pages: list[Page], request: Request, route: Route, executor: Executor
) -> Verification:
    """Every block of `pages` verified: run here (or served by the cache), or, in a build from
    reports, what the verification jobs observed, judged against the recordings."""
    if route.reports is not None:
        return from_reports.verify(config, pages, route.reports)
    return verify(
        config, pages, route.runner, executor, cache=route.cache, execute_blocks=request.execute
    )


def run(
    config: Config,
    pages: list[Page],
    request: Request,
    executor: Executor,
    *,
    nav: navigation.Nav | None = None,
) -> BuildResult:
    """Verify every block as `request` asks, and judge every source, article and the whole
    site once: everything the site shows is then rendered from the result (output/render.py).
    `pages` is every page. A canary's report adds what its torch would change (INFO findings
    only: a canary never fails a build)."""
    day = request.day or today()
    route = prepare(config, request, executor)
    verification = observe(config, pages, request, route, executor)
    if request.gpu_reports is not None:  # CI's publishing build: what the gpu job observed
        verification = gpu_report.attach(config, verification, request.gpu_reports)
    view, canary_findings = (
        canary.attach(config, verification, request.canary_report)
        if request.canary_report
        else (None, [])
    )
    page_checks, site_wide = _checks(config, pages, nav, day)  # the same as `docverify lint`
    return BuildResult(
        config=config,
        today=day,
        pages={p.rel: p for p in pages},
        verification=verification,
        fresh=page_checks.fresh,
        anatomy=page_checks.anatomy,
        findings=[
            *config.findings,
            *page_checks.findings,
            *verification.findings,
            *site_wide,
            *canary_findings,
        ],
        nav=nav,
        glossary=page_checks.glossary,
        canary=view,
        coverage=coverage.of(verification, page_checks.fresh, day),
        notes=_notes(verification, view, route.cache),
    )


def check(
    config: Config,
    pages: list[Page],
    request: Request,
    route: Route,
    executor: Executor,
    *,
    checked: list[Page] | None = None,
    whole: bool = False,
) -> Verification:
    """`docverify check`: `pages` verified as `run` verifies them, with the findings `run`
    reports: the configuration's, the blocks', then the checks `run` makes of the `checked`
    pages (`_checks`: each page, and with `whole`, every page of the site, the whole site).
    Those come after the blocks' so that the reports of a sharded check, where only the first
    shard checks them, merge into the order of an unsharded one (report/merge.py)."""
    verification = observe(config, pages, request, route, executor)
    found: list[Finding] = []
    if checked is not None:
        nav = navigation.of_project(config) if whole else None
        page_checks, site_wide = _checks(config, checked, nav, request.day or today(), whole)
        found = [*page_checks.findings, *site_wide]
    findings = [*config.findings, *verification.findings, *found]
    return dataclasses.replace(verification, findings=findings)


def lint(config: Config, pages: list[Page] | None = None) -> list[Finding]:
    """`docverify lint`: this pipeline without its verification (nothing runs), ordered by file
    and line: the configuration's and each page's parse findings, the checks `run` makes of the
    pages and the whole site (`_checks`), and what only a full recording set can tell without
    running: every block that runs on cpu has a cpu recording. `pages`: every page."""
    pages = read_site(config) if pages is None else pages
    page_checks, site_wide = _checks(config, pages, navigation.of_project(config), today())
    findings = [*config.findings, *(f for page in pages for f in page.findings)]
    findings += page_checks.findings + lint_mod.missing_recordings(config, pages) + site_wide
    # Same line: by the name authors read, so the listing keeps its order.
    return sorted(findings, key=lambda f: (f.path, f.line, f.kind.label))


def _checks(
    config: Config,
    pages: list[Page],
    nav: navigation.Nav | None,
    day: dt.date,
    whole: bool = True,
) -> tuple[checks.PageChecks, list[Finding]]:
    """What `run`, `check` and `lint` check without running anything: each page (anatomy,
    sources, glossary) and, when `pages` is every page (`whole`), the whole site (navigation,
    unused snippets, reserved names, orphans)."""
    page_checks = checks.per_page(config, pages, day)
    return page_checks, checks.site_wide(config, pages, nav) if whole else []


def _notes(
    verification: Verification, view: canary.CanaryView | None, cache: cache_mod.Cache | None
) -> tuple[str, ...]:
    """For the terminal: what ran, as `docverify check` counts it, and the canary's changes."""
    hits = cache.hits if cache and cache.read else None
    notes = ["docverify: " + summary_mod.line(verification, hits)]
    if view is not None:
        n = len(view.changes)
        notes.append(
            f"docverify: canario del {view.report.date}: con torch {view.torch} ({view.variant}) "
            f"cambiaría{'' if n == 1 else 'n'} {n} bloque{'' if n == 1 else 's'}; "
            f"{len(view.stale)} con código posterior al informe"
        )
    return tuple(notes)


def summary(found: list[Finding]) -> str:
    """One line after the located findings: how many errors and of which kinds."""
    kinds = Counter(f.kind for f in found)
    count = len(found)
    noun = "error de verificación" if count == 1 else "errores de verificación"
    listed = ", ".join(f"{kind.label} ({n})" for kind, n in kinds.items())
    return f"{count} {noun}: {listed}. Cada uno está descrito arriba, con su archivo y su línea."
