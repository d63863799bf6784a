"""Verification: run the blocks of some pages on a runner, compare, and report findings."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from docverify.core import device_marks
from docverify.core.config import RUNNERS, Config
from docverify.core.findings import Finding, Level
from docverify.core.kinds import Kind
from docverify.core.status import Status
from docverify.parsing.pages import Block, Page, page_stem
from docverify.running.executor import Executor, PageJob
from docverify.running.protocol import BlockResult
from docverify.running.specs import spec
from docverify.verifying import baselines, compare, curve, graph, hints, recordings
from docverify.verifying.cache import Cache
from docverify.verifying.outcome import (
    Outcome,
    Verification,
    declared_exception,
    not_run,
    tolerance,
)


def execute(
    config: Config, pages: list[Page], runner: str, executor: Executor, cache: Cache | None = None
) -> tuple[dict[str, BlockResult], dict[str, str]]:
    """Run every block of `pages` that runs on `runner`; return results and the environment.

    With a cache, pages whose key is unchanged are not run; the others run whole, and each one
    whose blocks all ran without failure is stored (see cache.py).
    """
    env: dict[str, str] = {}
    jobs = [
        PageJob(page.rel, runner, [spec(config, b) for b in page.blocks if b.runs_on(runner)])
        for page in pages
    ]
    cached: dict[str, BlockResult] = {}
    if cache is not None:
        todo = []
        for job in (j for j in jobs if j.blocks):
            hit = cache.load(job)
            if hit is None:
                todo.append(job)
            else:
                cached.update(hit[0])
                env.update(hit[1])
        jobs = todo
    results = executor.run(jobs, on_env=env.update)
    if cache is not None:
        raises = {b.key: b.options.get("raises") for page in pages for b in page.blocks}
        for job in jobs:
            cache.store(job, results, env, raises)
    return {**cached, **results}, env


def verify(
    config: Config,
    pages: list[Page],
    runner: str,
    executor: Executor,
    *,
    run: Callable[..., tuple[dict[str, BlockResult], dict[str, str]]] = execute,
    cache: Cache | None = None,
    execute_blocks: bool = True,
) -> Verification:
    """Run, compare with the recordings of `runner`, and collect every finding of the run.

    Findings and outcomes follow page order, then block order, whatever order pages finish in.
    With `execute_blocks=False` nothing runs and an error says so: a build with execution off
    can be measured (docverify bench) but never passes as verified, not even with `-q --strict`
    (MkDocs does not count warnings under -q).
    """
    if cache is not None:
        run = functools.partial(run, cache=cache)
    results, env = run(config, pages, runner, executor) if execute_blocks else ({}, {})
    findings = [f for page in pages for f in page.findings]
    if not execute_blocks:
        findings.append(
            Finding(
                Kind.EXECUTION_DISABLED,
                "DOCVERIFY_EXECUTE=0: ningún bloque se ejecutó ni se "
                "verificó; las salidas mostradas son las grabadas.",
                "DOCVERIFY_EXECUTE",
                1,
                "quita DOCVERIFY_EXECUTE=0 (solo sirve para medir con docverify bench).",
            )
        )
    outcomes: dict[str, Outcome] = {}
    for page in pages:
        for number, block in enumerate(page.blocks):
            if not execute_blocks:
                outcomes[block.key] = not_run(config, block, runner)
                continue
            outcome = judge(config, block, runner, results.get(block.key), page.blocks[:number])
            outcomes[block.key] = outcome
            findings.extend(outcome.findings)
    return Verification(runner=runner, env=env, pages=pages, outcomes=outcomes, findings=findings)


def missing_recording(
    config: Config, block: Block, runner: str, recs: dict[str, recordings.Recording] | None = None
) -> Finding:
    """A block that runs on `runner` has no baseline for it (from a check, or from lint).

    `recs`: the block's recordings; a device-marked one (baselines.needs_own) needs its own."""
    page = config.rel(config.docs_dir / block.page)
    wanted = baselines.expected_runner(block, runner, recs)
    target = config.rel(recordings.path_for(config, block, wanted))
    if reasons := baselines.needs_own(block, runner, recs or {}):
        cpu = config.rel(recordings.path_for(config, block, "cpu"))
        return Finding(
            Kind.MISSING_RECORDING,
            f"el bloque «{block.key}» necesita su propia grabación para el runner {runner} "
            f"({target}): {device_marks.text(reasons)} (marcado en {cpu}), así que su salida "
            f"en una GPU puede no ser la de CPU y no se compara con ella. (página "
            f"{page}:{block.fence_line})",
            config.rel(block.origin),
            block.origin_line,
            f"grábala: docverify record --runner {runner} {page} en una máquina con GPU, o "
            f"docverify accept CARPETA con el informe del trabajo {runner} de CI (el artefacto "
            f"docverify-{runner}); revisa el diff antes de confirmar.",
        )
    via = "" if wanted == runner else f", que el runner {runner} usa como referencia"
    return Finding(
        Kind.MISSING_RECORDING,
        f"el bloque «{block.key}» no tiene grabación para el runner {runner} ({target}{via}). "
        f"(página {page}:{block.fence_line})",
        config.rel(block.origin),
        block.origin_line,
        f"docverify record --runner {wanted} {page}",
    )


