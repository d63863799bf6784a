"""The scripts of `site` and `deploy` that decide what is published, run with a stand-in for `gh`.

Each step's `run:` is taken from docs.yml and executed as GitHub does (`bash -e`), with a `gh` that
answers what GitHub Pages, the commits API or the Actions API would: the script, not a copy of it,
is what is tested. The last ones: the canario job's search for weekly.yml's newest canary.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support import workflow_rules as rules

WORKFLOWS = Path(__file__).resolve().parents[2] / ".github" / "workflows"
SHA = "a" * 40


def step(step_id: str, job: str = "site") -> dict:
    jobs = rules.load((WORKFLOWS / "docs.yml").read_text(encoding="utf-8"))["jobs"]
    found = [s for s in jobs[job]["steps"] if s.get("id") == step_id]
    assert len(found) == 1, step_id
    return found[0]


def pages_answer(**fields: Any) -> str:
    """A stand-in `gh` body printing what GET repos/{owner}/{repo}/pages answers."""
    return f"echo '{json.dumps(fields)}'"


PUBLISHED = pages_answer(html_url="https://duena.github.io/curso/", build_type="workflow")


def run_step(tmp_path: Path, step_id: str, gh: str, job: str = "site") -> tuple[int, str, str]:
    """Run the step with `gh` replaced by a script whose body is `gh`."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "gh").write_text(f"#!/bin/sh\n{gh}\n", encoding="utf-8")
    (bin_dir / "gh").chmod(0o755)
    output = tmp_path / "output"
    output.touch()
    env = {
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "GITHUB_OUTPUT": str(output),
        "REPOSITORY": "duena/curso",
        "SHA": SHA,
        "GH_TOKEN": "sin-token",
    }
    done = subprocess.run(
        [shutil.which("bash") or "/bin/bash", "-e", "-c", str(step(step_id, job)["run"])],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=30,
    )
    return done.returncode, done.stdout + done.stderr, output.read_text(encoding="utf-8")


def test_the_published_address_comes_from_pages(tmp_path: Path) -> None:
    code, log, output = run_step(tmp_path, "pages", PUBLISHED)
    assert code == 0, log
    assert output == "url=https://duena.github.io/curso/\n"


@pytest.mark.parametrize(
    "gh",
    [
        "echo",  # Pages answers with no address
        'echo ""',
        "echo null",
        pages_answer(html_url=None, build_type="workflow"),
        pages_answer(html_url="http://duena.github.io/curso/", build_type="workflow"),
        "echo 'gh: Not Found (HTTP 404)' >&2; exit 1",  # Pages is not enabled
    ],
    ids=["vacia", "cadena-vacia", "null", "sin-html-url", "http", "sin-pages"],
)
def test_no_site_is_built_for_publishing_without_an_address(tmp_path: Path, gh: str) -> None:
    code, log, output = run_step(tmp_path, "pages", gh)
    assert code == 1
    assert "::error title=Sin dirección de GitHub Pages::" in log, log
    assert "Settings → Pages" in log and "127.0.0.1" in log
    assert output == ""


@pytest.mark.parametrize("build_type", ["legacy", None, "rama"], ids=["rama", "sin-campo", "otro"])
def test_no_site_is_built_when_pages_publishes_from_a_branch(
    tmp_path: Path, build_type: str | None
) -> None:
    """A Pages site built from a branch and this workflow's deploy would overwrite each other:
    `site` refuses, naming the setting to change."""
    answer = pages_answer(html_url="https://duena.github.io/curso/", build_type=build_type)
    code, log, output = run_step(tmp_path, "pages", answer)
    assert code == 1, log
    assert "::error title=GitHub Pages no publica desde GitHub Actions::" in log, log
    assert "Settings → Pages → Build and deployment → Source" in log and "GitHub Actions" in log
    assert "build_type=workflow" in log
    assert output == ""


def test_the_pages_step_runs_where_the_site_is_published() -> None:
    """The step that fails without an address runs on every push to main and every run started
    by hand on main, before each build."""
    jobs = rules.load((WORKFLOWS / "docs.yml").read_text(encoding="utf-8"))["jobs"]
    steps = jobs["site"]["steps"]
    pages = next(i for i, s in enumerate(steps) if s.get("id") == "pages")
    assert rules.split_top(rules.expression(steps[pages]["if"]), "&&") == [
        "github.event_name == 'push' || github.event_name == 'workflow_dispatch'",
        "github.ref == 'refs/heads/main'",
    ]
    builds = [i for i, s in enumerate(steps) if "mkdocs build" in str(s.get("run", ""))]
    assert builds and all(i > pages for i in builds)


