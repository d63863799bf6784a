"""`docverify accept`'s plan (report/accept.py), read from the format-4 fixture's reports.

The fixture (tests/fixtures/informe-formato-4, see test_report_format.py) is a small project and
the reports a real run wrote for it: nothing runs here. Its cpu report observed «a/cambia»
diverging, «a/nuevo» without a recording and «b/roto» failing (a syntax error at docs/b.md:9);
every other block matched its recording. Expected values are literals read off those files.
"""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest
from docverify.core import config as config_mod
from docverify.core import versions
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_site
from docverify.report import accept, report_json
from docverify.verifying import proposal

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "informe-formato-4"
REPORTS = FIXTURE / "informes"
ENV = {"torch": "2.13.0+cpu", "python": "3.11.7", "device": "cpu (x86_64)"}
RUN = "https://github.com/equipo/pytorch-es/actions/runs/45"
MATCHED = ["a/azar", "a/despues", "a/lanza", "a/suma", "b/calla", "b/espera", "b/valor"]
FIX_STALE = (
    "descarga el informe de una ejecución de CI de este mismo código (o vuelve a ejecutar "
    "docverify check --report CARPETA) y acepta ese."
)
ROTO = Finding(
    Kind.REFUSED,
    "el bloque «b/roto» falló en el runner cpu (el bloque «b/roto» error de sintaxis en "
    "docs/b.md:9: invalid syntax (página docs/b.md:8)); una salida que falla no se graba.",
    "docs/b.md",
    9,
    "corrige el bloque y acepta el informe de una ejecución en la que pase.",
)


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A copy of the fixture's project (tests never edit the fixture)."""
    return Path(shutil.copytree(FIXTURE / "proyecto", tmp_path / "proyecto"))


@pytest.fixture(autouse=True)
def _other_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    """Outside CI, with a torch that is not the reports' (a canary's torch is then refused)."""
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(versions, "installed", {"torch": "2.12.0"}.__getitem__)


def planned(root: Path, report: report_json.Report, **kwargs: object) -> accept.Plan:
    cfg = config_mod.load(root)
    return accept.plan(cfg, read_site(cfg), report, **kwargs)  # type: ignore[arg-type]


def cpu_report() -> report_json.Report:
    return report_json.read(REPORTS / "cpu")


def test_a_check_report_plans_its_changes_and_refuses_its_failure(copy: Path) -> None:
    plan = planned(copy, cpu_report(), environ={})
    assert plan.runner == "cpu"
    assert [w.key for w in plan.writes] == ["a/cambia", "a/nuevo"]
    assert [w.path for w in plan.writes] == [
        copy / "snippets/a/cambia.cpu.txt",
        copy / "snippets/a/nuevo.cpu.txt",
    ]
    assert plan.unchanged == MATCHED
    assert plan.refusals == [ROTO]  # and no canary refusal: the report is a check's
    header = (
        "# docverify: salida grabada de «a/cambia» en el runner cpu\n# torch: 2.13.0+cpu\n"
        "# python: 3.11.7\n# device: cpu (x86_64)\n# date: 2026-06-01\n"
        "# origin: docverify accept, informe de docverify check del 2026-06-01\n"
        f"# run: {RUN}\n# ----\n"
    )
    assert plan.writes[0].text == header + "uno\ndos\n"


def test_the_header_names_the_reports_run_and_command() -> None:
    assert accept.header(cpu_report()) == proposal.Header(
        ENV, "2026-06-01", "docverify accept, informe de docverify check del 2026-06-01", RUN
    )
    assert accept.header(report_json.read(REPORTS / "canario")) == proposal.Header(
        ENV, "2026-06-01", "docverify accept, informe de docverify canary del 2026-06-01", RUN
    )


