"""The recording a verdict calls for (verifying/proposal.py): each branch of its policy.

Verdicts are the judge's, on real runs of small blocks in a temporary project; the recordings
there are written by the test, as an author would have recorded them before. The expected
texts and diffs are written out here, by hand. No GPU here: a «gpu» run is a real CPU run
relabelled as gpu (support/relabel.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import Project
from docverify.core.kinds import Kind
from docverify.core.status import Status
from docverify.parsing.pages import read_site
from docverify.report import accept, report_json
from docverify.running.executor import Executor
from docverify.verifying import judge, proposal, recordings
from docverify.verifying.outcome import Observation
from docverify.verifying.proposal import Header
from docverify.verifying.record import record
from docverify.verifying.verify import execute
from support.blocks import block
from support.relabel import check_report, cpu_run_as_gpu

pytestmark = pytest.mark.usefixtures("local_author")

HEADER = Header(
    {"torch": "2.99.0", "python": "3.99.1", "device": "cpu (prueba)"},
    "2026-01-01",
    origin="docverify accept, informe de docverify check del 2026-01-01",
    run="https://github.com/equipo/pytorch-es/actions/runs/7",
)
OLD_HEADER = (
    "# docverify: salida grabada de «a/{id}» en el runner cpu\n"
    "# torch: 2.13.0\n# python: 3.11.7\n# device: cpu (x86_64)\n# date: 2025-06-01\n"
)


def recorded(project: Project, block_id: str, body: str, marks: str = "") -> Path:
    """The recording an author made before: snippets/a/<id>.cpu.txt."""
    extra = f"# device-dependent: {marks}\n" if marks else ""
    head = OLD_HEADER.format(id=block_id) + extra + "# ----\n"
    return project.snippet(f"a/{block_id}.cpu.txt", head + body + "\n")


def judged(project: Project, executor: Executor, key: str, runner: str = "cpu") -> Any:
    """(block, verdict, recordings) of block `key` after a real run on `runner`."""
    cfg = project.config
    pages = read_site(cfg)
    results, _ = (cpu_run_as_gpu if runner == "gpu" else execute)(cfg, pages, runner, executor)
    found = next(b for p in pages for b in p.blocks if b.key == key)
    recs = recordings.of_block(cfg, found)
    return (
        found,
        judge.judge(cfg, found, runner, Observation(results.get(found.key)), recs=recs),
        recs,
    )


def propose(project: Project, executor: Executor, key: str, runner: str = "cpu") -> Any:
    found, verdict, recs = judged(project, executor, key, runner)
    return verdict, proposal.propose(project.config, found, verdict, recs, HEADER)


def test_an_output_that_holds_proposes_nothing(project: Project, executor: Executor) -> None:
    project.page("a.md", block('print("hola")', "x"))
    recorded(project, "x", "hola")
    verdict, made = propose(project, executor, "a/x")
    assert verdict.status == Status.OK and not proposal.failures(verdict)
    assert made is None


def test_a_changed_output_is_written_whole_and_keeps_the_recorded_marker(
    project: Project, executor: Executor
) -> None:
    project.page("a.md", block('print("valor: 42")\nprint("nuevo")', "x"))
    recorded(project, "x", "valor: [..]\nviejo")
    verdict, made = propose(project, executor, "a/x")
    assert verdict.status == Status.DIVERGE
    assert made.key == "a/x" and made.path == project.root / "snippets/a/x.cpu.txt"
    assert made.output == "valor: [..]\nnuevo"
    assert made.text == (
        "# docverify: salida grabada de «a/x» en el runner cpu\n"
        "# torch: 2.99.0\n# python: 3.99.1\n# device: cpu (prueba)\n# date: 2026-01-01\n"
        "# origin: docverify accept, informe de docverify check del 2026-01-01\n"
        "# run: https://github.com/equipo/pytorch-es/actions/runs/7\n"
        "# ----\nvalor: [..]\nnuevo\n"
    )
    assert made.diff == (
        "--- snippets/a/x.cpu.txt (referencia actual)\n"
        "+++ snippets/a/x.cpu.txt (observada en cpu)\n"
        "@@ -1,2 +1,2 @@\n valor: [..]\n-viejo\n+nuevo"
    )


def test_a_header_without_origin_has_no_origin_line(project: Project, executor: Executor) -> None:
    """`docverify record` records here: its header names no report and no CI run."""
    project.page("a.md", block('print("hola")', "x"))
    found, verdict, recs = judged(project, executor, "a/x")
    here = Header({"torch": "2.99.0", "python": "3.99.1", "device": "cpu"}, "2026-01-02")
    made = proposal.propose(project.config, found, verdict, recs, here)
    assert made is not None and made.text == (
        "# docverify: salida grabada de «a/x» en el runner cpu\n"
        "# torch: 2.99.0\n# python: 3.99.1\n# device: cpu\n# date: 2026-01-02\n# ----\nhola\n"
    )


def test_a_new_output_is_diffed_against_nothing(project: Project, executor: Executor) -> None:
    project.page("a.md", block('print("hola")', "x"))
    verdict, made = propose(project, executor, "a/x")
    assert verdict.status == Status.MISSING
    assert made.output == "hola"
    assert made.diff == (
        "--- snippets/a/x.cpu.txt (no existe)\n"
        "+++ snippets/a/x.cpu.txt (observada en cpu)\n"
        "@@ -0,0 +1 @@\n+hola"
    )


def test_only_the_marks_line_changes_when_the_output_holds(
    project: Project, executor: Executor
) -> None:
    """A cpu recording made before its block drew random numbers: the output holds, and the
    header alone gets the run's device marks, every other line as it was."""
    project.page("a.md", block("import torch\nprint(torch.rand(1).shape)", "x"))
    path = recorded(project, "x", "torch.Size([1])")
    before = path.read_text(encoding="utf-8")
    verdict, made = propose(project, executor, "a/x")
    assert verdict.status == Status.OK
    assert made.output is None and made.path == path
    assert made.text == before.replace("# ----\n", "# device-dependent: random\n# ----\n")
    assert made.diff.splitlines()[:2] == [
        "--- snippets/a/x.cpu.txt (cabecera actual)",
        "+++ snippets/a/x.cpu.txt (observada)",
    ]
    changed = [line for line in made.diff.splitlines()[2:] if line[:1] in "+-"]
    assert changed == ["+# device-dependent: random"]
    # Judged OK with no recording of its own at hand (a baseline elsewhere): no header to fix.
    found, verdict, _ = judged(project, executor, "a/x")
    assert proposal.propose(project.config, found, verdict, {}, HEADER) is None
    recorded(project, "x", "torch.Size([1])", marks="random")  # the header says it already
    assert propose(project, executor, "a/x")[1] is None