@pytest.mark.parametrize("job", ["site", "deploy"])
@pytest.mark.parametrize(("head", "publish"), [(SHA, "true"), ("b" * 40, "false")])
def test_only_the_head_of_main_is_published(
    tmp_path: Path, job: str, head: str, publish: str
) -> None:
    """`site` uploads, and `deploy` (asking again: a re-run of deploy alone reuses site's answer)
    publishes, only the commit that is the head of main; otherwise each says why."""
    code, log, output = run_step(tmp_path, "head", f"echo {head}", job)
    assert code == 0, log
    assert output == f"publish={publish}\n"
    assert ("::notice title=No se publica este commit::" in log) is (publish == "false")
    if publish == "false":
        assert f"main ya está en {head}" in log, log


@pytest.mark.parametrize("job", ["site", "deploy"])
def test_a_failed_head_lookup_publishes_nothing(tmp_path: Path, job: str) -> None:
    code, _, output = run_step(tmp_path, "head", "exit 1", job)
    assert code != 0
    assert "publish=true" not in output


# --- the canary of weekly.yml, fetched for the site ----------------------------------------------

# A stand-in `gh`: answers from responses.json what GitHub's API would, writes what
# `gh run download` would, and keeps every call in calls.txt.
STAND_IN_GH = """\
import json, pathlib, sys
here = pathlib.Path(sys.argv[0]).parent
answers = json.loads((here / "responses.json").read_text())
with open(here / "calls.txt", "a") as calls:
    calls.write(" ".join(sys.argv[1:]) + "\\n")
args = sys.argv[1:]
if args[:2] == ["run", "download"]:
    if answers.get("download_fails"):
        sys.exit("gh: error de red")
    folder = pathlib.Path(args[args.index("--dir") + 1])
    folder.mkdir(parents=True, exist_ok=True)
    if not answers.get("download_empty"):
        (folder / "report.json").write_text(json.dumps({"run": args[2]}))
    sys.exit(0)
url = args[1]
if "/actions/workflows/weekly.yml/runs" in url:
    key = "runs"
else:
    key = "artifacts/" + url.split("/actions/runs/")[1].split("/")[0]
if key not in answers:
    sys.exit("gh: HTTP 502")
print(json.dumps(answers[key]))
"""


def weekly_run(run_id: int, event: str = "schedule", **fields: Any) -> dict[str, Any]:
    return {
        "id": run_id,
        "event": event,
        "status": "completed",
        "head_branch": "main",
        "head_repository": {"full_name": "duena/curso"},
        **fields,
    }


def canary_artifacts(expired: bool = False) -> dict[str, Any]:
    return {"artifacts": [{"name": "docverify-canary", "expired": expired}]}


