"""report.gpu_report: the gpu job's report judged again in a CPU build, and what it says when it
cannot be used.

The «gpu reports» are real CPU runs relabelled as the gpu runner's (support/relabel.py), made in
a world that may differ from the build's: a file the blocks read says «nueva» while the report is
made and «vieja» when the recordings are; another file is missing. So in a report of the new
world «cambia» diverges and «falla» fails, «igual» holds, «nuevo» (no recording) has nothing to
be compared with, and «solo-cpu» does not run on the gpu runner.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import Project
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.core.status import Status
from docverify.parsing.pages import read_site
from docverify.report import digests, gpu_report, merge, report_json
from docverify.running.executor import Executor
from docverify.verifying import recordings
from docverify.verifying.outcome import Verification
from docverify.verifying.record import record
from support.blocks import block
from support.file_world import FileWorld
from support.relabel import check_report

pytestmark = pytest.mark.usefixtures("local_author")
FIX = gpu_report.FIX_REPORT


class World(FileWorld):
    """The test project, its two files and the page as written."""

    def __init__(self, project: Project, tmp_path: Path) -> None:
        super().__init__(project, tmp_path)
        self.codes = {
            "igual": "print(1)",
            "cambia": f"print(open({str(self.data)!r}).read())",
            "falla": f"print(open({str(self.other)!r}).read())",
            "nuevo": "print(2)",
        }
        self.text = ""
        self.write()

    def write(self, codes: dict[str, str] | None = None, more: str = "") -> None:
        codes = {**self.codes, **(codes or {})}
        text = "# A\n\n" + "".join(block(c, k) for k, c in codes.items())
        self.text = text + block("print(3)", "solo-cpu", ' runner="cpu"') + more
        self.project.page("a.md", self.text)

    def line(self, block_id: str) -> int:
        """The line of the block's first line of code, counted in the page as written."""
        return next(n for n, t in enumerate(self.text.splitlines(), 2) if f'id="{block_id}"' in t)

    def report(self, executor: Executor, name: str) -> Path:
        """A gpu report of the project as it is now, in tmp_path/NAME."""
        folder = self.tmp_path / name
        check_report(self.project.config, executor, folder, runner="gpu")
        return folder


@pytest.fixture
def world(project: Project, executor: Executor, tmp_path: Path) -> World:
    """cpu recordings of the old world, none for «nuevo»."""
    made = World(project, tmp_path)
    made.old()
    cfg = project.config
    assert len(record(cfg, read_site(cfg), "cpu", executor).written) == 5
    (nuevo,) = [b for b in read_site(cfg)[0].blocks if b.id == "nuevo"]
    recordings.path_for(cfg, nuevo, "cpu").unlink()
    return made


def _added(before: Verification, after: Verification) -> list[Finding]:
    """The findings `after` has beyond `before`'s, which come first."""
    assert after.findings[: len(before.findings)] == before.findings
    return after.findings[len(before.findings) :]


def _gpu_only_entry(world: World, folder: Path, key: str, output: str) -> None:
    """Add what the gpu runner printed for a gpu-only block to a relabelled report (its CPU
    run could not run it), with the digests of its code and options on the gpu runner."""
    cfg = world.project.config
    (page,) = read_site(cfg)
    path = folder / "report.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    own, inputs = digests.block_digests(page, "gpu")[key]
    raw["observations"][key] = {
        **raw["observations"]["a/igual"],
        "output": output,
        "code_sha256": own,
        "inputs_sha256": inputs,
        "spec_sha256": digests.setup_digests(cfg, page, "gpu")[key],
    }
    path.write_text(json.dumps(raw), encoding="utf-8")


