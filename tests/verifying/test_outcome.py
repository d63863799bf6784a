"""verifying.outcome: which verdicts a panel shows, which one a report observed, a block's
tolerance and where a result of this run was observed."""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import pytest
from conftest import Project
from docverify.core.status import Status
from docverify.parsing.pages import Block
from docverify.verifying import compare
from docverify.verifying.outcome import (
    Outcome,
    Provenance,
    Reference,
    SeenIn,
    Verdict,
    provenance,
    tolerance,
)


def _block(**options: str) -> Block:
    return Block("a.md", "b", "print(1)", Path("a.md"), 1, 1, options=dict(options))


def _seen(runner: str, source: SeenIn) -> Provenance:
    return Provenance(runner, "2.13.0", "cpu", "2026-01-02", source)


def _verdict(runner: str, source: SeenIn | None = None, status: Status = Status.OK) -> Verdict:
    seen = _seen(runner, source) if source else None
    return Verdict(runner, status, Reference(None, "", runner), provenance=seen)


def _outcome(block: Block, status: Status, **verdicts: Verdict) -> Outcome:
    cpu = dataclasses.replace(verdicts.pop("cpu", _verdict("cpu")), status=status)
    return Outcome(block, "cpu", {}, {"cpu": cpu, **verdicts})


def test_others_are_the_verdicts_shown_after_the_build_runners() -> None:
    gpu = _verdict("gpu", status=Status.NOT_RUN)
    ran = _outcome(_block(), Status.OK, gpu=gpu)
    assert ran.others() == [gpu]
    # the build did not run it: every runner's verdict, the build runner's first
    not_run = _outcome(_block(), Status.NOT_RUN, gpu=gpu)
    assert not_run.others() == [not_run.verdicts["cpu"], gpu]
    # only the runners the block runs on
    only_cpu = _block(runner="cpu")
    assert _outcome(only_cpu, Status.OK, gpu=gpu).others() == []
    not_run_cpu = _outcome(only_cpu, Status.NOT_RUN, gpu=gpu)
    assert not_run_cpu.others() == [not_run_cpu.verdicts["cpu"]]
    assert _outcome(_block(runner="gpu"), Status.OTHER_RUNNER, gpu=gpu).others() == [gpu]


@pytest.mark.parametrize(
    ("source", "reported"),
    [(SeenIn.REPORT, True), (SeenIn.BUILD, False), (SeenIn.CACHE, False), (None, False)],
)
def test_reported_is_another_runners_verdict_seen_in_a_report(
    source: SeenIn | None, reported: bool
) -> None:
    gpu = _verdict("gpu", source)
    made = _outcome(_block(), Status.OK, gpu=gpu)
    assert made.reported("gpu") is (gpu if reported else None)


def test_the_build_runners_own_verdict_is_never_reported() -> None:
    """Even when a report observed it (a build from reports)."""
    cpu = _verdict("cpu", SeenIn.REPORT)
    made = _outcome(_block(), Status.OK, cpu=cpu, gpu=_verdict("gpu", SeenIn.REPORT))
    assert made.reported("cpu") is None
    assert made.reported("gpu") is made.verdicts["gpu"]
    assert _outcome(_block(), Status.OK, cpu=cpu).reported("gpu") is None  # no gpu verdict


def test_tolerance_takes_the_blocks_options_else_the_sites(project: Project) -> None:
    cfg = project.config
    assert (cfg.rtol, cfg.atol) == (1e-5, 1e-8)  # conftest's pyproject
    every = compare.Tolerance(1e-5, 1e-8).volatile
    assert tolerance(cfg, _block()) == compare.Tolerance(1e-5, 1e-8, every)
    assert tolerance(cfg, _block(rtol="0.25")) == compare.Tolerance(0.25, 1e-8, every)
    assert tolerance(cfg, _block(atol="0.5")) == compare.Tolerance(1e-5, 0.5, every)
    assert tolerance(cfg, _block(literal="all")) == compare.Tolerance(1e-5, 1e-8, ())
    off = every[0]
    assert tolerance(cfg, _block(literal=off)).volatile == every[1:]


def test_provenance_of_a_run_here_or_from_the_cache() -> None:
    env = {"torch": "2.13.0+cpu", "python": "3.11.7", "device": "cpu (x86_64)"}
    day = dt.date(2026, 1, 2)
    result: dict = {"output": "1\n"}
    assert provenance("cpu", env, result, day) == Provenance(
        "cpu", "2.13.0+cpu", "cpu (x86_64)", "2026-01-02", SeenIn.BUILD
    )
    cached = {**result, "cached": "2025-12-30"}
    assert provenance("gpu", env, cached, day) == Provenance(
        "gpu", "2.13.0+cpu", "cpu (x86_64)", "2025-12-30", SeenIn.CACHE
    )
    assert provenance("cpu", {}, result, day) == Provenance("cpu", "?", "?", "2026-01-02", "build")
