"""Notebooks: an article's executed blocks as a Jupyter notebook with their verified outputs.

The notebook is made from the page's own parse (the same blocks, ids and code), and its outputs
are the ones the verification observed on this build's runner ("rendered from verified outputs"),
so nothing runs twice. A first cell prepares the kernel the way the engine prepares each block
(warnings written as «Categoría: mensaje», the default device), and visible cells mark where each
random stream starts (a session's, or a block's without one) and where a session's stream is
saved and resumed around other blocks: running the downloaded notebook as-is, or its cells as
one script, prints what the page shows.
"""

from __future__ import annotations

import datetime as dt
import json
import posixpath
from typing import Any

from docverify.core import policies
from docverify.core.config import LABEL, Config
from docverify.core.dates import spanish_date
from docverify.core.markdown import md_escape
from docverify.output import coverage_text, credit, notebook_cells, notebook_links
from docverify.output.notebook_markdown import notebook_markdown
from docverify.parsing import origin
from docverify.parsing.pages import Page, page_stem
from docverify.site.coverage import Coverage
from docverify.sources.model import Source, read_sources
from docverify.verifying.outcome import Verification

FOLDER = "cuadernos"


def notebook_path(page: Page) -> str:
    """Docs-relative path of an article's notebook: cuadernos/<name>.ipynb."""
    stem = page_stem(page.rel).split("/", 1)[-1].replace("/", "-")
    return f"{FOLDER}/{stem}.ipynb"


def build(
    config: Config,
    page: Page,
    verification: Verification,
    today: dt.date,
    sources: list[Source] | None = None,
    coverage: Coverage | None = None,
) -> dict[str, Any]:
    """The nbformat 4 notebook of `page`: its text as Markdown cells, its blocks as code cells.

    `sources`: the page's sources when the caller has read them already (the build has);
    `coverage`: where this version ran (the build's), said in the header."""
    title = str(page.meta.get("title") or page_stem(page.rel))
    torch_version = verification.env.get("torch", "?")
    header = _header(
        page, title, verification, torch_version, today, coverage_text.notebook(coverage)
    )
    header += "\n\n" + hashing_note(config.hash_seed)
    header += _data_note(page)
    if (quoted := origin.read(page)) is not None:
        header += "\n\n" + credit.sentence(quoted)
    cells: list[dict[str, Any]] = [notebook_cells.markdown_cell("docverify_cabecera", header)]
    cells.append(
        notebook_cells.code_cell(
            notebook_cells.SETUP_ID,
            notebook_cells.SETUP.format(
                threads=policies.INTRA_OP_THREADS,
                seed=config.seed,
                hash_seed=config.hash_seed,
                runner=verification.runner,
                device=notebook_cells.device_setup(page.blocks),
            ),
            [],
            {"docverify": {"setup": True}},
        )
    )
    cells += _body(page, verification)
    cells.append(notebook_cells.markdown_cell("docverify_preguntas", _faq(page)))
    if sources is None:
        sources, _ = read_sources(config, page)
    cells.append(notebook_cells.markdown_cell("docverify_fuentes", _sources(sources)))
    count = 0
    for cell in cells:  # numbered as a run from the top would number them
        if cell["cell_type"] == "code":
            count += 1
            cell["execution_count"] = count
    ours = {"page": page.rel, "runner": verification.runner, "torch": torch_version}
    ours["date"] = today.isoformat()
    if page.data_files:  # docs-relative: what a reader downloads beside the notebook to run it
        ours["data_files"] = [f.rel for f in page.data_files]
    return {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python"},
            "docverify": ours,
        },
        "cells": [c for c in cells if c["cell_type"] == "code" or c["source"].strip()],
    }


def _data_note(page: Page) -> str:
    """The header's line on the data files the page's code reads, linked as the article links
    them (relink_markdown moves its links with the rest of the article's); "" without any."""
    if not page.data_files:
        return ""
    here = posixpath.dirname(page.rel) or "."
    files = [(f.name, posixpath.relpath(f.rel, here)) for f in page.data_files]
    return "\n\n" + notebook_links.data_note(files)


