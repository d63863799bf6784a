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
from support.blocks import block


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
    project.page("b.md", block("import torch\nprint(torch.randn(2).shape)", "normal"))
    cfg = project.config
    assert record(cfg, read_site(cfg), "cpu", executor).written
    done = docverify(project.root, "lint")
    header = (
        "Bloques que dependen del dispositivo (según la cabecera de su grabación de CPU; "
        "ver «El runner de GPU» en la guía de autores):\n"
    )
    assert header in done.stdout
    listing = done.stdout.split(header, 1)[1]
    assert "a/azar: depende de números aleatorios → necesita su propia grabación" in listing
    assert "docverify record --runner gpu docs/a.md" in listing and "a/fijo" not in listing
    # One line per block, in page order; with a path, only its blocks.
    [azar, normal] = [line for line in listing.splitlines() if line.startswith("  ")]
    assert azar.startswith("  a/azar: ") and normal.startswith("  b/normal: ")
    assert f"{azar}\n{normal}\n" in listing
    only = docverify(project.root, "lint", "docs/b.md").stdout.split(header, 1)[1]
    assert normal in only.splitlines() and "a/azar" not in only


BASELINES = (
    "Con qué grabación compara cada runner (regla de dispositivo: en GPU se quita el argumento "
    "device='cuda:N' de los repr de tensores y parámetros antes de comparar; esta regla no "
    "quita nada más):\n"
)
UNO = "  a/uno: cpu → sin grabación (falta uno.cpu.txt) · gpu → sin grabación (falta uno.cpu.txt)\n"
DOS = "  a/dos: gpu → sin grabación (falta dos.gpu.txt)\n"
TRES = (
    "  b/tres: cpu → sin grabación (falta tres.cpu.txt) · gpu → sin grabación (falta "
    "tres.cpu.txt)\n"
)


@pytest.fixture
def two_pages(project: Project) -> Project:
    """a.md: a block for both runners and a gpu-only one; b.md: a block in a snippet. Nothing
    recorded: one missing recording per page (the gpu-only block's is not required here)."""
    project.page("a.md", block("print(1)", "uno") + block("print(2)", "dos", GPU_ONLY))
    project.page("b.md", '```python exec="on" id="tres"\n--8<-- "b/tres.py"\n```\n')
    project.snippet("b/tres.py", "print(3)\n")
    return project


GPU_ONLY = ' runner="gpu" reason="usa CUDA"'


@pytest.mark.parametrize(
    ("paths", "listed", "summary"),
    [
        ([], UNO + DOS + TRES, "2 páginas · 2 errores"),
        (["docs"], UNO + DOS + TRES, "1 ruta · 1 error"),
        (["docs/a.md"], UNO + DOS, "1 ruta · 1 error"),
        (["snippets/b/tres.py"], TRES, "1 ruta · 1 error"),
        (["snippets/b", "docs/a.md"], UNO + DOS + TRES, "2 rutas · 2 errores"),
    ],
    ids=["todo", "carpeta", "pagina", "snippet", "dos-rutas"],
)
def test_lint_lists_each_chosen_block_s_baselines_and_counts(
    two_pages: Project, paths: list[str], listed: str, summary: str
) -> None:
    done = docverify(two_pages.root, "lint", *paths)
    assert done.returncode == 1
    assert done.stdout == f"{BASELINES}{listed}docverify lint: {summary}\n"
    assert done.stderr.count("[grabacion-ausente]") == int(summary.split(" · ")[1][0])


def test_lint_of_a_clean_project_exits_0(project: Project) -> None:
    project.page("a.md", "# A\n\nSin bloques.\n")
    done = docverify(project.root, "lint")
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        "docverify lint: 1 página · 0 errores\n",
        "",
    )


def test_lint_help_says_what_it_checks() -> None:
    from docverify.cli import main as cli  # noqa: PLC0415

    sub = next(a for a in cli.build_parser()._actions if a.dest == "command")
    parser = sub.choices["lint"]
    assert parser.description == (
        "revisa estructura, ids, grabaciones, fuentes, navegación y snippets sin ejecutar nada"
    )
    [paths] = [a for a in parser._actions if a.dest == "paths"]
    assert paths.help == (
        "páginas, snippets o carpetas cuyos problemas mostrar (por defecto, todo el sitio)"
    )
    assert parser.parse_args([]).paths == []