@dataclass
class _Verdict:
    """A block's outcome on a runner while it is judged: each failure sets its status."""

    config: Config
    block: Block
    runner: str
    outcome: Outcome

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
        self.outcome.status = status
        self.outcome.findings.append(
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
) -> Outcome:
    """Compare one block's result; `earlier` (the page's blocks before it) words some hints."""
    recs = {r: rec for r in RUNNERS if (rec := recordings.load(config, block, r))}
    if not block.runs_on(runner):
        return Outcome(block, runner, None, recs, Status.OTHER_RUNNER)
    verdict = _Verdict(config, block, runner, Outcome(block, runner, result, recs, Status.OK))
    if result is None:
        verdict.fail(
            Kind.NO_RESULT,
            f"el bloque «{block.key}» no produjo resultado.",
            "vuelve a ejecutar; si persiste, informa del fallo del motor.",
        )
        return verdict.outcome
    if result.get("stopped"):
        verdict.outcome.findings.append(stopped_processes(config, block, result["stopped"]))
    if not _ran_as_declared(verdict, result, earlier) or not _drawable(verdict, result):
        return verdict.outcome
    _compare(verdict, result)
    return verdict.outcome


def _ran_as_declared(verdict: _Verdict, result: BlockResult, earlier: Sequence[Block]) -> bool:
    """Expectations held, the block ran to its end, and it raised what it declares (or
    nothing): False, with the failure, otherwise."""
    block, tol = verdict.block, tolerance(verdict.config, verdict.block)
    for item in result["expectations"]:
        item["ok"] = compare.expectation_holds(item["expected"], item["observed"], tol)
        verdict.outcome.expectations.append(item)
        if not item["ok"]:
            verdict.fail(
                Kind.EXPECTATION,
                f"«{block.key}»: Esperado {item['expected']} · Observado {item['observed']}",
                hints.expectation_fix(item["expected"], item["observed"])
                or "corrige el código o el comentario «# Expectativa:».",
                line=item["line"],
            )
    if result["error"]:
        verdict.fail(
            Kind.EXECUTION_FAILURE,
            f"el bloque «{block.key}» {result['error']}",
            f"corrige el código en {verdict.config.rel(block.origin)}:{block.origin_line}; si "
            'necesita más tiempo, añade timeout="segundos" al bloque.',
        )
        return False
    raises = block.options.get("raises")
    if result["exception"] and not declared_exception(raises, result):
        verdict.fail(
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
        verdict.fail(
            Kind.MISSING_EXCEPTION,
            f"el bloque «{block.key}» debía lanzar «{raises}» y terminó sin error.",
            'corrige el código o quita raises="…".',
        )
        return False
    return True


def _drawable(verdict: _Verdict, result: BlockResult) -> bool:
    """A `graph=` or `curve=` block printed what its picture is drawn from."""
    block, output = verdict.block, compare.normalise(result["output"])
    if block.options.get(graph.OPTION) and (why := _unreadable(graph.parse, output)):
        verdict.fail(
            Kind.UNREADABLE_GRAPH,
            f'el bloque «{block.key}» lleva {graph.OPTION}="…" y su salida no se puede '
            f"dibujar: {why}",
            "imprime un nodo por línea, «[0] MulBackward0 → [1], [2]», como el ayudante "
            'describir_grafo de la guía de autores; o quita graph="…".',
        )
        return False
    if block.options.get(curve.OPTION) and (why := _unreadable(curve.parse, output)):
        verdict.fail(Kind.UNREADABLE_CURVE, _unreadable_curve(block, why, "su salida"), CURVE_FIX)
        return False
    return True


def _compare(verdict: _Verdict, result: BlockResult) -> None:
    """The output against the runner's baseline: missing, divergent, or matching (and then,
    for a curve, the recording it is drawn from must read as one)."""
    config, block, runner = verdict.config, verdict.block, verdict.runner
    tol = tolerance(config, block)
    baseline = baselines.choose(block, verdict.outcome.recordings, runner)
    if baseline.recording is None:
        verdict.outcome.status = Status.MISSING
        recs = verdict.outcome.recordings
        verdict.outcome.findings.append(missing_recording(config, block, runner, recs))
        return
    recording, output = baseline.recording, result["output"]
    if not baseline.matches(output, tol):
        _diverges(verdict, result, baseline)
        return
    if runner == device_marks.RUNNER and (problem := stale_marks(config, block, recording, result)):
        verdict.outcome.findings.append(problem)  # the output matched: its status stays OK
    body = compare.normalise(recording.body)  # the curve is drawn from the recording it matched
    if block.options.get(curve.OPTION) and (why := _unreadable(curve.parse, body)):
        verdict.fail(
            Kind.UNREADABLE_CURVE,
            _unreadable_curve(block, why, f"su grabación {config.rel(recording.path)}"),
            "la curva se dibuja de la grabación: deja en ella los números de cada punto "
            '(sin marcadores [..]) o quita curve="…".',
        )


def _diverges(verdict: _Verdict, result: BlockResult, baseline: baselines.Baseline) -> None:
    config, block, runner = verdict.config, verdict.block, verdict.runner
    tol = tolerance(config, block)
    recording = baseline.recording
    assert recording is not None
    fix_record = f"docverify record --runner {runner} {config.rel(config.docs_dir / block.page)}"
    rule = f", con la {baselines.DEVICE_RULE}" if baseline.device_rule else ""
    # As compared (suffixes joined under the device rule), numbered as the original texts.
    expected, observed = baseline.expected(), baseline.comparable(result["output"])
    detail = output_diff(config, baseline, result["output"], tol, f"observado ({runner}{rule})")
    first = hints.first_difference(expected.text, observed.text, tol)
    line = hints.writer_line(result, observed.original(first))
    if marks := hints.volatile_fix(recording, observed.text, tol, expected):
        verdict.fail(
            Kind.VOLATILE_DIVERGENCE,
            f"la salida de «{block.key}» en {runner} solo difiere de su grabación en "
            "valores que parecen cambiar en cada ejecución (hexadecimales, números de "
            "diez cifras o más).",
            marks,
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
    verdict.fail(
        Kind.DIVERGENCE,
        f"la salida de «{block.key}» en {runner} no coincide con su grabación"
        f" ({config.rel(recording.path)}{rule}).",
        fix,
        line=line,
        detail=detail,
        status=Status.DIVERGE,
    )


def stale_marks(
    config: Config, block: Block, recording: recordings.Recording, result: BlockResult
) -> Finding | None:
    """The run's device marks differ from those its cpu recording's header records: the gpu
    runner would judge the block by the wrong ones. None when they agree (or the result, made
    by the engine, has none)."""
    if "device_dependent" not in result:
        return None
    seen = device_marks.ordered(result["device_dependent"])
    if seen == recording.marks:
        return None
    page = config.rel(config.docs_dir / block.page)

    def said(reasons: tuple[str, ...]) -> str:
        return device_marks.text(reasons) if reasons else "no depende del dispositivo"

    return Finding(
        Kind.DEVICE_MARKS,
        f"la salida de «{block.key}» coincide con su grabación, pero en esta ejecución el "
        f"bloque {said(seen)} y la cabecera de su grabación ({config.rel(recording.path)}) "
        f"dice que {said(recording.marks)}: el runner gpu lee esa cabecera para decidir si lo "
        f"compara con la salida de CPU. (página {page}:{block.fence_line})",
        config.rel(block.origin),
        block.origin_line,
        f"docverify record --runner cpu {page} (reescribe solo la línea "
        f"«# {recordings.MARKS}:» de la cabecera; revisa el diff).",
    )


def stopped_processes(config: Config, block: Block, commands: list[str]) -> Finding:
    """A block left processes running when its page ended: the engine stopped them. Reported,
    not failed: the block's output is what it is; the author learns what it leaves behind."""
    page = f"{config.rel(config.docs_dir / block.page)}:{block.fence_line}"
    shown = ", ".join(f"«{c}»" for c in commands[:5]) + (" …" if len(commands) > 5 else "")
    several = len(commands) > 1
    noun = f"{len(commands)} procesos que seguían" if several else "un proceso que seguía"
    return Finding(
        Kind.STOPPED_PROCESSES,
        f"el bloque «{block.key}» dejó {noun} en marcha al terminar su página: {shown}; "
        f"{'se detuvieron' if several else 'se detuvo'} con la página. (página {page})",
        config.rel(block.origin),
        block.origin_line,
        "espera a que terminen dentro del bloque (proceso.wait(), «with subprocess.Popen(…) as "
        "proceso:», pool.close() y pool.join()) o termínalos (proceso.terminate()): ejecutado "
        "como script, el código los dejaría en marcha en la máquina de quien lo ejecute.",
        level=Level.INFO,
    )


CURVE_FIX = (
    "imprime un punto por línea, «época 1: pérdida 0.93»: el primer número, entero, es x y el "
    'último es y (ver «Dibujar una curva» en la guía de autores); o quita curve="…".'
)


def _unreadable(parse: Callable[[str], object], text: str) -> str | None:
    """Why `text` cannot be drawn (graph.parse, curve.parse), or None when it can."""
    try:
        parse(text)
    except ValueError as exc:  # GraphError, CurveError: a message for authors
        return str(exc)
    return None


def _unreadable_curve(block: Block, why: str, what: str) -> str:
    return (
        f'el bloque «{block.key}» lleva {curve.OPTION}="…" y {what} no se puede dibujar '
        f"como curva: {why}"
    )


def output_diff(
    config: Config,
    baseline: baselines.Baseline,
    output: str,
    tol: compare.Tolerance,
    label: str,
) -> str:
    """The diff a divergence shows: the recording against `output`, both as compared (device
    rule with its joined suffixes, placeholders, tolerance, volatile values), numbered as the
    original texts. `baseline` must have a recording."""
    recording = baseline.recording
    assert recording is not None
    expected, observed = baseline.expected(), baseline.comparable(output)
    return compare.diff(
        compare.comparable(expected.text, tol),
        compare.comparable(observed.text, tol),
        f"grabación {config.rel(recording.path)}",
        label,
        starts=(expected.starts, observed.starts),
    )


def orphans(config: Config, pages: list[Page]) -> list[Finding]:
    """Recordings whose block no longer exists (or no longer runs on that runner)."""
    alive = {
        (page_stem(b.page), b.id, r)
        for p in pages
        for b in p.blocks
        for r in RUNNERS
        if b.runs_on(r)
    }
    found = []
    for path, stem, block_id in recordings.all_recordings(config):
        runner = path.name.rsplit(".", 2)[-2]
        if (stem, block_id, runner) not in alive:
            found.append(
                Finding(
                    Kind.ORPHAN_RECORDING,
                    f"la grabación de «{stem}/{block_id}» ({runner}) no "
                    "corresponde a ningún bloque que corra en ese runner.",
                    config.rel(path),
                    1,
                    "docverify prune --yes (la borra) o restaura el bloque con ese id.",
                )
            )
    return found
