"""`docverify accept DIR`: adopt a check report's outputs; refuse, writing nothing, when unsafe.

Reports come from real runs in temporary projects. The GPU path uses a real CPU report relabelled
as the gpu runner's (support/relabel.py); nothing of the kind is ever written under snippets/.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import Project
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_site
from docverify.report import accept, report_json
from docverify.running.executor import Executor
from docverify.verifying import recordings
from docverify.verifying.record import record
from docverify.verifying.verify import verify
from support import inprocess
from support.relabel import check_report, cpu_run_as_gpu, relabel, snapshot

EPOCH = "1767225600"  # 2026-01-01
CI_RUN = {
    "GITHUB_SERVER_URL": "https://github.com",
    "GITHUB_REPOSITORY": "equipo/pytorch-es",
    "GITHUB_RUN_ID": "4242",
}
RUN_URL = "https://github.com/equipo/pytorch-es/actions/runs/4242"


@pytest.fixture(autouse=True)
def _local_author(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    for name in CI_RUN:
        monkeypatch.delenv(name, raising=False)


def docverify(root: Path, *args: str, env: dict[str, str] | None = None, stdin: str = ""):
    """`docverify ARGS` in this process (support.inprocess), `stdin` typed, outside CI."""
    base = {k: v for k, v in os.environ.items() if k != "CI" and k not in CI_RUN}
    env = {**base, "SOURCE_DATE_EPOCH": EPOCH, **(env or {})}
    return inprocess.docverify(list(args), root, env, stdin)


def two_blocks(project: Project, first: str, second: str) -> None:
    project.page(
        "a.md",
        '# A\n\n```python exec="on" id="igual"\n--8<-- "a/igual.py"\n```\n\n'
        '```python exec="on" id="distinto"\n--8<-- "a/distinto.py"\n```\n',
    )
    project.snippet("a/igual.py", first)
    project.snippet("a/distinto.py", second)


def record_cpu(project: Project, executor: Executor) -> None:
    report = record(project.config, read_site(project.config), "cpu", executor)
    assert report.written, report.findings


@pytest.fixture
def relabelled_gpu_report(project: Project, executor: Executor, tmp_path: Path) -> Path:
    """A report of a real CPU run, relabelled as gpu, whose «distinto» differs from its recording.

    The cpu recordings are of the code as first written; then «distinto» changes to print what a
    GPU would, and the report is taken of that code (the current code when the test starts).
    """
    two_blocks(project, "import torch\nprint(torch.ones(2))\n", "print('cpu')\n")
    record_cpu(project, executor)
    project.snippet("a/distinto.py", "print('cuda:0')\n")
    folder = tmp_path / "informe-gpu"
    check_report(project.config, executor, folder, runner="gpu")
    return folder


# --- writes ---------------------------------------------------------------------------------


def test_check_fails_accept_writes_check_passes(project: Project, executor: Executor) -> None:
    """The acceptance walk: an output changes, check fails, accept adopts it, check passes."""
    project.page("a.md", '# A\n\n```python exec="on" id="suma"\n--8<-- "a/suma.py"\n```\n')
    project.snippet("a/suma.py", "import torch\nprint(torch.ones(3).sum())\n")
    record_cpu(project, executor)
    project.snippet("a/suma.py", "import torch\nprint(torch.ones(4).sum())\n")
    report = project.root / "R"
    failed = docverify(
        project.root, "check", "--runner", "cpu", "--report", str(report), env=CI_RUN
    )
    assert failed.returncode == 1 and "[divergencia]" in failed.stderr
    accepted = docverify(project.root, "accept", str(report), "--yes")
    assert accepted.returncode == 0, accepted.stderr
    assert "-tensor(3.)" in accepted.stdout and "+tensor(4.)" in accepted.stdout
    assert "escrita: snippets/a/suma.cpu.txt" in accepted.stdout
    passed = verify(project.config, read_site(project.config), "cpu", executor)
    assert not passed.findings, passed.findings
    rec = recordings.read(project.root / "snippets/a/suma.cpu.txt", "cpu")
    assert rec.body.strip() == "tensor(4.)"
    assert rec.header["date"] == "2026-01-01"
    assert rec.header["device"].startswith("cpu (")
    assert rec.header["torch"].startswith("2.")
    assert rec.header["run"] == RUN_URL
    assert "docverify accept" in rec.header["origin"] and "2026-01-01" in rec.header["origin"]
    again = docverify(project.root, "accept", str(report), "--yes")
    assert again.returncode == 0 and "nada que escribir" in again.stdout


def test_gpu_report_writes_only_the_blocks_that_differ(
    project: Project, executor: Executor, relabelled_gpu_report: Path
) -> None:
    cfg = project.config
    report = report_json.read(relabelled_gpu_report)
    assert report.runner == "gpu"
    plan = accept.plan(cfg, read_site(cfg), report)
    assert not plan.refusals, plan.refusals
    assert [w.key for w in plan.writes] == ["a/distinto"]
    assert plan.unchanged == ["a/igual"]  # matches its cpu recording: no .gpu.txt
    cpu_before = (project.root / "snippets/a/distinto.cpu.txt").read_bytes()
    written = accept.apply(plan)
    assert [p.name for p in written] == ["distinto.gpu.txt"]
    assert not (project.root / "snippets/a/igual.gpu.txt").exists()
    assert (project.root / "snippets/a/distinto.cpu.txt").read_bytes() == cpu_before
    rec = recordings.read(written[0], "gpu")
    assert rec.body.strip() == "cuda:0"
    assert "en el runner gpu" in written[0].read_text(encoding="utf-8").splitlines()[0]
    gpu = verify(cfg, read_site(cfg), "gpu", executor, run=cpu_run_as_gpu)
    assert {k: o.status for k, o in gpu.outcomes.items()} == {"a/igual": "ok", "a/distinto": "ok"}


def test_nothing_is_written_without_a_yes(project: Project, relabelled_gpu_report: Path) -> None:
    before = snapshot(project.root / "snippets")
    no = docverify(project.root, "accept", str(relabelled_gpu_report), stdin="n\n")
    assert no.returncode == 1 and "+cuda:0" in no.stdout
    assert snapshot(project.root / "snippets") == before
    silent = docverify(project.root, "accept", str(relabelled_gpu_report))  # no terminal: no
    assert silent.returncode == 1
    assert snapshot(project.root / "snippets") == before
    yes = docverify(project.root, "accept", str(relabelled_gpu_report), stdin="s\n")
    assert yes.returncode == 0, yes.stderr
    assert (project.root / "snippets/a/distinto.gpu.txt").is_file()


# --- refusals write nothing -------------------------------------------------------------------


def refused(project: Project, folder: Path, *args: str, env: dict[str, str] | None = None) -> str:
    before = snapshot(project.root / "snippets")
    done = docverify(project.root, "accept", str(folder), "--yes", *args, env=env)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "no se escribe nada" in done.stderr
    assert snapshot(project.root / "snippets") == before
    return done.stderr


def test_refuses_under_ci(project: Project, relabelled_gpu_report: Path) -> None:
    message = refused(project, relabelled_gpu_report, env={"CI": "true"})
    assert "CI=true" in message and "Cómo arreglarlo" in message
    cfg = project.config
    plan = accept.plan(
        cfg, read_site(cfg), report_json.read(relabelled_gpu_report), environ={"CI": "true"}
    )
    assert {f.kind for f in plan.refusals} == {Kind.REFUSED}
    with pytest.raises(RuntimeError):  # a refused plan writes nothing, even if applied
        accept.apply(plan)
    assert not (project.root / "snippets/a/distinto.gpu.txt").exists()


def test_refuses_a_stale_report_and_names_the_block(
    project: Project, relabelled_gpu_report: Path
) -> None:
    project.snippet("a/distinto.py", "print('cuda:1')\n")  # not the code the report ran
    message = refused(project, relabelled_gpu_report)
    assert "«a/distinto»" in message and "snippets/a/distinto.py:1" in message
    assert "informe obsoleto" in message
    # an earlier block of the page changed: the later one may depend on it
    project.snippet("a/distinto.py", "print('cuda:0')\n")
    project.snippet("a/igual.py", "import torch\nprint(torch.zeros(2))\n")
    message = refused(project, relabelled_gpu_report)
    assert "bloque anterior" in message and "«a/igual»" in message


def test_refuses_another_runners_report(project: Project, relabelled_gpu_report: Path) -> None:
    message = refused(project, relabelled_gpu_report, "--runner", "cpu")
    assert "el informe es del runner gpu" in message and "<id>.cpu.txt" in message
    relabel(relabelled_gpu_report, "cpu")  # the same report, as the cpu runner's: accepted
    assert docverify(project.root, "accept", str(relabelled_gpu_report), "--yes").returncode == 0
    assert (project.root / "snippets/a/distinto.cpu.txt").read_text().rstrip().endswith("cuda:0")


def test_refuses_a_report_with_a_failed_block(
    project: Project, executor: Executor, tmp_path: Path
) -> None:
    two_blocks(project, "print(1)\n", "print(2)\n")
    record_cpu(project, executor)
    project.snippet("a/distinto.py", "print(3)\nraise ValueError('no')\n")
    folder = tmp_path / "R"
    check_report(project.config, executor, folder)
    message = refused(project, folder)
    assert "«a/distinto» falló" in message and "ValueError" in message


def test_refuses_a_report_without_observations(project: Project, tmp_path: Path) -> None:
    two_blocks(project, "print(1)\n", "print(2)\n")
    folder = tmp_path / "viejo"
    folder.mkdir()
    (folder / "report.json").write_text(json.dumps({"runner": "gpu", "blocks": {}}))
    assert "no tiene las salidas observadas" in refused(project, folder)
    assert "no existe el informe" in refused(project, tmp_path / "ninguno")
