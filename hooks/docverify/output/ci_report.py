"""Report files: what `docverify check --report DIR` leaves behind for a CI artifact.

A failed CI run is read later, in a browser, from an artifact: the log is long and the findings
that matter are buried in it. The folder holds the same findings as the log, in JSON for tools and
in text for people, and one unified diff per divergent block, named after the block. report.json
also keeps what each block printed, with its code's digest and the run's provenance, so that
`docverify accept` can adopt it and the published build can show it (verifying/observed.py).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from docverify.core.config import today
from docverify.core.files import write_atomic
from docverify.core.findings import Finding, errors
from docverify.core.kinds import Kind
from docverify.core.status import Status
from docverify.verifying import observed
from docverify.verifying.outcome import Report


def finding_data(finding: Finding) -> dict[str, Any]:
    return {
        "kind": finding.kind.value,
        "label": finding.kind.label,
        "level": finding.level.value,
        "path": finding.path,
        "line": finding.line,
        "message": finding.message,
        "fix": finding.fix,
        "detail": finding.detail,
    }


def write(folder: Path, report: Report, extra: Mapping[str, Any] | None = None) -> list[Path]:
    """Write report.json, findings.txt and diffs/<page>/<id>.<runner>.diff; return the paths.

    Files of an earlier run in the same folder are replaced, never merged: a stale diff in an
    artifact would send a reader after a divergence that is already fixed.
    """
    folder.mkdir(parents=True, exist_ok=True)
    diffs = folder / "diffs"
    for old in sorted(diffs.rglob("*.diff")) if diffs.is_dir() else []:
        old.unlink()
    written: list[Path] = []
    blocks: dict[str, str] = {}
    for key, outcome in sorted(report.outcomes.items()):
        blocks[key] = outcome.status
        if outcome.status != Status.DIVERGE:
            continue
        for finding in outcome.findings:
            if finding.kind == Kind.DIVERGENCE and finding.detail:
                path = diffs / f"{key}.{report.runner}.diff"
                write_atomic(path, finding.detail.rstrip("\n") + "\n")
                written.append(path)
    bad = errors(report.findings)
    seen = {k: o.observed for k, o in report.outcomes.items() if o.observed is not None}
    data = {
        "format": observed.FORMAT,
        "runner": report.runner,
        "env": report.env,
        "date": today().isoformat(),
        "run_url": observed.run_url(),
        "pages": [p.rel for p in report.pages],
        "blocks": blocks,
        "errors": len(bad),
        "findings": [finding_data(f) for f in report.findings],
        # What `docverify accept` and a build with DOCVERIFY_GPU_REPORT read (observed.py).
        "observations": observed.data(report.pages, report.runner, report.outcomes, seen),
        **dict(extra or {}),
    }
    text = "\n\n".join(f.format() for f in report.findings) or "Sin hallazgos."
    for name, content in (
        ("report.json", json.dumps(data, ensure_ascii=False, indent=1) + "\n"),
        ("findings.txt", text.rstrip("\n") + "\n"),
    ):
        write_atomic(folder / name, content)
        written.append(folder / name)
    return written
