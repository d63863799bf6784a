"""A github-script step of a workflow run by node with a stand-in GitHub that records each call.

The step's own script text (from the workflow) runs, with `context` for duena/curso, run 1234,
and a `github` whose issues API records create, update and createComment, and whose paginate
answers the open issues given. node comes with npm, which .ci/run installs for the browser tests.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from support import browser as bs

HARNESS = """
const calls = [];
const context = { serverUrl: "https://github.com", repo: { owner: "duena", repo: "curso" },
  runId: 1234 };
const github = {
  paginate: async () => JSON.parse(process.env.OPEN_ISSUES),
  rest: { issues: {
    listForRepo: () => null,
    create: async (args) => calls.push({ create: args }),
    update: async (args) => calls.push({ update: args }),
    createComment: async (args) => calls.push({ comment: args }),
  } },
};
(async () => {
  await (async function () { SCRIPT }).call(null);
  console.log(JSON.stringify(calls));
})().catch((error) => { console.error(String(error)); process.exit(1); });
"""
RUN_URL = "https://github.com/duena/curso/actions/runs/1234"
BOT = {"login": "github-actions[bot]"}


def script_of(job: dict[str, Any]) -> tuple[str, dict[str, str]]:
    """The job's github-script step: its script and its env as written in the workflow."""
    [step] = [s for s in job.get("steps", []) if "script" in (s.get("with") or {})]
    return str(step["with"]["script"]), {k: str(v) for k, v in (step.get("env") or {}).items()}


def run(
    script: str,
    env: dict[str, str],
    open_issues: list[dict[str, Any]] | None = None,
    cwd: Path | None = None,
) -> tuple[int, str, list[dict[str, Any]]]:
    """Run `script` with `env` in `cwd` (where a job's downloads would be); its exit code, its
    error output and the calls it made."""
    node = shutil.which("node")
    if node is None:
        if bs.in_ci():
            pytest.fail("falta node (lo instala .ci/run con npm)")
        pytest.skip("sin node")
    done = subprocess.run(
        [node, "-e", HARNESS.replace("SCRIPT", script)],
        env={
            **env,
            "OPEN_ISSUES": json.dumps(open_issues or []),
            "PATH": os.environ.get("PATH", ""),
        },
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    calls = json.loads(done.stdout) if done.returncode == 0 else []
    return done.returncode, done.stderr, calls


def mine(number: int, marker: str, title: str = "antes") -> dict[str, Any]:
    """An open issue this bot opened, with `marker` in its body."""
    return {"number": number, "title": title, "user": BOT, "body": f"{marker}\n\nantes"}
