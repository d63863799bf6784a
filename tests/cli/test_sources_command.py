"""`docverify sources` as an author and CI read it (cli/sources_command.py): the list by review
date, --markdown, --due, and --reverify's questions, refusals and edits. Judging the sources
and editing a page are tests/sources/'s; here each line the command prints is checked whole,
with the dates counted by hand from the day pinned below."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
from pathlib import Path

import pytest
from conftest import Project
from docverify.sources import fingerprint as fp_mod
from support import inprocess
from support.clock import epoch
from support.sources import REF, source_page, torch_fingerprint

TODAY = dt.date(2026, 11, 29)
LABEL = f"«{REF}» («Entrada Python de autograd»)"


def sources(
    project: Project, *args: str, stdin: str = "", ci: bool = False
) -> subprocess.CompletedProcess[str]:
    """`docverify sources ARGS` in `project`, on TODAY, `stdin` typed."""
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env |= {"SOURCE_DATE_EPOCH": epoch(TODAY)} | ({"CI": "true"} if ci else {})
    return inprocess.docverify(["sources", *args], project.root, env, stdin)


@pytest.fixture
def two(project: Project) -> Project:
    """a.md: a source verified 67 days before TODAY (due 2027-03-22, fresh); b.md: one verified
    89 days before, with its own 30 days and an owner (due 2026-10-01: stale)."""
    source_page(project, '"2026-09-23"', name="a.md")
    source_page(project, '"2026-09-01"', "\n    review_days: 30\n    owner: ana", name="b.md")
    return project


def test_the_list_is_by_review_date_with_status_age_and_owner(two: Project) -> None:
    done = sources(two)
    assert done.returncode == 1
    assert done.stdout == (
        f"2026-10-01  caducada                   89 días  b.md: {REF} · ana\n"
        f"2027-03-22  al día                     67 días  a.md: {REF}\n"
        "docverify sources: 2 fuentes · hoy 2026-11-29 · 1 error\n"
    )
    assert done.stderr.startswith("docs/b.md:6: [fuente-caducada]")


def test_a_fresh_source_alone_exits_0(project: Project) -> None:
    source_page(project, '"2026-11-29"', name="a.md")
    done = sources(project)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == (
        f"2027-05-28  al día                      0 días  a.md: {REF}\n"
        "docverify sources: 1 fuente · hoy 2026-11-29 · 0 errores\n"
    )


def test_markdown_prints_the_table_and_the_count_on_stderr(two: Project) -> None:
    done = sources(two, "--markdown")
    assert done.returncode == 1
    assert done.stdout.startswith("Una fuente caduca 180 días después de verificarse")
    assert "| 1 de septiembre de 2026 | 89 días | 1 de octubre de 2026 | caducada | ana |" in (
        done.stdout
    )
    assert "docverify sources:" not in done.stdout
    assert done.stderr == "docverify sources: 2 fuentes · hoy 2026-11-29 · 1 error\n"


def test_due_writes_one_json_line_and_exits_0_even_when_one_is_stale(two: Project) -> None:
    done = sources(two, "--due", "salida/semana/debidas.json")  # folders made as needed
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == (
        "docverify sources: 1 fuente por revisar · hoy 2026-11-29 → salida/semana/debidas.json\n"
    )
    text = (two.root / "salida/semana/debidas.json").read_text(encoding="utf-8")
    assert text.endswith("}\n") and text.count("\n") == 1
    found = json.loads(text)
    assert (found["count"], found["today"]) == (1, "2026-11-29")


def test_due_counts_in_the_plural(project: Project) -> None:
    source_page(project, '"2026-09-01"', name="a.md")  # due 2027-02-28: not yet
    source_page(project, '"2026-06-10"', name="b.md")  # due 2026-12-07: in 30 days
    source_page(project, '"2026-06-05"', name="c.md")  # due 2026-12-02: in 30 days
    done = sources(project, "--due", "debidas.json")
    assert done.stdout == (
        "docverify sources: 2 fuentes por revisar · hoy 2026-11-29 → debidas.json\n"
    )


# --- --reverify --------------------------------------------------------------------------


def test_reverify_refuses_under_ci(project: Project) -> None:
    page = source_page(project, '"2026-09-23"')
    before = page.read_bytes()
    done = sources(project, "--reverify", REF, "--yes", ci=True)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "docverify sources --reverify: se niega con CI=true; verificar una fuente es un acto "
        "humano: hazlo en local y confirma el cambio con git.\n"
    )
    assert page.read_bytes() == before


def test_reverify_of_an_unknown_source_names_what_to_use(project: Project) -> None:
    source_page(project, '"2026-09-23"')
    done = sources(project, "--reverify", "nada", "--yes")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "docverify sources: ninguna fuente se llama «nada»; usa su reference, su title o el "
        "objeto o archivo de su huella (lista: docverify sources).\n"
    )


QUESTION = "¿Comprobaste esta fuente y las marcas como verificadas hoy (2026-11-29)? [s/N] "
HEADER = f"docs/guia.md:4: {LABEL}, verificada el 23 de septiembre de 2026\n"


@pytest.mark.parametrize("answer", ["n\n", "", "quizá\n"])
def test_reverify_without_a_yes_changes_nothing(project: Project, answer: str) -> None:
    page = source_page(project, '"2026-09-23"')
    before = page.read_bytes()
    done = sources(project, "--reverify", REF, stdin=answer)
    assert done.returncode == 1
    assert done.stdout == (
        f"{HEADER}  sin huella: solo se actualizará la fecha.\n{QUESTION}"
        "docverify sources: nada cambiado.\n"
    )
    assert page.read_bytes() == before


@pytest.mark.parametrize("answer", ["s\n", " SÍ \n", "si\n", "y\n", "Yes\n"])
def test_reverify_with_a_yes_updates_the_date(project: Project, answer: str) -> None:
    page = source_page(project, '"2026-09-23"')
    done = sources(project, "--reverify", REF, stdin=answer)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert done.stdout == (
        f"{HEADER}  sin huella: solo se actualizará la fecha.\n{QUESTION}"
        f"actualizada: docs/guia.md:4 ({REF})\n"
    )
    assert 'verified: "2026-11-29"' in page.read_text(encoding="utf-8")


def test_reverify_of_two_sources_asks_about_both(project: Project) -> None:
    source_page(project, '"2026-09-23"', name="a.md")
    source_page(project, '"2026-09-01"', name="b.md")
    done = sources(project, "--reverify", REF, stdin="n\n")
    assert done.returncode == 1
    assert (
        "¿Comprobaste estas fuentes y las marcas como verificadas hoy (2026-11-29)? [s/N] "
        in done.stdout
    )
    assert done.stdout.count(f"{LABEL}, verificada el") == 2


def test_reverify_of_an_unchanged_fingerprint_says_so(project: Project) -> None:
    sha = fp_mod.digest(
        fp_mod.object_source(fp_mod.package_dir("torch"), "torch.autograd.backward")
    )
    source_page(project, '"2026-09-23"', torch_fingerprint("torch.autograd.backward", sha))
    done = sources(project, "--reverify", REF, "--yes")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == (
        f"{HEADER}  torch.autograd.backward: sin cambios desde la verificación (torch 2.13.0, "
        f"sha256 {sha[:12]}…).\nactualizada: docs/guia.md:4 ({REF})\n"
    )


def test_reverify_of_a_fingerprint_without_sha_says_what_is_known(project: Project) -> None:
    sha = fp_mod.digest(
        fp_mod.object_source(fp_mod.package_dir("torch"), "torch.autograd.backward")
    )
    fingerprint = "\n    fingerprint:\n      package: torch\n      object: torch.autograd.backward"
    source_page(project, '"2026-09-23"', fingerprint)
    done = sources(project, "--reverify", REF, stdin="n\n")
    assert done.returncode == 1
    assert done.stdout == (
        f"{HEADER}  torch.autograd.backward cambió desde la verificación:\n"
        "(no hay copia del texto verificado en fingerprints/: solo se sabe que la huella pasó "
        f"de (ninguna) a {sha})\n{QUESTION}docverify sources: nada cambiado.\n"
    )


def test_reverify_of_unreadable_code_stops_with_exit_1(project: Project) -> None:
    page = source_page(project, '"2026-09-23"', torch_fingerprint("torch.no_existe_esto", "0" * 64))
    before = page.read_bytes()
    done = sources(project, "--reverify", REF, "--yes")
    assert (done.returncode, done.stdout) == (1, HEADER)
    assert done.stderr.startswith("  no se puede leer torch.no_existe_esto: ")
    assert done.stderr.count("\n") == 1
    assert page.read_bytes() == before


def test_reverify_of_changed_code_shows_the_diff_and_prunes_the_old_copy(
    project: Project, fake_package: Path
) -> None:
    base = fp_mod.package_dir("dvfake")
    old = fp_mod.object_source(base, "dvfake.core.helper")
    fingerprint = (
        "\n    fingerprint:\n      package: dvfake\n      version: '0.9'\n"
        f"      object: dvfake.core.helper\n      sha256: {fp_mod.digest(old)}"
    )
    source_page(project, '"2026-09-23"', fingerprint)
    store = project.root / "fingerprints"
    store.mkdir()
    (store / f"{fp_mod.digest(old)}.txt").write_text(old, encoding="utf-8")
    core = fake_package / "core.py"
    core.write_text(core.read_text().replace("return 1", "return 2"))
    env = {k: v for k, v in os.environ.items() if k != "CI"} | {
        "SOURCE_DATE_EPOCH": epoch(TODAY),
        "PYTHONPATH": str(fake_package.parent),
    }
    done = inprocess.docverify(["sources", "--reverify", REF, "--yes"], project.root, env)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == HEADER.rstrip("\n")
    assert lines[1] == "  dvfake.core.helper cambió desde la verificación:"
    assert "-    return 1" in lines and "+    return 2" in lines
    assert lines[-2] == f"actualizada: docs/guia.md:4 ({REF})"
    assert lines[-1] == (
        f"borrada la copia que ya no cita ninguna huella: fingerprints/{fp_mod.digest(old)}.txt"
    )


def test_the_help_says_what_each_option_does() -> None:
    from docverify.cli import main as cli  # noqa: PLC0415

    sub = next(a for a in cli.build_parser()._actions if a.dest == "command")
    parser = sub.choices["sources"]
    assert parser.description == (
        "lista las fuentes por fecha de revisión; --reverify REF las vuelve a verificar"
    )
    args = {a.dest: a for a in parser._actions}
    assert (args["reverify"].metavar, args["due"].metavar) == ("REF", "ARCHIVO")
    assert args["reverify"].help == (
        "fuente a volver a verificar: su reference, su title o el objeto o archivo de su huella"
    )
    assert args["yes"].help == "con --reverify, actualiza sin preguntar"
    assert args["markdown"].help == "imprime la tabla de fuentes del informe de verificación"
    assert args["due"].help == (
        "escribe en ARCHIVO (JSON) las fuentes a warn_days días o menos de su fecha de "
        "revisión, con el texto de la incidencia semanal; sale con 0 aunque alguna falle"
    )
    defaults = parser.parse_args([])
    assert (defaults.yes, defaults.markdown, defaults.reverify, defaults.due) == (
        False,
        False,
        None,
        None,
    )
