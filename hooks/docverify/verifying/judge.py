"""The judge: one runner's verdict on one block, against its recordings (the one place).

Every observation of a block's output is a BlockResult, wherever it came from: a run here, the
local cache, or an entry of a report.json (a build from reports, the gpu runner's report, a
canary's, `docverify accept`). `judge` decides its verdict: the expectations, the declared
exception, a drawable graph or curve, then the output against the runner's baseline
(baselines.py). `unobserved` says what is known of a runner that observed nothing; `outcome`
puts a block's verdicts together (agreement.py: how each output its panel shows relates to the
first one). output/ shows what is decided here and never compares anything itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from docverify.core import device_marks, device_rule
from docverify.core.config import RUNNERS, Config
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.core.status import Status
from docverify.core.text import normalise
from docverify.parsing.pages import Block
from docverify.running.protocol import BlockResult
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
    Outcome,
    Provenance,
    Reference,
    Verdict,
    tolerance,
)

Recordings = dict[str, recordings.Recording]


def recordings_of(config: Config, block: Block) -> Recordings:
    """Every recording of `block`, one per runner that has one."""
    return {r: rec for r in RUNNERS if (rec := recordings.load(config, block, r))}


def reference(config: Config, block: Block, runner: str, recs: Recordings) -> Reference:
    """Which recording `runner` compares `block` with, and what it needs without one."""
    return Reference(
        runner=baselines.source_runner(block, runner, recs),
        described=baselines.describe(config, block, runner, recs),
        needed=baselines.expected_runner(block, runner, recs),
        fallback=baselines.FALLBACK.get(runner),
        needs_own=baselines.needs_own(block, runner, recs),
    )


def unobserved(
    config: Config, block: Block, runner: str, recs: Recordings, status: Status | None = None
) -> Verdict:
    """The verdict of a runner that observed nothing for this version: `status`, by default
    NOT_RUN (not run for this version), or OTHER_RUNNER for a runner the block does not run on.
    A build that deliberately runs nothing gives NOT_RUN to every block, whatever its runner."""
    if status is None:
        status = Status.NOT_RUN if block.runs_on(runner) else Status.OTHER_RUNNER
    return Verdict(runner, status, reference(config, block, runner, recs), recs.get(runner))


@dataclass
class _Judging:
    """A verdict while it is judged: each failure sets its status and says why."""

    config: Config
    block: Block
    verdict: Verdict

    def fail(
        self,
        kind: Kind,
        message: str,
        fix: str,
        line: int | None = None,
        detail: str = "",
        status: Status = Status.ERROR,
    ) -> None:
        block = self.block
        page = f"{self.config.rel(self.config.docs_dir / block.page)}:{block.fence_line}"
        self.verdict.status = status
        self.verdict.findings.append(
            Finding(
                kind,
                f"{message} (página {page})",
                self.config.rel(block.origin),
                line or block.origin_line,
                fix,
                detail=detail,
            )
        )


def judge(
    config: Config,
    block: Block,
    runner: str,
    result: BlockResult | None,
    earlier: Sequence[Block] = (),
    *,
    seen: Provenance | None = None,
    recs: Recordings | None = None,
) -> Verdict:
    """`runner`'s verdict on `block` from `result`, observed as `seen` says; `earlier` (the
    page's blocks before it) words some hints, `recs` are its recordings (read if not given)."""
    recs = recordings_of(config, block) if recs is None else recs
    if not block.runs_on(runner):
        return unobserved(config, block, runner, recs)
    verdict = Verdict(runner, Status.OK, reference(config, block, runner, recs), recs.get(runner))
    judging = _Judging(config, block, verdict)
    if result is None:
        judging.fail(
            Kind.NO_RESULT,
            f"el bloque «{block.key}» no produjo resultado.",
            "vuelve a ejecutar; si persiste, informa del fallo del motor.",
        )
        return verdict
    verdict.result, verdict.provenance = result, seen
    if result.get("stopped"):
        verdict.findings.append(messages.stopped_processes(config, block, result["stopped"]))
    if _ran_as_declared(judging, result, earlier) and _drawable(judging, result):
        _compare(judging, result, recs)
    return verdict


def outcome(config: Config, block: Block, verdict: Verdict, recs: Recordings) -> Outcome:
    """`block`'s outcome in a build on `verdict.runner`: that verdict, and what is known of
    every other runner the block runs on (its recording, or what its run will need)."""
    verdicts = {
        r: verdict if r == verdict.runner else unobserved(config, block, r, recs)
        for r in RUNNERS
        if r == verdict.runner or block.runs_on(r)
    }
    made = Outcome(block, verdict.runner, recs, verdicts)
    agreement.agree(config, made)
    return made


def attach(config: Config, made: Outcome, verdict: Verdict) -> None:
    """Another runner's verdict, observed by its report, in place of what was known of it."""
    made.verdicts[verdict.runner] = verdict
    agreement.agree(config, made)


