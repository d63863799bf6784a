"""The torch canary: what the next torch would change on each page, judged as `check` judges.

`docverify canary` runs every block under another interpreter (running/interpreter.py) and
judges the results with `verify` itself, against the current recordings: the same seeds,
normalisers, tolerances and device rule. Its report is a check report (report_folder.py), so
`docverify accept` adopts it once the pin is bumped, plus a canary section made here
(report_json.Canary): the versions and build variants of both sides, which blocks would change,
the warnings torch emits that the recordings do not have, and the fingerprinted sources whose
code changed.

A site build given such a report (DOCVERIFY_CANARY_REPORT=DIR) shows, per article, which blocks
would change and how: the diff of the recording that accepting the report would write
(verifying/proposal.py). Each observation is judged again against today's recordings (one accepted
since no longer shows), and an observation of code that changed since the run is said to be
stale, never shown as current. The canary never fails anything: its findings are INFO.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docverify.core import request
from docverify.core.config import Config
from docverify.core.findings import Finding, Level
from docverify.core.kinds import Kind
from docverify.core.status import Status
from docverify.core.text import normalise
from docverify.report import accept, digests, report_json
from docverify.verifying import compare, judge, proposal
from docverify.verifying.outcome import Observation, Outcome, Verification, tolerance

SUMMARY_FILE = "resumen.md"  # the readable summary beside report.json
ENV = request.CANARY_REPORT_ENV
# A warning as the page process writes it («FutureWarning: mensaje», running/capture.py).
_WARNING = re.compile(r"^[A-Z]\w*Warning: ")
CHANGED = (Status.DIVERGE, Status.ERROR)  # what «would change» means for a block
FIX_REPORT = (
    f"apunta {ENV} a la carpeta que escribió docverify canary --report CARPETA (en CI, el "
    "artefacto docverify-canary del workflow semanal), o quita la variable."
)
FIX_STALE = (
    "vuelve a ejecutar docverify canary --report CARPETA con el código actual (o espera al "
    "próximo canario semanal)."
)


def warning_lines(text: str) -> list[str]:
    """The warnings in an output, one line each, as the page process writes them."""
    return [line for line in normalise(text).split("\n") if _WARNING.match(line)]


def new_warnings(recorded: str | None, output: str, tol: compare.Tolerance) -> list[str]:
    """Warnings in `output` that the recording does not have. A recorded warning line stands
    for one observed line it matches as `check` compares lines ([..], tolerance, volatile
    values), so a warning printed twice where the recording has it once is new once."""
    known = warning_lines(recorded or "")
    found = []
    for line in warning_lines(output):
        match = next((k for k in known if compare.matches(k, line, tol)), None)
        if match is None:
            found.append(line)
        else:
            known.remove(match)
    return found


def block_warnings(config: Config, verification: Verification) -> dict[str, list[str]]:
    """Block key → its new warnings, for every block that ran and has a baseline."""
    found: dict[str, list[str]] = {}
    for key, outcome in verification.outcomes.items():
        source = outcome.verdict.reference.runner  # the judge's baseline
        baseline = outcome.recordings.get(source) if source else None
        if outcome.result is None or baseline is None:
            continue
        tol = tolerance(config, outcome.block)
        if lines := new_warnings(baseline.body, outcome.result["output"], tol):
            found[key] = lines
    return found


def counts(verification: Verification) -> dict[str, int]:
    ran = [o.status for o in verification.outcomes.values() if o.status.ran]
    tally = Counter(ran)
    return {
        "blocks": len(ran),
        "ok": tally[Status.OK],
        "diverge": tally[Status.DIVERGE],
        "error": tally[Status.ERROR],
        "missing": tally[Status.MISSING],
        "changed": sum(tally[s] for s in CHANGED),
    }


def headline(torch: str, changed: int) -> str:
    """«torch 2.14.1 cambiaría 3 bloques»: the summary's title and the issue's."""
    return f"torch {torch} cambiaría {changed} bloque{'' if changed == 1 else 's'}"


def section(
    config: Config,
    verification: Verification,
    project: Mapping[str, Any],
    candidate: Mapping[str, Any],
    sources: Sequence[Mapping[str, Any]],
) -> report_json.Canary:
    """The canary section of its report (report_json.Canary)."""
    tally = counts(verification)
    warnings = block_warnings(config, verification)
    return report_json.Canary(
        format=report_json.CANARY_FORMAT,
        headline=headline(str(candidate.get("torch", "?")), tally["changed"]),
        project=dict(project),
        candidate=dict(candidate),
        counts={**tally, "warnings": sum(len(w) for w in warnings.values())},
        changed={
            k: str(o.status)
            for k, o in sorted(verification.outcomes.items())
            if o.status in CHANGED
        },
        warnings=dict(sorted(warnings.items())),
        sources=[dict(s) for s in sources],
    )


def read(folder: Path) -> report_json.Report:
    """A canary report (ReportError when it is not one, or cannot be read)."""
    report = report_json.read(folder)
    if report.canary is None or report.canary.format not in report_json.CANARY_VERSIONS:
        raise report_json.ReportError(
            f"{report.path}: no es un informe de docverify canary (formato "
            f"{report_json.CANARY_FORMAT}): no tiene la sección «canary»."
        )
    if old := report.without_results():
        raise report_json.ReportError(
            f"{report.path}: el informe no guarda el resultado de «{old[0]}» (formato 2)."
        )
    return report


@dataclass(frozen=True)
class BlockChange:
    """What the canary's torch would change in one block, judged against today's baseline."""

    key: str
    status: Status  # diverge | error
    diff: str  # recording against the canary's output (a divergence)
    error: str  # what failed (an error)
    warnings: tuple[str, ...]


@dataclass
class CanaryView:
    """A canary report attached to a build: what the site shows of it."""

    report: report_json.Report
    changes: dict[str, BlockChange] = field(default_factory=dict)  # block key → change
    stale: dict[str, str] = field(default_factory=dict)  # block key → why it is stale

    @property
    def torch(self) -> str:
        return str(self.section.candidate.get("torch", "?"))

    @property
    def variant(self) -> str:
        return str(self.section.candidate.get("variant", "?"))

    @property
    def section(self) -> report_json.Canary:
        assert self.report.canary is not None  # read() refuses a report without one
        return self.report.canary

    def sources(self, rel: str) -> list[dict[str, Any]]:
        """The fingerprinted sources of page `rel` whose code changed in the canary's torch."""
        return [s for s in self.section.sources if s.get("page") == rel]


