"""gpu-queue.yml: gpu jobs waiting for a runner that never comes, reported in one issue.

The `queued` step's own Python runs with a stand-in `gh` that answers what the Actions API would
and a clock pinned by SOURCE_DATE_EPOCH (never the real clock); its notice goes through the same
notices script as weekly.yml's. Also here: where the browser tests run (the cpu job, not gpu).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support import github_script as gs
from support import workflow_rules as rules
from support import workflow_run as wr
from support.clock import epoch

WORKFLOWS = Path(__file__).resolve().parents[2] / ".github" / "workflows"
SELF_HOSTED = ["self-hosted", "linux", "x64", "gpu"]
NOW = dt.datetime(2027, 3, 1, 12, tzinfo=dt.UTC)  # SOURCE_DATE_EPOCH: noon of this day
MARKER = "<!-- docverify-cola-gpu -->"

STAND_IN_GH = """\
import json, pathlib, sys
here = pathlib.Path(sys.argv[0]).parent
answers = json.loads((here / "responses.json").read_text())
path = sys.argv[2]
with open(here / "calls.txt", "a") as calls:
    calls.write(path + "\\n")
if path not in answers:
    sys.exit("gh: HTTP 502")
print(json.dumps(answers[path]))
"""


def doc(name: str = "gpu-queue.yml") -> dict[str, Any]:
    return rules.load((WORKFLOWS / name).read_text(encoding="utf-8"))


def job(name: str, hours_ago: float, labels: list[str] | None = None, **fields: Any) -> dict:
    created = NOW - dt.timedelta(hours=hours_ago)
    return {
        "name": name,
        "status": "queued",
        "labels": SELF_HOSTED if labels is None else labels,
        "created_at": created.strftime("%Y-%m-%dT%H:%M:%SZ"),
        **fields,
    }


def answers(runs: dict[tuple[str, str], list[dict]], jobs: dict[int, list[dict]]) -> dict:
    """What the API answers: the runs of each (workflow, status), the jobs of each run."""
    found: dict[str, Any] = {}
    for workflow in ("docs.yml", "weekly.yml"):
        for status in ("queued", "in_progress"):
            path = (
                f"repos/duena/curso/actions/workflows/{workflow}/runs?status={status}&per_page=100"
            )
            found[path] = {"workflow_runs": runs.get((workflow, status), [])}
    for run_id, listed in jobs.items():
        found[f"repos/duena/curso/actions/runs/{run_id}/jobs?filter=latest&per_page=100"] = {
            "jobs": listed
        }
    return found


def run_of(run_id: int) -> dict[str, Any]:
    return {
        "id": run_id,
        "run_number": run_id // 10,
        "head_branch": "main",
        "head_sha": "abcdef1234567",
        "html_url": f"https://github.com/duena/curso/actions/runs/{run_id}",
    }


def check(
    tmp_path: Path, api: dict[str, Any], runner: str = json.dumps(SELF_HOSTED), hours: str = ""
) -> tuple[int, str, dict[str, Any] | None]:
    """Run the queued step; (exit code, log, the notice it wrote or None)."""
    [step] = doc()["jobs"]["queued"]["steps"]
    assert step["shell"] == "python"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "gh").write_text(f"#!{sys.executable}\n{STAND_IN_GH}", encoding="utf-8")
    (bin_dir / "gh").chmod(0o755)
    (bin_dir / "responses.json").write_text(json.dumps(api), encoding="utf-8")
    output = tmp_path / "output"
    output.touch()
    done = subprocess.run(
        [sys.executable, "-c", step["run"]],
        env={
            "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
            "GITHUB_OUTPUT": str(output),
            "REPOSITORY": "duena/curso",
            "DOCS_GPU_RUNNER": runner,
            "DOCS_GPU_QUEUE_HOURS": hours,
            "SOURCE_DATE_EPOCH": epoch(NOW.date()),
        },
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    written = output.read_text(encoding="utf-8")
    notice = json.loads(written.removeprefix("issue=")) if written else None
    return done.returncode, done.stdout + done.stderr, notice


def test_a_gpu_job_queued_past_the_limit_is_reported(tmp_path: Path) -> None:
    api = answers(
        {("docs.yml", "in_progress"): [run_of(510)], ("weekly.yml", "queued"): [run_of(620)]},
        {
            510: [
                {"name": "cpu 1/1 (ubuntu-latest)", "status": "completed", "labels": ["x"]},
                job("gpu 1/1 (DOCS_GPU_RUNNER)", 7),
            ],
            620: [job("gpu (DOCS_GPU_RUNNER)", 2)],  # under the limit (6 h when unset)
        },
    )
    code, log, notice = check(tmp_path, api)
    assert code == 0, log
    assert notice is not None and notice["format"] == 1 and notice["count"] == 1
    body = notice["body"]
    assert (
        "| docs.yml | [#51 (main, abcdef1)](https://github.com/duena/curso/actions/runs/510)"
        in body
    )
    assert "gpu 1/1 (DOCS_GPU_RUNNER) | 2027-03-01 05:00 UTC | 7 |" in body
    assert "gpu (DOCS_GPU_RUNNER)" not in body
    assert "gh variable delete DOCS_GPU_RUNNER" in body
    assert "gh workflow run docs.yml --ref main" in body
    assert "6 horas" in notice["title"]


def test_the_limit_comes_from_the_variable(tmp_path: Path) -> None:
    api = answers({("docs.yml", "queued"): [run_of(510)]}, {510: [job("gpu 1/1", 4)]})
    assert check(tmp_path / "a", api)[2]["count"] == 0  # type: ignore[index]
    assert check(tmp_path / "b", api, hours="3")[2]["count"] == 1  # type: ignore[index]


@pytest.mark.parametrize(
    "other",
    [
        job("gpu 1/1", 9, labels=["ubuntu-latest"]),  # waits for another runner
        {**job("gpu 1/1", 9), "status": "in_progress"},  # a runner took it
    ],
    ids=["otras-etiquetas", "ya-corre"],
)
def test_only_jobs_waiting_for_the_gpu_runner_count(tmp_path: Path, other: dict) -> None:
    api = answers({("docs.yml", "in_progress"): [run_of(510)]}, {510: [other]})
    code, log, notice = check(tmp_path, api)
    assert code == 0, log
    assert notice is not None and notice["count"] == 0 and notice["closing"]


def test_a_runner_named_by_one_label_matches(tmp_path: Path) -> None:
    api = answers(
        {("weekly.yml", "queued"): [run_of(620)]}, {620: [job("gpu", 30, labels=["gpu-t4"])]}
    )
    assert check(tmp_path, api, runner='"gpu-t4"')[2]["count"] == 1  # type: ignore[index]


@pytest.mark.parametrize("hours", ["0", "49", "seis", "2.5", "-3"])
def test_a_malformed_limit_fails_with_a_clear_message(tmp_path: Path, hours: str) -> None:
    code, log, notice = check(tmp_path, answers({}, {}), hours=hours)
    assert code == 1 and notice is None
    assert "::error title=DOCS_GPU_QUEUE_HOURS mal formada::" in log and f"«{hours}»" in log


@pytest.mark.parametrize("runner", ["[gpu", "[]", "42"])
def test_a_malformed_runner_variable_fails(tmp_path: Path, runner: str) -> None:
    code, log, _ = check(tmp_path, answers({}, {}), runner=runner)
    assert code == 1 and "::error title=DOCS_GPU_RUNNER mal formada::" in log


def test_an_unreadable_queue_writes_no_notice(tmp_path: Path) -> None:
    code, log, notice = check(tmp_path, {})
    assert code == 1 and notice is None and "::error title=Cola de GPU sin leer::" in log


def test_the_notice_becomes_one_issue(tmp_path: Path) -> None:
    api = answers({("docs.yml", "queued"): [run_of(510)]}, {510: [job("gpu 1/1", 8)]})
    _, _, notice = check(tmp_path, api)
    script, env = gs.script_of(doc()["jobs"]["notices"])
    code, err, calls = gs.run(script, {"NOTICES": env["NOTICES"], "QUEUE": json.dumps(notice)})
    assert code == 0, err
    [call] = calls
    assert call["create"]["labels"] == ["runner-gpu-ausente"]
    assert call["create"]["body"].startswith(MARKER)
    code, err, calls = gs.run(
        script,
        {"NOTICES": env["NOTICES"], "QUEUE": json.dumps({**notice, "count": 0})},  # type: ignore[dict-item]
        [gs.mine(4, MARKER)],
    )
    assert code == 0, err
    assert [next(iter(c)) for c in calls] == ["comment", "update"]


def test_both_workflows_file_notices_with_the_same_script() -> None:
    """One way to keep an issue: weekly.yml's notices and this one run the same text."""
    weekly, _ = gs.script_of(doc("weekly.yml")["jobs"]["notices"])
    queue, _ = gs.script_of(doc()["jobs"]["notices"])
    assert weekly == queue


