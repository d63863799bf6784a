"""`docverify prune`: lists the orphan recordings, and deletes exactly those with --yes."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Project
from docverify.cli import main as cli
from docverify.parsing.pages import read_site
from docverify.running.executor import Executor
from docverify.verifying.record import record
from support.blocks import block

pytestmark = pytest.mark.usefixtures("local_author")


def _files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.fixture
def orphans(project: Project, executor: Executor) -> list[str]:
    """A project with two live recordings and two orphans: a renamed block, a gpu-only one."""
    project.page("a.md", block("print(1)", "vivo") + block("print(2)", "viejo"))
    project.page("b.md", block("print(3)", "movido"))
    cfg = project.config
    record(cfg, read_site(cfg), "cpu", executor)
    project.page("a.md", block("print(1)", "vivo") + block("print(2)", "nuevo"))
    project.page("b.md", block("print(3)", "movido", ' runner="gpu" reason="usa CUDA"'))
    record(cfg, read_site(cfg), "cpu", executor)
    return ["snippets/a/viejo.cpu.txt", "snippets/b/movido.cpu.txt"]


def test_prune_without_yes_lists_and_deletes_nothing(
    project: Project,
    orphans: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(project.root)
    before = _files(project.root)
    assert cli.main(["prune"]) == 0
    assert _files(project.root) == before
    out = capsys.readouterr().out
    assert sorted(line.split()[1] for line in out.splitlines() if "--yes" in line) == orphans
    assert "2 grabaciones huérfanas" in out


def test_prune_yes_deletes_exactly_the_orphans(
    project: Project,
    orphans: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(project.root)
    before = _files(project.root)
    assert cli.main(["prune", "--yes"]) == 0
    after = _files(project.root)
    assert sorted(set(before) - set(after)) == orphans
    assert {k: v for k, v in before.items() if k not in orphans} == after
    assert "snippets/a/vivo.cpu.txt" in after and "snippets/a/nuevo.cpu.txt" in after
    capsys.readouterr()
    assert cli.main(["prune"]) == 0
    assert "0 grabaciones huérfanas" in capsys.readouterr().out
