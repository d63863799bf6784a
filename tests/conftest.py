"""Shared fixtures: a throwaway project for engine tests, a strict build of the real site."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from docverify.bench import corpus as bench
from docverify.core import config as config_mod
from docverify.running.executor import Executor

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
PYPROJECT = """\
[project]
name = "sample"
version = "0"

[tool.docverify]
docs_dir = "docs"
snippets_dir = "snippets"
timeout = 60
rtol = 1e-5
atol = 1e-8
"""


@pytest.fixture(scope="session")
def executor() -> Executor:
    """One fork server for the whole test session (torch is imported once)."""
    return Executor(workers=2)


class Project:
    """A small docverify project in a temporary folder, written from strings."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
        (root / "docs").mkdir()
        (root / "snippets").mkdir()

    def page(self, name: str, text: str) -> Path:
        path = self.root / "docs" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return path

    def snippet(self, name: str, text: str) -> Path:
        path = self.root / "snippets" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return path

    @property
    def config(self) -> config_mod.Config:
        return config_mod.load(self.root)


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(tmp_path / "proj")


def copy_site(dest: Path) -> Path:
    """A copy of the real site's sources (the same parts `docverify bench` copies)."""
    return bench.copy_site(ROOT, dest)


def mkdocs_build(
    root: Path, site_dir: Path, *, strict: bool = True, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    args = [str(BIN / "mkdocs"), "build", "-q", "-f", str(root / "mkdocs.yml"), "-d", str(site_dir)]
    if strict:
        args.append("--strict")
    # DOCVERIFY_CACHE=0: the strict builds of the tests really run every block. SITE_URL only
    # when a test asks for it: the real site's tests expect mkdocs.yml's local address.
    full_env = {
        **{k: v for k, v in os.environ.items() if k != "SITE_URL"},
        "NO_MKDOCS_2_WARNING": "1",
        "DOCVERIFY_RUNNER": "cpu",
        "DOCVERIFY_CACHE": "0",
        **(env or {}),
    }
    return subprocess.run(
        args, cwd=root, capture_output=True, text=True, env=full_env, check=False, timeout=600
    )


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real site, built once with --strict; the build must pass with no warning."""
    site_dir = tmp_path_factory.mktemp("site")
    result = mkdocs_build(ROOT, site_dir)
    assert result.returncode == 0, f"mkdocs build --strict falló:\n{result.stderr}"
    assert "WARNING" not in result.stderr, result.stderr
    return site_dir


@pytest.fixture
def site_copy(tmp_path: Path) -> Callable[[], Path]:
    return lambda: copy_site(tmp_path / "copy")
