"""Run policies as readers see them: notebook cells, GPU provenance and the verification page."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from conftest import Project
from docverify.output import notebooks, panel
from docverify.parsing.pages import read_page, read_site
from docverify.verifying.verify import unrun, verify
from support import report, report_page

PAGE = """\
---
title: "Valores"
last_value: show
---

```python exec="on" id="valor"
print("suma:")
sum([1, 2, 3])
```

```python exec="on" id="oculto"
sum([1, 2, 3]);
```

```python exec="on" id="propio" device_policy="as-written"
print(1)
```
"""


def notebook_of(project: Project, executor, text: str = PAGE) -> dict:
    path = project.page("articulos/valores.md", text)
    config = project.config
    page = read_page(config, path)
    report = verify(config, [page], "cpu", executor)
    return notebooks.build(config, page, report, dt.date(2026, 11, 29))


def test_notebook_shows_the_value_as_jupyter_execute_result(tmp_path: Path, executor) -> None:
    notebook = notebook_of(Project(tmp_path), executor)
    nbformat = pytest.importorskip("nbformat")
    nbformat.validate(nbformat.from_dict(notebook))
    cells = {c["id"]: c for c in notebook["cells"] if c["cell_type"] == "code"}
    assert cells["valor"]["source"] == 'print("suma:")\nsum([1, 2, 3])'  # the code as written
    outputs = cells["valor"]["outputs"]
    assert [o["output_type"] for o in outputs] == ["stream", "execute_result"]
    assert outputs[0]["text"] == "suma:\n"
    assert outputs[1]["data"] == {"text/plain": "6"}
    assert cells["oculto"]["outputs"] == []
    assert cells["oculto"]["source"] == "sum([1, 2, 3]);"


def test_setup_cell_follows_the_device_policies(tmp_path: Path, executor) -> None:
    project = Project(tmp_path)
    setup = notebook_of(project, executor)["cells"][1]["source"]
    assert "AS_WRITTEN = ['propio']" in setup  # mixed: cuda by default, except that cell
    compile(setup, "setup", "exec")
    plain = PAGE.replace(' device_policy="as-written"', "")
    setup = notebook_of(project, executor, plain)["cells"][1]["source"]
    assert 'torch.set_default_device("cuda")' in setup and "AS_WRITTEN" not in setup
    written = plain.replace("last_value: show\n", "last_value: show\ndevice_policy: as-written\n")
    setup = notebook_of(project, executor, written)["cells"][1]["source"]
    assert "set_default_device" not in setup


def test_gpu_provenance_names_the_device_policy() -> None:
    gpu = panel._provenance("gpu", "2.13.0", "grabada", "as-written")
    assert "GPU · dispositivos del código · torch 2.13.0" in gpu
    assert "cuda por defecto" in panel._provenance("gpu", "2.13.0", "grabada", "default-cuda")
    for policy in ("as-written", "default-cuda"):  # the cpu runner has no device policy
        assert ">CPU · torch 2 · x<" in panel._provenance("cpu", "2", "x", policy)


def test_verification_page_has_the_device_policy_of_each_gpu_block(project: Project) -> None:
    project.page("a.md", PAGE)
    project.page(
        "b.md",
        '```python exec="on" id="solo" runner="cpu" reason="r"\nprint(1)\n```\n',
    )
    config = project.config
    pages = read_site(config)
    text = report_page.markdown(config, pages, unrun(config, pages, "cpu"), dt.date(2026, 1, 1))
    said = report.said(text)
    assert said[("a.md", "valor")]["Corre en"] == "CPU, GPU (cuda por defecto)"
    assert said[("a.md", "propio")]["Corre en"] == "CPU, GPU (dispositivos del código)"
    assert said[("b.md", "solo")]["Corre en"] == "CPU"
    assert not any(k.startswith("GPU") or k.endswith("GPU") for k in said[("b.md", "solo")])


@pytest.mark.slow
def test_jupyter_shows_the_same_value_as_the_notebook(tmp_path: Path, executor) -> None:
    """Run the notebook in a real kernel: Jupyter's own outputs equal the verified ones."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    stored = nbformat.from_dict(notebook_of(Project(tmp_path / "p"), executor))
    ran = nbformat.from_dict(notebook_of(Project(tmp_path / "q"), executor))
    for cell in ran.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    # Stopped once its outputs are in (see test_notebooks.py: shutdown_kernel).
    nbclient.NotebookClient(
        ran, kernel_name="python3", timeout=300, shutdown_kernel="immediate"
    ).execute()

    def shown(cell: dict) -> list[tuple[str, str]]:
        return [
            (o["output_type"], o.get("text") or o.get("data", {}).get("text/plain", ""))
            for o in cell["outputs"]
        ]

    pairs = [  # every block's cell (not the set-up, nor the cells that seed a random stream)
        (s, r)
        for s, r in zip(stored.cells, ran.cells, strict=True)
        if s.cell_type == "code" and s.metadata.get("docverify", {}).get("block")
    ]
    for before, after in pairs:
        assert shown(after) == shown(before), before["id"]
    assert shown(pairs[0][1]) == [("stream", "suma:\n"), ("execute_result", "6")]


def test_pending_gpu_output_names_a_non_default_policy(project: Project, executor) -> None:
    project.page("a.md", PAGE)
    config = project.config
    report = verify(config, read_site(config), "cpu", executor)
    shown = {key: panel.render_outcome(o) for key, o in report.outcomes.items()}
    # The line says «pendiente»; the policy, folded under it, only when it is not the default.
    assert "<li>GPU: dispositivos del código</li>" in shown["a/propio"]
    assert "GPU: pendiente</summary>" in shown["a/propio"]
    assert shown["a/valor"].count("GPU: ") == 1 and "GPU: pendiente</p>" in shown["a/valor"]
