"""What a verification decided: each runner's verdict on a block, the block's outcome, the run.

The judge (judge.py) decides every verdict, whatever the output came from: a run here, the
local cache, a report of a verification job, the gpu runner's report, a canary's, or the report
`docverify accept` adopts. A verdict carries everything a page, a notebook or the verification
page shows of it (the output, where and when it was observed, which recording it is compared
with, whether it is the output shown beside it), so output/ renders it and never decides it.

«Report» names one thing in the engine: report.json (report/). A run's result is a
`Verification`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from docverify.core import volatile
from docverify.core.config import Config
from docverify.core.findings import Finding
from docverify.core.status import Status
from docverify.core.text import normalise
from docverify.parsing.pages import Block, Page, page_stem
from docverify.running.protocol import BlockResult, Environment, Expectation
from docverify.verifying import compare
from docverify.verifying.recordings import Recording


class SeenIn(StrEnum):
    """Where a runner's output was observed."""

    BUILD = "build"  # this build ran the block
    CACHE = "cache"  # the local cache gave what an earlier run of the same code observed
    REPORT = "report"  # a verification job's report.json (report/)


@dataclass(frozen=True)
class Provenance:
    """Where and when one runner observed a block's output."""

    runner: str
    torch: str
    device: str
    date: str  # ISO date of the run
    source: SeenIn
    run_url: str = ""  # REPORT: the CI run ("" for a local `docverify check --report`)
    reports: tuple[str, ...] = ()  # REPORT: the report files, as given
    shards: str = ""  # REPORT: "N" when merged from the reports of N shards


class Agreement(StrEnum):
    """How a runner's shown output relates to the first output its block's panel shows."""

    SAME = "same"  # the same output
    SAME_BUT_DEVICE = "same-but-device"  # the same but the device='cuda:N' argument
    DIFFERENT = "different"


@dataclass(frozen=True)
class Reference:
    """Which recording a runner compares a block with (verifying/baselines.py decides)."""

    runner: str | None  # the runner whose recording it is (None: none yet)
    described: str  # in Spanish: that recording's file, or which one is missing and why
    needed: str  # with none: the runner whose recording it needs (its own or its fallback's)
    fallback: str | None = None  # the runner whose recording stands in when it has none
    needs_own: tuple[str, ...] = ()  # device marks that forbid comparing with the fallback's


@dataclass(frozen=True)
class Observation:
    """What one runner observed of one block, wherever it came from: a run here or the local
    cache (`seen` says which), or a report's entry. With no result, `missing` says why none
    can be judged (a report that is stale or lacks the block): the block is then not run now."""

    result: BlockResult | None
    seen: Provenance | None = None  # where and when it was observed
    missing: Finding | None = None


@dataclass(frozen=True)
class Verdict:
    """One runner's verdict on one block: decided once (judge.py), shown as it is. Nothing
    changes it once made; the result it judged is left as it was observed."""

    runner: str
    status: Status
    reference: Reference
    recording: Recording | None = None  # this runner's own recording
    result: BlockResult | None = None  # what the run produced (None: not observed)
    provenance: Provenance | None = None  # where and when it was observed
    findings: tuple[Finding, ...] = ()
    expectations: tuple[Expectation, ...] = ()  # each with whether it held (`ok`)
    compared: str | None = None  # the recording's text the output matched (a curve's points)
    agreement: Agreement | None = None  # against the first output the panel shows

    @property
    def observed(self) -> str | None:
        """The output a run observed, normalised (None when no run observed it)."""
        return None if self.result is None else normalise(self.result["output"])

    @property
    def text(self) -> str | None:
        """What a panel shows for this runner: its observed output, else its own recording."""
        if self.result is not None:
            return self.observed
        return None if self.recording is None else normalise(self.recording.body)


@dataclass(frozen=True)
class Outcome:
    """One block in one build: the verdict of the build's runner and of every other runner
    the block runs on (observed by a report, or only what its recordings say)."""

    block: Block
    runner: str  # the build's runner
    recordings: Mapping[str, Recording]
    verdicts: Mapping[str, Verdict]

    @property
    def verdict(self) -> Verdict:
        """The build runner's verdict."""
        return self.verdicts[self.runner]

    @property
    def status(self) -> Status:
        return self.verdict.status

    @property
    def result(self) -> BlockResult | None:
        return self.verdict.result

    @property
    def findings(self) -> tuple[Finding, ...]:
        return self.verdict.findings

    @property
    def expectations(self) -> tuple[Expectation, ...]:
        return self.verdict.expectations

    @property
    def observed(self) -> str | None:
        return self.verdict.observed

    @property
    def recording(self) -> Recording | None:
        return self.recordings.get(self.runner)

    def others(self) -> list[Verdict]:
        """The verdicts a panel shows after the build runner's, in runner order: the other
        runners', and every runner's when the build did not run the block."""
        again = self.status == Status.NOT_RUN
        return [
            v
            for r, v in self.verdicts.items()
            if (r != self.runner or again) and self.block.runs_on(r)
        ]

    def reported(self, runner: str) -> Verdict | None:
        """`runner`'s verdict when a report observed it (the gpu runner's on a cpu build)."""
        verdict = self.verdicts.get(runner)
        source = verdict.provenance.source if verdict and verdict.provenance else None
        return verdict if runner != self.runner and source == SeenIn.REPORT else None


@dataclass(frozen=True)
class Verification:
    """One verification of some pages on a runner: every block's outcome, in page order.
    Adding to it (another runner's report, more findings) makes a new one."""

    runner: str
    env: Environment | dict[str, str]  # empty when nothing ran
    pages: list[Page]
    outcomes: Mapping[str, Outcome]
    findings: list[Finding]
    origin: Provenance | None = None  # a build from reports: they observed, nothing ran here

    def outcome(self, page: str, block_id: str) -> Outcome | None:
        """The outcome of block `block_id` of page `page` (outcomes are keyed by Block.key)."""
        return self.outcomes.get(f"{page_stem(page)}/{block_id}")


def tolerance(config: Config, block: Block) -> compare.Tolerance:
    return compare.Tolerance(
        rtol=block.number("rtol", config.rtol),
        atol=block.number("atol", config.atol),
        volatile=volatile.active(block.options.get("literal")),
    )


def provenance(
    runner: str, env: Environment | dict[str, str], result: BlockResult, day: dt.date
) -> Provenance:
    """Where a result of this process's run was observed: here on `day`, or by the cache."""
    cached = result.get("cached")
    return Provenance(
        runner,
        env.get("torch", "?"),
        env.get("device", "?"),
        cached or day.isoformat(),
        SeenIn.CACHE if cached else SeenIn.BUILD,
    )
