"""Report files: what `docverify check --report DIR` leaves behind for a CI artifact.

A failed CI run is read later, in a browser, from an artifact: the log is long and the findings
that matter are buried in it. The folder holds the same findings as the log, in JSON for tools and
in text for people, and one unified diff per divergent block, named after the block. report.json
also keeps what each block printed, with its code's digest and the run's provenance, so that
`docverify accept` can adopt it and the published build can show it (verifying/observed.py), and
enough to merge the reports of a run's shards into the report of the whole run
(verifying/merge.py, `write_merged`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from docverify.core.config import Config, today
from docverify.core.files import write_atomic
from docverify.core.findings import Finding, errors
from docverify.core.kinds import Kind
from docverify.core.status import Status
from docverify.parsing.pages import Page
from docverify.verifying import observed
from docverify.verifying.merge import Merged
from docverify.verifying.outcome import Verification


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


def parts(verification: Verification, config: Config) -> list[tuple[str, str | None]]:
    """(part, page) of each finding of `report`, in order: `head` for the configuration's
    (every shard reports them), `page` and `block` for those of a page, `tail` for the rest
    (the whole site's, which only shard 1 reports). Merged shards keep this order (merge.py)."""
    head = {id(f) for f in config.findings}
    pages = {id(f): p.rel for p in verification.pages for f in p.findings}
    blocks = {id(f): o.block.page for o in verification.outcomes.values() for f in o.findings}
    found: list[tuple[str, str | None]] = []
    for finding in verification.findings:
        if id(finding) in head:
            found.append(("head", None))
        elif id(finding) in pages:
            found.append(("page", pages[id(finding)]))
        elif id(finding) in blocks:
            found.append(("block", blocks[id(finding)]))
        else:
            found.append(("tail", None))
    return found


def write(
    folder: Path,
    verification: Verification,
    extra: Mapping[str, Any] | None = None,
    *,
    config: Config,
    every: list[Page] | None = None,
) -> list[Path]:
    """Write report.json, findings.txt and diffs/<page>/<id>.<runner>.diff; return the paths.

    `every` is every page the run was asked for (a shard verifies some of them; by default,
    the report's pages). Files of an earlier run in the same folder are replaced, never merged:
    a stale diff in an artifact would send a reader after a divergence that is already fixed.
    """
    written = _clear(folder)
    diffs = folder / "diffs"
    blocks: dict[str, str] = {}
    for key, outcome in sorted(verification.outcomes.items()):
        blocks[key] = outcome.status
        if outcome.status != Status.DIVERGE:
            continue
        for finding in outcome.findings:
            if finding.kind == Kind.DIVERGENCE and finding.detail:
                path = diffs / f"{key}.{verification.runner}.diff"
                write_atomic(path, finding.detail.rstrip("\n") + "\n")
                written.append(path)
    bad = errors(verification.findings)
    seen = {k: o.observed for k, o in verification.outcomes.items() if o.observed is not None}
    every = verification.pages if every is None else every
    tagged = [
        {**finding_data(f), "part": part, "page": page}
        for f, (part, page) in zip(verification.findings, parts(verification, config), strict=True)
    ]
    data = {
        "format": observed.FORMAT,
        "runner": verification.runner,
        "env": verification.env,
        "date": today().isoformat(),
        "run_url": observed.run_url(),
        "pages": [p.rel for p in verification.pages],
        "blocks": blocks,
        "errors": len(bad),
        "findings": tagged,
        # What `docverify accept` and the builds with DOCVERIFY_GPU_REPORT or
        # DOCVERIFY_FROM_REPORTS read (observed.py, replay.py).
        "observations": observed.data(
            config, verification.pages, verification.runner, verification.outcomes, seen
        ),
        # What merging the reports of a run's shards checks (merge.py).
        "all_pages": [p.rel for p in every],
        "site_sha256": observed.site_digest(config, every, verification.runner),
        **dict(extra or {}),
    }
    return written + _texts(folder, data, verification.findings)


def write_merged(folder: Path, merged: Merged) -> list[Path]:
    """Write a merged report (verifying/merge.py) as `write` writes one: report.json,
    findings.txt and the diffs of its shards."""
    written = _clear(folder)
    for rel, source in sorted(merged.diffs.items()):
        path = folder / "diffs" / rel
        write_atomic(path, source.read_text(encoding="utf-8"))
        written.append(path)
    found = [Finding.restored(f) for f in merged.data.get("findings") or []]
    return written + _texts(folder, merged.data, found)


def _clear(folder: Path) -> list[Path]:
    """Make `folder` and empty its diffs/ of an earlier run; nothing written yet."""
    folder.mkdir(parents=True, exist_ok=True)
    diffs = folder / "diffs"
    for old in sorted(diffs.rglob("*.diff")) if diffs.is_dir() else []:
        old.unlink()
    return []


def _texts(folder: Path, data: Mapping[str, Any], findings: list[Finding]) -> list[Path]:
    written = []
    text = "\n\n".join(f.format() for f in findings) or "Sin hallazgos."
    for name, content in (
        ("report.json", json.dumps(data, ensure_ascii=False, indent=1) + "\n"),
        ("findings.txt", text.rstrip("\n") + "\n"),
    ):
        write_atomic(folder / name, content)
        written.append(folder / name)
    return written
