"""torch's version is written once, in pyproject.toml; everything else reads it from there."""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from support import workflow_rules as rules

ROOT = Path(__file__).resolve().parents[2]
# What CI and set-up run; the recordings and the pages say which torch produced an output, which
# is data, not a pin.
INSTALLERS = [
    ROOT / "tasks.py",
    *sorted(p for p in (ROOT / ".ci").glob("*") if p.is_file()),  # not a __pycache__
    *sorted(ROOT.glob(".github/**/*.yml")),
]


def load_tasks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tasks_under_test", ROOT / "tasks.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fake_project(tmp_path: Path, dependencies: str) -> ModuleType:
    (tmp_path / "pyproject.toml").write_text(
        f'[project]\nname = "x"\nversion = "0"\ndependencies = [{dependencies}]\n',
        encoding="utf-8",
    )
    tasks = load_tasks()
    tasks.ROOT = tmp_path
    return tasks


def test_tasks_reads_the_pin_that_pyproject_holds() -> None:
    import tomllib  # noqa: PLC0415

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "dependencies"
    ]
    pins = [d for d in deps if d.replace(" ", "").startswith("torch==")]
    assert len(pins) == 1, deps
    assert load_tasks().torch_requirement() == pins[0].replace(" ", "")


def test_no_installer_repeats_the_version() -> None:
    assert len(INSTALLERS) >= 4, INSTALLERS
    repeated = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in INSTALLERS
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if rules.TORCH_VERSION_LITERAL.search(line)
    ]
    assert not repeated, repeated


@pytest.mark.parametrize(
    "dependencies",
    ['"numpy==2.4.6"', '"torch>=2.13"', '"torch==2.13.0", "torch==2.12.0"'],
    ids=["sin-torch", "sin-fijar", "dos-veces"],
)
def test_a_missing_or_loose_pin_is_an_error(tmp_path: Path, dependencies: str) -> None:
    with pytest.raises(SystemExit, match="torch una sola vez"):
        fake_project(tmp_path, dependencies).torch_requirement()


def test_the_cpu_index_installs_the_pinned_version_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tasks = fake_project(tmp_path, '"torch == 9.8.7", "numpy==2.4.6"')
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").touch()
    tasks.VENV, tasks.BIN, tasks.STAMP = venv, venv / "bin", venv / ".installed"
    calls: list[list[str]] = []

    def record(args: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        calls.append(args)
        return subprocess.CompletedProcess(args, 0)

    monkeypatch.setattr(tasks.subprocess, "run", record)
    monkeypatch.setenv("DOCS_TORCH_INDEX", rules.TORCH_CPU_INDEX)
    tasks.install()
    torch_calls = [c for c in calls if "torch==9.8.7" in c]
    assert torch_calls and torch_calls[0][-2:] == ["--index-url", rules.TORCH_CPU_INDEX], calls
    project = next(i for i, c in enumerate(calls) if any(a.endswith("[site,dev]") for a in c))
    assert calls.index(torch_calls[0]) < project, calls

    calls.clear()
    tasks.STAMP.unlink()
    monkeypatch.delenv("DOCS_TORCH_INDEX")
    tasks.install()
    assert not [c for c in calls if "--index-url" in c], calls


def test_a_python_older_than_pyproject_asks_is_refused_before_installing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """tasks.py reads requires-python from pyproject.toml and says what is missing, in Spanish,
    before it creates an environment that pip would then refuse."""
    import tomllib  # noqa: PLC0415

    spec = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "requires-python"
    ]
    minimum = tuple(int(p) for p in spec.removeprefix(">=").split("."))
    tasks = load_tasks()
    assert tasks.python_problem(minimum) is None
    older = (*minimum[:-1], minimum[-1] - 1) if minimum[-1] else (minimum[0], minimum[1] - 1, 99)
    problem = tasks.python_problem(older)
    assert problem and spec.removeprefix(">=") in problem and "hace falta Python" in problem
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\nversion = "0"\nrequires-python = ">=3.11.5"\n',
        encoding="utf-8",
    )
    tasks.ROOT = tmp_path
    tasks.VENV = tmp_path / "venv"
    judge = tasks.python_problem
    monkeypatch.setattr(tasks, "python_problem", lambda: judge((3, 11, 2)))  # Debian 12's
    with pytest.raises(SystemExit, match=r"Python 3\.11\.5 o posterior.*3\.11\.2"):
        tasks.install()
    assert not (tmp_path / "venv").exists()  # nothing was created


def test_torchvision_and_torchaudio_come_from_torch_s_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When pyproject.toml requires them (here in the `site` extra), the install step that takes
    torch from DOCS_TORCH_INDEX takes them too, pinned as written, before the project."""
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\nversion = "0"\ndependencies = ["torch==9.8.7"]\n'
        '[project.optional-dependencies]\nsite = ["torchvision == 0.99.1", "pillow==1.0"]\n'
        'dev = ["torchaudio==9.8.7"]\n',
        encoding="utf-8",
    )
    tasks = load_tasks()
    tasks.ROOT = tmp_path
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").touch()
    tasks.VENV, tasks.BIN, tasks.STAMP = venv, venv / "bin", venv / ".installed"
    calls: list[list[str]] = []
    monkeypatch.setattr(
        tasks.subprocess,
        "run",
        lambda args, **_: calls.append(args) or subprocess.CompletedProcess(args, 0),
    )
    monkeypatch.setenv("DOCS_TORCH_INDEX", rules.TORCH_CPU_INDEX)
    tasks.install()
    (indexed,) = [c for c in calls if "--index-url" in c]
    assert {"torch==9.8.7", "torchvision==0.99.1", "torchaudio==9.8.7"} <= set(indexed), indexed
    assert "pillow==1.0" not in indexed


def test_the_missing_module_hint_names_what_tasks_installs_with_torch() -> None:
    """The hint for a missing torchvision-like module says tasks.py installs it from torch's
    index: only true of the packages tasks.py installs that way."""
    from docverify.verifying import hints  # noqa: PLC0415

    assert set(hints.TORCH_COMPANIONS) == set(load_tasks().COMPANIONS)
