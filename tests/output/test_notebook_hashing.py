"""A downloaded notebook tells its reader how to hash strings as the page did (hash_seed).

The notebook's code cells run as one script in a new interpreter: started with the project's
PYTHONHASHSEED, a set of words prints what the page shows and the first cell says nothing;
started with another, the first cell says how to start Jupyter.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from conftest import PYPROJECT, Project
from docverify.output import notebook_cells, notebooks
from docverify.parsing.pages import read_site
from docverify.running.executor import Executor
from docverify.verifying.verify import verify
from support.blocks import block
from support.notebook_script import run_cells

SEED = 5
WORDS = 'print(list({"tensor", "gradiente", "capa", "modelo", "lote", "peso", "sesgo", "dato"}))'
NOTICE = f"Arranca Jupyter con PYTHONHASHSEED={SEED}"


def test_the_notebook_says_how_to_start_jupyter_and_warns_without_it(
    tmp_path: Path, executor: Executor
) -> None:
    project = Project(tmp_path / "proj")
    (project.root / "pyproject.toml").write_text(PYPROJECT + f"hash_seed = {SEED}\n", "utf-8")
    project.page("palabras.md", block(WORDS, "palabras"))
    cfg = project.config
    [page] = read_site(cfg)
    report = verify(cfg, [page], "cpu", executor)
    notebook = notebooks.build(cfg, page, report, dt.date(2026, 11, 29))
    header = notebook["cells"][0]["source"]
    assert f"PYTHONHASHSEED={SEED} jupyter lab" in header, header
    same = run_cells(notebook, tmp_path, str(SEED))
    assert same["palabras"].strip() == report.outcomes["palabras/palabras"].observed
    assert same[notebook_cells.SETUP_ID] == ""
    other = run_cells(notebook, tmp_path, str(SEED + 1))
    assert NOTICE in other[notebook_cells.SETUP_ID], other[notebook_cells.SETUP_ID]