def test_refuses_under_ci_only_where_ci_is_true(
    copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    under_ci = Finding(
        Kind.REFUSED,
        "docverify accept se niega a escribir grabaciones con CI=true: aceptar una salida es "
        "un acto que se revisa y se confirma a mano.",
        "CI",
        0,
        "descarga el informe del trabajo de CI y ejecuta docverify accept en local; revisa el "
        "diff y confírmalo con git.",
    )
    assert planned(copy, cpu_report(), environ={"CI": "true"}).refusals == [under_ci, ROTO]
    monkeypatch.setenv("CI", "true")
    assert planned(copy, cpu_report(), environ={}).refusals == [ROTO]  # the environ given
    assert planned(copy, cpu_report()).refusals == [under_ci, ROTO]  # none: this process's


def test_refuses_another_runners_recordings(copy: Path) -> None:
    report = cpu_report()
    plan = planned(copy, report, runner="gpu", environ={})
    assert plan.runner == "gpu"
    assert plan.refusals[0] == Finding(
        Kind.REFUSED,
        "el informe es del runner cpu y se escribirían grabaciones de gpu (<id>.gpu.txt): una "
        "salida solo se graba para el runner que la observó.",
        str(report.path),
        0,
        "usa el informe del trabajo gpu de CI, o quita --runner gpu para escribir grabaciones "
        "de cpu.",
    )
    assert planned(copy, report, runner="cpu", environ={}).refusals == [ROTO]


def test_refuses_a_runner_the_project_does_not_know_even_its_own() -> None:
    report = dataclasses.replace(cpu_report(), runner="tpu")
    assert accept._refused(report, "tpu", {}) == [
        Finding(
            Kind.REFUSED,
            "el informe es del runner tpu y se escribirían grabaciones de tpu (<id>.tpu.txt): "
            "una salida solo se graba para el runner que la observó.",
            str(report.path),
            0,
            "usa el informe del trabajo tpu de CI, o quita --runner tpu para escribir "
            "grabaciones de tpu.",
        )
    ]


def test_refuses_the_stale_block_and_plans_the_rest(copy: Path) -> None:
    page = copy / "docs/b.md"
    page.write_text(page.read_text(encoding="utf-8").replace("z = 1", "z = 2"), encoding="utf-8")
    plan = planned(copy, cpu_report(), environ={})
    stale = Finding(
        Kind.REFUSED,
        "informe obsoleto: el código del bloque «b/calla» cambió desde el informe.",
        "docs/b.md",
        18,
        FIX_STALE,
    )
    assert plan.refusals == [stale, ROTO]
    assert [w.key for w in plan.writes] == ["a/cambia", "a/nuevo"]
    assert plan.unchanged == [k for k in MATCHED if k != "b/calla"]  # not judged: stale


def test_refuses_a_report_without_results_and_plans_nothing(copy: Path) -> None:
    report = cpu_report()
    entries = dict(report.observations)
    for key in ("b/valor", "a/suma"):
        entries[key] = dataclasses.replace(entries[key], result=None)
    old = dataclasses.replace(report, observations=entries)
    plan = planned(copy, old, environ={})
    assert plan.refusals == [
        Finding(
            Kind.REFUSED,
            f"docverify accept: el informe {report.path} no guarda el resultado de cada bloque "
            "(error, excepción, expectativas; falta en «a/suma» y 1 más): lo escribió una "
            "versión anterior del motor (formato 2).",
            str(report.path),
            0,
            "vuelve a ejecutar docverify check --report con esta versión del motor. " + FIX_STALE,
        )
    ]
    assert (plan.writes, plan.unchanged) == ([], [])


def canary_refusal(report: report_json.Report, seen: str, here: str, public: str) -> Finding:
    return Finding(
        Kind.REFUSED,
        f"el informe es de un canario con torch {seen} y este proyecto tiene instalado torch "
        f"{here}: sus salidas solo se adoptan cuando el proyecto usa esa versión.",
        str(report.path),
        0,
        f"fija torch=={public} en pyproject.toml, instala (python3 tasks.py install) y repite "
        "docverify accept con este informe.",
    )


def test_a_canary_is_adopted_only_with_its_torch_installed(
    copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = report_json.read(REPORTS / "canario")
    assert report.canary is not None
    refused = canary_refusal(report, "2.13.0+cpu", "2.12.0", "2.13.0")
    assert planned(copy, report, environ={}).refusals[0] == refused
    monkeypatch.setattr(versions, "installed", {"torch": None}.__getitem__)
    assert accept._canary_torch(report) == canary_refusal(
        report, "2.13.0+cpu", "(ninguno)", "2.13.0"
    )
    monkeypatch.setattr(versions, "installed", {"torch": "2.13.0"}.__getitem__)
    assert accept._canary_torch(report) is None  # the same torch, without its local label
    assert accept._refused(report, "cpu", {}) == []
    unnamed = dataclasses.replace(report, env={"python": "3.11.7"})
    assert accept._canary_torch(unnamed) == canary_refusal(unnamed, "?", "2.13.0", "?")


def test_apply_writes_a_plan_without_refusals_and_nothing_else(copy: Path) -> None:
    refused = planned(copy, cpu_report(), environ={})
    before = (copy / "snippets/a/cambia.cpu.txt").read_text(encoding="utf-8")
    with pytest.raises(RuntimeError, match=r"^a refused accept plan must not be applied"):
        accept.apply(refused)
    assert (copy / "snippets/a/cambia.cpu.txt").read_text(encoding="utf-8") == before
    assert not (copy / "snippets/a/nuevo.cpu.txt").exists()
    clean = accept.Plan(refused.report, "cpu", writes=refused.writes)
    written = accept.apply(clean)
    assert written == [copy / "snippets/a/cambia.cpu.txt", copy / "snippets/a/nuevo.cpu.txt"]
    assert (
        (copy / "snippets/a/nuevo.cpu.txt")
        .read_text(encoding="utf-8")
        .endswith("# ----\nsin grabar\n")
    )