def fetch_canary(tmp_path: Path, answers: dict[str, Any]) -> tuple[int, str, str, list[str]]:
    """Run the canario job's step in tmp_path; (exit code, log, outputs, gh calls)."""
    jobs = rules.load((WORKFLOWS / "docs.yml").read_text(encoding="utf-8"))["jobs"]
    [found] = [s for s in jobs["canario"]["steps"] if s.get("id") == "canary"]
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "gh").write_text(f"#!{sys.executable}\n{STAND_IN_GH}", encoding="utf-8")
    (bin_dir / "gh").chmod(0o755)
    (bin_dir / "responses.json").write_text(json.dumps(answers), encoding="utf-8")
    output = tmp_path / "output"
    output.touch()
    done = subprocess.run(
        [shutil.which("bash") or "/bin/bash", "-e", "-c", str(found["run"])],
        cwd=tmp_path,
        env={
            "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
            "GITHUB_OUTPUT": str(output),
            "REPOSITORY": "duena/curso",
            "BRANCH": "main",
            "GH_TOKEN": "sin-token",
        },
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    calls = (bin_dir / "calls.txt").read_text(encoding="utf-8").splitlines()
    return done.returncode, done.stdout + done.stderr, output.read_text(encoding="utf-8"), calls


def test_the_newest_weekly_canary_of_the_default_branch_is_fetched(tmp_path: Path) -> None:
    runs = {"workflow_runs": [weekly_run(30), weekly_run(20)]}
    code, log, output, calls = fetch_canary(
        tmp_path, {"runs": runs, "artifacts/30": canary_artifacts(), "artifacts/20": {}}
    )
    assert code == 0, log
    assert output == "found=true\n"
    assert json.loads((tmp_path / "canary" / "report.json").read_text()) == {"run": "30"}
    query = calls[0]
    assert query.startswith("api repos/duena/curso/actions/workflows/weekly.yml/runs?")
    assert "branch=main" in query and "status=completed" in query
    assert calls[-1] == "run download 30 --repo duena/curso --name docverify-canary --dir canary"


@pytest.mark.parametrize(
    "foreign",
    [
        weekly_run(40, "pull_request", head_repository={"full_name": "extrana/curso"}),
        weekly_run(40, "pull_request"),  # a pull request's run, even from this repository
        weekly_run(40, "push"),
        weekly_run(40, head_repository={"full_name": "extrana/curso"}),
        weekly_run(40, head_repository=None),
        weekly_run(40, head_branch="otra"),
        weekly_run(40, status="in_progress"),
    ],
    ids=["fork", "pull-request", "push", "otro-repo", "sin-repo", "otra-rama", "en-curso"],
)
def test_only_a_scheduled_or_manual_run_of_this_repository_counts(
    tmp_path: Path, foreign: dict[str, Any]
) -> None:
    """Whatever the API answers (a fork's pull request may carry a workflow named weekly.yml and
    a branch named main), only this repository's schedule or a manual run on main is read."""
    runs = {"workflow_runs": [foreign, weekly_run(30, "workflow_dispatch")]}
    answers = {"runs": runs, "artifacts/40": canary_artifacts(), "artifacts/30": canary_artifacts()}
    code, log, output, calls = fetch_canary(tmp_path, answers)
    assert code == 0, log
    assert output == "found=true\n"
    assert calls[-1].startswith("run download 30 ")
    assert not any("/runs/40/" in c or "download 40" in c for c in calls)


@pytest.mark.parametrize(
    ("answers", "says"),
    [
        ({"runs": {"workflow_runs": []}}, "::notice title=Sin canario de torch::"),
        ({"runs": {"total_count": 0}}, "::notice title=Sin canario de torch::"),
        # The newest run left none (the newest torch is the pinned one): never an older canary.
        (
            {
                "runs": {"workflow_runs": [weekly_run(30), weekly_run(20)]},
                "artifacts/30": {"artifacts": []},
                "artifacts/20": canary_artifacts(),
            },
            "::notice title=Sin canario de torch::",
        ),
        (
            {"runs": {"workflow_runs": [weekly_run(30)]}, "artifacts/30": canary_artifacts(True)},
            "::notice title=Sin canario de torch::",
        ),
        ({}, "::warning title=Canario no disponible::"),
        ({"runs": {"workflow_runs": [weekly_run(30)]}}, "::warning title=Canario no disponible::"),
        (
            {
                "runs": {"workflow_runs": [weekly_run(30)]},
                "artifacts/30": canary_artifacts(),
                "download_fails": True,
            },
            "::warning title=Canario no disponible::",
        ),
        (
            {
                "runs": {"workflow_runs": [weekly_run(30)]},
                "artifacts/30": canary_artifacts(),
                "download_empty": True,
            },
            "::warning title=Canario no disponible::",
        ),
    ],
    ids=[
        "ninguna-ejecucion",
        "respuesta-vacia",
        "la-ultima-no-dejo-canario",
        "caducado",
        "api-falla",
        "artefactos-fallan",
        "descarga-falla",
        "sin-report-json",
    ],
)
def test_no_canary_is_no_error(tmp_path: Path, answers: dict[str, Any], says: str) -> None:
    code, log, output, calls = fetch_canary(tmp_path, answers)
    assert code == 0, log
    assert output == "found=false\n"
    assert says in log and "el sitio se construye sin canario" in log, log
    assert "run download 20" not in "\n".join(calls)
