"""The findings of a block's verification, worded for authors: what, where, how to fix it.

The judge (judge.py) decides; these functions only say it, so that `docverify lint` can report a
missing recording with the same words a run does, and a canary its divergence with the same
diff.
"""

from __future__ import annotations

from collections.abc import Callable

from docverify.core import device_marks
from docverify.core.config import Config
from docverify.core.findings import Finding, Level
from docverify.core.kinds import Kind
from docverify.parsing.pages import Block
from docverify.running.protocol import BlockResult
from docverify.verifying import baselines, compare, curve, recordings

CURVE_FIX = (
    "imprime un punto por línea, «época 1: pérdida 0.93»: el primer número, entero, es x y el "
    'último es y (ver «Dibujar una curva» en la guía de autores); o quita curve="…".'
)


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


def unreadable(parse: Callable[[str], object], text: str) -> str | None:
    """Why `text` cannot be drawn (graph.parse, curve.parse), or None when it can."""
    try:
        parse(text)
    except ValueError as exc:  # GraphError, CurveError: a message for authors
        return str(exc)
    return None


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
