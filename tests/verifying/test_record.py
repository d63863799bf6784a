"""`docverify record` (verifying/record.py) in this process: `run` is a fake that returns the
results a test writes, so every value expected here is a literal of this file.

The real runs are in test_verify.py, test_stability.py and test_recorded_marks.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import Project
from docverify.core.findings import Finding, Level
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_site
from docverify.verifying.record import Recorded, record
from support.blocks import block

ENV = {"torch": "9.9.9", "python": "3.0.0", "device": "cpu (prueba)"}
EPOCH = "1767225600"  # 2026-01-01


@pytest.fixture(autouse=True)
def _local_day(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)


def result(output: str, error: str | None = None, **more: Any) -> dict[str, Any]:
    return {
        "output": output,
        "error": error,
        "exception": None,
        "traceback": "",
        "expectations": [],
        "duration": 0.1,
        "device_dependent": [],
        **more,
    }


class Runs:
    """A fake `run`: the n-th call returns the n-th results given; it notes each call's project,
    pages, runner and executor."""

    def __init__(self, *results: dict[str, dict[str, Any]]) -> None:
        self.results = list(results)
        self.calls: list[tuple[Path, list[str], str, object]] = []

    def __call__(self, config, pages, runner, executor):
        self.calls.append((config.root, [page.rel for page in pages], runner, executor))
        return self.results[len(self.calls) - 1], ENV


def recording(key: str, body: str) -> str:
    return (
        f"# docverify: salida grabada de «{key}» en el runner cpu\n# torch: 9.9.9\n"
        "# python: 3.0.0\n# device: cpu (prueba)\n# date: 2026-01-01\n# ----\n" + body
    )


def test_refuses_under_ci_and_runs_nothing(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    project.page("a.md", block("print(1)", "uno"))
    monkeypatch.setenv("CI", "true")
    runs = Runs()
    done = record(project.config, read_site(project.config), "cpu", None, run=runs)  # type: ignore[arg-type]
    refused = Finding(
        Kind.REFUSED,
        "docverify record se niega a grabar con CI=true: las grabaciones se revisan y se "
        "confirman a mano.",
        "CI",
        0,
        "ejecútalo en local y confirma los cambios con git.",
    )
    assert done == Recorded([], 0, [refused], {})
    assert runs.calls == []
    assert not (project.root / "snippets/a/uno.cpu.txt").exists()


def test_writes_new_outputs_reports_failures_and_runs_twice_only_what_changed(
    project: Project,
) -> None:
    project.page(
        "a.md",
        block("print(1)", "nuevo")
        + "\n"
        + block("print(2)", "igual")
        + "\n"
        + block("print(3)", "roto")
        + "\n"
        + block("print(4)", "gpu", ' runner="gpu" reason="solo en GPU"')
        + "\n"
        + block("print(5)", "deja")
        + "\n"
        + block("print(8)", "solo", ' runner="cpu" reason="solo en CPU"'),
    )
    project.page("b.md", block("print(6)", "otro", ' colour="red"'))
    project.snippet("a/igual.cpu.txt", "2\n")
    project.snippet("b/otro.cpu.txt", "6\n")
    first = {
        "a/nuevo": result("1"),
        "a/igual": result("2"),
        "a/roto": result("", "sintaxis mala"),
        "a/deja": result("5", stopped=["sleep 100"]),
        "a/solo": result("8"),
        "b/otro": result("6"),
    }
    runs = Runs(first, {"a/nuevo": result("1"), "a/deja": result("5"), "a/solo": result("8")})
    executor = object()
    done = record(project.config, read_site(project.config), "cpu", executor, run=runs)  # type: ignore[arg-type]
    root = project.config.root
    assert runs.calls == [
        (root, ["a.md", "b.md"], "cpu", executor),
        (root, ["a.md"], "cpu", executor),
    ]
    assert done.run_twice == 1
    assert done.unchanged == 2  # a/igual, b/otro
    assert done.env == ENV
    assert done.written == [
        (
            "snippets/a/nuevo.cpu.txt",
            "--- snippets/a/nuevo.cpu.txt (no existe)\n"
            "+++ snippets/a/nuevo.cpu.txt (observada en cpu)\n@@ -0,0 +1 @@\n+1",
        ),
        (
            "snippets/a/deja.cpu.txt",
            "--- snippets/a/deja.cpu.txt (no existe)\n"
            "+++ snippets/a/deja.cpu.txt (observada en cpu)\n@@ -0,0 +1 @@\n+5",
        ),
        (
            "snippets/a/solo.cpu.txt",
            "--- snippets/a/solo.cpu.txt (no existe)\n"
            "+++ snippets/a/solo.cpu.txt (observada en cpu)\n@@ -0,0 +1 @@\n+8",
        ),
    ]
    snippets = project.root / "snippets"
    assert (snippets / "a/nuevo.cpu.txt").read_text(encoding="utf-8") == recording("a/nuevo", "1\n")
    assert (snippets / "a/deja.cpu.txt").read_text(encoding="utf-8") == recording("a/deja", "5\n")
    assert (snippets / "a/igual.cpu.txt").read_text(encoding="utf-8") == "2\n"
    assert sorted(p.name for p in snippets.rglob("*.txt")) == [
        "deja.cpu.txt",
        "igual.cpu.txt",
        "nuevo.cpu.txt",
        "otro.cpu.txt",
        "solo.cpu.txt",
    ]
    assert [(f.kind, f.level, f.path, f.line) for f in done.findings] == [
        (Kind.UNKNOWN_OPTION, Level.ERROR, "docs/b.md", 1),  # the pages' own findings first
        (Kind.EXECUTION_FAILURE, Level.ERROR, "docs/a.md", 10),  # once, not as a note too
        (Kind.STOPPED_PROCESSES, Level.INFO, "docs/a.md", 18),  # shown; it blocks nothing
    ]
    assert done.findings[1].message == "el bloque «a/roto» sintaxis mala (página docs/a.md:9)"
    assert "«sleep 100»" in done.findings[2].message


def test_a_page_whose_second_run_differs_writes_nothing_and_the_others_do(
    project: Project,
) -> None:
    project.page("a.md", block("print(1)", "fijo") + "\n" + block("print(2)", "azar"))
    project.page(
        "c.md",
        block("print(7)", "fijo")
        + "\n"
        + block("print(0.25)", "casi")
        + "\n"
        + block("z = 1", "calla"),
    )
    runs = Runs(
        {
            "a/fijo": result("1"),
            "a/azar": result("0.25"),
            "c/fijo": result("7"),
            "c/casi": result("0.25"),
            "c/calla": result(""),
        },
        # c/casi within the default tolerance (rtol 1e-5): the same output, as check compares it
        {
            "a/fijo": result("1"),
            "a/azar": result("0.5"),
            "c/fijo": result("7"),
            "c/casi": result("0.2500001"),
            "c/calla": result(""),  # silent both times: stable
        },
    )
    done = record(project.config, read_site(project.config), "cpu", None, run=runs)  # type: ignore[arg-type]
    assert [call[1] for call in runs.calls] == [["a.md", "c.md"], ["a.md", "c.md"]]
    assert done.run_twice == 2
    assert [path for path, _ in done.written] == [
        "snippets/c/fijo.cpu.txt",
        "snippets/c/casi.cpu.txt",
        "snippets/c/calla.cpu.txt",
    ]
    written = sorted(p.relative_to(project.root).as_posix() for p in project.root.rglob("*.txt"))
    assert written == [
        "snippets/c/calla.cpu.txt",
        "snippets/c/casi.cpu.txt",
        "snippets/c/fijo.cpu.txt",
    ]
    [refused] = done.findings
    assert (refused.kind, refused.level, refused.path, refused.line) == (
        Kind.UNSTABLE_OUTPUT,
        Level.ERROR,
        "docs/a.md",
        6,  # the block's code: its fence opens at line 5
    )
    assert refused.message.startswith(
        "la salida de «a/azar» en cpu cambió entre dos ejecuciones seguidas, cada una en un "
        "proceso nuevo (página docs/a.md:5); líneas que cambiaron (1): «0.25» → «0.5». "
    )
    assert refused.detail == (
        "--- primera ejecución\n+++ segunda ejecución (proceso nuevo)\n@@ -1 +1 @@\n-0.25\n+0.5"
    )


def test_a_second_run_without_a_result_is_unstable(project: Project) -> None:
    project.page("a.md", block("print(1)", "uno"))
    runs = Runs({"a/uno": result("1")}, {})
    done = record(project.config, read_site(project.config), "cpu", None, run=runs)  # type: ignore[arg-type]
    assert done.written == []
    assert [(f.kind, f.line) for f in done.findings] == [(Kind.UNSTABLE_OUTPUT, 2)]
    assert "(falló: sin resultado)" in done.findings[0].message
