"""A build given a canary report shows, per page, which blocks would change and how; else nothing.

The canary reports here are real runs of this project's torch (support/canary.py) in a world
that differs from the build's: a file the blocks read says «nueva» while the canary runs and
«vieja» when the recordings are made and the site is built, and another file is missing while
the canary runs. That difference stands for another torch: the canary's output of «cambia»
differs from its recording (with a warning the recording lacks), and «falla» fails.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Project
from docverify import build
from docverify.core.findings import Level
from docverify.core.kinds import Kind
from docverify.core.request import Request
from docverify.output import render
from docverify.parsing.pages import read_site
from docverify.running.executor import Executor
from docverify.verifying.record import record
from support.blocks import block
from support.canary import report_here
from support.relabel import check_report

pytestmark = pytest.mark.usefixtures("local_author")
PAGE = "a.md"


def _page(project: Project, data: Path, other: Path, note: str = "") -> None:
    cambia = (
        "import warnings\n"
        f"texto = open({str(data)!r}).read()\n"
        "if texto == 'nueva':\n"
        "    warnings.warn('aviso de la versión nueva', FutureWarning)\n"
        "print(texto)"
    )
    project.page(
        PAGE,
        "# A\n\n"
        + block("print(1)", "igual")
        + block(cambia, "cambia")
        + block(f"print(open({str(other)!r}).read()){note}", "falla"),
    )


@pytest.fixture
def canary_folder(project: Project, executor: Executor, tmp_path: Path) -> Path:
    """Recordings of the world as it is; a canary report of the other world; then back."""
    data, other = tmp_path / "dato.txt", tmp_path / "otro.txt"
    data.write_text("vieja", encoding="utf-8")
    other.write_text("presente", encoding="utf-8")
    _page(project, data, other)
    cfg = project.config
    assert len(record(cfg, read_site(cfg), "cpu", executor).written) == 3
    data.write_text("nueva", encoding="utf-8")
    other.unlink()
    folder = tmp_path / "canario"
    section = report_here(cfg, executor, folder)
    assert section["changed"] == {"a/cambia": "diverge", "a/falla": "error"}
    assert section["counts"]["changed"] == 2 and section["headline"].endswith("cambiaría 2 bloques")
    assert section["warnings"] == {"a/cambia": ["FutureWarning: aviso de la versión nueva"]}
    data.write_text("vieja", encoding="utf-8")
    other.write_text("presente", encoding="utf-8")
    return folder


def _shown(project: Project, executor: Executor, folder: Path | None) -> tuple[object, str]:
    cfg = project.config
    result = build.run(cfg, read_site(cfg), Request(runner="cpu", canary_report=folder), executor)
    markdown = render.site(result).page(PAGE, render.Links("a/")).markdown
    return result, markdown


def test_each_changed_block_shows_how_it_would_change(
    project: Project, executor: Executor, canary_folder: Path
) -> None:
    result, markdown = _shown(project, executor, canary_folder)
    assert not result.errors, result.errors  # the site's own verification passes
    assert markdown.count('<details class="info dv-canary" ') == 2
    cambia = markdown[markdown.index('id="dv-canario-cambia"') :].split("</details>")[0]
    assert "esta salida cambiaría" in cambia
    assert "FutureWarning: aviso de la versión nueva" in cambia  # the new warning, named
    assert "-vieja" in cambia and "+nueva" in cambia  # the diff against today's recording
    falla = markdown[markdown.index('id="dv-canario-falla"') :].split("</details>")[0]
    assert "este bloque fallaría" in falla and "FileNotFoundError" in falla
    assert 'id="dv-canario-igual"' not in markdown
    top = markdown[: markdown.index("# A")]  # the page's short list, before its text
    assert "cambiarían 2 bloques de esta página" in top
    assert 'href="#dv-canario-cambia"' in top and 'href="#dv-canario-falla"' in top
    assert "«igual»" not in top


def test_without_a_report_nothing_is_shown(
    project: Project, executor: Executor, canary_folder: Path
) -> None:
    result, markdown = _shown(project, executor, None)
    assert result.canary is None and "dv-canary" not in markdown and "canario" not in markdown


def test_an_accepted_output_no_longer_shows(
    project: Project, executor: Executor, canary_folder: Path
) -> None:
    """Judged against today's recordings: once «cambia» is recorded as the canary saw it, only
    «falla» would change."""
    recording = project.root / "snippets/a/cambia.cpu.txt"
    text = recording.read_text(encoding="utf-8")
    recording.write_text(
        text.replace("vieja", "FutureWarning: aviso de la versión nueva\nnueva"), "utf-8"
    )
    data = Path(read_site(project.config)[0].blocks[1].code.split("'")[1])
    data.write_text("nueva", encoding="utf-8")  # the world the recording now describes
    result, markdown = _shown(project, executor, canary_folder)
    assert not result.errors, result.errors
    assert result.canary is not None and set(result.canary.changes) == {"a/falla"}
    assert 'id="dv-canario-cambia"' not in markdown and 'id="dv-canario-falla"' in markdown


def test_a_stale_report_is_said_never_shown_as_current(
    project: Project, executor: Executor, canary_folder: Path, tmp_path: Path
) -> None:
    """«falla» changed since the canary ran: the page says the report does not describe its
    code, the terminal says it (INFO), and the build does not fail for it. The blocks before
    it still show what the canary saw (a block depends only on those before it)."""
    _page(project, tmp_path / "dato.txt", tmp_path / "otro.txt", note="  # otro código")
    result, markdown = _shown(project, executor, canary_folder)
    assert not result.errors, result.errors
    stale = [f for f in result.findings if f.kind == Kind.STALE_CANARY_REPORT]
    assert [f.level for f in stale] == [Level.INFO] and "«a/falla»" in stale[0].message
    assert "«falla»: el informe del canario es anterior a su código actual" in markdown
    assert 'id="dv-canario-falla"' not in markdown and 'id="dv-canario-cambia"' in markdown


def test_a_report_that_is_not_a_canarys_is_said_and_shows_nothing(
    project: Project, executor: Executor, canary_folder: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "check"
    check_report(project.config, executor, folder)
    result, markdown = _shown(project, executor, folder)
    assert not result.errors, result.errors
    [finding] = [f for f in result.findings if f.kind == Kind.INVALID_CANARY_REPORT]
    assert finding.level is Level.INFO and "no es un informe de docverify canary" in finding.message
    assert result.canary is None and "dv-canary" not in markdown