def _ran_as_declared(judging: _Judging, result: BlockResult, earlier: Sequence[Block]) -> bool:
    """Expectations held, the block ran to its end, and it raised what it declares (or
    nothing): False, with the failure, otherwise."""
    block, config = judging.block, judging.config
    tol = tolerance(config, block)
    for item in result["expectations"]:
        item["ok"] = compare.expectation_holds(item["expected"], item["observed"], tol)
        judging.verdict.expectations.append(item)
        if not item["ok"]:
            judging.fail(
                Kind.EXPECTATION,
                f"«{block.key}»: Esperado {item['expected']} · Observado {item['observed']}",
                hints.expectation_fix(item["expected"], item["observed"])
                or "corrige el código o el comentario «# Expectativa:».",
                line=item["line"],
            )
    if result["error"]:
        judging.fail(
            Kind.EXECUTION_FAILURE,
            f"el bloque «{block.key}» {result['error']}",
            f"corrige el código en {config.rel(block.origin)}:{block.origin_line}; si "
            'necesita más tiempo, añade timeout="segundos" al bloque.',
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
            Kind.UNREADABLE_GRAPH,
            f'el bloque «{block.key}» lleva {graph.OPTION}="…" y su salida no se puede '
            f"dibujar: {why}",
            "imprime un nodo por línea, «[0] MulBackward0 → [1], [2]», como el ayudante "
            'describir_grafo de la guía de autores; o quita graph="…".',
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


def _compare(judging: _Judging, result: BlockResult, recs: Recordings) -> None:
    """The output against the runner's baseline: missing, divergent, or matching (and then,
    for a curve, the recording it is drawn from must read as one)."""
    config, block, verdict = judging.config, judging.block, judging.verdict
    tol = tolerance(config, block)
    baseline = baselines.choose(block, recs, verdict.runner)
    if baseline.recording is None:
        verdict.status = Status.MISSING
        verdict.findings.append(messages.missing_recording(config, block, verdict.runner, recs))
        return
    recording, output = baseline.recording, result["output"]
    if not baseline.matches(output, tol):
        _diverges(judging, result, baseline)
        return
    if verdict.runner == device_marks.RUNNER and (
        problem := messages.stale_marks(config, block, recording, result)
    ):
        verdict.findings.append(problem)  # the output matched: its status stays OK
    verdict.compared = normalise(recording.body)  # the curve is drawn from what it matched
    if block.options.get(curve.OPTION) and (
        why := messages.unreadable(curve.parse, verdict.compared)
    ):
        judging.fail(
            Kind.UNREADABLE_CURVE,
            messages.unreadable_curve(block, why, f"su grabación {config.rel(recording.path)}"),
            "la curva se dibuja de la grabación: deja en ella los números de cada punto "
            '(sin marcadores [..]) o quita curve="…".',
        )


def _diverges(judging: _Judging, result: BlockResult, baseline: baselines.Baseline) -> None:
    config, block, runner = judging.config, judging.block, judging.verdict.runner
    tol = tolerance(config, block)
    recording = baseline.recording
    assert recording is not None
    fix_record = f"docverify record --runner {runner} {config.rel(config.docs_dir / block.page)}"
    rule = f", con la {device_rule.NAME}" if baseline.device_rule else ""
    # As compared (suffixes joined under the device rule), numbered as the original texts.
    expected, observed = baseline.expected(), baseline.comparable(result["output"])
    label = f"observado ({runner}{rule})"
    detail = messages.output_diff(config, baseline, result["output"], tol, label)
    first = hints.first_difference(expected.text, observed.text, tol)
    line = hints.writer_line(result, observed.original(first))
    if fix_volatile := hints.volatile_fix(recording, observed.text, tol, expected):
        judging.fail(
            Kind.VOLATILE_DIVERGENCE,
            f"la salida de «{block.key}» en {runner} solo difiere de su grabación en "
            "valores que parecen cambiar en cada ejecución (hexadecimales, números de "
            "diez cifras o más).",
            fix_volatile,
            line=line,
            detail=detail,
            status=Status.DIVERGE,
        )
        return
    if baseline.device_rule:
        own = config.rel(recordings.path_for(config, block, runner))
        fix = (
            f"si la salida en {runner} es correcta, grábala aparte ({own}): "
            f"docverify accept CARPETA con el informe del trabajo {runner} de CI, o "
            f"{fix_record} en una máquina con GPU; si no, corrige el código."
        )
    else:
        fix = f"si el cambio es correcto: {fix_record}; si no, corrige el código."
    judging.fail(
        Kind.DIVERGENCE,
        f"la salida de «{block.key}» en {runner} no coincide con su grabación"
        f" ({config.rel(recording.path)}{rule}).",
        fix,
        line=line,
        detail=detail,
        status=Status.DIVERGE,
    )