# --- the dry run ---------------------------------------------------------------------------------


def simulate(**scenario: Any) -> dict[str, wr.Job]:
    return wr.simulate(doc(), wr.Scenario(**{"event": "schedule", **scenario}))


def test_without_a_gpu_runner_nothing_runs() -> None:
    run = simulate()
    assert {n: j.result for n, j in run.items()} == {"queued": "skipped", "notices": "skipped"}


def test_with_a_gpu_runner_the_queue_is_checked_and_its_notice_filed() -> None:
    notice = '{"format": 1, "count": 1, "title": "t", "body": "b", "closing": "c"}'
    run = simulate(variable=json.dumps(SELF_HOSTED), outputs={"queued.queue": {"issue": notice}})
    assert run["queued"].result == "success" and run["notices"].result == "success"
    unread = simulate(
        variable=json.dumps(SELF_HOSTED),
        results={"queued": "failure"},
        outputs={"queued.queue": {"issue": ""}},
    )
    assert unread["notices"].result == "skipped"  # the issue stays as it is


# --- where the browser tests run -----------------------------------------------------------------


def test_the_browser_tests_run_on_the_cpu_job_and_not_on_the_gpu_job() -> None:
    """The gpu job leaves them out (a GitHub-hosted GPU image has no /usr/bin/chromium); the cpu
    job runs the whole suite, browser tests included, with Chromium installed first."""
    jobs = doc("docs.yml")["jobs"]
    suites = {
        name: [r for r in rules.runs(jobs[name]) if "tasks.py test" in r] for name in ("cpu", "gpu")
    }
    assert suites["cpu"] == ["python3 tasks.py test"]
    assert suites["gpu"] == ["python3 tasks.py test --ignore=tests/browser"]
    assert any("/usr/bin/chromium" in r for r in rules.runs(jobs["cpu"]))
    assert not any("chromium" in r for r in rules.runs(jobs["gpu"]))
