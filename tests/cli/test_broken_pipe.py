"""`docverify` whose reader stops reading (`docverify lint | head -1`): it stops quietly,
without a Python traceback, and fails (exit 1) rather than pass for a full run."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, Project
from docverify.cli import main as main_mod
from support.blocks import block


def test_a_closed_pipe_ends_the_command_without_a_traceback(
    project: Project, tmp_path: Path
) -> None:
    # Lint lists each block on stdout: far more lines than one read and the pipe's buffer hold.
    project.page("a.md", "# A\n\n" + "\n".join(block("print(1)", f"b{n}") for n in range(900)))
    env = {k: v for k, v in os.environ.items() if k != "CI"} | {"PYTHONPATH": str(ROOT / "hooks")}
    errors = tmp_path / "stderr.txt"  # a file: the findings (stderr) never fill a pipe
    with (
        errors.open("wb") as stderr,
        subprocess.Popen(
            [sys.executable, "-m", "docverify.cli.main", "lint"],
            cwd=project.root,
            stdout=subprocess.PIPE,
            stderr=stderr,
            env=env,
        ) as process,
    ):
        assert process.stdout is not None
        first = process.stdout.readline()
        process.stdout.close()  # like `head -1`
        code = process.wait(timeout=120)
    text = errors.read_text(encoding="utf-8")
    assert first.strip(), first
    assert "[grabacion-ausente]" in text  # it did run
    assert "Traceback" not in text and "BrokenPipeError" not in text, text[-2000:]
    assert code == 1


def test_a_closed_pipe_points_stdout_at_the_null_device_and_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In this process: the command's BrokenPipeError ends in exit 1, with standard output's
    descriptor pointed at /dev/null, opened for writing (the interpreter's last flush at exit
    then writes nowhere instead of raising again)."""
    calls: list[tuple[str, tuple[Any, ...]]] = []

    def broken(_args: argparse.Namespace) -> int:
        raise BrokenPipeError

    class Parser:
        def parse_args(self, _argv: list[str] | None) -> argparse.Namespace:
            return argparse.Namespace(handler=broken)

    class Stdout:
        def fileno(self) -> int:
            return 41

    monkeypatch.setattr(main_mod, "build_parser", Parser)
    monkeypatch.setattr(main_mod.sys, "stdout", Stdout())
    monkeypatch.setattr(main_mod.os, "open", lambda *a: calls.append(("open", a)) or 97)
    monkeypatch.setattr(main_mod.os, "dup2", lambda *a: calls.append(("dup2", a)))
    assert main_mod.main(["lint"]) == 1
    assert calls == [("open", ("/dev/null", os.O_WRONLY)), ("dup2", (97, 41))]
