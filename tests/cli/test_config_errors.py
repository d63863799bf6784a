"""A mistake in [tool.docverify]: every command says which key, in which line, in Spanish, with
a non-zero exit and no traceback; nothing is recorded; the build shows it on the verification
page."""

from __future__ import annotations

import pytest
from conftest import Project
from conftest import docverify as run_docverify
from docverify import build
from docverify.core.findings import errors
from docverify.core.kinds import Kind
from docverify.core.request import Request
from docverify.output import render, verification_page
from docverify.parsing.pages import read_site
from docverify.running.executor import Executor
from support.blocks import block

MISTAKES = {
    "clave-desconocida": ("timeot = 60", "clave desconocida «timeot»"),
    "valor-invalido": ('timeout = "sesenta"', 'timeout = "sesenta" no es válido'),
}


def _mistake(project: Project, case: str) -> int:
    """Put the case's line in place of `timeout = 60`; return its line in pyproject.toml."""
    pyproject = project.root / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    assert "timeout = 60\n" in text
    pyproject.write_text(text.replace("timeout = 60\n", MISTAKES[case][0] + "\n"), "utf-8")
    project.page("a.md", block("print(1)", "uno"))
    return pyproject.read_text(encoding="utf-8").split("\n").index(MISTAKES[case][0]) + 1


@pytest.mark.parametrize("case", sorted(MISTAKES))
@pytest.mark.parametrize("command", ["check", "lint", "record"])
def test_every_command_names_the_key_and_its_line(
    project: Project, case: str, command: str
) -> None:
    line = _mistake(project, case)
    done = run_docverify(project.root, command, *(["--runner", "cpu"] * (command != "lint")))
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert f"pyproject.toml:{line}: [configuracion]" in output, output
    assert MISTAKES[case][1] in output and "Cómo arreglarlo" in output, output
    assert "Traceback" not in output
    assert not list((project.root / "snippets").rglob("*.txt")), "record grabó con un error"


@pytest.mark.parametrize("case", sorted(MISTAKES))
def test_the_build_fails_and_its_verification_page_shows_it(
    project: Project, executor: Executor, case: str
) -> None:
    """What `mkdocs serve` shows: the build goes on (other problems are found too) and the
    verification page's banner lists the mistake; `mkdocs build` aborts on it (see
    test_mkdocs_build_fails)."""
    line = _mistake(project, case)
    cfg = project.config
    result = build.run(cfg, read_site(cfg), Request(runner="cpu"), executor)
    [mistake] = [f for f in errors(result.findings) if f.kind == Kind.CONFIG]
    assert mistake.where == f"pyproject.toml:{line}"
    assert mistake in result.errors
    shown = render.site(result).page(verification_page.URI, render.Links("x/")).markdown
    assert f"pyproject.toml:{line}: [configuracion]" in shown.split("</div>")[0]
