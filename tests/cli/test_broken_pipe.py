"""`docverify` whose reader stops reading (`docverify lint | head -1`): it stops quietly,
without a Python traceback, and fails (exit 1) rather than pass for a full run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, Project
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
