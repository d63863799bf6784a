# The build pipeline, the engine's top layer: verify, judge, and render what the site shows.
"""One build of the site, from pages to a `BuildResult` (site/result.py).

It runs the verification (verifying/) or, with DOCVERIFY_FROM_REPORTS, judges what the
verification jobs observed instead of running anything (report/from_reports.py); then the checks of
every page and of the whole site (site/checks.py, the same functions `docverify lint` and
`check` call), and renders the verification page and the notebooks (output/). Site generators call
`run_site`; nothing imports this module but the adapters and the command line, so every
package below it stays free of cycles.
"""

from __future__ import annotations

import datetime as dt
import os
from collections import Counter
from pathlib import Path

from docverify.core import config as config_mod
from docverify.core.config import Config, today
from docverify.core.findings import Finding
from docverify.output import glossary_page, notebooks, verification_page
from docverify.parsing.pages import Page, read_page
from docverify.report import canary, from_reports, gpu_report
from docverify.running.executor import Executor
from docverify.site import checks, coverage, navigation
from docverify.site.result import BuildResult
from docverify.verifying import cache as cache_mod
from docverify.verifying import summary as counts
from docverify.verifying.verify import verify


def execution_enabled() -> bool:
    """False with DOCVERIFY_EXECUTE=0: only for measuring a build without execution (bench)."""
    value = os.environ.get("DOCVERIFY_EXECUTE", "1").strip().lower()
    return value not in ("0", "false", "no", "off")


def run_site(
    root: Path, page_paths: list[Path], executor: Executor, nav_path: Path | None = None
) -> BuildResult:
    """A site generator's build: the project at `root`, its pages, its navigation file.

    The runner comes from DOCVERIFY_RUNNER (ValueError when unknown), the local cache is used
    outside CI (read unless DOCVERIFY_CACHE=0), and nothing runs with DOCVERIFY_EXECUTE=0 (an
    error of the build says so) or with DOCVERIFY_FROM_REPORTS (the reports' observations are
    judged instead).
    """
    config = config_mod.load(root)
    executing, requested = execution_enabled(), config_mod.runner_from_env()
    reports = from_reports.from_env()
    source = from_reports.load(config, reports, requested) if reports is not None else None
    if source is not None:  # the runner is the reports'; no fork server, no cache
        runner, cache = source.runner, None
    else:
        # Execution off: never start the torch fork server just to pick a runner.
        runner = executor.resolve_runner(requested) if executing or requested != "auto" else "cpu"
        cache = cache_mod.for_run(config)
    result = run(
        config,
        [read_page(config, path) for path in page_paths],
        runner,
        executor,
        nav=navigation.read(nav_path) if nav_path else None,
        cache=cache,
        execute_blocks=executing,
        peer_report=gpu_report.from_env(),
        canary_report=canary.from_env(),
        reports=source,
    )
    # Counted as `docverify check` counts them (one function for both).
    result.notes.append(
        "docverify: "
        + counts.line(result.verification, cache.hits if cache and cache.read else None)
    )
    if result.canary is not None:
        view, n = result.canary, len(result.canary.changes)
        result.notes.append(
            f"docverify: canario del {view.report.date}: con torch {view.torch} ({view.variant}) "
            f"cambiaría{'' if n == 1 else 'n'} {n} bloque{'' if n == 1 else 's'}; "
            f"{len(view.stale)} con código posterior al informe"
        )
    return result


def run(
    config: Config,
    pages: list[Page],
    runner: str,
    executor: Executor,
    *,
    nav: navigation.Nav | None = None,
    cache: cache_mod.Cache | None = None,
    execute_blocks: bool = True,
    day: dt.date | None = None,
    peer_report: Path | list[Path] | None = None,
    canary_report: Path | None = None,
    reports: from_reports.Source | None = None,
) -> BuildResult:
    """Verify every block (or, given `reports`, judge what they observed: nothing runs), judge
    every source, every article and the whole site once, and generate the verification page, the
    glossary page and the notebooks from those results. `pages` is every page. With
    `canary_report`, the pages also show what the canary's torch would change (INFO findings
    only: a canary never fails a build)."""
    day = day or today()
    if reports is not None:  # a build from the verification jobs' reports
        verification = from_reports.verify(config, pages, reports)
    else:
        verification = verify(
            config, pages, runner, executor, cache=cache, execute_blocks=execute_blocks
        )
    if peer_report is not None:  # CI's publishing build: what the gpu job observed
        verification.findings.extend(gpu_report.attach(config, verification, peer_report))
    view, canary_findings = (
        canary.attach(config, verification, canary_report) if canary_report else (None, [])
    )
    judged = checks.judge(config, pages, day)  # the same checks as `docverify lint`
    result = BuildResult(
        config=config,
        today=day,
        pages={p.rel: p for p in pages},
        verification=verification,
        fresh=judged.fresh,
        anatomy=judged.anatomy,
        findings=[
            *config.findings,
            *judged.findings,
            *verification.findings,
            *checks.site_wide(config, pages, nav),
            *canary_findings,
        ],
        nav=nav,
        glossary=judged.glossary,
        canary=view,
        coverage=coverage.of(verification, judged.fresh, day),
    )
    result.verification_text = verification_page.render(
        config, pages, verification, judged.fresh, result.coverage
    )
    if judged.glossary is not None:
        result.glossary_text = glossary_page.render(judged.glossary)
    for page in result.articles():
        if page.blocks:
            sources = [s.source for s in result.sources(page.rel)]
            notebook = notebooks.build(
                config, page, verification, day, sources=sources, coverage=result.coverage
            )
            result.notebooks[page.rel] = (notebooks.notebook_path(page), notebooks.dumps(notebook))
    return result


def summary(found: list[Finding]) -> str:
    """One line after the located findings: how many errors and of which kinds."""
    kinds = Counter(f.kind for f in found)
    count = len(found)
    noun = "error de verificación" if count == 1 else "errores de verificación"
    listed = ", ".join(f"{kind.label} ({n})" for kind, n in kinds.items())
    return f"{count} {noun}: {listed}. Cada uno está descrito arriba, con su archivo y su línea."
