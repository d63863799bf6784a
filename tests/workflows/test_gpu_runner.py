"""The first job of both workflows: .ci/gpu-runner.py reads DOCS_GPU_RUNNER and says what runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import workflow_rules as rules
from support.workflow_run import run_ci_script

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / ".ci" / "gpu-runner.py"
WORKFLOWS = ROOT / ".github" / "workflows"


def run(tmp_path: Path, value: str | None, **env: str) -> tuple[int, str, dict[str, str]]:
    variables = {"EVENT_NAME": "push", **env}
    if value is not None:
        variables[rules.GPU_VARIABLE] = value
    return run_ci_script(SCRIPT, variables, tmp_path / "output")


@pytest.mark.parametrize(
    ("value", "labels"),
    [
        ('["self-hosted","linux","x64","gpu"]', ["self-hosted", "linux", "x64", "gpu"]),
        ('[ "self-hosted", "gpu" ]\n', ["self-hosted", "gpu"]),
        ('"gpu-t4-4-core"', "gpu-t4-4-core"),
    ],
    ids=["runner-propio", "con-espacios", "runner-de-github"],
)
def test_a_runner_switches_the_gpu_job_on(tmp_path: Path, value: str, labels: object) -> None:
    code, log, written = run(tmp_path, value)
    assert code == 0, log
    assert written["gpu"] == "true"
    assert json.loads(written["runs-on"]) == labels
    assert "\n" not in written["runs-on"]


@pytest.mark.parametrize("value", [None, "", " \n"], ids=["sin-definir", "vacia", "en-blanco"])
def test_no_runner_means_the_cpu_verified_site(tmp_path: Path, value: str | None) -> None:
    code, log, written = run(tmp_path, value)
    assert code == 0, log
    assert written == {"gpu": "false", "runs-on": "[]"}
    assert "::notice title=Sin runner GPU::" in log and "solo en CPU" in log


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("[self-hosted, gpu]", "no es JSON válido"),
        ("self-hosted", "no es JSON válido"),
        ("[]", "lista vacía"),
        ('["self-hosted", 7]', "su elemento 2 no es un texto"),
        ('["self-hosted", ""]', "su elemento 2 no es un texto"),
        ('""', "texto JSON vacío"),
        ("42", "es un número"),
        ("true", "es un booleano"),
        ('{"labels": ["gpu"]}', "es un objeto"),
        ("null", "es null"),
    ],
)
def test_a_malformed_value_fails_with_a_clear_message(
    tmp_path: Path, value: str, says: str
) -> None:
    code, log, written = run(tmp_path, value)
    assert code == 1
    assert f"::error title={rules.GPU_VARIABLE} mal formada::" in log, log
    assert says in log, log
    assert '["self-hosted","linux","x64","gpu"]' in log  # how to write it
    assert written == {}  # no output: the gpu and site jobs read nothing


def test_a_forks_pull_request_never_reaches_the_gpu_runner(tmp_path: Path) -> None:
    """A fork's run gets no repository variables; it is told apart from «no runner configured»."""
    fork = {"EVENT_NAME": "pull_request", "HEAD_REPOSITORY": "otra/curso", "REPOSITORY": "d/curso"}
    for value in (None, '["self-hosted","gpu"]', "[roto"):
        code, log, written = run(tmp_path, value, **fork)
        assert code == 0, log
        assert written == {"gpu": "fork", "runs-on": "[]"}
    same = {**fork, "HEAD_REPOSITORY": "d/curso"}
    assert run(tmp_path, '["gpu"]', **same)[2]["gpu"] == "true"


def test_both_workflows_read_the_variable_the_same_way() -> None:
    configs = [
        rules.load((WORKFLOWS / name).read_text(encoding="utf-8"))["jobs"][rules.CONFIG_JOB]
        for name in ("docs.yml", "weekly.yml")
    ]
    assert configs[0] == configs[1]
    assert any(rules.GPU_SCRIPT in str(s.get("run")) for s in configs[0]["steps"])
