"""Device marks after the run: kept in the cpu recording's header, checked, carried in reports,
and read by the gpu runner, which asks a marked block for its own GPU recording.

No GPU here: the "gpu" runs are real CPU runs relabelled as gpu (support/relabel.py); the marks
in them are the CPU run's, as the gpu runner reads them from the cpu recording's header.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import Project
from docverify.core import device_marks
from docverify.core.findings import errors
from docverify.core.kinds import Kind
from docverify.core.status import Status
from docverify.parsing.pages import read_site
from docverify.report import accept, report_json
from docverify.running.executor import Executor
from docverify.site import lint
from docverify.verifying import recordings
from docverify.verifying.outcome import Verification
from docverify.verifying.record import record
from docverify.verifying.verify import verify
from support.blocks import block, kinds
from support.relabel import check_report, cpu_run_as_gpu

pytestmark = pytest.mark.usefixtures("local_author")

# A model built from random weights, a later block of its session that draws nothing, and a
# block of no session that draws nothing.
PAGE = (
    block("import torch\nmodelo = torch.nn.Linear(2, 1)\nprint(modelo)", "azar", ' session="s"')
    + block("print(modelo(torch.ones(2)).shape)", "despues", ' session="s"')
    + block("import torch\nprint(torch.arange(3.) * 2)", "fijo")
)


def cpu(project: Project, executor: Executor) -> Verification:
    return verify(project.config, read_site(project.config), "cpu", executor)


def gpu(project: Project, executor: Executor) -> Verification:
    cfg = project.config
    return verify(cfg, read_site(cfg), "gpu", executor, run=cpu_run_as_gpu)


def recorded(project: Project, executor: Executor, runner: str = "cpu") -> list[str]:
    cfg = project.config
    run = cpu_run_as_gpu if runner == "gpu" else None
    done = record(cfg, read_site(cfg), runner, executor, **({"run": run} if run else {}))
    assert not errors(done.findings), done.findings
    return [Path(path).name for path, _ in done.written]


def path(project: Project, block_id: str, runner: str = "cpu") -> Path:
    return project.config.snippets_dir / "a" / f"{block_id}.{runner}.txt"


def marks_line(project: Project, block_id: str) -> list[str]:
    text = path(project, block_id).read_text(encoding="utf-8")
    return [line for line in text.split("\n") if line.startswith("# device-dependent:")]


def test_record_writes_the_marks_into_the_cpu_header(project: Project, executor: Executor) -> None:
    project.page("a.md", PAGE)
    assert sorted(recorded(project, executor)) == [
        "azar.cpu.txt",
        "despues.cpu.txt",
        "fijo.cpu.txt",
    ]
    assert marks_line(project, "azar") == ["# device-dependent: random"]
    assert marks_line(project, "despues") == ["# device-dependent: random"]  # its session's
    assert marks_line(project, "fijo") == []
    report = cpu(project, executor)
    assert not errors(report.findings), report.findings
    assert report.outcomes["a/azar"].recording.marks == ("random",)  # type: ignore[union-attr]


def test_a_stale_header_is_its_own_finding_and_record_rewrites_only_that_line(
    project: Project, executor: Executor
) -> None:
    """The marks line is a header key: never compared as output (a wrong one is not a
    divergence), but checked on cpu, where the run detects the marks; `record` rewrites only it."""
    project.page("a.md", PAGE)
    recorded(project, executor)
    azar, fijo = path(project, "azar"), path(project, "fijo")
    right = {p: p.read_text(encoding="utf-8") for p in (azar, fijo)}
    azar.write_text(right[azar].replace("# device-dependent: random\n", ""), encoding="utf-8")
    fijo.write_text(
        right[fijo].replace("# ----", "# device-dependent: accelerator\n# ----"), encoding="utf-8"
    )
    report = cpu(project, executor)
    assert kinds(errors(report.findings)) == [Kind.DEVICE_MARKS, Kind.DEVICE_MARKS]
    assert report.outcomes["a/azar"].status == Status.OK  # its output did match
    first = errors(report.findings)[0]
    assert first.fix.startswith("docverify record --runner cpu docs/a.md")
    assert "depende de números aleatorios" in first.message
    assert "no depende del dispositivo" in first.message
    assert sorted(recorded(project, executor)) == ["azar.cpu.txt", "fijo.cpu.txt"]
    assert {p: p.read_text(encoding="utf-8") for p in (azar, fijo)} == right
    assert not errors(cpu(project, executor).findings)


def test_a_printed_marks_line_is_output_not_header(project: Project, executor: Executor) -> None:
    """A block that prints a line that looks like the header key: it stays in the body."""
    project.page("a.md", block("print('# device-dependent: random')", "x"))
    recorded(project, executor)
    (found,) = read_site(project.config)[0].blocks
    recording = recordings.of_block(project.config, found).get("cpu")
    assert recording is not None
    assert recording.body == "# device-dependent: random\n" and recording.marks == ()
    assert not errors(cpu(project, executor).findings)


def test_on_gpu_a_marked_block_asks_for_its_own_recording(
    project: Project, executor: Executor
) -> None:
    """Not a divergence from the CPU: "record me", with the commands. Once recorded on the gpu
    runner (here a relabelled CPU run), it compares with that recording."""
    project.page("a.md", PAGE)
    recorded(project, executor)
    report = gpu(project, executor)
    assert {k: o.status for k, o in report.outcomes.items()} == {
        "a/azar": Status.MISSING,
        "a/despues": Status.MISSING,
        "a/fijo": Status.OK,  # the device rule, against the cpu recording
    }
    found = errors(report.findings)
    assert kinds(found) == [Kind.MISSING_RECORDING, Kind.MISSING_RECORDING]
    for finding in found:
        assert "docverify record --runner gpu docs/a.md" in finding.fix
        assert (
            "docverify accept" in finding.fix and "depende de números aleatorios" in finding.message
        )
        assert ".gpu.txt" in finding.message
    assert sorted(recorded(project, executor, "gpu")) == ["azar.gpu.txt", "despues.gpu.txt"]
    # Only the cpu runner's runs detect every mark: a gpu recording carries none.
    assert "# device-dependent:" not in path(project, "azar", "gpu").read_text(encoding="utf-8")
    assert not errors(gpu(project, executor).findings)


@pytest.mark.parametrize(
    ("code", "status"),
    [
        ("import torch\nprint(torch.rand(2).shape)", Status.OK),  # random only: CPU numbers
        ("import torch\nprint(torch.cuda.is_available())", Status.MISSING),
        ("import torch\nx = torch.rand(2)\nprint(x.device)", Status.MISSING),
    ],
    ids=["aleatorio", "acelerador", "dispositivo"],
)
def test_as_written_compares_a_random_block_with_the_cpu(
    project: Project, executor: Executor, code: str, status: Status
) -> None:
    """Under device_policy="as-written" a block's tensors stay on the CPU, where the CPU
    generator draws them: random numbers alone can match; the accelerator or a shown device
    cannot."""
    project.page("a.md", block(code, "b", ' device_policy="as-written"'))
    recorded(project, executor)
    assert gpu(project, executor).outcomes["a/b"].status == status


def test_report_json_carries_the_marks_and_older_reports_still_read(
    project: Project, executor: Executor, tmp_path: Path
) -> None:
    project.page("a.md", PAGE)
    recorded(project, executor)
    folder = tmp_path / "informe"
    check_report(project.config, executor, folder)
    raw = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    table = raw["observations"]
    assert table["a/azar"][device_marks.RESULT_KEY] == ["random"]
    assert table["a/fijo"][device_marks.RESULT_KEY] == []
    assert report_json.read(folder).observations["a/despues"].device_dependent == ("random",)
    check_report(project.config, executor, tmp_path / "gpu", runner="gpu")  # relabelled
    gpu_table = json.loads((tmp_path / "gpu" / "report.json").read_text(encoding="utf-8"))
    assert all(device_marks.RESULT_KEY not in item for item in gpu_table["observations"].values())
    for item in table.values():  # a report written before the key existed
        del item[device_marks.RESULT_KEY]
    (folder / "report.json").write_text(json.dumps(raw), encoding="utf-8")
    assert report_json.read(folder).observations["a/azar"].device_dependent == ()
    table["a/azar"][device_marks.RESULT_KEY] = "random"  # not a list
    (folder / "report.json").write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(report_json.ReportError, match="device_dependent"):
        report_json.read(folder)


def test_accept_writes_the_marks_of_a_cpu_report_and_a_gpu_recording_for_marked_blocks(
    project: Project, executor: Executor, tmp_path: Path
) -> None:
    project.page("a.md", PAGE)
    recorded(project, executor)
    azar = path(project, "azar")
    right = azar.read_text(encoding="utf-8")
    azar.write_text(right.replace("# device-dependent: random\n", ""), encoding="utf-8")
    cfg = project.config
    check_report(cfg, executor, tmp_path / "cpu")
    plan = accept.plan(cfg, read_site(cfg), report_json.read(tmp_path / "cpu"))
    assert [w.key for w in plan.writes] == ["a/azar"] and not plan.refusals
    accept.apply(plan)
    assert azar.read_text(encoding="utf-8") == right  # the marks line only
    check_report(cfg, executor, tmp_path / "gpu", runner="gpu")
    plan = accept.plan(cfg, read_site(cfg), report_json.read(tmp_path / "gpu"))
    assert sorted(w.path.name for w in plan.writes) == ["azar.gpu.txt", "despues.gpu.txt"]
    assert all("device-dependent" not in w.text for w in plan.writes)  # a gpu header: none


def test_lint_lists_the_marked_blocks_and_what_each_needs(
    project: Project, executor: Executor
) -> None:
    project.page(
        "a.md",
        PAGE
        + block("import torch\nprint(torch.rand(1).shape)", "libre", ' device_policy="as-written"'),
    )
    recorded(project, executor)
    cfg = project.config

    def listed() -> dict[str, str]:
        lines = lint.device_dependent(cfg, read_site(cfg))
        return {line.split(":")[0].strip(): line for line in lines}

    found = listed()
    assert sorted(found) == ["a/azar", "a/despues", "a/libre"]
    assert "necesita su propia grabación de GPU" in found["a/azar"]
    assert "docverify record --runner gpu docs/a.md" in found["a/azar"]
    assert "puede compararse con la salida de CPU" in found["a/libre"]
    recorded(project, executor, "gpu")
    assert "tiene su propia grabación de GPU (azar.gpu.txt)" in listed()["a/azar"]
