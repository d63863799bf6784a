"""report_json.py on its own: the defaults of a key a report lacks, the refusals and their
messages, and the file `save` writes (tests/fixtures holds reports written by formats 3 and 4)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.core.status import Status
from docverify.report import report_json
from docverify.report.report_json import Entry, Merged, Noted, Report, ReportError

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FIX = "Cómo arreglarlo: vuelve a ejecutar docverify check --report con esta versión del motor."
READ_FIX = (
    "Cómo arreglarlo: pasa la carpeta que escribió docverify check --report (el artefacto de CI "
    "descomprimido)."
)


def folder(version: int, kind: str = "cpu") -> Path:
    return FIXTURES / f"informe-formato-{version}" / "informes" / kind


def row(**extra: Any) -> dict[str, Any]:
    """An observation as format 2 wrote it: no error, no digest of options, no result."""
    return {"status": "ok", "output": "1\n", "code_sha256": "c", "inputs_sha256": "i"} | extra


@pytest.mark.parametrize("kind", ["cpu", "canario", "partes/1"])
@pytest.mark.parametrize("version", [3, 4])
def test_save_writes_back_the_file_it_read(tmp_path: Path, version: int, kind: str) -> None:
    """Byte for byte: indented by one, accents as written (not \\u escapes), a final newline."""
    text = (folder(version, kind) / "report.json").read_text(encoding="utf-8")
    assert "ó" in text  # the fixture has accents for ensure_ascii to escape
    written = report_json.save(tmp_path, report_json.read(folder(version, kind)))
    assert written == tmp_path / "report.json"
    assert written.read_text(encoding="utf-8") == text


def test_a_report_of_format_2_reads_with_the_defaults_of_every_later_key(tmp_path: Path) -> None:
    path = tmp_path / "report.json"
    read = Report.from_json({"runner": "cpu", "observations": {"a.md#1": row()}}, path)
    assert (read.format, read.date, read.run_url, read.errors) == (2, "?", "", 0)
    assert (read.all_pages, read.site_sha256, read.shard, read.merged, read.canary) == (None,) * 5
    assert (read.pages, read.blocks, read.findings, read.env) == ((), {}, (), {})
    assert read.sources == (path,)
    entry = read.observations["a.md#1"]
    assert entry == Entry("a.md#1", Status("ok"), "1\n", "c", "i", "", "", None, ())
    assert read.without_results() == ["a.md#1"]
    assert read.version.mergeable is False


def test_a_format_that_is_not_a_number_reads_as_format_2(tmp_path: Path) -> None:
    raw = {"format": "4", "runner": "gpu", "observations": {}}
    assert Report.from_json(raw, tmp_path / "r.json").format == 2


def test_each_entry_is_keyed_by_its_block(tmp_path: Path) -> None:
    raw = {"runner": "cpu", "observations": {"a.md#1": row(), "b.md#2": row(status="diverge")}}
    read = Report.from_json(raw, tmp_path / "r.json")
    assert {k: (e.key, str(e.status)) for k, e in read.observations.items()} == {
        "a.md#1": ("a.md#1", "ok"),
        "b.md#2": ("b.md#2", "diverge"),
    }


def test_a_merged_section_reads_and_writes_back(tmp_path: Path) -> None:
    raw = json.loads((folder(4) / "report.json").read_text(encoding="utf-8"))
    raw["merged"] = {"shards": 2, "plan": "abc", "basis": "bloques"}
    read = Report.from_json(raw, tmp_path / "r.json")
    assert read.merged == Merged(shards=2, plan="abc", basis="bloques")
    assert read.to_json()["merged"] == {"shards": 2, "plan": "abc", "basis": "bloques"}
    raw["merged"] = "2"  # not a section: none
    assert Report.from_json(raw, tmp_path / "r.json").merged is None


def test_a_finding_without_its_part_is_written_as_format_2_wrote_it() -> None:
    finding = Finding(Kind.INVALID_REPORT, "m", "a.md", 3, "f")
    assert Noted(finding).to_json() == finding.to_json()
    assert "part" not in Noted(finding).to_json()
    assert Noted(finding, "page", "a.md").to_json() == finding.to_json() | {
        "part": "page",
        "page": "a.md",
    }


@pytest.mark.parametrize(
    "raw",
    [
        [],  # not an object
        {"observations": {}},  # no runner
        {"runner": "tpu", "observations": {}},  # a runner this engine has not
        {"runner": "cpu"},  # no observations (format 1)
        {"runner": "cpu", "observations": []},
    ],
)
def test_a_report_without_observations_is_refused(tmp_path: Path, raw: Any) -> None:
    path = tmp_path / "report.json"
    with pytest.raises(ReportError) as refused:
        Report.from_json(raw, path)
    assert str(refused.value) == (
        f"{path}: el informe no tiene las salidas observadas (formato 2 o posterior). {FIX}"
    )


@pytest.mark.parametrize(
    ("item", "why"),
    [
        (row(result=[]), "«result» debe ser un objeto, no list"),
        (
            row(result={}, device_dependent="x"),
            "device_dependent debe ser una lista de textos, no 'x'",
        ),
        (
            row(result={}, device_dependent=[1]),
            "device_dependent debe ser una lista de textos, no [1]",
        ),
        ({"status": "ok"}, "'output'"),
    ],
)
def test_an_incomplete_observation_is_refused(tmp_path: Path, item: Any, why: str) -> None:
    path = tmp_path / "report.json"
    with pytest.raises(ReportError) as refused:
        Report.from_json({"runner": "cpu", "observations": {"a.md#1": item}}, path)
    assert str(refused.value) == f"{path}: una observación del informe está incompleta ({why})."


def test_an_entry_without_a_result_refuses_to_give_one() -> None:
    entry = Entry.from_json("a.md#1", row())
    with pytest.raises(ReportError) as refused:
        entry.block_result()
    assert str(refused.value) == "«a.md#1»: el informe no guarda su resultado (formato 2)"


def test_read_refuses_a_missing_report(tmp_path: Path) -> None:
    with pytest.raises(ReportError) as refused:
        report_json.read(tmp_path)
    file = tmp_path / "report.json"
    assert str(refused.value) == f"{file}: no existe el informe report.json. {READ_FIX}"


def test_read_refuses_a_file_that_is_not_json(tmp_path: Path) -> None:
    file = tmp_path / "report.json"
    file.write_text("{", encoding="utf-8")
    with pytest.raises(ReportError) as refused:
        report_json.read(file)
    why = "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"
    assert str(refused.value) == f"{file}: el informe no es JSON válido ({why}). {READ_FIX}"


@pytest.mark.parametrize(("keys", "more"), [(["a.md#1"], 0), (["b.md#1", "c.md#2", "d.md#3"], 2)])
def test_format_2_names_the_first_key_and_counts_the_rest(keys: list[str], more: int) -> None:
    found = report_json.format_2("DOCVERIFY_REPORT", "informes/cpu", keys, "o quita la variable.")
    assert found == Finding(
        Kind.INVALID_REPORT,
        "DOCVERIFY_REPORT: el informe informes/cpu no guarda el resultado de cada bloque (error, "
        f"excepción, expectativas; falta en «{keys[0]}» y {more} más): lo escribió una versión "
        "anterior del motor (formato 2).",
        "informes/cpu",
        1,
        "vuelve a ejecutar docverify check --report con esta versión del motor. "
        "o quita la variable.",
    )
