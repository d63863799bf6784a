"""`docverify lint [PATHS]` (site.lint on the command line) and the pre-commit hook."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
import yaml
from conftest import BIN, NEW_PAGE, NEW_SLUG, ROOT, Project, docverify
from docverify import build
from docverify.core import config as config_mod
from docverify.core.findings import errors
from docverify.parsing.pages import read_site
from docverify.running.executor import Executor
from docverify.site import scaffold
from docverify.verifying.record import record


def test_lint_command_on_paths(small_copy: Path) -> None:
    """`docverify lint PATHS` (what pre-commit runs) reports the problems of those files, and
    for a page those of its snippets and recordings; it exits non-zero only for them."""
    root = small_copy
    other = docverify(root, "new", "otro-articulo", "Otro artículo")
    assert other.returncode == 0, other.stderr
    page = root / NEW_PAGE
    block_id = scaffold.FIRST_BLOCK_ID
    page.write_text(
        page.read_text(encoding="utf-8").replace(f'id="{block_id}"', f'id="{block_id}-nuevo"'),
        encoding="utf-8",
    )
    (root / "snippets/articulos/otro-articulo/olvidado.py").write_text("x = 1\n")
    mine = docverify(root, "lint", NEW_PAGE)
    assert mine.returncode == 1
    assert "[grabacion-huerfana]" in mine.stderr and "[grabacion-ausente]" in mine.stderr
    assert "olvidado.py" not in mine.stderr and "otro-articulo" not in mine.stderr
    theirs = docverify(root, "lint", "docs/articulos/otro-articulo.md")
    assert theirs.returncode == 1 and "[snippet-sin-uso]" in theirs.stderr
    assert NEW_SLUG not in theirs.stderr
    index = docverify(root, "lint", "docs/index.md")
    assert index.returncode == 0 and "0 errores" in index.stdout
    whole = docverify(root, "lint")
    count = len(errors(build.lint(config_mod.load(root))))
    assert count == 4  # orphan and missing (mine), missing and unused snippet (theirs)
    assert whole.returncode == 1 and f"{count} errores" in whole.stdout


def test_pre_commit_runs_ruff_and_docverify_lint() -> None:
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    hooks = {h["id"]: h for repo in config["repos"] for h in repo["hooks"]}
    assert {"ruff-check", "ruff-format", "docverify-lint"} <= set(hooks)
    assert hooks["ruff-format"]["entry"].startswith("ruff format")
    assert hooks["docverify-lint"]["entry"] == "docverify lint"
    for hook in hooks.values():  # every tool comes from the project's environment
        assert (BIN / hook["entry"].split()[0]).is_file(), hook["entry"]
    files = re.compile(hooks["docverify-lint"]["files"])
    for path in ("docs/articulos/x.md", "snippets/articulos/x/a.py", "mkdocs.yml"):
        assert files.search(path), path
    for path in ("hooks/docverify/site/lint.py", "tests/site/test_lint.py", "docs.md"):
        assert not files.search(path), path
    if (BIN / "pre-commit").is_file():
        check = subprocess.run(
            [str(BIN / "pre-commit"), "validate-config", str(ROOT / ".pre-commit-config.yaml")],
            capture_output=True,
            text=True,
            check=False,
        )
        assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.usefixtures("local_author")
def test_lint_lists_the_blocks_that_depend_on_the_device(
    project: Project, executor: Executor
) -> None:
    """`docverify lint` says, from the cpu recordings' headers, which blocks need their own GPU
    recording and how to make it; a deterministic block is not listed."""
    project.page(
        "a.md",
        '# A\n\n```python exec="on" id="azar"\nimport torch\nprint(torch.rand(1).shape)\n```\n\n'
        '```python exec="on" id="fijo"\nprint(2)\n```\n',
    )
    cfg = project.config
    assert record(cfg, read_site(cfg), "cpu", executor).written
    done = docverify(project.root, "lint")
    listing = done.stdout.split("Bloques que dependen del dispositivo", 1)[1]
    assert "a/azar: depende de números aleatorios → necesita su propia grabación" in listing
    assert "docverify record --runner gpu docs/a.md" in listing and "a/fijo" not in listing