def test_a_report_of_the_same_outputs_is_each_blocks_gpu_verdict(
    world: World, executor: Executor
) -> None:
    """The report judged against the recordings the build read (one deleted since stays
    known); blocks added after the recordings: «solo-gpu» runs only on the gpu runner, and
    «declara» declares an exception it does not raise."""
    more = block("print(5)", "solo-gpu", ' runner="gpu"')
    world.write(more=more + block("print(6)", "declara", ' raises="ValueError: no"'))
    folder = world.report(executor, "gpu")
    cfg = world.project.config
    _gpu_only_entry(world, folder, "a/solo-gpu", "5")
    cpu = world.check(executor)
    (igual,) = [b for b in cpu.pages[0].blocks if b.id == "igual"]
    recordings.path_for(cfg, igual, "cpu").unlink()
    attached = gpu_report.attach(cfg, cpu, folder)
    nuevo = cfg.rel(folder)
    accept = (
        f"docverify accept {nuevo} adopta las salidas de GPU (revisa el diff antes de "
        "confirmar); si no son correctas, corrige el código."
    )

    def said(key: str, what: str) -> str:
        described = attached.outcomes[key].verdicts["gpu"].reference.described
        where = f"{nuevo}/report.json"
        return f"en el informe GPU ({where}), la salida de «{key}» {what} ({described})."

    missing = "no tiene grabación con la que compararse"
    assert _added(cpu, attached) == [
        Finding(
            Kind.REPORT_DIVERGENCE,
            said(key, missing),
            "docs/a.md",
            world.line(key.split("/")[1]),
            accept,
        )
        for key in ("a/nuevo", "a/solo-gpu")
    ] + [
        Finding(
            Kind.REPORT_DIVERGENCE,
            said("a/declara", "falló"),
            "docs/a.md",
            world.line("declara"),
            "corrige el bloque: falló en el runner gpu (error).",  # the entry names no error
        )
    ]
    gpu = {k: o.reported("gpu") for k, o in attached.outcomes.items()}
    assert {k: v.status for k, v in gpu.items() if v} == {
        "a/igual": Status.OK,
        "a/cambia": Status.OK,
        "a/falla": Status.OK,
        "a/nuevo": Status.MISSING,
        "a/solo-gpu": Status.MISSING,
        "a/declara": Status.ERROR,
    }
    assert gpu["a/solo-cpu"] is None
    assert attached.outcomes["a/solo-cpu"] == cpu.outcomes["a/solo-cpu"]
    assert cpu.outcomes["a/igual"].reported("gpu") is None  # a new verification, cpu untouched


def test_what_the_gpu_did_differently_is_said_per_block(world: World, executor: Executor) -> None:
    world.new()
    folder = world.report(executor, "gpu")
    world.old()
    cfg = world.project.config
    cpu = world.check(executor)
    attached = gpu_report.attach(cfg, cpu, folder)
    where = f"{cfg.rel(folder)}/report.json"
    error = json.loads((folder / "report.json").read_text(encoding="utf-8"))["observations"][
        "a/falla"
    ]["error"]
    assert error.startswith("FileNotFoundError")

    def said(key: str, what: str) -> str:
        described = attached.outcomes[key].verdicts["gpu"].reference.described
        return f"en el informe GPU ({where}), la salida de «{key}» {what} ({described})."

    accept = (
        f"docverify accept {cfg.rel(folder)} adopta las salidas de GPU (revisa el diff antes "
        "de confirmar); si no son correctas, corrige el código."
    )
    assert [(f.kind, f.message, f.path, f.line, f.fix) for f in _added(cpu, attached)] == [
        (
            Kind.REPORT_DIVERGENCE,
            said("a/cambia", "no coincide con su referencia"),
            "docs/a.md",
            world.line("cambia"),
            accept,
        ),
        (
            Kind.REPORT_DIVERGENCE,
            said("a/falla", "falló"),
            "docs/a.md",
            world.line("falla"),
            f"corrige el bloque: falló en el runner gpu ({error}).",
        ),
        (
            Kind.REPORT_DIVERGENCE,
            said("a/nuevo", "no tiene grabación con la que compararse"),
            "docs/a.md",
            world.line("nuevo"),
            accept,
        ),
    ]
    statuses = {k: o.reported("gpu") for k, o in attached.outcomes.items()}
    assert statuses["a/cambia"].status is Status.DIVERGE  # type: ignore[union-attr]
    assert statuses["a/falla"].status is Status.ERROR  # type: ignore[union-attr]


def test_a_stale_or_incomplete_report_says_which_block(world: World, executor: Executor) -> None:
    """«cambia» edited (it and the blocks after it are stale), and a block added that the
    report does not have: no gpu verdict for any of them."""
    folder = world.report(executor, "gpu")
    cfg = world.project.config
    world.write(
        codes={"cambia": world.codes["cambia"] + "  # otro"}, more=block("print(4)", "otro")
    )
    cpu = world.check(executor)
    attached = gpu_report.attach(cfg, cpu, folder)
    where = f"{cfg.rel(folder)}/report.json"

    def stale(reason: str, block_id: str) -> Finding:
        return Finding(
            Kind.STALE_REPORT,
            f"informe GPU obsoleto: {reason}.",
            "docs/a.md",
            world.line(block_id),
            FIX,
        )

    before = "cambió el código de un bloque anterior de la página de «{}» («a/cambia»), y la "
    assert _added(cpu, attached) == [
        stale("el código del bloque «a/cambia» cambió desde el informe", "cambia"),
        stale(before.format("a/falla") + "salida puede depender de él", "falla"),
        stale(before.format("a/nuevo") + "salida puede depender de él", "nuevo"),
        Finding(
            Kind.INCOMPLETE_REPORT,
            f"el informe GPU ({where}) no tiene la salida del bloque «a/otro».",
            "docs/a.md",
            world.line("otro"),
            FIX + " El informe debe cubrir todo el sitio (todas las partes si se repartió con "
            "--shard, y sin elegir páginas).",
        ),
    ]
    gpu = {k for k, o in attached.outcomes.items() if o.reported("gpu")}
    assert gpu == {"a/igual"}


