"""A build from reports: show what the verification jobs observed, executing nothing here.

With DOCVERIFY_FROM_REPORTS=DIR[,DIR…] a build reads the check reports of a verification job
(the reports of the shards of one run are merged first: merge.py) instead of running the blocks.
Each entry is judged again exactly as a run here would be (by the one judge, verifying/judge.py,
against the current recordings, options and expectations), so every page shows the same panels,
verdicts, expectations and errors as a build that executed; only the provenance says where the
output was observed (the CI run). Nothing is trusted blindly: reports that cannot be read or
merged, of format 2 (they keep no result per block), of another runner than DOCVERIFY_RUNNER
asks for, stale (a block's code or options changed since) or incomplete (a block without its
observation) are errors of the build, as with DOCVERIFY_GPU_REPORT (gpu_report.py); such a block
then shows its recordings, "not run now", with the error under it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from docverify.core import request
from docverify.core.config import RUNNERS, Config
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing.pages import Block, Page
from docverify.report import digests, merge, report_json
from docverify.verifying import judge
from docverify.verifying.outcome import Observation, Provenance, SeenIn, Verification
from docverify.verifying.verify import unrun

ENV = request.FROM_REPORTS_ENV
FIX = (
    f"apunta {ENV} a las carpetas que escribió docverify check --report CARPETA para este "
    "mismo código, separadas por comas (en CI, los artefactos docverify-cpu-* de la misma "
    "ejecución: todas sus partes), o quita la variable para ejecutar los bloques aquí."
)


@dataclass
class GivenReports:
    """The reports a build renders instead of running blocks, or why it cannot use them."""

    runner: str
    report: report_json.Report | None  # None: unusable (see findings)
    findings: list[Finding] = field(default_factory=list)


def load(config: Config, paths: list[Path], requested: str = "auto") -> GivenReports:
    """Read (and merge) the reports at PATHS for a build that asked for runner `requested`."""
    fallback = requested if requested in RUNNERS else "cpu"
    try:
        data = merge.load(paths)
    except report_json.ReportError as exc:
        return GivenReports(
            fallback, None, [Finding(Kind.INVALID_REPORT, f"{ENV}: {exc}", ENV, 1, FIX)]
        )
    where = config.rel(data.path)
    if requested not in ("auto", data.runner):
        return GivenReports(
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
    if old := data.without_results():
        return GivenReports(data.runner, None, [report_json.format_2(ENV, where, old, FIX)])
    return GivenReports(data.runner, data)


def verify(config: Config, pages: list[Page], source: GivenReports) -> Verification:
    """The verification of a build from `source`: every block judged from its entry, by the
    one loop (verifying/judge.py); a block the report cannot give is not run, and why."""
    runner, data = source.runner, source.report
    findings = [*source.findings, *(f for page in pages for f in page.findings)]
    if data is None:
        return unrun(config, pages, runner, findings)
    keys = {b.key for p in pages for b in p.blocks}
    stale: dict[str, digests.Stale] = {}
    for item in digests.stale(config, pages, data):
        if item.key in keys:
            stale[item.key] = item
        else:  # an observation of a block that is gone: the report is not of this code
            findings.append(_stale(item))
    origin = seen(config, data)
    observed = {
        block.key: _observation(config, block, data, stale, origin)
        for page in pages
        for block in page.blocks
    }
    return judge.verification(
        config, pages, runner, observed, env=data.env, findings=findings, origin=origin
    )


def _observation(
    config: Config,
    block: Block,
    data: report_json.Report,
    stale: dict[str, digests.Stale],
    origin: Provenance,
) -> Observation:
    """A block's observation in the report; none, and why, when the report cannot give it."""
    entry = data.observations.get(block.key)
    if block.key in stale:
        return Observation(None, missing=_stale(stale[block.key]))
    if entry is None:
        return Observation(
            None,
            missing=Finding(
                Kind.INCOMPLETE_REPORT,
                f"los informes de {ENV} ({', '.join(origin.reports)}) no tienen la "
                f"salida del bloque «{block.key}».",
                config.rel(block.origin),
                block.origin_line,
                FIX,
            ),
        )
    return Observation(entry.block_result(), origin)


def seen(config: Config, report: report_json.Report) -> Provenance:
    """Where and when a report's runner observed its outputs (its files named as `config`
    names files)."""
    return Provenance(
        report.runner,
        report.env.get("torch", "?"),
        report.env.get("device", "?"),
        report.date,
        SeenIn.REPORT,
        report.run_url,
        tuple(config.rel(p) for p in report.sources),
        report.shards,
    )


def _stale(item: digests.Stale) -> Finding:
    reason = f"informe obsoleto: {item.reason}."
    return Finding(Kind.STALE_REPORT, reason, item.path, item.line, FIX)
