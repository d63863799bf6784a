"""`docverify reports merge` as CI and an author read it (cli/reports_command.py): the line it
prints, where it writes, and its refusals. Merging itself is tests/report/test_reports.py's;
here the merged report is a stand-in, so no block runs."""

from __future__ import annotations

import argparse
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import docverify
from docverify.report import merge, report_folder


@pytest.fixture
def merged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> SimpleNamespace:
    """What merge.load answers (three shards of a gpu run), the folders it was asked for, and
    what write_merged was asked to write."""
    parts = [tmp_path / "partes" / name for name in ("p1", "p2", "p3")]
    report = SimpleNamespace(
        sources=tuple(p / "report.json" for p in parts),
        shards="3",
        runner="gpu",
        pages=("docs/a.md", "docs/b.md"),
        observations={"a/uno": object()},
        errors=1,
    )
    calls = SimpleNamespace(report=report, asked=[], written=[])

    def load(paths: list[Path]) -> SimpleNamespace:
        calls.asked.append(paths)
        return report

    monkeypatch.setattr(merge, "load", load)
    monkeypatch.setattr(report_folder, "write_merged", lambda *a: calls.written.append(a))
    return calls


def test_merge_writes_the_merged_report_and_says_what_it_holds(
    tmp_path: Path, merged: SimpleNamespace
) -> None:
    done = docverify(tmp_path, "reports", "merge", "partes/p1", "partes", "--out", "todo")
    assert (done.returncode, done.stderr) == (0, "")
    assert merged.asked == [[Path("partes/p1"), Path("partes")]]
    assert merged.written == [(Path("todo"), merged.report)]
    assert done.stdout == (
        "docverify reports merge: 3 partes → todo/report.json · runner gpu · 2 páginas · "
        "1 salida observada · 1 error\n"
    )


def test_one_unsharded_report_is_said_so(tmp_path: Path, merged: SimpleNamespace) -> None:
    merged.report.shards = ""
    merged.report.sources = merged.report.sources[:1]
    merged.report.pages = ("docs/a.md",)
    merged.report.observations = {"a/uno": 1, "a/dos": 2}
    merged.report.errors = 0
    done = docverify(tmp_path, "reports", "merge", "partes/p1", "--out", "todo")
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "docverify reports merge: 1 informe sin repartir → todo/report.json · runner gpu · "
        "1 página · 2 salidas observadas · 0 errores\n"
    )


@pytest.mark.parametrize("out", ["partes/p2", "partes/p3/../p3", "partes/p1/"])
def test_writing_over_a_part_is_refused(tmp_path: Path, merged: SimpleNamespace, out: str) -> None:
    done = docverify(tmp_path, "reports", "merge", "partes", "--out", out)
    assert (done.returncode, done.stdout, merged.written) == (2, "", [])
    assert done.stderr == (
        f"docverify reports merge: no se escribe nada: {Path(out)} es la carpeta de una de las "
        "partes y se sobrescribiría. Cómo arreglarlo: elige otra carpeta con --out.\n"
    )


def test_an_unreadable_report_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "vacia").mkdir()
    done = docverify(tmp_path, "reports", "merge", "vacia", "--out", "todo")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "docverify reports merge: no se escribe nada.\n"
        "vacia: no hay ningún report.json en esta carpeta ni debajo. Cómo arreglarlo: pasa las "
        "carpetas que escribió docverify check --report (los artefactos de CI descomprimidos).\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["vacia"]


def _parser(name: str) -> argparse.ArgumentParser:
    from docverify.cli import main as cli  # noqa: PLC0415

    sub = next(a for a in cli.build_parser()._actions if a.dest == "command")
    return sub.choices[name]


def test_the_help_says_what_merge_does_and_needs() -> None:
    parser = _parser("reports")
    assert parser.description == "trabaja con los informes de docverify check --report (merge)"
    [actions] = [a for a in parser._actions if a.dest == "action"]
    assert actions.metavar == "ACCIÓN" and actions.required
    [listed] = actions._choices_actions
    assert listed.help == "combina los informes de las partes (--shard I/N) de una ejecución en uno"
    merge_parser = actions.choices["merge"]
    assert merge_parser.description == (
        "Combina los informes de docverify check --shard I/N --report de todas las partes de una "
        "ejecución en el informe que habría escrito una sola ejecución sin repartir: mismas "
        "salidas observadas, misma tabla de estados y hallazgos en el orden de las páginas. Se "
        "niega, sin escribir nada, si son de otro runner, otro reparto, otro código u otra "
        "ejecución, si se solapan o si falta alguna parte."
    )
    args = {a.dest: a for a in merge_parser._actions}
    assert (args["folders"].metavar, args["folders"].nargs) == ("CARPETA", "+")
    assert args["folders"].help == (
        "carpetas de docverify check --report (o una carpeta con varias debajo, como quedan los "
        "artefactos docverify-<runner>-* de CI al descargarlos)"
    )
    assert (args["out"].metavar, args["out"].required) == ("CARPETA", True)
    assert args["out"].help == (
        "dónde escribir report.json, findings.txt y diffs/ del informe combinado"
    )
    with pytest.raises(SystemExit):
        parser.parse_args([])
    with pytest.raises(SystemExit):
        parser.parse_args(["merge", "a"])  # --out is required
    with pytest.raises(SystemExit):
        parser.parse_args(["merge", "--out", "b"])  # and a folder at least
