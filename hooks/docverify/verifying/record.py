"""Recording: run pages on a runner and write the recordings whose output changed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from docverify.core import device_marks
from docverify.core.config import Config, in_ci, today
from docverify.core.files import write_atomic
from docverify.core.findings import Finding, Level, errors
from docverify.core.kinds import Kind
from docverify.core.status import Status
from docverify.parsing.pages import Page
from docverify.running.executor import Executor
from docverify.running.protocol import BlockResult
from docverify.verifying import compare, judge, recordings
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
    date = today().isoformat()
    for page in pages:
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
                    _rewrite_marks(config, old, marks, recorded)  # the header's marks line only
                else:
                    recorded.unchanged += 1
                continue
            tol = tolerance(config, block)
            body = compare.merge(old.body if old else None, result["output"], tol)
            path = recordings.path_for(config, block, runner)
            write_atomic(path, recordings.render(block, runner, env, date, body, marks=marks))
            label = config.rel(path)
            before = old.body if old else ""
            diff = compare.diff(before, body, f"{label} (antes)", f"{label} (ahora)")
            recorded.written.append((label, diff))
    return recorded


def _rewrite_marks(
    config: Config, old: recordings.Recording, marks: tuple[str, ...], recorded: Recorded
) -> None:
    """Write `old` again with only its device marks line changed, the diff of that line shown."""
    before, after = recordings.with_marks(old, marks)
    write_atomic(old.path, after)
    label = config.rel(old.path)
    recorded.written.append(
        (label, compare.diff(before, after, f"{label} (antes)", f"{label} (ahora)"))
    )
