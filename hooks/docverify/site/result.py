# One build of the site: everything the engine knows about it, computed once per build.
"""The build result: pages, outcomes, sources with their freshness, anatomy and site findings.

The build pipeline (docverify/build.py) makes one `BuildResult` per build, frozen, with
everything it holds; the site's one render (output/render.py) and the adapters only look things
up in it: what each page shows, the verification page («Informe de verificación»), the
notebooks, and the errors that fail the build.
It lives in site/ so that output/ reads it without importing the pipeline above it. Nothing
here imports MkDocs; nothing is judged twice.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from docverify.core.config import Config
from docverify.core.findings import Finding, errors
from docverify.parsing.pages import Page
from docverify.report import canary
from docverify.site import anatomy, checks, coverage, glossary, navigation
from docverify.sources import freshness
from docverify.verifying.outcome import Outcome, Verification


@dataclass(frozen=True)
class BuildResult:
    """What one build verified and judged; looked up, never recomputed, never changed."""

    config: Config
    today: dt.date
    pages: dict[str, Page]  # docs-relative path → page, in site order
    verification: Verification
    fresh: freshness.Freshness
    anatomy: dict[str, list[Finding]]  # page → its anatomy findings (articles only)
    findings: list[Finding]  # every finding, in the order the terminal shows them
    glossary: glossary.Glossary | None = None  # the site's terms, when it has a data file
    notes: tuple[str, ...] = ()  # for the terminal (cache use, a canary's changes)
    nav: navigation.Nav | None = None  # the site's navigation: the order of its articles
    canary: canary.CanaryView | None = None  # a torch canary's report, when the build was given one
    # Where this version ran (cpu, gpu, how many blocks, on which GPU): every sentence of the
    # site about the runners comes from it (output/coverage_text.py).
    coverage: coverage.Coverage | None = None

    @property
    def errors(self) -> list[Finding]:
        """Every error of the build: any one of them fails it."""
        return errors(self.findings)

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
        return self.verification.outcome(rel, block_id)

    def page_errors(self, rel: str) -> list[tuple[Finding, str | None]]:
        """The errors located in page `rel` (its blocks, its sources, its text), each with the
        anchor of the place on the page that shows it (None: shown in the banner only)."""
        page = self.pages.get(rel)
        if page is None:
            return []
        found: list[tuple[Finding, str | None]] = []
        for block in page.blocks:
            outcome = self.verification.outcomes.get(block.key)
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
