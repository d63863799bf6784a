"""The GPU runner's observations in a CPU build: its check report, for the same code.

CI's publishing job builds on CPU with the `gpu` job's report (DOCVERIFY_GPU_REPORT=folder, or
several folders separated by commas: the reports of the shards of one run, merged by merge.py),
so the published site shows what the GPU observed for that very commit. Each entry is judged
again by the one judge (verifying/judge.py), against the current recordings, and becomes the
block's gpu verdict; a report that is unreadable, from another runner, stale,
incomplete or divergent is an error of the build, never a silent gap.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from pathlib import Path

from docverify.core import request
from docverify.core.config import Config
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.core.status import Status
from docverify.parsing.pages import Block
from docverify.report import digests, from_reports, merge, report_json
from docverify.verifying import judge
from docverify.verifying.outcome import Observation, Outcome, Verification

ENV = request.GPU_REPORT_ENV
RUNNER = "gpu"
FIX_REPORT = (
    f"apunta {ENV} a la carpeta que escribió docverify check --runner gpu --report CARPETA "
    "para este mismo código (en CI, los artefactos docverify-gpu-* de la misma ejecución, "
    "todas sus partes: una carpeta que las contenga, o sus carpetas separadas por comas)."
)


def attach(
    config: Config, verification: Verification, folders: Path | Sequence[Path]
) -> Verification:
    """`verification` with the report in `folders` (one, or a run's shards) judged as each
    block's gpu verdict, and findings that say what is wrong (a new verification)."""
    try:
        data = merge.load([folders] if isinstance(folders, Path) else list(folders))
    except report_json.ReportError as exc:
        invalid = Finding(Kind.INVALID_REPORT, f"{ENV}: {exc}", ENV, 1, FIX_REPORT)
        return _adding(verification, [invalid])
    where = config.rel(data.path)
    if data.runner != RUNNER or verification.runner == RUNNER:
        return _adding(
            verification,
            [
                Finding(
                    Kind.WRONG_REPORT_RUNNER,
                    f"{ENV} debe ser un informe del runner gpu para una compilación en cpu; este "
                    f"informe es del runner {data.runner} y la compilación, del "
                    f"{verification.runner}.",
                    where,
                    1,
                    FIX_REPORT,
                )
            ],
        )
    if old := data.without_results():
        return _adding(verification, [report_json.format_2(ENV, where, old, FIX_REPORT)])
    stale = digests.stale(config, verification.pages, data)
    findings = [
        Finding(Kind.STALE_REPORT, f"informe GPU obsoleto: {s.reason}.", s.path, s.line, FIX_REPORT)
        for s in stale
    ]
    stale_keys = {s.key for s in stale}
    # Each entry of a block on this build's pages, judged by the one loop (judge.py).
    seen = from_reports.seen(config, data)
    observed = {
        key: Observation(data.observations[key].block_result(), seen)
        for key, outcome in verification.outcomes.items()
        if outcome.block.runs_on(RUNNER) and key not in stale_keys and key in data.observations
    }
    recorded = {k: o.recordings for k, o in verification.outcomes.items()}
    judged = judge.verification(config, verification.pages, RUNNER, observed, recorded=recorded)
    outcomes = dict(verification.outcomes)
    for key, outcome in verification.outcomes.items():
        block = outcome.block
        if not block.runs_on(RUNNER) or key in stale_keys:
            continue
        if key not in judged.outcomes:
            findings.append(_incomplete(config, block, where))
            continue
        entry, verdict = data.observations[key], judged.outcomes[key].verdict
        outcomes[key] = judge.attach(config, outcome, verdict)
        if verdict.status != Status.OK:
            findings.append(_diverges(config, outcomes[key], entry, where, data))
    return _adding(dataclasses.replace(verification, outcomes=outcomes), findings)


def _adding(verification: Verification, findings: list[Finding]) -> Verification:
    return dataclasses.replace(verification, findings=[*verification.findings, *findings])


def _incomplete(config: Config, block: Block, where: str) -> Finding:
    return Finding(
        Kind.INCOMPLETE_REPORT,
        f"el informe GPU ({where}) no tiene la salida del bloque «{block.key}».",
        config.rel(block.origin),
        block.origin_line,
        FIX_REPORT + " El informe debe cubrir todo el sitio (todas las partes si se "
        "repartió con --shard, y sin elegir páginas).",
    )


# What the finding says of a block's gpu verdict other than a divergence.
_SAID = {Status.ERROR: "falló", Status.MISSING: "no tiene grabación con la que compararse"}


def _diverges(
    config: Config, outcome: Outcome, entry: report_json.Entry, where: str, data: report_json.Report
) -> Finding:
    """The gpu runner's output of a block failed, has no recording to be compared with, or
    does not match its reference."""
    block, status = outcome.block, outcome.verdicts[RUNNER].status
    failed = status == Status.ERROR
    said = _SAID.get(status, "no coincide con su referencia")
    return Finding(
        Kind.REPORT_DIVERGENCE,
        f"en el informe GPU ({where}), la salida de «{block.key}» {said}"
        f" ({outcome.verdicts[RUNNER].reference.described}).",
        config.rel(block.origin),
        block.origin_line,
        f"corrige el bloque: falló en el runner gpu ({entry.error or 'error'})."
        if failed
        else f"docverify accept {config.rel(_folder(data))} adopta las salidas "
        "de GPU (revisa el diff antes de confirmar); si no son correctas, corrige el "
        "código.",
    )


def _folder(report: report_json.Report) -> Path:
    """The folder to name in `docverify accept FOLDER`: the one holding its report files."""
    return Path(os.path.commonpath([str(p.parent) for p in report.sources]))
