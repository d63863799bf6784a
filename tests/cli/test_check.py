"""`docverify check`: what the verifying process imports, and what the gpu runner needs."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import Project
from support.blocks import block


def test_engine_does_not_import_torch_or_mkdocs_in_the_caller() -> None:
    code = (
        "import sys; from docverify.verifying import verify; from docverify.parsing import pages; "
        "from docverify.cli import main; "
        "print('torch' in sys.modules, 'mkdocs' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env={**os.environ}
    )
    assert out.stdout.strip() == "False False"


def test_check_needs_only_torch_numpy_and_yaml(project: Project) -> None:
    """The gpu runner's entry point runs where only torch, numpy and PyYAML are installed."""
    project.page("a.md", block("import torch\nprint(torch.ones(2).sum())", "t"))
    blocked = (
        "mkdocs",
        "markdown_exec",
        "pymdownx",
        "markdown",
        "material",
        "nbformat",
        "nbconvert",
        "mkdocs_jupyter",
        "jinja2",
        "pytest",
        "playwright",
        "psutil",
    )
    code = (
        f"import sys\nfor name in {blocked!r}:\n    sys.modules[name] = None\n"
        "from docverify.cli.main import main\n"
        "sys.exit(main(['check', '--runner', 'cpu', '--no-cache', '--workers', '1']))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=project.root,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    # It runs the block and fails only for the missing recording, not for a missing module.
    assert result.returncode == 1, result.stderr
    assert "[grabacion-ausente]" in result.stderr
    assert "1/1 bloques ejecutados" in result.stdout
