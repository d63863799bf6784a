"""What a verification produced: each block's outcome on a runner, and the run's `Verification`.

«Report» names one thing in the engine: report.json, the file `docverify check --report` writes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from docverify.core import volatile
from docverify.core.config import RUNNERS, Config
from docverify.core.findings import Finding
from docverify.core.status import Status
from docverify.parsing.pages import Block, Page, page_stem
from docverify.running.protocol import BlockResult, Environment, Expectation
from docverify.verifying import compare, recordings


@dataclass(frozen=True)
class Origin:
    """Where a build's outputs were observed when the build itself ran nothing: the check
    report(s) of a verification job (report/from_reports.py)."""

    date: str  # ISO date of the run
    run_url: str  # the CI run, or "" for a local `docverify check --report`
    device: str
    torch: str
    reports: tuple[str, ...]  # the report files, as given
    shards: str = ""  # "N" when merged from N shards


@dataclass
class Outcome:
    """What happened to one block on one runner, and what readers will see."""

    block: Block
    runner: str
    result: BlockResult | None
    recordings: dict[str, recordings.Recording]
    status: Status
    findings: list[Finding] = field(default_factory=list)
    expectations: list[Expectation] = field(default_factory=list)
    # Other runners' observations of this same code, from their check report (report/gpu_report.py).
    peers: dict[str, Any] = field(default_factory=dict)
    # Set when the result was read from a check report instead of run here (report/from_reports.py).
    origin: Origin | None = None

    @property
    def observed(self) -> str | None:
        return None if self.result is None else compare.normalise(self.result["output"])

    @property
    def recording(self) -> recordings.Recording | None:
        return self.recordings.get(self.runner)


@dataclass
class Verification:
    """One verification of some pages on a runner: every block's outcome, in page order."""

    runner: str
    env: Environment | dict[str, str]  # empty when nothing ran
    pages: list[Page]
    outcomes: dict[str, Outcome]
    findings: list[Finding]
    origin: Origin | None = None  # a build from reports: nothing ran here (report/from_reports.py)

    def outcome(self, page: str, block_id: str) -> Outcome | None:
        """The outcome of block `block_id` of page `page` (outcomes are keyed by Block.key)."""
        return self.outcomes.get(f"{page_stem(page)}/{block_id}")


def tolerance(config: Config, block: Block) -> compare.Tolerance:
    return compare.Tolerance(
        rtol=block.number("rtol", config.rtol),
        atol=block.number("atol", config.atol),
        volatile=volatile.active(block.options.get("literal")),
    )


def declared_exception(raises: str | None, result: BlockResult) -> bool:
    """Is the block's exception the one its raises="Type: message start" option declares?"""
    if not raises or not result["exception"]:
        return False
    name, _, prefix = raises.partition(":")
    return name.strip() in result.get("exception_type", []) and result.get(
        "exception_message", ""
    ).startswith(prefix.strip())


def execution_enabled() -> bool:
    """False with DOCVERIFY_EXECUTE=0: only for measuring a build without execution (bench)."""
    return os.environ.get("DOCVERIFY_EXECUTE", "1").strip().lower() not in (
        "0",
        "false",
        "no",
        "off",
    )


def not_run(config: Config, block: Block, runner: str) -> Outcome:
    """An outcome for a block that was deliberately not executed: recordings only."""
    recs = {r: rec for r in RUNNERS if (rec := recordings.load(config, block, r))}
    return Outcome(block, runner, None, recs, Status.NOT_RUN)
