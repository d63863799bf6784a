"""A block that prints nothing shows no empty «Salida» panel, on the page or in the notebook."""

from __future__ import annotations

import pytest
from conftest import Project
from docverify.cli import main as cli
from docverify.core.config import today
from docverify.core.findings import errors
from docverify.output import markup, notebooks, panel
from docverify.parsing.pages import read_site
from docverify.running.executor import Executor
from docverify.verifying.record import record
from docverify.verifying.verify import verify

PAGE = (
    '```python exec="on" id="calla"\nx = 1\n```\n\n```python exec="on" id="habla"\nprint(2)\n```\n'
)


@pytest.fixture(autouse=True)
def _local_author(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)


def test_silent_block_has_no_panel(project: Project, executor: Executor) -> None:
    project.page("a.md", PAGE)
    config = project.config
    written = record(config, read_site(config), "cpu", executor).written
    assert len(written) == 2 and any(diff == "" for _, diff in written)
    (page,) = read_site(config)
    report = verify(config, [page], "cpu", executor)
    assert not errors(report.findings)
    silent = panel.render_outcome(report.outcomes["a/calla"])
    spoken = panel.render_outcome(report.outcomes["a/habla"])
    assert markup.OUTPUT_FENCE not in silent and "!!!" not in silent
    assert 'class="dv-no-output"' in silent and "Sin salida · CPU ✓" in silent
    assert markup.OUTPUT_FENCE in spoken and "dv-no-output" not in spoken
    notebook = notebooks.build(config, page, report, today())
    cells = {c["id"]: c for c in notebook["cells"]}
    assert cells["calla"]["outputs"] == [] and cells["habla"]["outputs"]


def test_record_prints_no_empty_diff_section(
    project: Project, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    project.page("a.md", PAGE)
    monkeypatch.chdir(project.root)
    assert cli.main(["record", "--runner", "cpu", "--workers", "1"]) == 0
    lines = capsys.readouterr().out.split("\n")
    assert "grabada: snippets/a/calla.cpu.txt (sin salida)" in lines
    for number, line in enumerate(lines):
        if line.startswith("grabada: ") and not line.endswith("(sin salida)"):
            assert lines[number + 1].startswith("--- "), lines[number : number + 2]
