"""The published site built from the verification job's report (DOCVERIFY_FROM_REPORTS).

The one-article site (conftest `small`: the real configuration, templates and hooks) is checked
once with `docverify check --report`, as the cpu job does, then built twice with `mkdocs build
--strict`: executing every block, and from that report, executing none. A reader must see the
same panels; only the provenance line says where the output was observed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import docverify, mkdocs_build
from docverify.running import executor as executor_mod

pytestmark = pytest.mark.slow


def panels(page: Path) -> tuple[list[str], list[str]]:
    """The output panels of a built page without their provenance lines, and those lines."""
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    found, lines = [], []
    for panel in soup.select(".dv-output, .dv-no-output"):
        for span in panel.select(".dv-provenance"):
            lines.append(span.get_text())
            span.decompose()
        found.append(str(panel))
    return found, lines


def test_a_site_built_from_the_report_shows_the_same_panels(small: Path, tmp_path: Path) -> None:
    folder = tmp_path / "docverify-cpu"
    args = ["check", "--runner", "cpu", "--no-cache", "--report", str(folder)]
    done = docverify(small, *args, env={"GITHUB_RUN_ID": ""})  # a local report, even in CI
    assert done.returncode == 0, done.stderr
    executed = mkdocs_build(small, tmp_path / "ejecutado")
    assert executed.returncode == 0, executed.stderr
    started = executor_mod.blocks_started()
    replayed = mkdocs_build(
        small, tmp_path / "informe", env={"DOCVERIFY_FROM_REPORTS": str(folder)}
    )
    assert replayed.returncode == 0, replayed.stderr
    assert executor_mod.blocks_started() == started, "la construcción desde el informe ejecutó"
    pages = sorted(
        p.relative_to(tmp_path / "ejecutado")
        for p in (tmp_path / "ejecutado").rglob("index.html")
        if "dv-output" in p.read_text(encoding="utf-8")
    )
    assert pages, "ninguna página del sitio tiene paneles de salida"
    for page in pages:
        here, here_lines = panels(tmp_path / "ejecutado" / page)
        there, there_lines = panels(tmp_path / "informe" / page)
        assert there == here, page
        # The line under each output says where it was observed only when not in this build.
        assert there_lines and len(there_lines) == len(here_lines)
        assert not any("comprobación local" in line for line in here_lines), here_lines
        assert all("comprobación local" in line for line in there_lines), there_lines
    # The legend (on the page that explains the verification) says so too, never "observed in
    # this build".
    legends = [
        p.read_text(encoding="utf-8")
        for p in (tmp_path / "informe").rglob("index.html")
        if "dv-legend" in p.read_text(encoding="utf-8")
    ]
    assert legends, "ninguna página con la leyenda"
    for text in legends:
        assert "la salida observada en esta construcción" not in text
        assert "la salida que observó la verificación de este commit" in text
    # The notebooks carry the same outputs; the site says where they come from.
    notebooks = sorted((tmp_path / "ejecutado").rglob("*.ipynb"))
    assert notebooks
    for notebook in notebooks:
        twin = tmp_path / "informe" / notebook.relative_to(tmp_path / "ejecutado")
        assert json.loads(twin.read_text("utf-8")) == json.loads(notebook.read_text("utf-8"))
    summary = json.loads((tmp_path / "informe" / "verificacion.json").read_text("utf-8"))
    assert summary["observed_in"]["reports"], summary
    verification_page = (tmp_path / "informe" / "verificacion" / "index.html").read_text("utf-8")
    assert "Esta construcción no ejecutó ningún bloque" in verification_page
