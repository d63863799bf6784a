"""`docverify check` and `record` as an author reads them (cli/verify_commands.py): each line
they print, their exit codes, the accept hint, the shard's part, the durations file and the
cache. In-process, in a small project; prune is tests/cli/test_prune.py's."""

from __future__ import annotations

import re

import pytest
from conftest import Project, docverify
from support.blocks import block

pytestmark = pytest.mark.usefixtures("local_author")


@pytest.fixture
def pages(project: Project) -> Project:
    """a.md: a block that prints 1 and one that prints nothing; b.md: a block that prints 2."""
    project.page("a.md", block("print(1)", "uno") + block("x = 1", "nada"))
    project.page("b.md", block("print(2)", "dos"))
    return project


RECORD_TAIL = "0 bloques rechazados · {twice} dos veces (lo nuevo se comprueba en otro proceso)\n"


def test_record_says_each_recording_and_counts(pages: Project) -> None:
    first = docverify(pages.root, "record", "--runner", "cpu", "docs/a.md")
    assert (first.returncode, first.stderr) == (0, "")
    assert first.stdout == (
        "grabada: snippets/a/uno.cpu.txt\n"
        "--- snippets/a/uno.cpu.txt (no existe)\n"
        "+++ snippets/a/uno.cpu.txt (observada en cpu)\n"
        "@@ -0,0 +1 @@\n+1\n\n"
        "grabada: snippets/a/nada.cpu.txt (sin salida)\n\n"
        "docverify record: runner cpu · 2 grabaciones escritas · 0 sin cambios · "
        + RECORD_TAIL.format(twice="1 página ejecutada")
    )
    assert not (pages.root / "snippets/b").exists()
    second = docverify(pages.root, "record", "--runner", "cpu")
    assert second.stdout.endswith(
        "docverify record: runner cpu · 1 grabación escrita · 2 sin cambios · "
        + RECORD_TAIL.format(twice="1 página ejecutada")
    )
    third = docverify(pages.root, "record", "--runner", "cpu")
    assert (third.returncode, third.stderr) == (0, "")
    assert third.stdout == (
        "docverify record: runner cpu · 0 grabaciones escritas · 3 sin cambios · "
        + RECORD_TAIL.format(twice="0 páginas ejecutadas")
    )


def test_record_refuses_under_ci(pages: Project) -> None:
    done = docverify(pages.root, "record", "--runner", "cpu", env={"CI": "true"})
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "docverify record: se niega a grabar con CI=true; graba en local y revisa el diff.\n"
    )
    assert not list((pages.root / "snippets").rglob("*.txt"))


def test_record_of_a_failing_block_refuses_it_and_exits_1(project: Project) -> None:
    project.page("a.md", block("raise ValueError('no')", "falla"))
    done = docverify(project.root, "record", "--runner", "cpu")
    assert done.returncode == 1
    assert "[" in done.stderr and "«a/falla»" in done.stderr
    assert done.stdout.endswith(
        "docverify record: runner cpu · 0 grabaciones escritas · 0 sin cambios · "
        "1 bloque rechazado · 0 páginas ejecutadas dos veces (lo nuevo se comprueba en otro "
        "proceso)\n"
    )
    assert not list((project.root / "snippets").rglob("*.txt"))


SUMMARY = re.compile(
    r"docverify check: runner cpu · torch \S+ · (?P<run>\d+/\d+) bloques ejecutados"
    r"(?P<cache> \(\d+ desde la caché\))? en (?P<pages>\d+ páginas?)(?P<part> · parte .*)? · "
    r"(?P<errors>\d+ (?:error|errores))\n"
)


def _summary(stdout: str) -> re.Match[str]:
    last = stdout.splitlines(keepends=True)[-1]
    match = SUMMARY.fullmatch(last)
    assert match, stdout
    return match


def test_check_without_recordings_fails_and_points_to_accept_only_with_a_report(
    pages: Project,
) -> None:
    plain = docverify(pages.root, "check", "--runner", "cpu")
    assert plain.returncode == 1
    assert plain.stderr.count("[grabacion-ausente]") == 3
    assert _summary(plain.stdout)["errors"] == "3 errores"
    assert plain.stdout.count("\n") == 1  # no accept hint without a report
    reported = docverify(pages.root, "check", "--runner", "cpu", "--report", "R")
    assert reported.returncode == 1
    assert reported.stdout.splitlines()[0] == (
        "Si las salidas nuevas son correctas, adóptalas: docverify accept R"
    )
    assert (pages.root / "R/report.json").is_file()


