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
from typing import Any

from docverify.core import policies
from docverify.core.config import LABEL, Config
from docverify.core.dates import spanish_date
from docverify.core.markdown import md_escape
from docverify.output import coverage as coverage_text
from docverify.output import credit
from docverify.output.notebook_markdown import notebook_markdown
from docverify.parsing import origin
from docverify.parsing.pages import Block, Page, page_stem
from docverify.running.protocol import BlockResult
from docverify.site.coverage import Coverage
from docverify.sources.model import Source, read_sources
from docverify.verifying import compare
from docverify.verifying.outcome import Report

FOLDER = "cuadernos"
SETUP_ID = "docverify_preparacion"  # "_" never appears in a block id, so no clash
STREAM_ID = "docverify_semilla"  # + "_<block id>": the cells that mark the random streams
SAVE_ID = "docverify_guarda"
RESUME_ID = "docverify_retoma"
_FRESH = "un bloque sin sesión empieza con la semilla, como un script nuevo"
Cell = tuple[str, str]  # (cell id, code)


SETUP = """\
# Prepara el núcleo como docverify prepara cada bloque antes de ejecutarlo:
# los avisos impresos como «Categoría: mensaje», el dispositivo por defecto
# del runner (la máquina que ejecutó los bloques) cuyas salidas muestra este
# cuaderno y los números aleatorios. Como en un script, cada sesión de bloques
# es un único flujo de números aleatorios que empieza con la semilla, y cada
# bloque sin sesión empieza el suyo: las celdas seed_stream() lo marcan, y
# save_stream()/resume_stream() retoman una sesión tras otros bloques.
# El orden en que Python recorre un set de cadenas depende de PYTHONHASHSEED,
# que solo cuenta al arrancar: arranca Jupyter con PYTHONHASHSEED={hash_seed}.
import os
import random
import warnings

import torch

SEED = {seed}
RUNNER = "{runner}"
SAVED = {{}}
if os.environ.get("PYTHONHASHSEED") != "{hash_seed}":
    print(
        "Aviso: este núcleo no arrancó con PYTHONHASHSEED={hash_seed}; el orden de un set "
        "de cadenas puede no ser el de la página. Arranca Jupyter con "
        "PYTHONHASHSEED={hash_seed} jupyter lab (o jupyter notebook)."
    )


def seed_stream():
    torch.manual_seed(SEED)
    random.seed(SEED)
    try:
        import numpy
    except ImportError:  # numpy es opcional para torch
        return
    numpy.random.seed(SEED)


def save_stream(session):
    try:
        import numpy
    except ImportError:
        numpy = None
    cuda = torch.cuda.get_rng_state_all() if torch.cuda.is_initialized() else None
    state = numpy.random.get_state() if numpy else None
    SAVED[session] = (torch.get_rng_state(), cuda, state, random.getstate())


def resume_stream(session):
    cpu, cuda, state, python = SAVED[session]
    torch.manual_seed(SEED)
    torch.set_rng_state(cpu)
    if cuda is not None:
        torch.cuda.set_rng_state_all(cuda)
    if state is not None:
        import numpy

        numpy.random.set_state(state)
    random.setstate(python)


def show_warning(message, category, *_):
    print(f"{{category.__name__}}: {{message}}")


warnings.simplefilter("always")
warnings.showwarning = show_warning
{device}"""
# The cells that mark the page's random streams (running/child.py, Streams), before or after
# a block's cell: a stream starts, a session's stream is saved before another stream runs, and
# resumed at the session's next block.
SEED_CELL = "seed_stream()  # {why}"
SAVE_CELL = 'save_stream("{session}")  # la sesión «{session}» sigue más abajo'
RESUME_CELL = 'resume_stream("{session}")  # retoma los números aleatorios de la sesión «{session}»'
# The default device, by the blocks' device policy (core/policies.py); the code stays as written.
DEVICE_ALL_CUDA = """\
if RUNNER == "gpu" and torch.cuda.is_available():
    torch.set_default_device("cuda")
"""
DEVICE_AS_WRITTEN = """\
# Device policy "as-written": the code of every cell decides where its tensors go.
"""
DEVICE_PER_CELL = """\
# Device policy per cell: these cells decide their own devices ("as-written"); on a GPU the
# others run with cuda as the default device, set when it changes, as docverify does.
AS_WRITTEN = {cells!r}
DEVICE = [None]


def place(info=None):
    if RUNNER != "gpu" or not torch.cuda.is_available():
        return
    wanted = None if getattr(info, "cell_id", None) in AS_WRITTEN else "cuda"
    if wanted != DEVICE[0]:
        torch.set_default_device(wanted)
        DEVICE[0] = wanted


get_ipython().events.register("pre_run_cell", place)
"""


