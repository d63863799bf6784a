"""Interpreters for the canary's tests: this project's own torch, changed where a test says.

A «changed torch» is a virtual environment of this same Python (no pip, made in a fraction of a
second) whose site-packages points at this project's (a .pth file) and runs a patch at start-up
(another .pth file): the installed torch, with a function that now warns, a repr that now reads
differently, a function that now fails. Its python is a real interpreter, found and run by the
canary like any other; nothing is downloaded.
"""

from __future__ import annotations

import sys
import sysconfig
import textwrap
import venv
from pathlib import Path
from typing import Any

from docverify.core.config import Config
from docverify.parsing.pages import read_site
from docverify.running.executor import Executor

from support.relabel import cpu_run_as_gpu

PROJECT_SITE = sysconfig.get_paths()["purelib"]  # this project's site-packages: torch, numpy
ROOT = Path(__file__).resolve().parents[2]


def pinned_torch() -> str:
    """The torch version pyproject.toml pins, as tasks.py (its one reader) gives it."""
    sys.path.insert(0, str(ROOT))
    try:
        import tasks  # noqa: PLC0415
    finally:
        sys.path.remove(str(ROOT))
    return tasks.torch_requirement().split("==", 1)[1]


def site_packages(env: Path) -> Path:
    return (
        env / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
    )


def plain_venv(env: Path) -> Path:
    """A virtual environment of this Python with nothing installed; its python."""
    venv.create(env, with_pip=False, symlinks=True)
    return env / "bin" / "python"


def changed_torch(env: Path, patch: str, files: dict[str, str] | None = None) -> Path:
    """The python of a venv with this project's packages and `patch` run at start-up;
    `files` (paths relative to its site-packages) are installed there first, before them."""
    python = plain_venv(env)
    site = site_packages(env)
    (site / "proyecto.pth").write_text(PROJECT_SITE + "\n", encoding="utf-8")
    (site / "docverify_cambio.py").write_text(textwrap.dedent(patch), encoding="utf-8")
    # .pth files run in name order: the project's packages are on the path before the patch.
    (site / "zz_docverify_cambio.pth").write_text("import docverify_cambio\n", encoding="utf-8")
    for rel, text in (files or {}).items():
        path = site / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return python


def report_here(
    config: Config, executor: Executor, folder: Path, runner: str = "cpu"
) -> dict[str, Any]:
    """A canary report of this project's own torch, run by `executor` (this process's): what
    `docverify canary` writes, through the same functions, without another interpreter. Its
    canary section; nothing changes unless the recordings say otherwise.

    With runner="gpu" the blocks run on the CPU and the report says gpu (a relabelled run,
    support/relabel.py), judged against the gpu runner's baselines as the canary's gpu job is."""
    from docverify.cli.canary_command import observe  # noqa: PLC0415
    from docverify.core import versions  # noqa: PLC0415
    from docverify.output import canary_output  # noqa: PLC0415
    from docverify.report import canary  # noqa: PLC0415
    from docverify.verifying.verify import verify  # noqa: PLC0415

    side = {"torch": versions.installed("torch"), "variant": "CPU", "numpy": "?", "python": "?"}
    pages = read_site(config)
    if runner == "gpu":
        report = verify(config, pages, "gpu", executor, run=cpu_run_as_gpu)
        section = canary.section(config, report, side, side, [])
    else:
        report, section = observe(config, pages, "cpu", executor, side, side, sys.path)
    canary_output.write(config, folder, report, section)
    return section.to_json()  # as report.json holds it
