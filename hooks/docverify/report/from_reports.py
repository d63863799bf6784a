"""A build from reports: show what the verification jobs observed, executing nothing here.

With DOCVERIFY_FROM_REPORTS=DIR[,DIR…] a build reads the check reports of a verification job
(the reports of the shards of one run are merged first: merge.py) instead of running the blocks.
Each observation is judged again exactly as a run here would be (`verify.judge`, against the
current recordings, options and expectations), so every page shows the same panels, marks,
expectations and errors as a build that executed; only the provenance says where the output
was observed (the CI run). Nothing is trusted blindly: reports that cannot be read or merged,
of format 2 (they keep no result per block), of another runner than DOCVERIFY_RUNNER asks for,
stale (a block's code or options changed since) or incomplete (a block without its observation)
are errors of the build, as with DOCVERIFY_GPU_REPORT (gpu_report.py); such a block then shows its
recordings, "not run now", with the error under it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from docverify.core.config import RUNNERS, Config
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing.pages import Page
from docverify.report import digests, merge, report_json
from docverify.verifying.outcome import Origin, Outcome, Verification, not_run
from docverify.verifying.verify import judge

ENV = "DOCVERIFY_FROM_REPORTS"
FIX = (
    f"apunta {ENV} a las carpetas que escribió docverify check --report CARPETA para este "
    "mismo código, separadas por comas (en CI, los artefactos docverify-cpu-* de la misma "
    "ejecución: todas sus partes), o quita la variable para ejecutar los bloques aquí."
)


def from_env() -> list[Path] | None:
    """The report folders of DOCVERIFY_FROM_REPORTS (comma-separated), or None when unset."""
    return report_json.folders_from_env(ENV)


@dataclass
class Source:
    """The reports a build renders instead of running blocks, or why it cannot use them."""

    runner: str
    report: report_json.Report | None  # None: unusable (see findings)
    findings: list[Finding] = field(default_factory=list)


def load(config: Config, paths: list[Path], requested: str = "auto") -> Source:
    """Read (and merge) the reports at PATHS for a build that asked for runner `requested`."""
    fallback = requested if requested in RUNNERS else "cpu"
    try:
        data = merge.load(paths)
    except report_json.ReportError as exc:
        return Source(fallback, None, [Finding(Kind.INVALID_REPORT, f"{ENV}: {exc}", ENV, 1, FIX)])
    where = config.rel(data.path)
    if requested not in ("auto", data.runner):
        return Source(
            fallback,
            None,
            [
                Finding(
                    Kind.WRONG_REPORT_RUNNER,
                    f"{ENV}: los informes son del runner {data.runner} y la construcción pide el "
                    f"runner {requested} (DOCVERIFY_RUNNER).",
                    where,
                    1,
                    FIX,
                )
            ],
        )
    old = sorted(k for k, item in data.observations.items() if item.result is None)
    if old:
        return Source(
            data.runner,
            None,
            [
                Finding(
                    Kind.INVALID_REPORT,
                    f"{ENV}: el informe {where} no guarda el resultado de cada bloque (error, "
                    f"excepción, expectativas; falta en «{old[0]}» y {len(old) - 1} más): lo "
                    "escribió una versión anterior del motor (formato 2).",
                    where,
                    1,
                    "vuelve a ejecutar docverify check --report con esta versión del motor. " + FIX,
                )
            ],
        )
    return Source(data.runner, data)


def verify(config: Config, pages: list[Page], source: Source) -> Verification:
    """The report of a build from `source`: every block judged from its observation."""
    runner, data = source.runner, source.report
    findings = [*source.findings, *(f for page in pages for f in page.findings)]
    if data is None:
        outcomes = {b.key: not_run(config, b, runner) for p in pages for b in p.blocks}
        return Verification(
            runner=runner, env={}, pages=pages, outcomes=outcomes, findings=findings
        )
    origin = Origin(
        date=data.date,
        run_url=data.run_url,
        device=data.env.get("device", "?"),
        torch=data.env.get("torch", "?"),
        reports=tuple(config.rel(p) for p in data.sources),
        shards=data.shards,
    )
    keys = {b.key for p in pages for b in p.blocks}
    stale: dict[str, digests.Stale] = {}
    for item in digests.stale(config, pages, data):
        if item.key in keys:
            stale[item.key] = item
        else:  # an observation of a block that is gone: the report is not of this code
            findings.append(_stale(item))
    outcomes: dict[str, Outcome] = {}
    for page in pages:
        for number, block in enumerate(page.blocks):
            item = data.observations.get(block.key)
            if not block.runs_on(runner):
                outcome = judge(config, block, runner, None)
            elif block.key in stale:
                outcome = not_run(config, block, runner)
                outcome.findings.append(_stale(stale[block.key]))
            elif item is None:
                outcome = not_run(config, block, runner)
                outcome.findings.append(
                    Finding(
                        Kind.INCOMPLETE_REPORT,
                        f"los informes de {ENV} ({', '.join(origin.reports)}) no tienen la "
                        f"salida del bloque «{block.key}».",
                        config.rel(block.origin),
                        block.origin_line,
                        FIX,
                    )
                )
            else:
                result = item.block_result()
                outcome = judge(config, block, runner, result, page.blocks[:number])  # type: ignore[arg-type]
                outcome.origin = origin
            outcomes[block.key] = outcome
            findings.extend(outcome.findings)
    return Verification(
        runner=runner,
        env=dict(data.env),
        pages=pages,
        outcomes=outcomes,
        findings=findings,
        origin=origin,
    )


def _stale(item: digests.Stale) -> Finding:
    reason = f"informe obsoleto: {item.reason}."
    return Finding(Kind.STALE_REPORT, reason, item.path, item.line, FIX)
