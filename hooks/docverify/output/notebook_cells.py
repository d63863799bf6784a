# The code cells a notebook adds around its blocks, and the cells themselves.
"""The cells of an article's notebook (notebooks.py builds the notebook from them).

A first cell prepares the kernel the way the engine prepares each block (warnings written as
«Categoría: mensaje», the default device); cells around the blocks mark where each random stream
starts (a session's, or a block's without one) and where a session's stream is saved and resumed
around other blocks; each block's cell carries the output the verification observed.
"""

from __future__ import annotations

from typing import Any

from docverify.core import policies
from docverify.core.text import normalise
from docverify.parsing.pages import Block
from docverify.running.protocol import BlockResult
from docverify.verifying.outcome import Verification

SETUP_ID = "docverify_preparacion"  # "_" never appears in a block id, so no clash
STREAM_ID = "docverify_semilla"  # + "_<block id>": the cells that mark the random streams
SAVE_ID = "docverify_guarda"
RESUME_ID = "docverify_retoma"
_FRESH = "un bloque sin sesión empieza con la semilla, como un script nuevo"
Cell = tuple[str, str]  # (cell id, code)


SETUP = """\
# Prepara el núcleo como docverify prepara cada bloque antes de ejecutarlo:
# los avisos impresos como «Categoría: mensaje», el dispositivo por defecto
# de la máquina que ejecutó los bloques cuyas salidas muestra este cuaderno
# (CPU o GPU) y los números aleatorios. Como en un script, cada sesión de bloques
# es un único flujo de números aleatorios que empieza con la semilla, y cada
# bloque sin sesión empieza el suyo: las celdas seed_stream() lo marcan, y
# save_stream()/resume_stream() retoman una sesión tras otros bloques.
# El orden en que Python recorre un set de cadenas depende de PYTHONHASHSEED,
# que solo cuenta al arrancar: arranca Jupyter con PYTHONHASHSEED={hash_seed}.
import os
import random
import warnings

import torch

# Un solo hilo de cálculo, como al ejecutar los bloques de la página: con más hilos,
# torch puede sumar en otro orden y cambiar los últimos decimales de una salida.
torch.set_num_threads({threads})

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


def stream_cell(cell_id: str, code: str, block: Block) -> dict[str, Any]:
    # "around", not "block": only a block's own cell names its block.
    meta = {"docverify": {"stream": block.session or None, "around": block.key}}
    return code_cell(cell_id, code, [], meta)


def block_cell(block: Block, verification: Verification) -> dict[str, Any]:
    outcome = verification.outcomes.get(block.key)
    outputs: list[dict[str, Any]] = []
    meta: dict[str, Any] = {"docverify": {"block": block.key, "snippet": block.snippet}}
    if block.options.get("raises"):
        meta["tags"] = ["raises-exception"]  # Jupyter runs on past the expected error
    if outcome is not None and outcome.observed is not None:
        meta["docverify"]["runner"] = outcome.runner
        outputs = cell_outputs(outcome.observed, outcome.result or {})
    elif outcome is not None and block.only and (recording := outcome.recordings.get(block.only)):
        meta["docverify"]["runner"] = block.only
        outputs = cell_outputs(normalise(recording.body), {})
    return code_cell(block.id, block.code, outputs, meta)


def cell_outputs(text: str, result: BlockResult | dict[str, Any]) -> list[dict[str, Any]]:
    """Stream output, with a block's final exception or shown value as Jupyter shows them."""
    exception = result.get("exception") or ""
    outputs: list[dict[str, Any]] = []
    value = normalise(result.get("value") or "")
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


def markdown_cell(cell_id: str, text: str) -> dict[str, Any]:
    return {"cell_type": "markdown", "id": cell_id, "metadata": {}, "source": text.strip()}


def code_cell(
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
