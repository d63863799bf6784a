"""output.canary_output: the canary's summary for people (resumen.md) and its boxes on pages.

The summary is of a real run of this project's torch in a world that differs from the
recordings' (a file the blocks read says «nueva» instead of «vieja», another is missing), with a
canary section written here; the boxes are of a canary view written here, on a real page.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Project
from docverify.core.kinds import Kind
from docverify.output import canary_output, markup
from docverify.parsing.pages import Page, read_site
from docverify.report import canary, report_json
from docverify.running.executor import Executor
from docverify.verifying.outcome import Verification
from docverify.verifying.record import record
from docverify.verifying.verify import verify
from support.blocks import block

pytestmark = pytest.mark.usefixtures("local_author")
WARNED = "FutureWarning: aviso <nuevo>"
CANDIDATE = {"torch": "2.14.0+cpu", "variant": "CPU", "numpy": "2.2.0", "python": "3.13.1"}
PROJECT_SIDE = {"torch": "2.13.0", "variant": "CUDA 12.8"}  # numpy and python unknown
CHANGED_SOURCE = {
    "page": "a.md",
    "path": "docs/a.md",
    "line": 4,
    "reference": "torch-add",
    "title": "torch.add",
    "package": "torch",
    "target": "torch.add",
    "verified_version": "2.13.0",
    "version": "2.14.0",
    "sha256": "0123456789abcdef" * 4,
    "new_sha256": "fedcba9876543210" * 4,
    "problem": "",
    "diff": "--- antes\n+++ después\n-a\n+b\n",
}
UNREAD_SOURCE = {
    **CHANGED_SOURCE,
    "reference": "torch-mul",
    "title": "torch.mul <x>",
    "target": "torch.mul",
    "version": None,
    "new_sha256": None,
    "problem": "no está instalado",
    "diff": "",
}


def _section(changed: dict[str, str], warnings: dict[str, list[str]], sources: list) -> object:
    counts = {"blocks": 3, "ok": 1, "diverge": 1, "error": 1, "missing": 0, "changed": 2}
    return report_json.Canary(
        format=1,
        headline="torch 2.14.0+cpu cambiaría 2 bloques",
        project=PROJECT_SIDE,
        candidate=CANDIDATE,
        counts={**counts, "warnings": 1},
        changed=changed,
        warnings=warnings,
        sources=sources,
    )


@pytest.fixture
def changed_run(project: Project, executor: Executor, tmp_path: Path) -> object:
    """A check of «igual», «cambia» and «falla» in the world the recordings do not know."""
    data, other = tmp_path / "dato.txt", tmp_path / "otro.txt"
    cambia = f"texto = open({str(data)!r}).read()\nprint(texto)"
    project.page(
        "a.md",
        "# A\n\nTexto.\n\n"
        + block("print(1)", "igual")
        + block(cambia, "cambia")
        + block(f"print(open({str(other)!r}).read())", "falla"),
    )
    data.write_text("vieja", encoding="utf-8")
    other.write_text("presente", encoding="utf-8")
    cfg = project.config
    assert len(record(cfg, read_site(cfg), "cpu", executor).written) == 3
    data.write_text("nueva", encoding="utf-8")
    other.unlink()
    return verify(cfg, read_site(cfg), "cpu", executor)


def test_the_summary_says_what_would_change_and_how_to_adopt_it(
    project: Project, changed_run: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01
    run = changed_run
    cfg = project.config
    section = _section(
        {"a/cambia": "diverge", "a/falla": "error"},
        {"a/cambia": [WARNED], "a/igual": ["UserWarning: callado"]},
        [CHANGED_SOURCE, UNREAD_SOURCE],
    )
    text = canary_output.summary(cfg, run, section)  # type: ignore[arg-type]
    cambia, falla = run.outcomes["a/cambia"], run.outcomes["a/falla"]  # type: ignore[attr-defined]
    (diverged,) = [f for f in cambia.findings if f.kind is Kind.DIVERGENCE]
    (failed,) = [f for f in falla.findings if f.kind is Kind.UNEXPECTED_EXCEPTION]
    assert diverged.detail.startswith("---") and not failed.detail.startswith("---")
    expected = [
        "# torch 2.14.0+cpu cambiaría 2 bloques",
        "",
        "Canario de docverify del 1 de enero de 2026, runner cpu: cada bloque del sitio "
        "ejecutado con torch 2.14.0+cpu (CPU) y comparado con su grabación, con las mismas "
        "reglas que `docverify check`.",
        "",
        "| | Proyecto | Canario |",
        "|---|---|---|",
        "| torch | 2.13.0 (CUDA 12.8) | 2.14.0+cpu (CPU) |",
        "| numpy | ? | 2.2.0 |",
        "| Python | ? | 3.13.1 |",
        "",
        "Bloques ejecutados: 3 · coinciden con su grabación: 1 · cambiarían: 2 (1 con otra "
        "salida, 1 fallarían) · sin grabación: 0 · avisos nuevos: 1 · fuentes con huella cuyo "
        "código cambia: 2.",
        "",
        "## Bloques que cambiarían",
        "",
        "### `a/cambia`: no coincide con su grabación",
        "",
        "Página `docs/a.md:8`, código `docs/a.md:9`.",
        "",
        "Avisos nuevos:",
        "",
        f"- `{WARNED}`",
        "",
        diverged.message,
        "",
        "```diff\n" + diverged.detail.rstrip() + "\n```",
        "",
        "### `a/falla`: falló",
        "",
        "Página `docs/a.md:12`, código `docs/a.md:13`.",
        "",
        failed.message,
        "",
        "```text\n" + failed.detail.rstrip() + "\n```",
        "",
        "## Avisos nuevos en bloques que no cambian de salida",
        "",
        "- `a/igual`: `UserWarning: callado`",
        "",
        "## Fuentes con huella cuyo código cambia",
        "",
        "### «torch-add» («torch.add»)",
        "",
        "`docs/a.md:4`: `torch.add`, verificada con torch 2.13.0; en torch 2.14.0, la huella "
        "pasa de `0123456789ab…` a `fedcba987654…`.",
        "",
        "```diff\n--- antes\n+++ después\n-a\n+b\n```",
        "",
        "### «torch-mul» («torch.mul <x>»)",
        "",
        "`docs/a.md:4`: `torch.mul`, verificada con torch 2.13.0; en torch ?, no se puede "
        "leer: no está instalado.",
        "",
        "## Cómo adoptarlo",
        "",
        "1. Sube la versión fijada en `pyproject.toml` (`torch==2.14.0`) e instala: "
        "`python3 tasks.py install`.",
        "2. `docverify accept CARPETA` con esta carpeta: muestra el diff de cada bloque que "
        "cambia, pregunta y escribe sus grabaciones. Un bloque que fallaría se corrige antes.",
        "3. `docverify sources --reverify REF` para cada fuente de arriba: muestra el diff y "
        "actualiza su huella y su fecha.",
        "4. `docverify check` y `python3 tasks.py build`; revisa `git diff` y confirma.",
        "",
        "El canario no escribe grabaciones ni hace fallar ninguna construcción.",
    ]
    assert text.split("\n") == [*"\n".join(expected).split("\n"), ""]


def test_a_summary_without_changes_has_no_such_sections(
    project: Project, changed_run: object
) -> None:
    section = _section({}, {}, [])
    text = canary_output.summary(project.config, changed_run, section)  # type: ignore[arg-type]
    assert "##" not in text.split("## Cómo adoptarlo")[0]
    unnamed = report_json.Canary(**{**vars(section), "project": CANDIDATE, "candidate": {}})
    table = canary_output.summary(project.config, changed_run, unnamed).split("\n")[4:9]  # type: ignore[arg-type]
    assert table == [
        "| | Proyecto | Canario |",
        "|---|---|---|",
        "| torch | 2.14.0+cpu (CPU) | ? (?) |",
        "| numpy | 2.2.0 | ? |",
        "| Python | 3.13.1 | ? |",
    ]
    assert "(`torch==?`)" in canary_output.summary(project.config, changed_run, unnamed)  # type: ignore[arg-type]


def _view(project: Project, stale: dict[str, str], sources: list) -> tuple[object, Page]:
    """A canary view of page a.md: «cambia» diverges with two warnings, «falla» fails."""
    (page,) = read_site(project.config)
    report = report_json.Report(
        path=Path("informe/report.json"),
        runner="cpu",
        env={},
        date="2026-03-02",
        run_url="",
        observations={},
        canary=_section({}, {}, sources),  # type: ignore[arg-type]
    )
    changes = {
        "a/cambia": canary.BlockChange(
            "a/cambia",
            canary.Status.DIVERGE,
            "--- a\n+++ b\n-x\n+y",
            "",
            (WARNED, "UserWarning: u"),
        ),
        "a/falla": canary.BlockChange("a/falla", canary.Status.ERROR, "", "ValueError: <no>", ()),
    }
    return canary.CanaryView(report, changes, stale), page


@pytest.fixture
def page_only(project: Project) -> Project:
    project.page(
        "a.md",
        "# A\n\n"
        + block("print(1)", "igual")
        + block("print(2)", "cambia")
        + block("print(3)", "falla")
        + block("print(4)", "viejo"),
    )
    return project


def test_a_changed_blocks_box_says_how_it_would_change(page_only: Project) -> None:
    view, page = _view(page_only, {}, [])
    blocks = {b.id: b for b in page.blocks}
    when = "canario del 2 de marzo de 2026"
    box = canary_output.block_box(view, blocks["cambia"])  # type: ignore[arg-type]
    assert (
        box
        == "\n\n"
        + markup.raw(
            '<details class="info dv-canary" id="dv-canario-cambia">\n'
            f"<summary>Con torch 2.14.0+cpu (CPU), esta salida cambiaría · {when}</summary>\n"
            "<p>Avisos nuevos: <code>FutureWarning: aviso &lt;nuevo&gt;</code>, "
            "<code>UserWarning: u</code></p>\n"
            + markup.diff_html("--- a\n+++ b\n-x\n+y")
            + "\n</details>"
        )
        + "\n"
    )
    failing = canary_output.block_box(view, blocks["falla"])  # type: ignore[arg-type]
    assert (
        failing
        == "\n\n"
        + markup.raw(
            '<details class="info dv-canary" id="dv-canario-falla">\n'
            f"<summary>Con torch 2.14.0+cpu (CPU), este bloque fallaría · {when}</summary>\n"
            + markup.diff_html("ValueError: <no>")
            + "\n</details>"
        )
        + "\n"
    )
    assert canary_output.block_box(view, blocks["igual"]) == ""  # type: ignore[arg-type]
    assert canary_output.block_box(None, blocks["cambia"]) == ""


def test_a_pages_list_names_its_changed_stale_and_source_items(page_only: Project) -> None:
    view, page = _view(page_only, {"a/viejo": "cambió"}, [UNREAD_SOURCE])
    listed = canary_output.page_list(view, page)  # type: ignore[arg-type]
    assert listed == (
        '<details class="info dv-canary-page">\n'
        "<summary>Próxima versión de torch: con torch 2.14.0+cpu (CPU) cambiarían 2 bloques "
        "de esta página · canario del 2 de marzo de 2026</summary>\n"
        "<ul>\n"
        '<li><a href="#dv-canario-cambia">«cambia»</a>: su salida cambiaría, 2 avisos nuevos</li>'
        '<li><a href="#dv-canario-falla">«falla»</a>: fallaría</li>'
        "<li>el código citado por la fuente «torch-mul» (<code>torch.mul</code>) cambia</li>"
        "<li>«viejo»: el informe del canario es anterior a su código actual; no se sabe qué "
        "imprimiría</li>\n"
        "</ul>\n</details>\n\n"
    )
    assert canary_output.page_list(None, page) == ""


def test_a_page_with_one_change_or_only_a_stale_block_says_so(page_only: Project) -> None:
    view, page = _view(page_only, {}, [])
    del view.changes["a/falla"]  # type: ignore[attr-defined]
    view.changes["a/cambia"] = canary.BlockChange(  # type: ignore[attr-defined]
        "a/cambia", canary.Status.DIVERGE, "d", "", ("UserWarning: u",)
    )
    listed = canary_output.page_list(view, page)  # type: ignore[arg-type]
    assert "cambiaría 1 bloque de esta página" in listed
    assert ">«cambia»</a>: su salida cambiaría, 1 aviso nuevo</li>" in listed
    view.changes.clear()  # type: ignore[attr-defined]
    assert canary_output.page_list(view, page) == ""  # type: ignore[arg-type]
    view.stale["a/viejo"] = "cambió"  # type: ignore[attr-defined]
    only_stale = canary_output.page_list(view, page)  # type: ignore[arg-type]
    assert "cambiarían 0 bloques de esta página" in only_stale
    assert only_stale.count("<li>") == 1 and "«viejo»" in only_stale
    view.stale.clear()  # type: ignore[attr-defined]
    sourced, _ = _view(page_only, {}, [CHANGED_SOURCE])
    sourced.changes.clear()  # type: ignore[attr-defined]
    assert "«torch-add»" in canary_output.page_list(sourced, page)  # type: ignore[arg-type]
    other = {**CHANGED_SOURCE, "page": "b.md"}
    elsewhere, _ = _view(page_only, {}, [other])
    elsewhere.changes.clear()  # type: ignore[attr-defined]
    assert canary_output.page_list(elsewhere, page) == ""  # type: ignore[arg-type]


def test_the_folder_is_a_check_report_with_the_summary_beside_it(
    project: Project, changed_run: Verification, tmp_path: Path
) -> None:
    section = _section({"a/cambia": "diverge", "a/falla": "error"}, {}, [])
    folder = tmp_path / "canario"
    written = canary_output.write(project.config, folder, changed_run, section)
    assert written == [
        folder / "diffs" / "a" / "cambia.cpu.diff",
        folder / "report.json",
        folder / "findings.txt",
        folder / "resumen.md",
    ]
    summary = canary_output.summary(project.config, changed_run, section)
    assert (folder / "resumen.md").read_text(encoding="utf-8") == summary
    assert canary.read(folder).canary == section
