"""The judge: every runner's verdict on every block, against its recordings (the one place).

Every observation of a block's output is an `Observation`: a run here, the local cache, or an
entry of a report.json (a build from reports, the gpu runner's report, a canary's, `docverify
accept`). `verification` is the one loop that judges pages, for every command and build: it
reads each block's recordings once, judges its observation (`judge`: the expectations, the
declared exception, a drawable graph or curve, then the output against the runner's baseline,
baselines.py) and makes its outcome (`outcome`, with what is known of the other runners,
`unobserved`, and how their outputs agree, agreement.py). A verdict is a value: made once here,
never changed, and the observation it judged is left as it came. output/ shows what is decided
here and never compares anything itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from docverify.core import device_marks
from docverify.core.config import RUNNERS, Config
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.core.status import Status
from docverify.core.text import normalise
from docverify.parsing.pages import Block, Page
from docverify.running.protocol import BlockResult, Environment, Expectation
from docverify.verifying import (
    agreement,
    baselines,
    compare,
    curve,
    graph,
    hints,
    messages,
    recordings,
)
from docverify.verifying.outcome import (
    Observation,
    Outcome,
    Provenance,
    Verdict,
    Verification,
    tolerance,
)

Recordings = Mapping[str, recordings.Recording]


def verification(
    config: Config,
    pages: Sequence[Page],
    runner: str,
    observed: Mapping[str, Observation] | None,
    *,
    env: Environment | Mapping[str, str] | None = None,
    findings: Iterable[Finding] = (),
    origin: Provenance | None = None,
    recorded: Mapping[str, Recordings] | None = None,
) -> Verification:
    """The one loop that judges pages: `runner`'s verdict on each block of `pages` from what it
    observed (`observed`, by block key: a block without an entry is not judged here; None:
    nothing ran, every block not run), and each block's outcome, in page order then block
    order. `findings` come first, then each verdict's. `recorded`: the blocks' recordings as
    a verification of the same build read them, by key (each block's are read once a build)."""
    outcomes: dict[str, Outcome] = {}
    found = list(findings)
    for page in pages:
        for number, block in enumerate(page.blocks):
            seen = None if observed is None else observed.get(block.key)
            if observed is not None and seen is None:
                continue
            if recorded is not None and block.key in recorded:
                recs = recorded[block.key]
            else:
                recs = recordings.of_block(config, block)
            if seen is None:
                verdict = unobserved(config, block, runner, recs, Status.NOT_RUN)
            else:
                verdict = judge(config, block, runner, seen, page.blocks[:number], recs)
            found.extend(verdict.findings)
            outcomes[block.key] = outcome(config, block, verdict, recs)
    return Verification(runner, dict(env or {}), list(pages), outcomes, found, origin)


def unobserved(
    config: Config,
    block: Block,
    runner: str,
    recs: Recordings,
    status: Status | None = None,
    findings: tuple[Finding, ...] = (),
) -> Verdict:
    """The verdict of a runner that observed nothing for this version: `status`, by default
    NOT_RUN (not run for this version), or OTHER_RUNNER for a runner the block does not run on.
    A build that deliberately runs nothing gives NOT_RUN to every block, whatever its runner.
    `findings`: why nothing was observed (a report without the block)."""
    if status is None:
        status = Status.NOT_RUN if block.runs_on(runner) else Status.OTHER_RUNNER
    reference = baselines.reference(config, block, runner, recs)
    return Verdict(runner, status, reference, recs.get(runner), findings=findings)


@dataclass
class _Judging:
    """A verdict while it is judged: each failure sets its status and says why."""

    config: Config
    block: Block
    runner: str
    status: Status = Status.OK
    findings: list[Finding] = field(default_factory=list)
    expectations: list[Expectation] = field(default_factory=list)
    compared: str | None = None  # the recording's text the output matched

    def fail(
        self,
        kind: Kind,
        message: str,
        fix: str,
        line: int | None = None,
        detail: str = "",
    ) -> None:
        block, rel = self.block, self.config.rel
        page = f"{rel(self.config.docs_dir / block.page)}:{block.fence_line}"
        self.status = Status.ERROR
        where, message = rel(block.origin), f"{message} (página {page})"
        self.findings.append(
            Finding(kind, message, where, line or block.origin_line, fix, detail=detail)
        )


def judge(
    config: Config,
    block: Block,
    runner: str,
    seen: Observation,
    earlier: Sequence[Block] = (),
    recs: Recordings | None = None,
) -> Verdict:
    """`runner`'s verdict on `block` from what it observed; `earlier` (the page's blocks before
    it) words some hints, `recs` are its recordings (read if not given). The observation is
    left as it is: the verdict holds what was decided of it."""
    recs = recordings.of_block(config, block) if recs is None else recs
    if not block.runs_on(runner):
        return unobserved(config, block, runner, recs)
    if seen.missing is not None:
        return unobserved(config, block, runner, recs, findings=(seen.missing,))  # NOT_RUN
    reference = baselines.reference(config, block, runner, recs)
    judging = _Judging(config, block, runner)
    result = seen.result
    if result is None:
        judging.fail(
            Kind.NO_RESULT,
            f"el bloque «{block.key}» no produjo resultado.",
            "vuelve a ejecutar; si persiste, informa del fallo del motor.",
        )
    else:
        if result.get("stopped"):
            judging.findings.append(messages.stopped_processes(config, block, result["stopped"]))
        if _ran_as_declared(judging, result, earlier) and _drawable(judging, result):
            _compare(judging, result, recs, baselines.choose(runner, reference, recs))
    return Verdict(
        runner,
        judging.status,
        reference,
        recs.get(runner),
        result,
        None if result is None else seen.seen,
        tuple(judging.findings),
        tuple(judging.expectations),
        judging.compared,
    )


def outcome(config: Config, block: Block, verdict: Verdict, recs: Recordings) -> Outcome:
    """`block`'s outcome in a build on `verdict.runner`: that verdict, and what is known of
    every other runner the block runs on (its recording, or what its run will need)."""
    verdicts = {
        r: verdict if r == verdict.runner else unobserved(config, block, r, recs)
        for r in RUNNERS
        if r == verdict.runner or block.runs_on(r)
    }
    return _agreed(config, Outcome(block, verdict.runner, recs, verdicts))


def attach(config: Config, made: Outcome, verdict: Verdict) -> Outcome:
    """`made` with another runner's verdict, observed by its report, in place of what was
    known of it (a new outcome: `made` stays as it was)."""
    verdicts = {**made.verdicts, verdict.runner: verdict}
    return _agreed(config, dataclasses.replace(made, verdicts=verdicts))


def _agreed(config: Config, made: Outcome) -> Outcome:
    """`made` with each shown output's agreement with the first (agreement.py): a new outcome."""
    found = agreement.agreed(config, made)
    verdicts = {
        r: dataclasses.replace(v, agreement=found[r]) if r in found else v
        for r, v in made.verdicts.items()
    }
    return dataclasses.replace(made, verdicts=verdicts)


def _ran_as_declared(judging: _Judging, result: BlockResult, earlier: Sequence[Block]) -> bool:
    """Expectations held, the block ran to its end, and it raised what it declares (or
    nothing): False, with the failure, otherwise."""
    block, config = judging.block, judging.config
    tol = tolerance(config, block)
    for item in result["expectations"]:
        held = compare.expectation_holds(item["expected"], item["observed"], tol)
        judging.expectations.append({**item, "ok": held})
        if not held:
            judging.fail(
                Kind.EXPECTATION,
                f"«{block.key}»: Esperado {item['expected']} · Observado {item['observed']}",
                hints.expectation_fix(item["expected"], item["observed"])
                or "corrige el código o el comentario «# Expectativa:».",
                line=item["line"],
            )
    if result["error"]:
        line = result.get("error_line") or block.origin_line  # a timeout: the line it ran
        judging.fail(
            Kind.EXECUTION_FAILURE,
            f"el bloque «{block.key}» {result['error']}",
            messages.execution_fix(config, block, result, line),
            line=line,
        )
        return False
    raises = block.options.get("raises")
    if result["exception"] and not compare.declared_exception(raises, result):
        judging.fail(
            Kind.UNEXPECTED_EXCEPTION,
            f"el bloque «{block.key}» lanzó {result['exception']}",
            hints.missing_module_fix(result)
            or hints.name_error_fix(block, result, earlier)
            or "corrige el código o, si el error es lo que el bloque enseña, declara "
            'raises="Tipo: inicio del mensaje".',
            line=result.get("exception_line"),
            detail=result["traceback"],
        )
        return False
    if raises and not result["exception"]:
        judging.fail(
            Kind.MISSING_EXCEPTION,
            f"el bloque «{block.key}» debía lanzar «{raises}» y terminó sin error.",
            'corrige el código o quita raises="…".',
        )
        return False
    return True


def _drawable(judging: _Judging, result: BlockResult) -> bool:
    """A `graph=` or `curve=` block printed what its picture is drawn from."""
    block, output = judging.block, normalise(result["output"])
    if block.options.get(graph.OPTION) and (why := messages.unreadable(graph.parse, output)):
        judging.fail(
            Kind.UNREADABLE_GRAPH, messages.unreadable_graph(block, why), messages.GRAPH_FIX
        )
        return False
    if block.options.get(curve.OPTION) and (why := messages.unreadable(curve.parse, output)):
        judging.fail(
            Kind.UNREADABLE_CURVE,
            messages.unreadable_curve(block, why, "su salida"),
            messages.CURVE_FIX,
        )
        return False
    return True


def _compare(
    judging: _Judging, result: BlockResult, recs: Recordings, baseline: baselines.Baseline
) -> None:
    """The output against the runner's baseline: missing, divergent, or matching (and then,
    for a curve, the recording it is drawn from must read as one)."""
    config, block, runner = judging.config, judging.block, judging.runner
    tol = tolerance(config, block)
    if baseline.recording is None:
        judging.status = Status.MISSING
        judging.findings.append(messages.missing_recording(config, block, runner, recs))
        return
    recording, output = baseline.recording, result["output"]
    if not baseline.matches(output, tol):
        judging.status = Status.DIVERGE
        judging.findings.append(messages.divergence(config, block, result, baseline, tol))
        return
    if runner == device_marks.RUNNER and (
        problem := messages.stale_marks(config, block, recording, result)
    ):
        judging.findings.append(problem)  # the output matched: its status stays OK
    judging.compared = normalise(recording.body)  # the curve is drawn from what it matched
    if block.options.get(curve.OPTION) and (
        why := messages.unreadable(curve.parse, judging.compared)
    ):
        judging.fail(
            Kind.UNREADABLE_CURVE,
            messages.unreadable_curve(block, why, f"su grabación {config.rel(recording.path)}"),
            "la curva se dibuja de la grabación: deja en ella los números de cada punto "
            '(sin marcadores [..]) o quita curve="…".',
        )
