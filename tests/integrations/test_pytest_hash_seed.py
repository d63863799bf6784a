"""The pytest plugin: the fences pytest-markdown-docs runs hash strings with the project's seed.

A project with hash_seed = 7 and a page whose plain fence asserts the hash a new interpreter
started with PYTHONHASHSEED=7 computes; pytest itself is started with random hashing.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PYPROJECT
from docverify.core import hashing
from support.hashing import fresh_hash

SEED = 7


def _pytest(root: Path, *workers: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "docverify.integrations.pytest_plugin",
            "--markdown-docs",
            *workers,
            "-o",
            "filterwarnings=",
            "docs",
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=root,
        env={**os.environ, hashing.ENV: "random"},
        timeout=120,
    )


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT + f"hash_seed = {SEED}\n", "utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "pagina.md").write_text(
        f'```python\nassert hash("docverify") == {fresh_hash(SEED)}\n```\n', encoding="utf-8"
    )
    return tmp_path


def test_workers_start_with_the_projects_hashing(root: Path) -> None:
    done = _pytest(root, "-n", "1")
    assert "1 passed" in done.stdout, done.stdout + done.stderr


def test_a_process_that_started_without_it_says_how_to_run(root: Path) -> None:
    done = _pytest(root, "-p", "no:xdist")
    assert "1 error" in done.stdout and "passed" not in done.stdout, done.stdout + done.stderr
    assert f"PYTHONHASHSEED={SEED}" in done.stdout and "tasks.py test" in done.stdout
