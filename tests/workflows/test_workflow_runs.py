"""What the workflows do with and without a GPU runner, asked of the workflows themselves.

tests/support/workflow_run.py evaluates each job's `if:`, outputs, `runs-on` and matrix as GitHub
does, and runs the real .ci/gpu-runner.py and .ci/shards.py for the first jobs; each scenario gives
only the event, the repository variables DOCS_GPU_RUNNER and DOCS_SHARDS, how the other jobs end
and what GitHub answers the steps that ask it (the canary of weekly.yml, the newest torch).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support import workflow_rules as rules
from support import workflow_run as wr
from support.workflow_run import Scenario

WORKFLOWS = Path(__file__).resolve().parents[2] / ".github" / "workflows"
SELF_HOSTED = '["self-hosted","linux","x64","gpu"]'
GPU_REPORT = "reports/gpu"
CPU_REPORTS = "reports/cpu"
# What the site's canary job finds (docs.yml: canario.canary) and what weekly.yml's version step
# says of the newest torch (canary.version / canary-gpu.version).
CANARY_FOUND = {"canario.canary": {"found": "true"}}
NEWER_TORCH = {"ran": "true", "torch": "9.9.9"}
PINNED_TORCH = {"ran": "false", "torch": "9.9.9"}


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


def downloads(job: wr.Job) -> list[dict[str, str]]:
    """The `with:` of each download-artifact step that ran."""
    return [job.inputs[s] for s in job.steps if job.actions.get(s) == "actions/download-artifact"]


def checks(instance: wr.Job) -> dict[str, str]:
    """The env of the instance's `docverify check` step."""
    [found] = [env for name, env in instance.env.items() if name.startswith("Verificar")]
    return found


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
        "partes": "success",
        "cpu": "success",
        "gpu": "skipped",  # skipped, never queued
        "canario": "success",
        "site": "success",
        "zensical": "success",
        "deploy": "success",
        "semanal": "success",
    }
    assert run["config"].outputs["gpu"] == "false"
    built = builds(run["site"])
    assert len(built) == 1, built
    assert not any(rules.GPU_REPORT_ENV in env for env in built.values()), built
    assert [env[rules.FROM_REPORTS_ENV] for env in built.values()] == [CPU_REPORTS]
    assert uploaded(run["site"])
    assert [d.get("pattern") for d in downloads(run["site"])] == ["docverify-cpu-*"]


@pytest.mark.parametrize(
    ("variable", "labels"),
    [(SELF_HOSTED, ["self-hosted", "linux", "x64", "gpu"]), ('"gpu-t4-4-core"', "gpu-t4-4-core")],
    ids=["propio", "alojado-por-github"],
)
def test_with_a_gpu_runner_the_site_carries_its_report(variable: str, labels: Any) -> None:
    run = docs(event="push", variable=variable)
    assert results(run)["gpu"] == "success"
    assert [gpu.runs_on for gpu in run["gpu"].instances] == [labels]
    built = builds(run["site"])
    assert [env.get(rules.GPU_REPORT_ENV) for env in built.values()] == [GPU_REPORT], built
    assert [env[rules.FROM_REPORTS_ENV] for env in built.values()] == [CPU_REPORTS]
    assert [d.get("pattern") for d in downloads(run["site"])] == [
        "docverify-cpu-*",
        "docverify-gpu-*",
    ]
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
        "partes": "success",
        "cpu": "success",
        "gpu": "skipped",
        "canario": "success",
        "site": "skipped",
        "zensical": "success",
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
        "partes": "success",
        "cpu": "success",
        "gpu": "skipped",
        "canario": "skipped",  # nothing of another run is read for a fork
        "site": "skipped",
        "zensical": "success",  # GitHub-hosted, publishes nothing
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


def published(job: wr.Job) -> bool:
    return "actions/deploy-pages" in job.uses


def test_a_deploy_re_run_after_main_moved_publishes_nothing() -> None:
    """Re-running deploy alone reuses the `publish=true` that site computed back then; deploy asks
    again and, main having moved on, publishes nothing (its question's step says why)."""
    then = docs(event="push", variable=None)
    assert results(then)["deploy"] == "success" and published(then["deploy"])
    later = docs(event="push", variable=None, head_at_deploy=False)
    assert uploaded(later["site"]) and later["site"].outputs["publish"] == "true"
    assert results(later)["deploy"] == "success"
    assert not published(later["deploy"])
    assert any("cabeza de main" in step for step in later["deploy"].steps)


@pytest.mark.parametrize("variable", [SELF_HOSTED, None], ids=["con-runner", "sin-runner"])
def test_a_run_started_by_hand_on_main_publishes_like_a_push(variable: str | None) -> None:
    """workflow_dispatch: the first publish once Pages is on, or right after unsetting
    DOCS_GPU_RUNNER, without waiting for a push."""
    run = docs(event="workflow_dispatch", variable=variable)
    assert results(run)["gpu"] == ("success" if variable else "skipped")
    assert results(run)["canario"] == "success"
    assert uploaded(run["site"]) and published(run["deploy"])