def attach(
    config: Config, verification: Verification, folder: Path
) -> tuple[CanaryView | None, list[Finding]]:
    """Judge a canary report's observations against this build's pages and recordings.

    Findings are INFO: a canary report that cannot be used, or that is stale, is said (in the
    terminal and on the pages), and the build goes on.
    """
    try:
        data = read(folder)
    except report_json.ReportError as exc:
        return None, [
            Finding(Kind.INVALID_CANARY_REPORT, f"{ENV}: {exc}", ENV, 1, FIX_REPORT, Level.INFO)
        ]
    view = CanaryView(data)
    findings: list[Finding] = []
    for item in digests.stale(config, verification.pages, data):
        if item.key not in verification.outcomes:
            continue  # a block that is gone: nothing on any page to say it on
        view.stale[item.key] = item.reason
        findings.append(
            Finding(
                Kind.STALE_CANARY_REPORT,
                f"informe canario (torch {view.torch}) obsoleto: {item.reason}; la página no "
                "muestra lo que cambiaría.",
                item.path,
                item.line,
                FIX_STALE,
                Level.INFO,
            )
        )
    warnings = view.section.warnings
    # Each observation of a block on this build's pages, judged by the one loop (judge.py).
    observed = {
        key: Observation(entry.block_result())
        for key, entry in data.observations.items()
        if key in verification.outcomes and key not in view.stale
    }
    recorded = {k: o.recordings for k, o in verification.outcomes.items()}
    judged = judge.verification(
        config, verification.pages, data.runner, observed, recorded=recorded
    )
    for key in data.observations:
        if (made := judged.outcomes.get(key)) is None:
            continue
        noticed = tuple(warnings.get(key, ()))
        if change := _change(config, made, view, noticed):
            view.changes[key] = change
    return view, findings


def _change(
    config: Config,
    made: Outcome,
    view: CanaryView,
    noticed: tuple[str, ...],
) -> BlockChange | None:
    """What the canary's run of one block changes, as judged against today's recordings;
    None when nothing would."""
    block, verdict = made.block, made.verdict
    failed = proposal.failures(verdict)
    if failed:
        why = failed[0].message
        return BlockChange(block.key, Status.ERROR, "", why, noticed)
    if verdict.status != Status.DIVERGE:
        return None
    # What accepting the canary's report would write once its torch is pinned: its diff.
    header = accept.header(view.report)
    proposed = proposal.propose(config, block, verdict, made.recordings, header)
    return BlockChange(block.key, Status.DIVERGE, proposed.diff if proposed else "", "", noticed)
