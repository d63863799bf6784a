"""What the workflows do with and without a GPU runner, asked of the workflows themselves.

tests/support/workflow_run.py evaluates each job's `if:`, outputs and `runs-on` as GitHub does, and
runs the real .ci/gpu-runner.py for the config job; each scenario gives only the event, the
repository variable DOCS_GPU_RUNNER and how the other jobs end.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support import workflow_rules as rules
from support import workflow_run as wr
from support.workflow_run import Scenario

WORKFLOWS = Path(__file__).resolve().parents[2] / ".github" / "workflows"
SELF_HOSTED = '["self-hosted","linux","x64","gpu"]'
GPU_REPORT = "gpu-artifact/docverify-gpu"


def workflow(name: str) -> dict[str, Any]:
    return rules.load((WORKFLOWS / name).read_text(encoding="utf-8"))


def docs(**scenario: Any) -> dict[str, wr.Job]:
    return wr.simulate(workflow("docs.yml"), Scenario(**scenario))


def weekly(**scenario: Any) -> dict[str, wr.Job]:
    return wr.simulate(workflow("weekly.yml"), Scenario(**{"event": "schedule", **scenario}))


def results(run: dict[str, wr.Job]) -> dict[str, str]:
    return {name: job.result for name, job in run.items()}


def builds(job: wr.Job) -> dict[str, dict[str, str]]:
    """The mkdocs builds that ran in `site`, each with its environment."""
    return {name: env for name, env in job.env.items() if "Construcción" in name}


def uploaded(job: wr.Job) -> bool:
    return rules.PAGES_UPLOAD in job.uses


# --- The evaluator agrees with GitHub's documented rules -----------------------------------------


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("'Push' == 'push'", True),  # strings compare ignoring case
        ("true && false || true", True),  # && binds tighter than ||
        ("!(true && false)", True),
        ("'' || 'b'", "b"),  # || gives the first truthy operand
        ("'a' && ''", ""),
        ("contains(needs.*.result, 'cancelled')", True),
        ("contains(needs.*.result, 'failure')", False),
        ("format('refs/heads/{0}', 'main')", "refs/heads/main"),
        ('fromJSON(\'["a","b"]\')', ["a", "b"]),
        ("needs.x.outputs.missing == ''", True),  # a missing property is an empty string
    ],
)
def test_the_evaluator_follows_github(expression: str, expected: Any) -> None:
    context = {"needs": {"x": {"result": "success", "outputs": {}}, "y": {"result": "cancelled"}}}
    assert wr.evaluate(expression, context) == expected


def test_an_if_without_status_function_needs_success() -> None:
    assert not wr.condition("true", {}, {"success": False})
    assert wr.condition("!cancelled() && true", {}, {"success": False})
    assert not wr.condition("${{ always() && false }}", {}, {"success": True})


# --- docs.yml ------------------------------------------------------------------------------------


@pytest.mark.parametrize("variable", [None, "", "  "], ids=["sin-definir", "vacia", "espacios"])
def test_without_a_gpu_runner_the_cpu_verified_site_is_published(variable: str | None) -> None:
    run = docs(event="push", variable=variable)
    assert results(run) == {
        "config": "success",
        "cpu": "success",
        "gpu": "skipped",  # skipped, never queued
        "site": "success",
        "deploy": "success",
        "semanal": "success",
    }
    assert run["config"].outputs["gpu"] == "false"
    built = builds(run["site"])
    assert len(built) == 1, built
    assert not any(rules.GPU_REPORT_ENV in env for env in built.values()), built
    assert uploaded(run["site"])
    assert "actions/download-artifact" not in run["site"].uses


@pytest.mark.parametrize(
    ("variable", "labels"),
    [(SELF_HOSTED, ["self-hosted", "linux", "x64", "gpu"]), ('"gpu-t4-4-core"', "gpu-t4-4-core")],
    ids=["propio", "alojado-por-github"],
)
def test_with_a_gpu_runner_the_site_carries_its_report(variable: str, labels: Any) -> None:
    run = docs(event="push", variable=variable)
    assert results(run)["gpu"] == "success"
    assert run["gpu"].runs_on == labels
    built = builds(run["site"])
    assert [env.get(rules.GPU_REPORT_ENV) for env in built.values()] == [GPU_REPORT], built
    assert results(run)["deploy"] == "success"


@pytest.mark.parametrize("ending", ["failure", "cancelled"])
@pytest.mark.parametrize("failing", ["gpu", "cpu"])
def test_a_configured_runner_that_fails_publishes_nothing(failing: str, ending: str) -> None:
    run = docs(event="push", variable=SELF_HOSTED, results={failing: ending})
    assert results(run)["site"] == "skipped"
    assert results(run)["deploy"] == "skipped"


@pytest.mark.parametrize("ending", ["failure", "cancelled"])
def test_without_a_gpu_runner_a_failed_cpu_job_publishes_nothing(ending: str) -> None:
    run = docs(event="push", results={"cpu": ending})
    assert (results(run)["site"], results(run)["deploy"]) == ("skipped", "skipped")


@pytest.mark.parametrize("value", ["[gpu", "[]", "42", '["gpu", 7]', "{}"])
def test_a_malformed_variable_fails_first_and_the_cpu_check_still_runs(value: str) -> None:
    run = docs(event="push", variable=value)
    assert results(run) == {
        "config": "failure",
        "cpu": "success",
        "gpu": "skipped",
        "site": "skipped",
        "deploy": "skipped",
        "semanal": "success",
    }


@pytest.mark.parametrize("variable", [SELF_HOSTED, None], ids=["con-runner", "sin-runner"])
def test_a_forks_pull_request_runs_the_cpu_job_only(variable: str | None) -> None:
    """The fork gate skips gpu, and `site` tells that skip from «no GPU runner configured»."""
    run = docs(event="pull_request", fork=True, variable=variable)
    assert run["config"].outputs["gpu"] == "fork"
    assert results(run) == {
        "config": "success",
        "cpu": "success",
        "gpu": "skipped",
        "site": "skipped",
        "deploy": "skipped",
        "semanal": "skipped",
    }


@pytest.mark.parametrize("variable", [SELF_HOSTED, None], ids=["con-runner", "sin-runner"])
def test_a_branch_pull_request_builds_the_site_and_publishes_nothing(variable: str | None) -> None:
    run = docs(event="pull_request", variable=variable)
    assert results(run)["gpu"] == ("success" if variable else "skipped")
    assert results(run)["site"] == "success"
    assert not uploaded(run["site"])
    assert results(run)["deploy"] == "skipped"


def test_a_run_whose_commit_is_no_longer_the_head_of_main_publishes_nothing() -> None:
    run = docs(event="push", variable=SELF_HOSTED, head_current=False)
    assert results(run)["site"] == "success"  # built and verified all the same
    assert not uploaded(run["site"])
    assert results(run)["deploy"] == "skipped"


def _group(raw: Any, scenario: Scenario, run_id: str) -> tuple[str, Any]:
    block = raw if isinstance(raw, dict) else {"group": raw}
    context = {"github": {**wr.github_context(scenario), "run_id": run_id}, "vars": {}}
    cancel = block.get("cancel-in-progress", False)
    return wr.render(block["group"], context), (
        wr.evaluate(cancel, context) if isinstance(cancel, str) else cancel
    )


def test_runs_on_main_never_wait_for_each_other_and_pull_requests_do() -> None:
    """A push to main gets a group of its own: a gpu job queued for hours holds up no later
    cpu check. The gpu jobs of main share theirs: the newest waits, an older waiting one goes."""
    doc = workflow("docs.yml")
    push, pr = Scenario(event="push"), Scenario(event="pull_request")
    first, second = _group(doc["concurrency"], push, "1"), _group(doc["concurrency"], push, "2")
    assert first[0] != second[0]
    assert _group(doc["concurrency"], pr, "1") == (_group(doc["concurrency"], pr, "2")[0], True)
    gpu = doc["jobs"]["gpu"]["concurrency"]
    assert _group(gpu, push, "1") == _group(gpu, push, "2")
    assert _group(gpu, push, "1")[1] is False  # never cancels a gpu job that already runs
    assert "concurrency" not in doc["jobs"]["cpu"]


# --- weekly.yml: the issue is filed for failed, cancelled and timed-out jobs ----------------------


@pytest.mark.parametrize(
    ("scenario", "files"),
    [
        ({"variable": SELF_HOSTED}, False),
        ({"variable": SELF_HOSTED, "results": {"gpu": "cancelled"}}, True),  # 24 h in the queue
        ({"variable": SELF_HOSTED, "results": {"gpu": "failure"}}, True),  # failed or timed out
        ({"variable": SELF_HOSTED, "results": {"cpu": "cancelled"}}, True),
        ({"results": {"freshness": "failure"}}, True),
        ({}, False),  # no GPU runner configured: gpu skipped, nothing failed
        ({"variable": "[gpu"}, True),  # a malformed variable is a failure too
        (
            {"variable": SELF_HOSTED, "event": "workflow_dispatch", "results": {"gpu": "failure"}},
            True,
        ),
        (
            {
                "event": "workflow_dispatch",
                "ref": "refs/heads/otra",
                "results": {"cpu": "failure"},
            },
            False,  # another branch verifies and files nothing
        ),
    ],
    ids=[
        "todo-pasa",
        "gpu-cancelado",
        "gpu-falla",
        "cpu-cancelado",
        "frescura-falla",
        "sin-runner-gpu",
        "variable-mal-formada",
        "a-mano-en-main",
        "a-mano-en-otra-rama",
    ],
)
def test_the_weekly_issue_is_filed_when_a_job_fails_or_is_cancelled(
    scenario: dict[str, Any], files: bool
) -> None:
    run = weekly(**scenario)
    assert (run["report"].result == "success") is files, results(run)