def _body(page: Page, verification: Verification) -> list[dict[str, Any]]:
    """The page's text as Markdown cells, each block as its code cell between them, with the
    cells of its random stream around it."""
    cells: list[dict[str, Any]] = []
    lines = notebook_markdown(page.body.split("\n"))
    position = 0  # index into `lines` of the first line not yet in a cell
    streams = notebook_cells.stream_cells(page.blocks)
    for number, block in enumerate(page.blocks, 1):
        start = block.fence_line - page.body_line
        if block.fence_end <= 0 or start < position:
            continue  # an unclosed fence or a block we cannot place: the page itself reports it
        cells.append(
            notebook_cells.markdown_cell(
                f"docverify_texto_{number}", "\n".join(lines[position:start])
            )
        )
        before, after = streams.get(block.key, ([], []))
        cells.extend(notebook_cells.stream_cell(cell_id, code, block) for cell_id, code in before)
        cells.append(notebook_cells.block_cell(block, verification))
        cells.extend(notebook_cells.stream_cell(cell_id, code, block) for cell_id, code in after)
        position = block.fence_end - page.body_line + 1
    cells.append(notebook_cells.markdown_cell("docverify_texto_final", "\n".join(lines[position:])))
    return cells


def dumps(notebook: dict[str, Any]) -> str:
    """The notebook as the JSON text Jupyter writes (one-space indent, UTF-8 kept)."""
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"


def _header(
    page: Page,
    title: str,
    verification: Verification,
    torch_version: str,
    today: dt.date,
    runners: str = "",
) -> str:
    """Every front-matter part an article shows above its body, in the article's order."""
    meta = page.meta
    parts = [f"# {md_escape(title)}", md_escape(meta.get("description") or "")]
    for key, name in (("goals", "Qué aprenderás"), ("prerequisites", "Antes de empezar")):
        if items := _items(meta.get(key)):
            parts.append(f"**{name}**\n\n{items}")
    if meta.get("approach"):
        parts.append(f"*{md_escape(meta['approach'])}*")
    if items := _items(meta.get("takeaways")):
        parts.append(f"**Conclusiones clave**\n\n{items}")
    parts.append(
        f"> Cuaderno generado al construir el sitio a partir de los mismos bloques que el "
        f"artículo. Las salidas guardadas son las que se comprobaron en "
        f"{LABEL.get(verification.runner, verification.runner)} (torch {torch_version}, "
        f"{spanish_date(today)}). {runners + ' ' if runners else ''}La primera celda prepara "
        "el núcleo como el verificador "
        "prepara cada bloque, y las celdas `seed_stream()` empiezan los números aleatorios "
        "de cada sesión (y de cada bloque sin sesión) con la semilla, como un script; al "
        "ejecutar el cuaderno verás las salidas de tu máquina."
    )
    return "\n\n".join(p for p in parts if p)


def hashing_note(hash_seed: int) -> str:
    """How the reader gets the page's order wherever strings are hashed (a set of words)."""
    return (
        "> El orden en que Python recorre un `set` de cadenas (o un `dict` hecho con uno) "
        "cambia en cada arranque del intérprete, salvo que `PYTHONHASHSEED` lo fije: las "
        f"salidas de la página se obtuvieron con `PYTHONHASHSEED={hash_seed}`. Para ver las "
        f"mismas, arranca Jupyter así: `PYTHONHASHSEED={hash_seed} jupyter lab` (o "
        "`jupyter notebook`); la primera celda avisa si el núcleo arrancó sin ese valor."
    )


def _items(values: object) -> str:
    return "\n".join(f"- {md_escape(v)}" for v in values or [])


def _faq(page: Page) -> str:
    items = [
        f"**{md_escape(item.get('question', ''))}**\n\n{md_escape(item.get('answer', ''))}"
        for item in page.meta.get("faq") or []
        if isinstance(item, dict)
    ]
    return "## Preguntas frecuentes\n\n" + "\n\n".join(items) if items else ""


def _sources(sources: list[Source]) -> str:
    if not sources:
        return ""
    lines = []
    for source in sources:
        reference = md_escape(source.reference)
        reference = f"[{reference}]({source.url})" if source.url else reference
        lines.append(
            f"- **{reference}**: {md_escape(source.title)} "
            f"(verificada el {spanish_date(source.verified)})"
        )
    return "## Fuentes\n\n" + "\n".join(lines)