def test_a_report_that_cannot_be_used_is_an_error(
    world: World, executor: Executor, tmp_path: Path
) -> None:
    cfg = world.project.config
    cpu = world.check(executor)
    empty = tmp_path / "vacía"
    empty.mkdir()
    with pytest.raises(report_json.ReportError) as unread:
        merge.load([empty])
    assert gpu_report.attach(cfg, cpu, empty).findings == [
        *cpu.findings,
        Finding(Kind.INVALID_REPORT, f"{gpu_report.ENV}: {unread.value}", gpu_report.ENV, 1, FIX),
    ]
    assert gpu_report.attach(cfg, cpu, [empty]).findings[-1].kind is Kind.INVALID_REPORT

    folder = world.report(executor, "gpu")
    where = f"{cfg.rel(folder)}/report.json"

    def wrong(report: str, build: str) -> Finding:
        return Finding(
            Kind.WRONG_REPORT_RUNNER,
            f"{gpu_report.ENV} debe ser un informe del runner gpu para una compilación en cpu; "
            f"este informe es del runner {report} y la compilación, del {build}.",
            where,
            1,
            FIX,
        )

    on_gpu = world.check(executor, "gpu")
    assert _added(on_gpu, gpu_report.attach(cfg, on_gpu, folder)) == [wrong("gpu", "gpu")]
    cpu_folder = tmp_path / "cpu"
    shutil.copytree(folder, cpu_folder)
    path = cpu_folder / "report.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**raw, "runner": "cpu"}), encoding="utf-8")
    where = f"{cfg.rel(cpu_folder)}/report.json"
    assert _added(cpu, gpu_report.attach(cfg, cpu, cpu_folder)) == [
        Finding(
            Kind.WRONG_REPORT_RUNNER,
            f"{gpu_report.ENV} debe ser un informe del runner gpu para una compilación en cpu; "
            "este informe es del runner cpu y la compilación, del cpu.",
            where,
            1,
            FIX,
        )
    ]

    for key in ("a/igual", "a/cambia"):
        del raw["observations"][key]["result"]
    (folder / "report.json").write_text(json.dumps(raw), encoding="utf-8")
    where = f"{cfg.rel(folder)}/report.json"
    assert _added(cpu, gpu_report.attach(cfg, cpu, folder)) == [
        report_json.format_2(gpu_report.ENV, where, ["a/cambia", "a/igual"], FIX)
    ]


def test_a_gone_block_and_changed_options_make_a_report_stale(
    world: World, executor: Executor
) -> None:
    """«igual» renamed (its entry's block is gone: said at the report) and «falla» given a
    time limit (it and the blocks after it run with other options)."""
    folder = world.report(executor, "gpu")
    cfg = world.project.config
    codes = {"primero" if k == "igual" else k: c for k, c in world.codes.items()}
    text = "# A\n\n" + "".join(
        block(c, k, ' timeout="30"' if k == "falla" else "") for k, c in codes.items()
    )
    world.text = text + block("print(3)", "solo-cpu", ' runner="cpu"')
    world.project.page("a.md", world.text)
    cpu = world.check(executor)
    attached = gpu_report.attach(cfg, cpu, folder)
    where = f"{cfg.rel(folder)}/report.json"
    options = (
        "cambiaron las opciones de ejecución (sesión, tiempo límite, semilla, hash_seed, "
        "política de dispositivo o valor final) de «{}» o de un bloque anterior de su página, "
        "o las de [tool.docverify]"
    )
    added = _added(cpu, attached)
    assert [(f.kind, f.message, f.path, f.line) for f in added] == [
        (
            Kind.STALE_REPORT,
            "informe GPU obsoleto: el bloque «a/igual» ya no existe o no corre en gpu.",
            where,
            1,
        ),
        (
            Kind.STALE_REPORT,
            f"informe GPU obsoleto: {options.format('a/falla')}.",
            "docs/a.md",
            world.line("falla"),
        ),
        (
            Kind.STALE_REPORT,
            f"informe GPU obsoleto: {options.format('a/nuevo')}.",
            "docs/a.md",
            world.line("nuevo"),
        ),
        (
            Kind.INCOMPLETE_REPORT,
            f"el informe GPU ({where}) no tiene la salida del bloque «a/primero».",
            "docs/a.md",
            world.line("primero"),
        ),
    ]
    assert {k for k, o in attached.outcomes.items() if o.reported("gpu")} == {"a/cambia"}
