"""The findings of a block's verification, worded for authors: what, where, how to fix it.

The judge (judge.py) decides; these functions only say it, so that `docverify lint` can report a
missing recording with the same words a run does, and a canary its divergence with the same
diff.
"""

from __future__ import annotations

from collections.abc import Callable

from docverify.core import device_marks, device_rule
from docverify.core.config import Config
from docverify.core.findings import Finding, Level
from docverify.core.kinds import Kind
from docverify.parsing.pages import Block
from docverify.running import protocol
from docverify.running.protocol import BlockResult
from docverify.verifying import baselines, compare, curve, graph, hints, recordings

GRAPH_FIX = (
    "imprime un nodo por línea, «[0] MulBackward0 → [1], [2]», como el ayudante "
    'describir_grafo de la guía de autores; o quita graph="…".'
)
CURVE_FIX = (
    "imprime un punto por línea, «época 1: pérdida 0.93»: el primer número, entero, es x y el "
    'último es y (ver «Dibujar una curva» en la guía de autores); o quita curve="…".'
)


def located(
    config: Config,
    block: Block,
    kind: Kind,
    message: str,
    fix: str,
    line: int | None = None,
    detail: str = "",
) -> Finding:
    """A finding of the judge about `block`: at its snippet's line `line` (by default the
    block's first), its message naming the page and the fence."""
    page = f"{config.rel(config.docs_dir / block.page)}:{block.fence_line}"
    return Finding(
        kind,
        f"{message} (página {page})",
        config.rel(block.origin),
        line or block.origin_line,
        fix,
        detail=detail,
    )


def divergence(
    config: Config,
    block: Block,
    result: BlockResult,
    baseline: baselines.Baseline,
    tol: compare.Tolerance,
) -> Finding:
    """The output does not match its baseline (which has a recording): where it first differs,
    the diff as compared, and whether only volatile-looking values differ."""
    runner, recording = baseline.runner, baseline.recording
    assert recording is not None
    fix_record = f"docverify record --runner {runner} {config.rel(config.docs_dir / block.page)}"
    rule = f", con la {device_rule.NAME}" if baseline.device_rule else ""
    # As compared (suffixes joined under the device rule), numbered as the original texts.
    expected, observed = baseline.expected(), baseline.comparable(result["output"])
    detail = output_diff(config, baseline, result["output"], tol, f"observado ({runner}{rule})")
    first = hints.first_difference(expected.text, observed.text, tol)
    line = hints.writer_line(result, observed.original(first))
    if fix_volatile := hints.volatile_fix(recording, observed.text, tol, expected):
        return located(
            config,
            block,
            Kind.VOLATILE_DIVERGENCE,
            f"la salida de «{block.key}» en {runner} solo difiere de su grabación en "
            "valores que parecen cambiar en cada ejecución (hexadecimales, números de "
            "diez cifras o más).",
            fix_volatile,
            line,
            detail,
        )
    if baseline.device_rule:
        own = config.rel(recordings.path_for(config, block, runner))
        fix = (
            f"si la salida en {runner} es correcta, grábala aparte ({own}): "
            f"docverify accept CARPETA con el informe del trabajo {runner} de CI, o "
            f"{fix_record} en una máquina con GPU; si no, corrige el código."
        )
    else:
        fix = f"si el cambio es correcto: {fix_record}; si no, corrige el código."
    message = (
        f"la salida de «{block.key}» en {runner} no coincide con su grabación"
        f" ({config.rel(recording.path)}{rule})."
    )
    return located(config, block, Kind.DIVERGENCE, message, fix, line, detail)


def missing_recording(
    config: Config, block: Block, runner: str, recs: dict[str, recordings.Recording] | None = None
) -> Finding:
    """A block that runs on `runner` has no baseline for it (from a check, or from lint).

    `recs`: the block's recordings; a device-marked one (Reference.needs_own) needs its own."""
    page = config.rel(config.docs_dir / block.page)
    reference = baselines.reference(config, block, runner, recs or {})
    wanted = reference.needed
    target = config.rel(recordings.path_for(config, block, wanted))
    if reasons := reference.needs_own:
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


def execution_fix(config: Config, block: Block, result: BlockResult, line: int) -> str:
    """How to fix a block the engine could not run to its end: its code at `line`, and more
    time only when it ran out of it; a block not run because an earlier block of its session
    failed: that one first."""
    cause = result.get("cause")
    if cause == protocol.AFTER_FAILURE:
        return (
            "corrige primero el bloque de la misma sesión que falló antes (su error aparece "
            "junto a este): este bloque no llegó a ejecutarse."
        )
    fix = f"corrige el código en {config.rel(block.origin)}:{line}"
    if cause == protocol.TIMED_OUT:
        return f'{fix}; si necesita más tiempo, añade timeout="segundos" al bloque.'
    return f"{fix}."


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


def unreadable(parse: Callable[[str], object], text: str) -> str | None:
    """Why `text` cannot be drawn (graph.parse, curve.parse), or None when it can."""
    try:
        parse(text)
    except ValueError as exc:  # GraphError, CurveError: a message for authors
        return str(exc)
    return None


def unreadable_graph(block: Block, why: str) -> str:
    return (
        f'el bloque «{block.key}» lleva {graph.OPTION}="…" y su salida no se puede dibujar: {why}'
    )


def unreadable_curve(block: Block, why: str, what: str) -> str:
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
