"""tasks.py installs pyproject's `zensical` group only where it is needed: --zensical and tests."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
HASH_SEED = "7\n"


def test_the_group_pins_the_version_that_installs_with_its_reason() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    groups = tomllib.loads(text)["project"]["optional-dependencies"]
    assert groups["zensical"] == ["zensical==0.0.73"]
    assert not [d for g, deps in groups.items() if g != "zensical" for d in deps if "zensical" in d]
    reason = text[text.index("zensical = [") : text.index('"zensical==0.0.73"')]
    assert "0.0.74" in reason and "zensical-ui" in reason, reason  # why not newer, beside it


@pytest.fixture
def tasks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """tasks.py on a fake project whose pip and commands are recorded, never run."""
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\nversion = "0"\ndependencies = ["torch==9.8.7"]\n', "utf-8"
    )
    spec = importlib.util.spec_from_file_location("tasks_zensical", ROOT / "tasks.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.ROOT = tmp_path
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").touch()
    module.VENV, module.BIN, module.STAMP = venv, venv / "bin", venv / ".installed"
    module.calls = []
    module.envs = []

    def record(args: list[str], **options: Any) -> subprocess.CompletedProcess[str]:
        module.calls.append([str(a) for a in args])
        module.envs.append(options.get("env"))
        # The engine's answer to tasks.hash_seed(): the project's hash_seed.
        said = HASH_SEED if "-c" in args else None
        return subprocess.CompletedProcess(args, 0, stdout=said)

    monkeypatch.setattr(module.subprocess, "run", record)
    monkeypatch.delenv("DOCS_TORCH_INDEX", raising=False)
    return module


def _installed(tasks: Any) -> list[str]:
    """The optional groups of each `pip install -e` since the last look."""
    found = [c[-1].split("[", 1)[1].rstrip("]") for c in tasks.calls if "-e" in c]
    tasks.calls.clear()
    return found


def test_only_the_zensical_commands_and_the_tests_install_the_group(tasks: Any) -> None:
    assert tasks.main(["build"]) == 0
    assert _installed(tasks) == ["site,dev"]
    assert tasks.main(["serve"]) == 0 and tasks.main(["install"]) == 0
    assert _installed(tasks) == []  # installed already: nothing again
    assert tasks.main(["build", "--zensical"]) == 0
    assert tasks.calls[-1][1:] == ["zensical", "build", "--strict"], tasks.calls
    assert _installed(tasks) == ["site,dev,zensical"]
    assert tasks.main(["build"]) == 0 and _installed(tasks) == []  # a superset is there
    tasks.STAMP.unlink()  # a fresh environment: the tests need Zensical for their smoke test
    assert tasks.main(["test", "-q"]) == 0
    assert _installed(tasks) == ["site,dev,zensical"]


def test_serve_zensical_serves_on_the_local_address(tasks: Any) -> None:
    assert tasks.main(["serve", "--zensical"]) == 0
    command = tasks.calls[-1]
    assert command[1:] == ["zensical", "serve", "--dev-addr", "127.0.0.1:8000"], command


def test_an_unknown_option_is_refused_in_spanish(
    tasks: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert tasks.main(["build", "--zensicall"]) == 2
    assert "solo acepta --zensical" in capsys.readouterr().out
    assert tasks.calls == []


def test_pytest_starts_with_the_projects_string_hashing(tasks: Any) -> None:
    """With -n 0 pytest's own process runs the pages' other fences: it must start with the
    hash_seed the engine reads (tasks.hash_seed asks the engine, never reads the TOML again)."""
    assert tasks.main(["test", "-n", "0"]) == 0
    [asked] = [c for c in tasks.calls if "-c" in c]
    assert "docverify.core.config" in asked[-1] and asked[0].endswith("python")
    command, env = tasks.calls[-1], tasks.envs[-1]
    assert command[0].endswith("pytest") and command[1:] == ["-n", "0"]
    assert env["PYTHONHASHSEED"] == HASH_SEED.strip()


def test_the_tests_write_bytecode_beside_the_sources_and_read_the_installed_one(
    tasks: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Even from a shell that disables Python's bytecode cache or moves it under a prefix, the
    suite's processes write it and look for it beside each source: where pip compiled the
    installed packages' bytecode (torch, MkDocs, Jupyter), which a prefix would hide. Asked of
    a Python started with that environment, not read from the dict."""
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setenv("PYTHONPYCACHEPREFIX", str(tmp_path / "prefix"))
    assert tasks.main(["test"]) == 0
    env = tasks.envs[-1]  # tasks.run's whole environment
    probe = "import sys; print(sys.dont_write_bytecode, sys.pycache_prefix)"
    # Popen: the fixture stands in for subprocess.run.
    with subprocess.Popen([sys.executable, "-c", probe], env=env, stdout=subprocess.PIPE) as done:
        said = done.communicate()[0].decode()
    assert said.split() == ["False", "None"]
