"""Recording: run pages on a runner and write the recordings whose output changed, once a
second run in new processes printed the same (stability.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from docverify.core import device_marks
from docverify.core.config import Config, in_ci, today
from docverify.core.files import write_atomic
from docverify.core.findings import Finding, Level, errors
from docverify.core.kinds import Kind
from docverify.core.status import Status
from docverify.parsing.pages import Block, Page
from docverify.running.executor import Executor
from docverify.running.protocol import BlockResult
from docverify.verifying import compare, judge, recordings, stability
from docverify.verifying.outcome import tolerance
from docverify.verifying.verify import execute

# What recording fixes: a judge's findings that do not stop a block from being recorded.
RECORDED = (
    Kind.MISSING_RECORDING,
    Kind.DIVERGENCE,
    Kind.VOLATILE_DIVERGENCE,
    Kind.DEVICE_MARKS,
)


@dataclass
class Recorded:
    written: list[tuple[str, str]]  # (path, diff)
    unchanged: int
    findings: list[Finding]
    env: dict[str, str]
    run_twice: int = 0  # pages run a second time (stability.py) because they had outputs to write


@dataclass
class _Write:
    """One file record means to write: its new text, and the diff shown for it."""

    path: Path
    text: str
    diff: str


@dataclass
class _PagePlan:
    """What recording one page would write (`writes`, a header's device marks line alone
    included) and, in `outputs`, the blocks whose output is new or changed, each with the body
    to write, which the second run must match."""

    page: Page
    writes: list[_Write] = field(default_factory=list)
    outputs: list[tuple[Block, str]] = field(default_factory=list)


def record(
    config: Config,
    pages: list[Page],
    runner: str,
    executor: Executor,
    *,
    run: Callable[..., tuple[dict[str, BlockResult], dict[str, str]]] = execute,
) -> Recorded:
    """Write the recordings whose baseline no longer holds. Refuses under CI (a finding of kind
    `refused`, nothing run) and failed blocks.

    Plan, then apply: every page that would get a new or changed output runs a second time, in
    new page processes, and a page with a block whose two runs differ is refused whole
    (stability.py); only then is anything written. Pages with nothing to write run once.

    On gpu, a block whose output matches its cpu recording under the device rule gets no
    `.gpu.txt`: only the blocks that really differ are recorded (see baselines.py). `run`
    executes the blocks, as in verify.verify.
    """
    if in_ci():
        refused = Finding(
            Kind.REFUSED,
            "docverify record se niega a grabar con CI=true: las grabaciones se revisan y se "
            "confirman a mano.",
            "CI",
            0,
            "ejecútalo en local y confirma los cambios con git.",
        )
        return Recorded([], 0, [refused], {})
    results, env = run(config, pages, runner, executor)
    recorded = Recorded([], 0, [f for p in pages for f in p.findings], env)
    plans = [_plan(config, page, runner, results, env, recorded) for page in pages]
    changed = [plan for plan in plans if plan.outputs]
    if changed:
        again, _ = run(config, [plan.page for plan in changed], runner, executor)
        recorded.run_twice = len(changed)
        for plan in changed:
            refusals = [
                refusal
                for block, body in plan.outputs
                if (
                    refusal := stability.unstable(
                        config,
                        block,
                        runner,
                        body,
                        results[block.key],
                        again.get(block.key),
                        tolerance(config, block),
                    )
                )
            ]
            if refusals:
                recorded.findings.extend(refusals)
                plan.writes.clear()
    for plan in plans:
        for write in plan.writes:
            write_atomic(write.path, write.text)
            recorded.written.append((config.rel(write.path), write.diff))
    return recorded


def _plan(
    config: Config,
    page: Page,
    runner: str,
    results: dict[str, BlockResult],
    env: dict[str, str],
    recorded: Recorded,
) -> _PagePlan:
    """What recording `page` would write from `results`; its findings and the blocks whose
    recording already holds go into `recorded` now."""
    plan = _PagePlan(page)
    date = today().isoformat()
    for number, block in enumerate(page.blocks):
        if not block.runs_on(runner):
            continue
        result = results.get(block.key)
        verdict = judge.judge(config, block, runner, result, page.blocks[:number])
        blocking = [f for f in errors(verdict.findings) if f.kind not in RECORDED]
        # What is only reported (processes it left running) is shown, and blocks nothing.
        recorded.findings.extend(f for f in verdict.findings if f.level is not Level.ERROR)
        if blocking or result is None:
            recorded.findings.extend(blocking)
            continue
        old = verdict.recording
        marks = device_marks.kept(runner, result.get("device_dependent", []))
        if verdict.status == Status.OK:  # its baseline (maybe the cpu one) already holds
            if old is not None and runner == device_marks.RUNNER and old.marks != marks:
                before, after = recordings.with_marks(old, marks)  # the marks line only
                plan.writes.append(_Write(old.path, after, _diff(config, old.path, before, after)))
            else:
                recorded.unchanged += 1
            continue
        body = compare.merge(old.body if old else None, result["output"], tolerance(config, block))
        path = recordings.path_for(config, block, runner)
        text = recordings.render(block, runner, env, date, body, marks=marks)
        plan.writes.append(_Write(path, text, _diff(config, path, old.body if old else "", body)))
        plan.outputs.append((block, body))
    return plan


def _diff(config: Config, path: Path, before: str, after: str) -> str:
    label = config.rel(path)
    return compare.diff(before, after, f"{label} (antes)", f"{label} (ahora)")
