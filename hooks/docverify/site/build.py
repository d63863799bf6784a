# One build of the site: everything the engine knows about it, computed once per build.
"""The build result: pages, outcomes, sources with their freshness, anatomy and site findings.

A site generator's adapter asks for one `BuildResult` per build (`run`) and only looks things up
in it: the Markdown of each page (`output.page_parts`), the report page, the notebooks, and the
errors that fail the build (`summary`). Nothing here imports MkDocs; nothing is judged twice.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from docverify.core import config as config_mod
from docverify.core.config import Config, today
from docverify.core.findings import Finding, errors
from docverify.output import notebooks, report_page
from docverify.parsing.pages import Page, read_page
from docverify.running.executor import Executor
from docverify.site import anatomy, checks, navigation
from docverify.sources import freshness
from docverify.verifying import cache as cache_mod
from docverify.verifying import peers
from docverify.verifying import summary as counts
from docverify.verifying.outcome import Outcome, Report, execution_enabled
from docverify.verifying.verify import verify


@dataclass
class BuildResult:
    """What one build verified, judged and generated; looked up, never recomputed."""

    config: Config
    today: dt.date
    pages: dict[str, Page]  # docs-relative path → page, in site order
    report: Report
    fresh: freshness.Freshness
    anatomy: dict[str, list[Finding]]  # page → its anatomy findings (articles only)
    findings: list[Finding]  # every finding, in the order the terminal shows them
    report_text: str = ""  # the «Informe de verificación» page, in Markdown
    notebooks: dict[str, tuple[str, str]] = field(default_factory=dict)  # article → (uri, text)
    late: list[Finding] = field(default_factory=list)  # found while pages render
    notes: list[str] = field(default_factory=list)  # for the terminal (cache use)
    nav: navigation.Nav | None = None  # the site's navigation: the order of its articles

    @property
    def errors(self) -> list[Finding]:
        """Every error of the build: any one of them fails it."""
        return errors(self.findings + self.late)

    def articles(self) -> list[Page]:
        """The articles, in the navigation's order when there is one."""
        return checks.articles(list(self.pages.values()), self.nav)

    def complete(self, rel: str) -> bool:
        """An article with every required part: the engine renders its header and footer."""
        page = self.pages.get(rel)
        return page is not None and anatomy.is_article(page) and not self.anatomy.get(rel)

    def sources(self, rel: str) -> list[freshness.SourceStatus]:
        """The sources of page `rel`, each judged once on this build's day."""
        return [s for s in self.fresh.statuses if s.source.page == rel]

    def outcome(self, rel: str, block_id: str) -> Outcome | None:
        return self.report.outcome(rel, block_id)

    def verification_json(self) -> str:
        """`verificacion.json` of the published site: runner, environment, executed blocks."""
        executed = [k for k, o in self.report.outcomes.items() if o.result is not None]
        summary = {"runner": self.report.runner, "env": self.report.env, "executed": executed}
        return json.dumps(summary, ensure_ascii=False, indent=2)

    def page_errors(self, rel: str) -> list[tuple[Finding, str | None]]:
        """The errors located in page `rel` (its blocks, its sources, its text), each with the
        anchor of the place on the page that shows it (None: shown in the banner only)."""
        page = self.pages.get(rel)
        if page is None:
            return []
        found: list[tuple[Finding, str | None]] = []
        for block in page.blocks:
            outcome = self.report.outcomes.get(block.key)
            found += [
                (f, block_anchor(block.id)) for f in errors(outcome.findings if outcome else [])
            ]
        for index, status in enumerate(self.sources(rel), 1):
            found += [(f, source_anchor(index)) for f in errors(status.findings)]
        shown = {id(f) for f, _ in found}
        where = self.config.rel(page.path)
        own = {id(f) for f in page.findings}
        for finding in self.errors:
            if id(finding) not in shown and (finding.path == where or id(finding) in own):
                found.append((finding, None))
        return found


def block_anchor(block_id: str) -> str:
    return f"dv-problema-{block_id}"


def source_anchor(index: int) -> str:
    return f"dv-fuente-{index}"


def run_site(
    root: Path, page_paths: list[Path], executor: Executor, nav_path: Path | None = None
) -> BuildResult:
    """A site generator's build: the project at `root`, its pages, its navigation file.

    The runner comes from DOCVERIFY_RUNNER (ValueError when unknown), the local cache is used
    outside CI (read unless DOCVERIFY_CACHE=0), and nothing runs with DOCVERIFY_EXECUTE=0 (an
    error of the build says so).
    """
    config = config_mod.load(root)
    executing, requested = execution_enabled(), config_mod.runner_from_env()
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
        peer_report=peers.from_env(),
    )
    # Counted as `docverify check` counts them (one function for both).
    result.notes.append(
        "docverify: " + counts.line(result.report, cache.hits if cache and cache.read else None)
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
    peer_report: Path | None = None,
) -> BuildResult:
    """Verify every block, judge every source and every article once, and generate the report
    page and the notebooks from those results."""
    day = day or today()
    report = verify(config, pages, runner, executor, cache=cache, execute_blocks=execute_blocks)
    if peer_report is not None:  # CI's publishing build: what the gpu job observed
        report.findings.extend(peers.attach(config, report, peer_report))
    judged = checks.judge(config, pages, day, nav=nav)  # the same checks as `docverify lint`
    result = BuildResult(
        config=config,
        today=day,
        pages={p.rel: p for p in pages},
        report=report,
        fresh=judged.fresh,
        anatomy=judged.anatomy,
        findings=judged.findings + report.findings,
        nav=nav,
    )
    result.report_text = report_page.render(config, pages, report, judged.fresh)
    for page in result.articles():
        if page.blocks:
            sources = [s.source for s in result.sources(page.rel)]
            notebook = notebooks.build(config, page, report, day, sources=sources)
            result.notebooks[page.rel] = (notebooks.notebook_path(page), notebooks.dumps(notebook))
    return result


def summary(found: list[Finding]) -> str:
    """One line after the located findings: how many errors and of which kinds."""
    kinds = Counter(f.kind for f in found)
    count = len(found)
    noun = "error de verificación" if count == 1 else "errores de verificación"
    listed = ", ".join(f"{kind.label} ({n})" for kind, n in kinds.items())
    return f"{count} {noun}: {listed}. Cada uno está descrito arriba, con su archivo y su línea."
