"""verifying.canary.attach: a canary report's observations judged against today's baselines.

The canary reports here are real runs of this project's torch (support/canary.py); the gpu one
is a CPU run relabelled as the gpu runner's (support/relabel.py). The block prints a file that
stands for what differs between the runners: the «GPU» recording is a real run made while the
file said one thing, the CPU recording one made while it said another.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Project
from docverify.core.status import Status
from docverify.parsing.pages import read_site
from docverify.report import canary
from docverify.running.executor import Executor
from docverify.verifying import recordings
from docverify.verifying.record import record
from docverify.verifying.verify import verify
from support.blocks import block
from support.canary import report_here

pytestmark = pytest.mark.usefixtures("local_author")


def _record(project: Project, executor: Executor) -> None:
    cfg = project.config
    assert record(cfg, read_site(cfg), "cpu", executor).written


@pytest.fixture
def two_recordings(project: Project, executor: Executor, tmp_path: Path) -> Path:
    """A block whose gpu recording (a real run, kept as its gpu one) differs from its cpu
    recording, with a warning the cpu one lacks; the file it prints, left saying what the gpu
    recording says."""
    data = tmp_path / "dato.txt"
    code = (
        "import warnings\n"
        f"texto = open({str(data)!r}).read()\n"
        "if 'gpu' in texto:\n"
        "    warnings.warn('aviso de la gpu')\n"
        "print(texto)"
    )
    project.page("a.md", "# A\n\n" + block(code, "salida"))
    data.write_text("en la gpu", encoding="utf-8")
    _record(project, executor)
    cfg = project.config
    (found,) = read_site(cfg)[0].blocks
    recordings.path_for(cfg, found, "cpu").rename(recordings.path_for(cfg, found, "gpu"))
    data.write_text("en la cpu", encoding="utf-8")
    _record(project, executor)
    recs = {r: recordings.of_block(cfg, found).get(r) for r in ("cpu", "gpu")}
    assert recs["cpu"] and recs["gpu"] and recs["cpu"].body != recs["gpu"].body
    data.write_text("en la gpu", encoding="utf-8")
    return data


def _changes(project: Project, executor: Executor, folder: Path) -> dict[str, canary.BlockChange]:
    """What a cpu build shows of the canary report in `folder`."""
    cfg = project.config
    view, findings = canary.attach(cfg, verify(cfg, read_site(cfg), "cpu", executor), folder)
    assert view is not None and not findings, findings
    return view.changes


def test_a_gpu_canary_is_judged_against_the_gpu_recording(
    project: Project, executor: Executor, two_recordings: Path, tmp_path: Path
) -> None:
    """The gpu runner's output, as its own recording says, is no change, though it differs from
    the cpu recording; another output is, with its diff against the gpu recording."""
    same = tmp_path / "igual"
    section = report_here(project.config, executor, same, runner="gpu")
    assert section["changed"] == {} and section["warnings"] == {}  # the gpu one has the warning
    assert _changes(project, executor, same) == {}
    two_recordings.write_text("otra en la gpu", encoding="utf-8")
    other = tmp_path / "otra"
    assert report_here(project.config, executor, other, runner="gpu")["warnings"] == {}
    changes = _changes(project, executor, other)
    (change,) = changes.values()
    assert change.key == "a/salida" and change.status is Status.DIVERGE
    assert "-en la gpu" in change.diff and "+otra en la gpu" in change.diff


def test_a_block_without_a_recording_is_no_change(
    project: Project, executor: Executor, tmp_path: Path
) -> None:
    """A block the canary ran but nobody recorded has nothing to change from: the canary
    counts it apart (missing) and the page shows no change for it."""
    project.page("a.md", "# A\n\n" + block("print('hola')", "nuevo"))
    section = report_here(project.config, executor, tmp_path / "canario")
    assert section["changed"] == {} and section["counts"]["missing"] == 1
    assert _changes(project, executor, tmp_path / "canario") == {}