def test_a_run_started_by_hand_on_another_branch_publishes_nothing() -> None:
    run = docs(event="workflow_dispatch", variable=SELF_HOSTED, ref="refs/heads/prueba")
    assert results(run)["gpu"] == "success" and results(run)["site"] == "success"
    assert not uploaded(run["site"])
    assert results(run)["deploy"] == "skipped"


# --- docs.yml: shards (DOCS_SHARDS) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("shards", "total"), [(None, 1), ("", 1), ("1", 1), ("3", 3), (" 16 ", 16)]
)
@pytest.mark.parametrize("variable", [SELF_HOSTED, None], ids=["con-runner", "sin-runner"])
def test_each_shard_checks_its_part_and_uploads_its_report(
    shards: str | None, total: int, variable: str | None
) -> None:
    run = docs(event="push", variable=variable, shards=shards)
    runners = ["cpu", "gpu"] if variable else ["cpu"]
    for runner in runners:
        instances = run[runner].instances
        assert [i.matrix for i in instances] == [{"shard": n} for n in range(1, total + 1)]
        for number, instance in enumerate(instances, 1):
            assert checks(instance) | {"SHARD": str(number), "TOTAL": str(total)} == checks(
                instance
            )
            assert instance.title.startswith(f"{runner} {number}/{total} ")
            names = [
                instance.inputs[s]["name"]
                for s in instance.steps
                if s.startswith("Subir el informe")
            ]
            assert names == [f"docverify-{runner}-{number}"]
        # The test suite once per run: in shard 1 only.
        tested = [
            i.matrix["shard"] for i in instances if any("tasks.py test" in s for s in i.steps)
        ]
        assert tested == [1]
    assert results(run)["deploy"] == "success"


@pytest.mark.parametrize("ending", ["failure", "cancelled"])
@pytest.mark.parametrize("failing", ["cpu:2", "gpu:3", "gpu:1"])
def test_one_failed_shard_publishes_nothing(failing: str, ending: str) -> None:
    run = docs(event="push", variable=SELF_HOSTED, shards="3", results={failing: ending})
    runner = failing.partition(":")[0]
    assert results(run)[runner] == ending
    ended = [i.result for i in run[runner].instances]
    assert sorted(ended) == sorted(["success", "success", ending])  # the others ran to the end
    assert (results(run)["site"], results(run)["deploy"]) == ("skipped", "skipped")


@pytest.mark.parametrize("value", ["0", "17", "-1", "2.0", "dos", "1e1", "[2]"])
@pytest.mark.parametrize("variable", [SELF_HOSTED, None], ids=["con-runner", "sin-runner"])
def test_a_malformed_shard_count_fails_first_and_verifies_nothing(
    value: str, variable: str | None
) -> None:
    run = docs(event="push", variable=variable, shards=value)
    assert results(run)["partes"] == "failure"
    assert results(run)["config"] == "success"
    for job in ("cpu", "gpu", "site", "zensical", "deploy"):
        assert results(run)[job] == "skipped", job


# --- docs.yml: the canary on the site, the Zensical job ------------------------------------------


def test_the_site_shows_the_newest_weekly_canary_when_there_is_one() -> None:
    with_canary = docs(event="push", outputs=CANARY_FOUND)
    built = builds(with_canary["site"])
    assert [env[rules.CANARY_REPORT_ENV] for env in built.values()] == ["canary"]
    assert {"name": "canario-semanal", "path": "canary/"} in downloads(with_canary["site"])
    assert "Pasar el canario a «site»" in with_canary["canario"].steps
    without = docs(event="push")  # no canary yet: no error, no variable
    assert results(without)["canario"] == "success"
    assert [env[rules.CANARY_REPORT_ENV] for env in builds(without["site"]).values()] == [""]
    assert not any(d.get("name") == "canario-semanal" for d in downloads(without["site"]))
    assert results(without)["deploy"] == "success"


@pytest.mark.parametrize("ending", ["failure", "cancelled"])
def test_the_zensical_job_never_holds_up_publishing(ending: str) -> None:
    run = docs(event="push", variable=SELF_HOSTED, results={"zensical": ending})
    assert results(run)["zensical"] == ending
    assert (results(run)["site"], results(run)["deploy"]) == ("success", "success")
    assert results(docs(event="push", results={"cpu": "failure"}))["zensical"] == "skipped"


def _group(raw: Any, scenario: Scenario, run_id: str, shard: int = 1) -> tuple[str, Any]:
    block = raw if isinstance(raw, dict) else {"group": raw}
    context = {
        "github": {**wr.github_context(scenario), "run_id": run_id},
        "vars": {},
        "matrix": {"shard": shard},
    }
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
    # The shards of one run never share a group (they would replace each other); shard I of
    # two runs does.
    assert _group(gpu, push, "1", shard=1) != _group(gpu, push, "1", shard=2)
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