def device_setup(blocks: list[Block]) -> str:
    """The set-up cell's lines for the default device, from the page's device policies."""
    as_written = sorted(b.id for b in blocks if b.device_policy == policies.AS_WRITTEN)
    if not as_written:
        return DEVICE_ALL_CUDA
    if len(as_written) == len(blocks):
        return DEVICE_AS_WRITTEN
    return DEVICE_PER_CELL.format(cells=as_written)


def stream_cells(blocks: list[Block]) -> dict[str, tuple[list[Cell], list[Cell]]]:
    """Per block key, the (id, code) cells to put before and after its cell so that the kernel,
    run top to bottom, draws the random numbers the engine's streams draw (see SETUP)."""
    cells: dict[str, tuple[list[Cell], list[Cell]]] = {}
    started: set[str] = set()
    for index, block in enumerate(blocks):
        before: list[Cell] = []
        after: list[Cell] = []
        session = block.session
        previous = blocks[index - 1].session if index else None
        if not session:
            before.append((f"{STREAM_ID}_{block.id}", SEED_CELL.format(why=_FRESH)))
        elif session not in started:
            why = f"la sesión «{session}» empieza con la semilla"
            before.append((f"{STREAM_ID}_{block.id}", SEED_CELL.format(why=why)))
        elif previous != session:
            before.append((f"{RESUME_ID}_{block.id}", RESUME_CELL.format(session=session)))
        if session:
            started.add(session)
            rest = blocks[index + 1 :]
            if rest and rest[0].session != session and any(b.session == session for b in rest):
                after.append((f"{SAVE_ID}_{block.id}", SAVE_CELL.format(session=session)))
        cells[block.key] = (before, after)
    return cells


def _stream_cell(cell_id: str, code: str, block: Block) -> dict[str, Any]:
    # "around", not "block": only a block's own cell names its block.
    meta = {"docverify": {"stream": block.session or None, "around": block.key}}
    return _code(cell_id, code, [], meta)


def notebook_path(page: Page) -> str:
    """Docs-relative path of an article's notebook: cuadernos/<name>.ipynb."""
    stem = page_stem(page.rel).split("/", 1)[-1].replace("/", "-")
    return f"{FOLDER}/{stem}.ipynb"


def build(
    config: Config,
    page: Page,
    report: Report,
    today: dt.date,
    sources: list[Source] | None = None,
    coverage: Coverage | None = None,
) -> dict[str, Any]:
    """The nbformat 4 notebook of `page`: its text as Markdown cells, its blocks as code cells.

    `sources`: the page's sources when the caller has read them already (the build has);
    `coverage`: where this version ran (the build's), said in the header."""
    title = str(page.meta.get("title") or page_stem(page.rel))
    torch_version = report.env.get("torch", "?")
    header = _header(page, title, report, torch_version, today, coverage_text.notebook(coverage))
    header += "\n\n" + hashing_note(config.hash_seed)
    if (quoted := origin.read(page)) is not None:
        header += "\n\n" + credit.sentence(quoted)
    cells: list[dict[str, Any]] = [_markdown("docverify_cabecera", header)]
    cells.append(
        _code(
            SETUP_ID,
            SETUP.format(
                seed=config.seed,
                hash_seed=config.hash_seed,
                runner=report.runner,
                device=device_setup(page.blocks),
            ),
            [],
            {"docverify": {"setup": True}},
        )
    )
    lines = notebook_markdown(page.body.split("\n"))
    position = 0  # index into `lines` of the first line not yet in a cell
    streams = stream_cells(page.blocks)
    for number, block in enumerate(page.blocks, 1):
        start = block.fence_line - page.body_line
        if block.fence_end <= 0 or start < position:
            continue  # an unclosed fence or a block we cannot place: the page itself reports it
        cells.append(_markdown(f"docverify_texto_{number}", "\n".join(lines[position:start])))
        before, after = streams.get(block.key, ([], []))
        cells.extend(_stream_cell(cell_id, code, block) for cell_id, code in before)
        cells.append(_block_cell(block, report))
        cells.extend(_stream_cell(cell_id, code, block) for cell_id, code in after)
        position = block.fence_end - page.body_line + 1
    cells.append(_markdown("docverify_texto_final", "\n".join(lines[position:])))
    cells.append(_markdown("docverify_preguntas", _faq(page)))
    if sources is None:
        sources, _ = read_sources(config, page)
    cells.append(_markdown("docverify_fuentes", _sources(sources)))
    count = 0
    for cell in cells:  # numbered as a run from the top would number them
        if cell["cell_type"] == "code":
            count += 1
            cell["execution_count"] = count
    return {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python"},
            "docverify": {
                "page": page.rel,
                "runner": report.runner,
                "torch": torch_version,
                "date": today.isoformat(),
            },
        },
        "cells": [c for c in cells if c["cell_type"] == "code" or c["source"].strip()],
    }