def test_check_of_recorded_pages_passes_and_reads_the_cache(pages: Project) -> None:
    assert docverify(pages.root, "record", "--runner", "cpu").returncode == 0
    first = _summary(docverify(pages.root, "check", "--runner", "cpu").stdout)
    assert first["cache"] == " (0 desde la caché)"  # record does not fill check's cache
    done = docverify(pages.root, "check", "--runner", "cpu", "--report", "R")
    assert (done.returncode, done.stderr) == (0, "")
    summary = _summary(done.stdout)
    assert (summary["run"], summary["pages"], summary["errors"]) == (
        "3/3",
        "2 páginas",
        "0 errores",
    )
    assert summary["cache"] == " (3 desde la caché)" and summary["part"] is None
    assert done.stdout.count("\n") == 1  # nothing to accept: no hint
    fresh = _summary(docverify(pages.root, "check", "--runner", "cpu", "--no-cache").stdout)
    assert fresh["cache"] is None and fresh["errors"] == "0 errores"
    one = _summary(docverify(pages.root, "check", "--runner", "cpu", "docs/b.md").stdout)
    assert (one["run"], one["pages"]) == ("1/1", "1 página")


def test_a_divergence_with_a_report_points_to_accept(pages: Project) -> None:
    assert docverify(pages.root, "record", "--runner", "cpu").returncode == 0
    pages.page("b.md", block("print(3)", "dos"))
    done = docverify(pages.root, "check", "--runner", "cpu", "--report", "R2")
    assert done.returncode == 1 and "[divergencia]" in done.stderr
    assert done.stdout.splitlines()[0] == (
        "Si las salidas nuevas son correctas, adóptalas: docverify accept R2"
    )
    assert _summary(done.stdout)["errors"] == "1 error"


def test_a_shard_says_its_part_and_leaves_the_durations_file_alone(pages: Project) -> None:
    durations = pages.root / ".cache/docverify/durations.json"
    part = docverify(pages.root, "check", "--runner", "cpu", "--shard", "1/2")
    assert re.fullmatch(
        r" · parte 1/2 \(plan [0-9a-f]{12}, por \w+\)", _summary(part.stdout)["part"]
    )
    assert not durations.exists()
    whole = docverify(pages.root, "check", "--runner", "cpu", "--durations", "tiempos.json")
    assert _summary(whole.stdout)["part"] is None
    assert (pages.root / "tiempos.json").is_file() and not durations.exists()
    docverify(pages.root, "check", "--runner", "cpu")
    assert durations.is_file()


def _parser(name: str):
    from docverify.cli import main as cli  # noqa: PLC0415

    sub = next(a for a in cli.build_parser()._actions if a.dest == "command")
    return sub.choices[name]


def test_the_help_of_check_record_and_prune() -> None:
    check = _parser("check")
    assert check.description == "verifica los bloques sin construir el sitio"
    args = {a.dest: a for a in check._actions}
    assert (args["shard"].metavar, args["durations"].metavar, args["report"].metavar) == (
        "I/N",
        "JSON",
        "CARPETA",
    )
    assert args["shard"].help == (
        "verifica solo la parte I de N (reparto por duraciones anteriores)"
    )
    assert args["durations"].help == (
        "archivo de duraciones (por defecto .cache/docverify/durations.json)"
    )
    assert args["report"].help == "escribe report.json, findings.txt y los diffs de divergencias"
    assert args["no_cache"].help == (
        "ejecuta todos los bloques sin leer .cache/docverify (sí renueva sus entradas; con "
        "CI=true, ni la lee ni la escribe)"
    )
    defaults = check.parse_args([])
    assert (defaults.shard, defaults.durations, defaults.report, defaults.no_cache) == (
        None,
        None,
        None,
        False,
    )
    assert {a.dest for a in check._actions} >= {"runner", "workers", "paths"}
    record = _parser("record")
    assert record.description == "graba las salidas que cambiaron (nunca con CI=true)"
    assert {a.dest for a in record._actions} == {"help", "runner", "workers", "paths"}
    prune = _parser("prune")
    assert prune.description == "lista (o borra con --yes) las grabaciones sin bloque"
    [yes] = [a for a in prune._actions if a.dest == "yes"]
    assert yes.help == "borra de verdad (sin esto, solo lista)"
    assert prune.parse_args([]).yes is False
