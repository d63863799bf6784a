"""weekly.yml's `origins` job and its notice: the engine's JSON (docverify origins --drift) kept
as one issue by the notices job, opened with its own marker and label, closed when empty."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from docverify.parsing import origin
from docverify.sources import origins
from support import github_script as gs
from support import workflow_rules as rules

WORKFLOWS = Path(__file__).resolve().parents[2] / ".github" / "workflows"
MARKER = "<!-- docverify-origenes -->"
FOUND = origin.Origin("pytorch/tutorials", "tutorial.py", "a" * 40, "BSD-3-Clause")


def weekly_jobs() -> dict[str, Any]:
    return rules.load((WORKFLOWS / "weekly.yml").read_text(encoding="utf-8"))["jobs"]


def file(spec: dict[str, Any], open_issues: list[dict[str, Any]] | None = None) -> list[dict]:
    script, env = gs.script_of(weekly_jobs()["notices"])
    given = {k: "" for k, v in env.items() if "${{" in v}
    code, err, calls = gs.run(
        script, {**given, "NOTICES": env["NOTICES"], "ORIGINS": json.dumps(spec)}, open_issues
    )
    assert code == 0, err
    return calls


def test_the_notices_job_opens_and_closes_the_origins_issue() -> None:
    drift = origins.Drift("docs/portado.md", FOUND, "b" * 40, blocks=[("perdida", 12)])
    [call] = file(origins.notice([drift], 1))
    assert call["create"]["labels"] == ["codigo-citado"]
    body = call["create"]["body"]
    assert (
        body.startswith(MARKER) and "`docs/portado.md`" in body and "«perdida» (línea 12)" in body
    )
    calls = file(origins.notice([], 1), [gs.mine(7, MARKER)])
    assert [next(iter(c)) for c in calls] == ["comment", "update"], calls


def test_the_origins_job_only_reads_and_feeds_the_notice() -> None:
    jobs = weekly_jobs()
    job = jobs["origins"]
    assert job["permissions"] == {"contents": "read"} and job["timeout-minutes"] <= 30
    assert any("docverify origins --drift --issue" in run for run in rules.runs(job))
    assert job["outputs"]["origins-issue"] == "${{ steps.drift.outputs.issue }}"
    assert "origins" in jobs["notices"]["needs"]
    _, env = gs.script_of(jobs["notices"])
    assert env["ORIGINS"] == "${{ needs.origins.outputs.origins-issue }}"