@pytest.mark.parametrize(
    ("code", "kind"),
    [
        ('raise ValueError("no")', Kind.UNEXPECTED_EXCEPTION),
        # Its output diverges too (the verdict says so), but the expectation fails.
        ("x = 2 + 2\nprint(x)  # Expectativa: 5", Kind.EXPECTATION),
    ],
    ids=["excepcion", "expectativa"],
)
def test_a_block_that_fails_proposes_nothing(
    project: Project, executor: Executor, code: str, kind: Kind
) -> None:
    project.page("a.md", block(code, "x"))
    recorded(project, "x", "3")
    verdict, made = propose(project, executor, "a/x")
    assert [f.kind for f in proposal.failures(verdict)] == [kind]
    assert made is None


def test_on_gpu_the_diff_is_against_the_cpu_recording_it_was_compared_with(
    project: Project, executor: Executor
) -> None:
    project.page("a.md", block('print("en la gpu")', "x"))
    recorded(project, "x", "en la cpu")
    verdict, made = propose(project, executor, "a/x", runner="gpu")
    assert verdict.status == Status.DIVERGE
    assert made.path == project.root / "snippets/a/x.gpu.txt" and made.output == "en la gpu"
    assert made.diff == (
        "--- snippets/a/x.cpu.txt (referencia actual, con la regla de dispositivo)\n"
        "+++ snippets/a/x.gpu.txt (observada en gpu)\n"
        "@@ -1 +1 @@\n-en la cpu\n+en la gpu"
    )
    assert "device-dependent" not in made.text  # a gpu header carries no marks


def test_write_writes_each_proposed_text(project: Project, executor: Executor) -> None:
    project.page("a.md", block('print("hola")', "x") + block('print("adiós")', "y"))
    made = [propose(project, executor, key)[1] for key in ("a/x", "a/y")]
    assert proposal.write(made) == [m.path for m in made]
    assert [m.path.read_text(encoding="utf-8") for m in made] == [m.text for m in made]


def test_record_and_accept_propose_the_same_recordings(
    project: Project, executor: Executor, tmp_path: Path
) -> None:
    """The same outputs, observed by `docverify check --report` and adopted by accept, or
    recorded here: the same files, the same diffs; only the header's provenance differs."""
    project.page(
        "a.md",
        block('print("igual")', "igual")
        + block('print("valor: 42")\nprint("nuevo")', "cambia")
        + block('print("hola")', "nueva")
        + block("import torch\nprint(torch.rand(1).shape)", "azar"),
    )
    recorded(project, "igual", "igual")
    recorded(project, "cambia", "valor: [..]\nviejo")
    recorded(project, "azar", "torch.Size([1])")
    cfg = project.config
    check_report(cfg, executor, tmp_path / "informe")
    plan = accept.plan(cfg, read_site(cfg), report_json.read(tmp_path / "informe"), environ={})
    assert not plan.refusals and plan.unchanged == ["a/igual"]
    done = record(cfg, read_site(cfg), "cpu", executor)
    assert done.unchanged == 1
    assert dict(done.written) == {cfg.rel(made.path): made.diff for made in plan.writes}
    assert sorted(dict(done.written)) == [
        "snippets/a/azar.cpu.txt",
        "snippets/a/cambia.cpu.txt",
        "snippets/a/nueva.cpu.txt",
    ]
    for made in plan.writes:  # what record wrote is accept's text, its provenance aside
        written = made.path.read_text(encoding="utf-8")
        assert body(written) == body(made.text)
        assert ("# origin:" in made.text) == (made.output is not None)  # accept's report
        assert "# origin:" not in written  # record ran it here


def body(text: str) -> str:
    return text.split("# ----\n", 1)[1]
