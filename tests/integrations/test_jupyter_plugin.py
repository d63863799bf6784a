"""mkdocs-jupyter as mkdocs.yml configures it: it takes the notebooks the hooks generate and
never opens a Markdown page (jupytext would read each one, on every build, to learn that it is
no notebook)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT
from docverify.output import notebooks
from mkdocs.config import load_config
from mkdocs.structure.files import File


def test_mkdocs_jupyter_takes_notebooks_and_never_reads_a_markdown_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import jupytext  # noqa: PLC0415 - mkdocs-jupyter's reader, watched here

    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    monkeypatch.chdir(ROOT)
    config = load_config(str(ROOT / "mkdocs.yml"))
    plugin = config.plugins["mkdocs-jupyter"]
    read: list[str] = []

    def reading(path: Any, *args: Any, **kwargs: Any) -> Any:
        read.append(str(path))
        raise AssertionError("no debería leerse")

    monkeypatch.setattr(jupytext, "read", reading)
    docs = Path(config.docs_dir)
    pages = sorted(docs.rglob("*.md"))
    assert pages
    for page in pages:
        file = File(page.relative_to(docs).as_posix(), str(docs), config.site_dir, False)
        assert not plugin.should_include(file), page
    assert read == []
    notebook = File(f"{notebooks.FOLDER}/un-articulo.ipynb", str(docs), config.site_dir, False)
    assert plugin.should_include(notebook)
