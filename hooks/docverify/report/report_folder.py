"""A report's folder: what `docverify check --report DIR` leaves behind for a CI artifact.

A failed CI run is read later, in a browser, from an artifact: the log is long and the findings
that matter are buried in it. The folder holds the same findings as the log, in JSON for tools
(report.json, written by report_json.py) and in text for people (findings.txt), and one unified
diff per divergent block, named after the block (diffs/). This module only lays them out: the
report of a run is from_run.py's, a merged one merge.py's.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from docverify.core.config import Config
from docverify.core.files import write_atomic
from docverify.core.kinds import Kind
from docverify.core.status import Status
from docverify.parsing.pages import Page
from docverify.report import from_run, report_json
from docverify.report.report_json import Canary, Report, Sharded
from docverify.verifying.outcome import Verification

DIFFS = "diffs"
FINDINGS = "findings.txt"


def write(
    folder: Path,
    verification: Verification,
    *,
    config: Config,
    every: list[Page] | None = None,
    shard: Sharded | None = None,
    durations: dict[str, float] | None = None,
    canary: Canary | None = None,
) -> list[Path]:
    """Write the report of `verification` (from_run.report) and its diffs in `folder`; the paths.

    Files of an earlier run in the same folder are replaced, never merged: a stale diff in an
    artifact would send a reader after a divergence that is already fixed.
    """
    made = from_run.report(
        folder,
        verification,
        config=config,
        every=every,
        shard=shard,
        durations=durations,
        canary=canary,
    )
    return lay_out(folder, made, divergences(verification))


def write_merged(folder: Path, merged: Report) -> list[Path]:
    """Write a merged report (merge.py) as `write` writes one, with the diffs of its shards."""
    diffs: dict[str, str] = {}
    for source in merged.sources:
        below = source.parent / DIFFS
        for path in sorted(below.rglob("*.diff")) if below.is_dir() else []:
            diffs[path.relative_to(below).as_posix()] = path.read_text(encoding="utf-8")
    return lay_out(folder, merged, diffs)


def divergences(verification: Verification) -> dict[str, str]:
    """diffs/<page>/<id>.<runner>.diff → the diff of each divergent block."""
    found: dict[str, str] = {}
    for key, outcome in sorted(verification.outcomes.items()):
        if outcome.status != Status.DIVERGE:
            continue
        for finding in outcome.findings:
            if finding.kind == Kind.DIVERGENCE and finding.detail:
                found[f"{key}.{verification.runner}.diff"] = finding.detail.rstrip("\n") + "\n"
    return found


def lay_out(folder: Path, report: Report, diffs: Mapping[str, str]) -> list[Path]:
    """Make `folder` with `diffs` under diffs/ (those of an earlier run removed), report.json
    and findings.txt; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    below = folder / DIFFS
    for old in sorted(below.rglob("*.diff")) if below.is_dir() else []:
        old.unlink()
    written = []
    for rel, text in sorted(diffs.items()):
        write_atomic(below / rel, text)
        written.append(below / rel)
    written.append(report_json.save(folder, report))
    found = "\n\n".join(f.finding.format() for f in report.findings) or "Sin hallazgos."
    write_atomic(folder / FINDINGS, found.rstrip("\n") + "\n")
    return [*written, folder / FINDINGS]
