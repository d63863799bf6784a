"""The optional pre-release canary of weekly.yml (DOCS_CANARY_PRERELEASE: off by default).

Its version step runs with a stand-in pip that lists what each index would; the dry run shows it
off without the variable and the canary's issue going on whatever it does. How its report joins
the canary's issue: test_canary_workflow.py (the real reports live there).
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from support import workflow_rules as rules
from support import workflow_run as wr
from support.canary import pinned_torch as pinned
from support.workflow_run import run_with_outputs

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"
RELEASED = rules.TORCH_CPU_INDEX


def weekly() -> dict[str, Any]:
    return rules.load((WORKFLOWS / "weekly.yml").read_text(encoding="utf-8"))


def listing(version: str) -> str:
    return f"torch ({version}+cpu)\nAvailable versions: {version}+cpu, {pinned()}+cpu\n"


def run_version(
    tmp_path: Path, channel: str, lists: dict[str, str]
) -> tuple[int, str, dict[str, str]]:
    """Run canary-pre's version step with a .venv/bin/python whose pip lists, for each index
    URL, what `lists` gives (nothing, and a failure, for any other)."""
    [step] = [s for s in weekly()["jobs"]["canary-pre"]["steps"] if s.get("id") == "version"]
    work = tmp_path / "work"
    (work / ".venv" / "bin").mkdir(parents=True)
    for name in ("tasks.py", "pyproject.toml"):
        shutil.copy(ROOT / name, work / name)
    (work / "lists.json").write_text(json.dumps(lists), encoding="utf-8")
    python = work / ".venv" / "bin" / "python"
    python.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = "-m" ] && [ "$2" = "pip" ]; then\n'
        f"  exec {sys.executable} -c \"import json, sys; lists = json.load(open('lists.json')); "
        "index = sys.argv[sys.argv.index('--index-url') + 1]; "
        'print(lists[index]) if index in lists else sys.exit(1)" "$@"\n'
        "fi\n"
        f'exec {sys.executable} "$@"\n',
        encoding="utf-8",
    )
    python.chmod(0o755)
    return run_with_outputs(
        [shutil.which("bash") or "/bin/bash", "-e", "-c", str(step["run"])],
        {"CHANNEL": channel, "DOCS_TORCH_INDEX": RELEASED},
        tmp_path / "output",
        cwd=work,
    )


def test_a_candidate_newer_than_the_release_runs(tmp_path: Path) -> None:
    major, minor, *_ = pinned().split(".")
    candidate = f"{major}.{int(minor) + 1}.0"  # PyTorch's test index: the coming version
    lists = {
        "https://download.pytorch.org/whl/test/cpu": listing(candidate),
        RELEASED: listing(pinned()),
    }
    code, log, outputs = run_version(tmp_path, "test", lists)
    assert code == 0, log
    assert outputs == {"torch": candidate, "channel": "test", "ran": "true"}


@pytest.mark.parametrize("same_as", ["released", "pinned"])
def test_a_candidate_already_tried_runs_nothing(tmp_path: Path, same_as: str) -> None:
    major, minor, *_ = pinned().split(".")
    released = f"{major}.{int(minor) + 1}.0"
    candidate = released if same_as == "released" else pinned()
    lists = {
        "https://download.pytorch.org/whl/nightly/cpu": listing(candidate),
        RELEASED: listing(released),
    }
    code, log, outputs = run_version(tmp_path, "nightly", lists)
    assert code == 0, log
    assert outputs["ran"] == "false"
    assert "::notice title=Sin versión preliminar esta semana::" in log


@pytest.mark.parametrize("channel", ["true", "https://pypi.org/simple", "Test", " "])
def test_an_unknown_channel_fails_with_what_to_write(tmp_path: Path, channel: str) -> None:
    code, log, outputs = run_version(tmp_path, channel, {})
    assert code == 1 and outputs == {}
    assert "::error title=DOCS_CANARY_PRERELEASE mal formada::" in log and "nightly" in log


def test_an_index_that_does_not_answer_fails(tmp_path: Path) -> None:
    code, log, outputs = run_version(tmp_path, "test", {RELEASED: listing(pinned())})
    assert code != 0 and "ran" not in outputs
    assert "::error title=Canario sin versión de torch::" in log


# --- the dry run ---------------------------------------------------------------------------------

NEWER = {"ran": "true", "torch": "9.9.9"}
PRE_DOWNLOAD = "Descargar el informe del canario (versión preliminar)"


def simulate(**scenario: Any) -> dict[str, wr.Job]:
    pre = {**NEWER, "channel": "nightly"}
    base = {"event": "schedule", "outputs": {"canary.version": NEWER, "canary-pre.version": pre}}
    return wr.simulate(weekly(), wr.Scenario(**{**base, **scenario}))


def test_off_by_default() -> None:
    run = simulate()
    assert run["canary-pre"].result == "skipped"
    assert run["canary-issue"].result == "success"
    assert PRE_DOWNLOAD not in run["canary-issue"].steps


def test_on_with_the_variable_and_its_report_reaches_the_issue() -> None:
    run = simulate(variables={"DOCS_CANARY_PRERELEASE": "nightly"})
    assert run["canary-pre"].result == "success"
    env = run["canary-pre"].env["Canario (docverify canary --runner cpu, versión preliminar)"]
    assert rules.TORCH_CPU_INDEXES.fullmatch(env["DOCS_TORCH_INDEX"])
    assert env["DOCS_TORCH_INDEX"] == "https://download.pytorch.org/whl/nightly/cpu"
    assert run["canary-issue"].inputs[PRE_DOWNLOAD]["name"] == "docverify-canary-pre"


@pytest.mark.parametrize("ending", ["failure", "cancelled"])
def test_a_pre_release_canary_that_fails_leaves_the_canary_issue_going(ending: str) -> None:
    run = simulate(variables={"DOCS_CANARY_PRERELEASE": "test"}, results={"canary-pre": ending})
    assert run["canary-issue"].result == "success"
    assert run["report"].result == "success"  # and the weekly issue says it failed
