"""The build log says what matters: no INFO for generated notebooks, one way to count blocks."""

from __future__ import annotations

import pytest
from conftest import ROOT, Project
from docverify.output import notebooks
from docverify.parsing.pages import read_site
from docverify.running.executor import Executor
from docverify.verifying import summary
from docverify.verifying.verify import verify
from mkdocs.config import load_config


def test_generated_notebooks_are_out_of_the_nav_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """mkdocs-jupyter wraps each notebook File after on_files, so MkDocs decides «not in nav»
    from the not_in_nav patterns: the hook must add the notebooks' folder there."""
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    monkeypatch.chdir(ROOT)
    config = load_config(str(ROOT / "mkdocs.yml"))
    config = config.plugins.on_config(config)
    spec = config.not_in_nav
    assert spec is not None
    assert spec.match_file(f"{notebooks.FOLDER}/cualquier-articulo.ipynb")
    assert not spec.match_file("articulos/cualquier-articulo.md")
    assert not spec.match_file(f"articulos/{notebooks.FOLDER}/x.ipynb")


def test_summary_counts_blocks_of_both_runners_once(project: Project, executor: Executor) -> None:
    project.page(
        "a.md",
        '```python exec="on" id="a"\nprint(1)\n```\n\n'
        '```python exec="on" id="b" runner="gpu" reason="solo GPU"\nprint(2)\n```\n',
    )
    project.page("b.md", '```python exec="on" id="c"\nprint(3)\n```\n')
    config = project.config
    report = verify(config, read_site(config), "cpu", executor)
    line = summary.line(report)
    assert "2/3 bloques ejecutados en 2 páginas" in line and "caché" not in line
    assert "(1 desde la caché)" in summary.line(report, 1)
