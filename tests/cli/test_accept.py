"""`docverify accept DIR`: adopt a check report's outputs; refuse, writing nothing, when unsafe.

Reports come from real runs in temporary projects. The GPU path uses a real CPU report relabelled
as the gpu runner's (support/relabel.py); nothing of the kind is ever written under snippets/.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import Project
from docverify.cli import accept_command
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


# --- what accept says ---------------------------------------------------------------------


def _report(**changes: object) -> SimpleNamespace:
    fields = {
        "runner": "gpu",
        "env": {"torch": "2.13.0", "device": "NVIDIA H100"},
        "date": "2026-01-01",
        "run_url": "",
        "canary": None,
    }
    return SimpleNamespace(**(fields | changes))


def test_describe_says_where_and_when_the_outputs_were_observed() -> None:
    assert accept_command.describe(_report()) == (
        "runner gpu · torch 2.13.0 · NVIDIA H100 · 2026-01-01 · ejecución local"
    )
    assert accept_command.describe(_report(run_url=RUN_URL, env={})) == (
        f"runner gpu · torch ? · ? · 2026-01-01 · ejecución de CI {RUN_URL}"
    )
    assert accept_command.describe(_report(canary=object())) == (
        "runner gpu · torch 2.13.0 · NVIDIA H100 · 2026-01-01 · canario, ejecución local"
    )


def test_accept_says_what_it_will_write_then_what_it_wrote(
    project: Project, relabelled_gpu_report: Path
) -> None:
    report = report_json.read(relabelled_gpu_report)
    done = docverify(project.root, "accept", str(relabelled_gpu_report), "--yes")
    assert (done.returncode, done.stderr) == (0, "")
    head, rest = done.stdout.split("\n", 1)
    assert head == (f"docverify accept: informe {report.path} · {accept_command.describe(report)}")
    written = "snippets/a/distinto.gpu.txt"
    assert rest.startswith(f"se escribirá: {written}\n")
    diff, tail = rest.removeprefix(f"se escribirá: {written}\n").split("\n\n", 1)
    assert "+cuda:0" in diff.splitlines()
    assert tail == (
        f"escrita: {written}\n"
        "docverify accept: runner gpu · 1 grabación escrita · 1 ya coincidía. Revisa con git "
        "diff y confirma.\n"
    )


@pytest.mark.parametrize(("answer", "said"), [("n\n", ""), ("", "\n"), ("vale\n", "")])
def test_accept_asks_and_writes_nothing_without_a_yes(
    project: Project, relabelled_gpu_report: Path, answer: str, said: str
) -> None:
    done = docverify(project.root, "accept", str(relabelled_gpu_report), stdin=answer)
    assert done.returncode == 1
    assert done.stdout.endswith(
        f"¿Escribir 1 grabación? [s/N] {said}docverify accept: no se ha escrito nada.\n"
    )


@pytest.mark.parametrize("answer", ["s\n", "sí\n", " SI \n", "y\n", "YES\n"])
def test_accept_takes_a_yes_in_spanish_or_english(
    project: Project, relabelled_gpu_report: Path, answer: str
) -> None:
    done = docverify(project.root, "accept", str(relabelled_gpu_report), stdin=answer)
    assert done.returncode == 0, done.stderr
    assert "escrita: snippets/a/distinto.gpu.txt\n" in done.stdout


def test_accept_with_nothing_to_write_says_so_and_exits_0(
    project: Project, relabelled_gpu_report: Path
) -> None:
    assert docverify(project.root, "accept", str(relabelled_gpu_report), "--yes").returncode == 0
    again = docverify(project.root, "accept", str(relabelled_gpu_report))
    assert (again.returncode, again.stderr) == (0, "")
    assert again.stdout.splitlines()[1:] == [
        "docverify accept: runner gpu · 0 grabaciones por escribir · 2 ya coinciden con su "
        "referencia; nada que escribir."
    ]


def test_a_refusal_lists_each_reason_after_one_line(
    project: Project, relabelled_gpu_report: Path
) -> None:
    project.snippet("a/distinto.py", "print('cuda:1')\n")  # not the code the report ran
    done = docverify(project.root, "accept", str(relabelled_gpu_report), "--yes")
    assert done.returncode == 2
    cfg = project.config
    plan = accept.plan(cfg, read_site(cfg), report_json.read(relabelled_gpu_report))
    assert done.stderr == "docverify accept: no se escribe nada.\n\n" + "".join(
        f"{r.format()}\n\n" for r in plan.refusals
    )


def test_an_unreadable_report_is_said_with_the_command_s_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert accept_command.read_report(tmp_path / "ninguno", "prueba") is None
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("docverify prueba: no se escribe nada.\n")
    assert "no existe el informe" in err.splitlines()[1]


def test_a_folder_of_shard_reports_is_merged_first(
    relabelled_gpu_report: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    above = tmp_path / "artefactos"
    above.mkdir()
    direct = accept_command.read_report(relabelled_gpu_report, "accept")
    assert direct is not None and direct.path == report_json.path_in(relabelled_gpu_report)
    by_file = accept_command.read_report(report_json.path_in(relabelled_gpu_report), "accept")
    assert by_file is not None and by_file.path == direct.path
    merged: list[list[Path]] = []
    monkeypatch.setattr(accept_command.merge, "load", lambda p: merged.append(p) or direct)
    assert accept_command.read_report(above, "accept") is direct
    assert merged == [[above]]


def test_plan_report_announces_only_when_asked_and_names_its_command(
    project: Project, relabelled_gpu_report: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """review plans as accept does, without accept's first line; a refusal names review."""
    import argparse  # noqa: PLC0415

    cfg = project.config
    args = argparse.Namespace(folder=str(relabelled_gpu_report), runner=None)
    planned = accept_command.plan_report(cfg, args, "review")
    assert planned is not None and [w.key for w in planned[1].writes] == ["a/distinto"]
    assert capsys.readouterr() == ("", "")
    missing = argparse.Namespace(folder=str(project.root / "ninguno"), runner=None)
    assert accept_command.plan_report(cfg, missing, "review") is None
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("docverify review: no se escribe nada.\n")


def test_the_help_of_accept_says_what_each_argument_takes() -> None:
    from docverify.cli import main as cli  # noqa: PLC0415

    sub = next(a for a in cli.build_parser()._actions if a.dest == "command")
    parser = sub.choices["accept"]
    assert parser.description == (
        "convierte en grabaciones las salidas de un informe de docverify check (nunca con CI=true)"
    )
    args = {a.dest: a for a in parser._actions}
    assert args["folder"].metavar == "CARPETA"
    assert args["folder"].help == (
        "la carpeta de docverify check --report, o una carpeta con los informes de todas las "
        "partes de una ejecución (p. ej. los artefactos docverify-gpu-* de CI, descargados con "
        "gh run download ID -p 'docverify-gpu-*' -D CARPETA)"
    )
    assert args["runner"].choices == ["cpu", "gpu"]
    assert args["runner"].help == (
        "runner cuyas grabaciones escribir (por defecto, el del informe; si no coincide, no se "
        "escribe nada)"
    )
    assert args["yes"].help == "escribe sin preguntar"
    assert parser.parse_args(["R"]).yes is False
    assert parser.parse_args(["R"]).runner is None
