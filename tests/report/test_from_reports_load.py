"""report.from_reports: which reports a build from reports can use, and what it says when not.

Expected values come from the fixtures' report.json files (tests/fixtures, never regenerated)
and from the variable's name as docs-dev documents it, not from the module under test."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from docverify.core import config as config_mod
from docverify.core.kinds import Kind
from docverify.report import from_reports, report_json
from docverify.verifying.outcome import SeenIn

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "informe-formato-4"
VAR = "DOCVERIFY_FROM_REPORTS"
FIX_START = f"apunta {VAR} a las carpetas que escribió docverify check --report CARPETA"


@pytest.fixture
def cfg(tmp_path: Path) -> config_mod.Config:
    return config_mod.load(Path(shutil.copytree(FIXTURE / "proyecto", tmp_path / "proyecto")))


@pytest.mark.parametrize(("requested", "runner"), [("gpu", "gpu"), ("auto", "cpu"), ("tpu", "cpu")])
def test_a_report_that_cannot_be_read_is_an_error_of_the_variable(
    cfg: config_mod.Config, tmp_path: Path, requested: str, runner: str
) -> None:
    given = from_reports.load(cfg, [tmp_path / "no-hay"], requested)
    assert (given.runner, given.report) == (runner, None)
    [finding] = given.findings
    assert (finding.kind, finding.path, finding.line) == (Kind.INVALID_REPORT, VAR, 1)
    assert finding.message.startswith(f"{VAR}: ") and len(finding.message) > len(VAR) + 2
    assert finding.fix.startswith(FIX_START)


def test_reports_of_another_runner_say_both_runners(cfg: config_mod.Config) -> None:
    given = from_reports.load(cfg, [FIXTURE / "informes" / "cpu"], "gpu")
    assert (given.runner, given.report) == ("gpu", None)
    [finding] = given.findings
    assert (finding.kind, finding.line) == (Kind.WRONG_REPORT_RUNNER, 1)
    assert finding.message == (
        f"{VAR}: los informes son del runner cpu y la construcción pide el runner gpu "
        "(DOCVERIFY_RUNNER)."
    )
    assert finding.path.endswith("report.json") and finding.fix.startswith(FIX_START)


@pytest.mark.parametrize("requested", ["auto", "cpu"])
def test_reports_of_the_asked_runner_are_used(cfg: config_mod.Config, requested: str) -> None:
    folder = FIXTURE / "informes" / "cpu"
    written = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    given = from_reports.load(cfg, [folder], requested)
    assert given.runner == "cpu" and given.findings == []
    assert given.report is not None
    seen = from_reports.seen(cfg, given.report)
    assert (seen.runner, seen.torch, seen.device, seen.date, seen.source, seen.run_url) == (
        written["runner"],
        written["env"]["torch"],
        written["env"]["device"],
        written["date"],
        SeenIn.REPORT,
        written["run_url"],
    )
    assert [Path(p).name for p in seen.reports] == ["report.json"]


def test_a_report_without_torch_or_device_shows_a_question_mark(
    cfg: config_mod.Config, tmp_path: Path
) -> None:
    folder = Path(shutil.copytree(FIXTURE / "informes" / "cpu", tmp_path / "cpu"))
    data = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    data["env"] = {"python": "3.11.7"}
    (folder / "report.json").write_text(json.dumps(data), encoding="utf-8")
    seen = from_reports.seen(cfg, report_json.read(folder))
    assert (seen.torch, seen.device) == ("?", "?")
