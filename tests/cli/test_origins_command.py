"""`docverify origins --drift` as an author or weekly.yml reads it (cli/origins_command.py): one
line per drifted page, the notice file, the last line, and a fetch that fails. The comparison
itself (git, sources/origins.py) is tests/sources/test_origins_drift.py's: here it is replaced,
so these tests touch neither git nor the network."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import Project, docverify
from docverify.parsing import origin
from docverify.sources import origins
from support.blocks import block

pytestmark = pytest.mark.usefixtures("local_author")

FIRST = "1234567890ab" + "c" * 28
HEAD = "fedcba098765" + "d" * 28


def _ported(project: Project, name: str) -> None:
    project.page(
        name,
        '---\ntitle: "Portado"\norigin:\n  repository: equipo/tutorial\n  path: tutorial.py\n'
        f"  commit: {FIRST}\n  license: MIT\n---\n\n# Portado\n\n" + block("print(1)", "uno"),
    )


@pytest.fixture
def compared(project: Project, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Two pages with origin: and one without; `compare` answers two drifts and records the
    pages it was given."""
    _ported(project, "a.md")
    _ported(project, "b.md")
    project.page("c.md", "# C\n\n" + block("print(2)", "dos"))
    found = origin.Origin("equipo/tutorial", "tutorial.py", FIRST, "MIT")
    asked: list[list[str]] = []

    def compare(cfg, pages):
        asked.append(sorted(p.path.name for p in pages))
        return [
            origins.Drift("docs/a.md", found, HEAD, blocks=[("uno", 9), ("otro", 20)]),
            origins.Drift("docs/b.md", found, HEAD, gone=True),
        ]

    monkeypatch.setattr(origins, "compare", compare)
    return asked


def test_each_drift_is_one_line_then_the_count(project: Project, compared: list) -> None:
    done = docverify(project.root, "origins", "--drift")
    assert (done.returncode, done.stderr) == (0, "")
    assert compared == [["a.md", "b.md"]]  # only the pages with origin:
    assert done.stdout == (
        "docs/a.md: tutorial.py cambió en equipo/tutorial (1234567890ab → fedcba098765); "
        "bloques afectados: uno, otro\n"
        "docs/b.md: tutorial.py ya no existe en equipo/tutorial (1234567890ab → fedcba098765); "
        "bloques afectados: ninguno\n"
        "docverify origins: 2 páginas con origin: · 2 con cambios en su repositorio\n"
    )
    assert not list(project.root.rglob("*.json"))


def test_issue_writes_the_notice_as_one_json_line(
    project: Project, compared: list, tmp_path: Path
) -> None:
    out = tmp_path / "aviso.json"
    done = docverify(project.root, "origins", "--drift", "--issue", str(out))
    assert done.returncode == 0, done.stderr
    text = out.read_text(encoding="utf-8")
    assert text.endswith("}\n") and text.count("\n") == 1
    notice = json.loads(text)
    assert notice["count"] == 2 and "Páginas con `origin:` comparadas: 2;" in notice["closing"]
    assert "«uno» (línea 9), «otro» (línea 20)" in notice["body"]
    assert "ya no existe" in notice["body"]
    assert "Código citado" in text  # written as UTF-8, not escaped


def test_a_failed_fetch_compares_nothing_and_writes_nothing(
    project: Project, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _ported(project, "a.md")

    def compare(cfg, pages):
        raise origins.FetchError("git fetch falló: sin red")

    monkeypatch.setattr(origins, "compare", compare)
    out = tmp_path / "aviso.json"
    done = docverify(project.root, "origins", "--drift", "--issue", str(out))
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == "docverify origins: no se compara nada: git fetch falló: sin red\n"
    assert not out.exists()


def test_drift_is_required_and_the_help_says_what_it_does() -> None:
    from docverify.cli import main as cli  # noqa: PLC0415

    sub = next(a for a in cli.build_parser()._actions if a.dest == "command")
    parser = sub.choices["origins"]
    assert parser.description == "compara el código citado (origin:) con su repositorio de origen"
    helps = {a.dest: a.help for a in parser._actions}
    [issue] = [a for a in parser._actions if a.dest == "issue"]
    assert issue.metavar == "JSON"
    assert helps["drift"] == (
        "compara el archivo de cada origin: en su commit con la rama principal de su "
        "repositorio (git fetch: necesita red)"
    )
    assert (
        helps["issue"] == "escribe el aviso de weekly.yml (formato 1: count, title, body, closing)"
    )
    with pytest.raises(SystemExit):
        parser.parse_args([])
    assert parser.parse_args(["--drift"]).issue is None