# --- weekly.yml: the torch canary and its issue ------------------------------------------------


def canary_outputs(cpu: dict[str, str], gpu: dict[str, str] | None = None) -> dict[str, Any]:
    return {"canary.version": cpu, "canary-gpu.version": gpu or cpu}


@pytest.mark.parametrize("torch", [NEWER_TORCH, PINNED_TORCH], ids=["mas-nueva", "la-fijada"])
@pytest.mark.parametrize("variable", [SELF_HOSTED, None], ids=["con-runner", "sin-runner"])
def test_the_canary_runs_only_for_a_newer_torch(
    torch: dict[str, str], variable: str | None
) -> None:
    run = weekly(variable=variable, outputs=canary_outputs(torch))
    newer = torch["ran"] == "true"
    jobs = ["canary", "canary-gpu"] if variable else ["canary"]
    for name in jobs:
        ran = [s for s in run[name].steps if s.startswith(("Canario (", "Subir el informe"))]
        assert len(ran) == (2 if newer else 0), (name, run[name].steps)
        if newer:
            env = run[name].env[ran[0]]
            assert env["TORCH"] == torch["torch"]
    assert results(run)["canary-gpu"] == ("success" if variable else "skipped")
    if variable:
        assert run["canary-gpu"].runs_on == json.loads(SELF_HOSTED)
    # The issue: opened, updated or closed either way (closed when the newest is the pin).
    issue = run["canary-issue"]
    assert issue.result == "success"
    fetched = [
        issue.inputs[s]["name"]
        for s in issue.steps
        if s in issue.inputs and "name" in issue.inputs[s]
    ]
    expected = (
        (["docverify-canary"] + (["docverify-canary-gpu"] if variable else [])) if newer else []
    )
    assert fetched == expected


@pytest.mark.parametrize(
    ("scenario", "files"),
    [
        ({}, True),
        ({"variable": SELF_HOSTED, "results": {"canary-gpu": "cancelled"}}, True),
        ({"variable": SELF_HOSTED, "results": {"canary-gpu": "failure"}}, True),
        ({"results": {"canary": "failure"}}, False),  # the issue is left as it is
        ({"results": {"canary": "cancelled"}}, False),
        ({"event": "workflow_dispatch"}, True),
        ({"event": "workflow_dispatch", "ref": "refs/heads/otra"}, False),
    ],
    ids=[
        "canario-termina",
        "gpu-cancelado",
        "gpu-falla",
        "canario-falla",
        "canario-cancelado",
        "a-mano-en-main",
        "a-mano-en-otra-rama",
    ],
)
def test_the_canary_issue_is_touched_only_after_the_cpu_canary_ran(
    scenario: dict[str, Any], files: bool
) -> None:
    run = weekly(outputs=canary_outputs(NEWER_TORCH), **scenario)
    assert (run["canary-issue"].result == "success") is files, results(run)
    if files and scenario.get("results", {}).get("canary-gpu"):
        # Only the cpu report: the gpu canary did not finish.
        assert not any("gpu" in s for s in run["canary-issue"].steps if s.startswith("Descargar"))


@pytest.mark.parametrize("failing", ["canary", "canary-gpu"])
def test_a_canary_that_cannot_run_is_a_weekly_failure(failing: str) -> None:
    run = weekly(
        variable=SELF_HOSTED, outputs=canary_outputs(NEWER_TORCH), results={failing: "failure"}
    )
    assert run["report"].result == "success", results(run)


# --- weekly.yml: the notices (sources due for review) ---------------------------------------------

SOURCES_SPEC = '{"format": 1, "count": 1, "title": "t", "body": "b", "closing": "c"}'


@pytest.mark.parametrize(
    ("scenario", "runs"),
    [
        ({"outputs": {"freshness.due": {"issue": SOURCES_SPEC}}}, True),
        # A stale source: the due step wrote its notice, then the freshness report failed.
        (
            {
                "outputs": {"freshness.due": {"issue": SOURCES_SPEC}},
                "results": {"freshness": "failure"},
            },
            True,
        ),
        # The job failed before the due step (install): no notice, the issue stays as it is.
        ({"outputs": {"freshness.due": {"issue": ""}}, "results": {"freshness": "failure"}}, False),
        (
            {
                "outputs": {"freshness.due": {"issue": SOURCES_SPEC}},
                "event": "workflow_dispatch",
                "ref": "refs/heads/otra",
            },
            False,  # another branch files nothing
        ),
    ],
    ids=["aviso", "caducada", "sin-aviso", "otra-rama"],
)
def test_the_notices_job_runs_whenever_a_notice_was_written(
    scenario: dict[str, Any], runs: bool
) -> None:
    run = weekly(**{"event": "schedule", **scenario})
    assert (results(run)["notices"] == "success") is runs, results(run)
    if runs:
        assert run["notices"].env[run["notices"].steps[0]]["SOURCES"] == SOURCES_SPEC
