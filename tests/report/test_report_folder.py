"""report.report_folder: what a report's folder holds, and that an earlier run's diffs go."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from conftest import Project
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_site
from docverify.report import report_folder, report_json
from docverify.running.executor import Executor
from docverify.verifying.outcome import Verification
from docverify.verifying.record import record
from docverify.verifying.verify import verify
from support.blocks import block

pytestmark = pytest.mark.usefixtures("local_author")


@pytest.fixture
def diverging(project: Project, executor: Executor, tmp_path: Path) -> Verification:
    """A check where «cambia» and «otra» print what their recordings do not say, «igual» what
    they say, and «falla» fails."""
    data = tmp_path / "dato.txt"
    read = f"print(open({str(data)!r}).read())"
    project.page(
        "a.md",
        "# A\n\n"
        + block("print(1)", "igual")
        + block(read, "cambia")
        + block("raise ValueError('no')", "falla"),
    )
    project.page("b.md", "# B\n\n" + block(read + "\nprint(2)", "otra"))
    data.write_text("vieja", encoding="utf-8")
    cfg = project.config
    record(cfg, read_site(cfg), "cpu", executor)
    data.write_text("nueva", encoding="utf-8")
    return verify(cfg, read_site(cfg), "cpu", executor)


def _detail(run: Verification, key: str) -> str:
    (found,) = [f for f in run.outcomes[key].findings if f.kind is Kind.DIVERGENCE]
    assert found.detail.startswith("---") and "-vieja" in found.detail.split("\n")
    return found.detail


def test_one_diff_per_divergent_block_named_after_it(diverging: Verification) -> None:
    assert report_folder.divergences(diverging) == {
        "a/cambia.cpu.diff": _detail(diverging, "a/cambia").rstrip("\n") + "\n",
        "b/otra.cpu.diff": _detail(diverging, "b/otra").rstrip("\n") + "\n",
    }
    # A divergent block whose divergence has no diff to show, and one whose diff is in
    # another finding than a divergence: no file for either.
    outcomes = dict(diverging.outcomes)
    for key, kind in (("a/cambia", Kind.DIVERGENCE), ("b/otra", Kind.REPORT_DIVERGENCE)):
        verdict = outcomes[key].verdict
        changed = [
            dataclasses.replace(f, detail="" if kind is Kind.DIVERGENCE else f.detail, kind=kind)
            if f.kind is Kind.DIVERGENCE
            else f
            for f in verdict.findings
        ]
        made = dataclasses.replace(verdict, findings=tuple(changed))
        outcomes[key] = dataclasses.replace(outcomes[key], verdicts={"cpu": made})
    assert report_folder.divergences(dataclasses.replace(diverging, outcomes=outcomes)) == {}


def test_the_folder_holds_the_report_its_findings_and_diffs_only_this_runs(
    project: Project, diverging: Verification, tmp_path: Path
) -> None:
    folder = tmp_path / "informe"
    old = folder / "diffs" / "z" / "vieja.cpu.diff"
    old.parent.mkdir(parents=True)
    old.write_text("de otra ejecución\n", encoding="utf-8")
    written = report_folder.write(folder, diverging, config=project.config)
    diffs = folder / "diffs"
    assert written == [
        diffs / "a" / "cambia.cpu.diff",
        diffs / "b" / "otra.cpu.diff",
        folder / "report.json",
        folder / "findings.txt",
    ]
    assert not old.exists()
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.diff")) == [
        "diffs/a/cambia.cpu.diff",
        "diffs/b/otra.cpu.diff",
    ]
    assert (diffs / "a" / "cambia.cpu.diff").read_text(encoding="utf-8") == _detail(
        diverging, "a/cambia"
    ).rstrip("\n") + "\n"
    formatted = [f.format() for f in diverging.findings]
    assert len(formatted) >= 3
    assert (folder / "findings.txt").read_text(encoding="utf-8") == "\n\n".join(formatted) + "\n"
    read = report_json.read(folder)
    assert read.blocks == {k: o.status for k, o in diverging.outcomes.items()}


def test_a_run_without_findings_says_so(tmp_path: Path) -> None:
    report = report_json.Report(
        path=tmp_path / "report.json", runner="cpu", env={}, date="?", run_url="", observations={}
    )
    written = report_folder.lay_out(tmp_path / "limpio", report, {})
    assert written == [tmp_path / "limpio" / "report.json", tmp_path / "limpio" / "findings.txt"]
    assert (tmp_path / "limpio" / "findings.txt").read_text(encoding="utf-8") == "Sin hallazgos.\n"
    noted = report_json.Noted(Finding(Kind.CONFIG, "mal\n", "pyproject.toml", 1, "arréglalo"))
    report_folder.lay_out(tmp_path / "uno", dataclasses.replace(report, findings=(noted,)), {})
    text = (tmp_path / "uno" / "findings.txt").read_text(encoding="utf-8")
    assert text == noted.finding.format().rstrip("\n") + "\n"


def test_a_merged_report_carries_its_shards_diffs(tmp_path: Path) -> None:
    report = report_json.Report(
        path=tmp_path / "x.json", runner="cpu", env={}, date="?", run_url="", observations={}
    )
    parts = [tmp_path / "partes" / n for n in ("1", "2", "3")]
    (parts[0] / "diffs" / "a").mkdir(parents=True)
    (parts[0] / "diffs" / "a" / "b.cpu.diff").write_text("uno\n", encoding="utf-8")
    (parts[1] / "diffs" / "c").mkdir(parents=True)
    (parts[1] / "diffs" / "c" / "d.cpu.diff").write_text("dos\n", encoding="utf-8")
    (parts[1] / "diffs" / "c" / "notas.txt").write_text("no es un diff", encoding="utf-8")
    parts[2].mkdir()  # a shard without divergences
    merged = dataclasses.replace(report, sources=tuple(p / "report.json" for p in parts))
    out = tmp_path / "combinado"
    written = report_folder.write_merged(out, merged)
    assert written == [
        out / "diffs" / "a" / "b.cpu.diff",
        out / "diffs" / "c" / "d.cpu.diff",
        out / "report.json",
        out / "findings.txt",
    ]
    assert (out / "diffs" / "c" / "d.cpu.diff").read_text(encoding="utf-8") == "dos\n"
    assert not (out / "diffs" / "c" / "notas.txt").exists()


def test_a_diff_file_and_findings_txt_end_in_exactly_one_newline(
    diverging: Verification, tmp_path: Path
) -> None:
    """Only the newlines at the end are trimmed: a leading newline, a trailing space or X
    before them stays (an added line «+X», a message ending in a space)."""
    outcomes = dict(diverging.outcomes)
    for key, detail in (("a/cambia", "\n--- a\n+++ b\n+X\n\n"), ("b/otra", "--- a\n+y \n")):
        verdict = outcomes[key].verdict
        changed = tuple(
            dataclasses.replace(f, detail=detail) if f.kind is Kind.DIVERGENCE else f
            for f in verdict.findings
        )
        made = dataclasses.replace(verdict, findings=changed)
        outcomes[key] = dataclasses.replace(outcomes[key], verdicts={"cpu": made})
    assert report_folder.divergences(dataclasses.replace(diverging, outcomes=outcomes)) == {
        "a/cambia.cpu.diff": "\n--- a\n+++ b\n+X\n",
        "b/otra.cpu.diff": "--- a\n+y \n",
    }
    report = report_json.Report(
        path=tmp_path / "report.json", runner="cpu", env={}, date="?", run_url="", observations={}
    )
    for fix in ("arréglalo ", "arréglalo con X"):
        noted = report_json.Noted(Finding(Kind.CONFIG, "mal", "pyproject.toml", 1, fix))
        folder = tmp_path / fix.replace(" ", "_")
        report_folder.lay_out(folder, dataclasses.replace(report, findings=(noted,)), {})
        text = (folder / "findings.txt").read_text(encoding="utf-8")
        assert text == f"pyproject.toml:1: [configuracion] mal\n  → Cómo arreglarlo: {fix}\n"


def test_the_report_keeps_the_runs_durations(
    project: Project, diverging: Verification, tmp_path: Path
) -> None:
    folder = tmp_path / "informe"
    report_folder.write(folder, diverging, config=project.config, durations={"a.md": 2.5})
    assert report_json.read(folder).durations == {"a.md": 2.5}
