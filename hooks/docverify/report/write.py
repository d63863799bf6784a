"""Writing a report: what `docverify check --report DIR` leaves behind for a CI artifact.

A failed CI run is read later, in a browser, from an artifact: the log is long and the findings
that matter are buried in it. The folder holds the same findings as the log, in JSON for tools and
in text for people, and one unified diff per divergent block, named after the block. report.json
(its format: report_json.py) also keeps what each block printed, with its code's digests
(digests.py) and the run's provenance, so that `docverify accept` can adopt it and a build can
show it, and enough to merge the reports of a run's shards into the report of the whole run
(merge.py; `write_merged` writes the result).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from docverify.core import device_marks
from docverify.core.config import Config, today
from docverify.core.files import write_atomic
from docverify.core.findings import Finding, errors
from docverify.core.kinds import Kind
from docverify.core.status import Status
from docverify.parsing.pages import Page
from docverify.report import digests, report_json
from docverify.report.merge import Merged
from docverify.verifying.outcome import Verification


def run_url(environ: Mapping[str, str] | None = None) -> str:
    """The CI run's URL from GitHub's variables, or "" outside GitHub Actions."""
    env = os.environ if environ is None else environ
    parts = [env.get(n, "").strip() for n in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY")]
    run_id = env.get("GITHUB_RUN_ID", "").strip()
    if not all(parts) or not run_id:
        return ""
    return f"{parts[0].rstrip('/')}/{parts[1]}/actions/runs/{run_id}"


def entries(
    config: Config,
    pages: list[Page],
    runner: str,
    outcomes: Mapping[str, Any],
    observed: Mapping[str, str],
) -> dict[str, dict[str, Any]]:
    """The `observations` table of report.json: every block that ran and printed something.

    `device_dependent` (the run's device marks, a list; cpu reports only) is a key added after
    FORMAT 2 was fixed: a reader of an older report finds none, and an older reader ignores it."""
    table: dict[str, dict[str, Any]] = {}
    for page in pages:
        options = digests.setup_digests(config, page, runner)
        for key, (own, inputs) in digests.block_digests(page, runner).items():
            outcome = outcomes.get(key)
            if outcome is None or key not in observed:
                continue
            result = outcome.result or {}
            table[key] = {
                "status": outcome.status,
                "output": observed[key],
                "code_sha256": own,
                "inputs_sha256": inputs,
                "error": str(result.get("error") or result.get("exception") or ""),
                "spec_sha256": options[key],
                "result": {k: v for k, v in result.items() if k not in report_json.NOT_KEPT},
            }
            # Only the cpu runner's runs detect them all (on a GPU, draws come from CUDA's
            # generator, which the detection does not watch): a gpu report carries none.
            if report_json.MARKS in result and runner == device_marks.RUNNER:
                table[key][report_json.MARKS] = list(
                    device_marks.ordered(result[report_json.MARKS])
                )
    return table


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
        "format": report_json.FORMAT,
        "runner": verification.runner,
        "env": verification.env,
        "date": today().isoformat(),
        "run_url": run_url(),
        "pages": [p.rel for p in verification.pages],
        "blocks": blocks,
        "errors": len(bad),
        "findings": tagged,
        # What `docverify accept` and the builds with DOCVERIFY_GPU_REPORT or
        # DOCVERIFY_FROM_REPORTS read (report_json.py, from_reports.py).
        "observations": entries(
            config, verification.pages, verification.runner, verification.outcomes, seen
        ),
        # What merging the reports of a run's shards checks (merge.py).
        "all_pages": [p.rel for p in every],
        "site_sha256": digests.site_digest(config, every, verification.runner),
        **dict(extra or {}),
    }
    return written + _texts(folder, data, verification.findings)


def write_merged(folder: Path, merged: Merged) -> list[Path]:
    """Write a merged report (report/merge.py) as `write` writes one: report.json,
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