def dumps(notebook: dict[str, Any]) -> str:
    """The notebook as the JSON text Jupyter writes (one-space indent, UTF-8 kept)."""
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"


def _header(
    page: Page, title: str, report: Report, torch_version: str, today: dt.date, runners: str = ""
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
        f"artículo. Las salidas guardadas son las verificadas en el runner "
        f"{LABEL.get(report.runner, report.runner)} (torch {torch_version}, "
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


def _block_cell(block: Block, report: Report) -> dict[str, Any]:
    outcome = report.outcomes.get(block.key)
    outputs: list[dict[str, Any]] = []
    meta: dict[str, Any] = {"docverify": {"block": block.key, "snippet": block.snippet}}
    if block.options.get("raises"):
        meta["tags"] = ["raises-exception"]  # Jupyter runs on past the expected error
    if outcome is not None and outcome.observed is not None:
        meta["docverify"]["runner"] = outcome.runner
        outputs = _outputs(outcome.observed, outcome.result or {})
    elif outcome is not None and block.only and (recording := outcome.recordings.get(block.only)):
        meta["docverify"]["runner"] = block.only
        outputs = _outputs(compare.normalise(recording.body), {})
    return _code(block.id, block.code, outputs, meta)


def _outputs(text: str, result: BlockResult | dict[str, Any]) -> list[dict[str, Any]]:
    """Stream output, with a block's final exception or shown value as Jupyter shows them."""
    exception = result.get("exception") or ""
    outputs: list[dict[str, Any]] = []
    value = compare.normalise(result.get("value") or "")
    if value and (text == value or text.endswith("\n" + value)):  # Jupyter's execute_result
        text = text[: -len(value)].rstrip("\n")
        shown = {"output_type": "execute_result", "execution_count": None, "metadata": {}}
        shown["data"] = {"text/plain": value}
        if text:
            outputs.append({"output_type": "stream", "name": "stdout", "text": text + "\n"})
        return [*outputs, shown]
    if exception and text.endswith(exception):
        text = text[: -len(exception)].rstrip("\n")
        name, _, value = exception.partition(": ")
        error = {"output_type": "error", "ename": name, "evalue": value, "traceback": [exception]}
    else:
        error = None
    if text:
        outputs.append({"output_type": "stream", "name": "stdout", "text": text + "\n"})
    if error:
        outputs.append(error)
    return outputs


def _markdown(cell_id: str, text: str) -> dict[str, Any]:
    return {"cell_type": "markdown", "id": cell_id, "metadata": {}, "source": text.strip()}


def _code(
    cell_id: str, code: str, outputs: list[dict[str, Any]], metadata: dict[str, Any]
) -> dict[str, Any]:
    return {
        "cell_type": "code",
        "id": cell_id,
        "metadata": metadata,
        "execution_count": None,
        "source": code.rstrip("\n"),
        "outputs": outputs,
    }
