"""The weekly issue's text: the github-script of weekly.yml, run by node with a stand-in GitHub.

The job's `if:` (when it runs) is tested in test_workflow_runs.py; here, what it writes: each
failed or cancelled job by name, and a line when no GPU runner is configured. node comes with npm,
which .ci/run installs for the browser tests.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from support import github_script as gs
from support import workflow_rules as rules

WORKFLOWS = Path(__file__).resolve().parents[2] / ".github" / "workflows"


def report(needs: dict[str, Any], open_issues: list[dict[str, Any]] | None = None) -> list[dict]:
    jobs = rules.load((WORKFLOWS / "weekly.yml").read_text(encoding="utf-8"))["jobs"]
    script, _ = gs.script_of(jobs["report"])
    code, err, calls = gs.run(script, {"NEEDS": json.dumps(needs)}, open_issues)
    assert code == 0, err
    return calls


def job(result: str, **outputs: str) -> dict[str, Any]:
    return {"result": result, "outputs": outputs}


def test_a_cancelled_gpu_job_is_named_in_the_issue() -> None:
    calls = report(
        {
            "config": job("success", gpu="true"),
            "cpu": job("success"),
            "gpu": job("cancelled"),
            "freshness": job("failure"),
        }
    )
    body = calls[0]["create"]["body"]
    assert "- `gpu`: cancelled" in body and "- `freshness`: failure" in body, body
    assert "`cpu`" not in body and "`config`" not in body, body
    assert "solo se verificó la CPU" not in body


def test_without_a_gpu_runner_the_issue_says_the_gpu_went_unverified() -> None:
    calls = report(
        {
            "config": job("success", gpu="false"),
            "cpu": job("failure"),
            "gpu": job("skipped"),
            "freshness": job("success"),
        }
    )
    body = calls[0]["create"]["body"]
    assert "- `cpu`: failure" in body and "- `gpu`" not in body, body  # skipped is no failure
    assert "Sin runner GPU configurado (DOCS_GPU_RUNNER)" in body


def test_the_open_weekly_issue_gets_a_comment() -> None:
    mine = {
        "number": 9,
        "title": "Verificación semanal fallida",
        "user": {"login": "github-actions[bot]"},
    }
    calls = report({"config": job("failure"), "cpu": job("success"), "gpu": job("skipped")}, [mine])
    assert calls[0]["comment"]["issue_number"] == 9
    assert "- `config`: failure" in calls[0]["comment"]["body"]
