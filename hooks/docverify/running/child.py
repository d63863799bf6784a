"""Runs blocks inside a worker process: capture, random streams, expected exceptions, expectations.

This module is preloaded (with torch) by the fork server, so each page's process starts warm.
It must not initialise CUDA at import time: only a forked child may do that.
"""

from __future__ import annotations

import ast
import contextlib
import gc
import os
import platform
import shutil
import sys
import tempfile
import time
import warnings
from multiprocessing.connection import Connection
from typing import Any

import torch

from docverify.core import device_marks, hashing, policies
from docverify.running import (
    block_text,
    last_value,
    marks,
    processes,
    protocol,
    setup,
    watchdog,
)
from docverify.running.capture import Capture, OutputLimitError, drain_fds, redirect, show_warning
from docverify.running.protocol import BlockResult, BlockSpec, Environment, PageTask
from docverify.running.streams import Streams

# torch's intra-op threads in each page process (see core/policies.py).
INTRA_OP_THREADS = policies.INTRA_OP_THREADS


def environment(runner: str) -> Environment:
    device = torch.cuda.get_device_name(0) if runner == "gpu" else f"cpu ({platform.machine()})"
    # str(): torch.__version__ is a TorchVersion, and unpickling one would import torch in the
    # parent, which must stay torch-free (fast start, no CUDA before a fork).
    return {
        "torch": str(torch.__version__),
        "python": platform.python_version(),
        "device": str(device),
    }


def probe(conn: Connection) -> None:
    """Report whether CUDA is usable; runs in a throwaway child so the parent stays CUDA-free."""
    try:
        conn.send(bool(torch.cuda.is_available()))
    finally:
        conn.close()


def identify(conn: Connection) -> None:
    """Report which interpreter and which torch this process runs (see Executor.identity)."""
    try:
        conn.send(
            {
                "executable": sys.executable,
                "torch": str(torch.__version__),
                "torch_file": str(torch.__file__),
            }
        )
    finally:
        conn.close()


def run_page(
    conn: Connection, job: PageTask, *, own_process: bool = False, workdir: str | None = None
) -> None:
    """Run a page's blocks in order, streaming ('start', key) and ('done', key, result).

    `own_process`: this process was forked for the page (worker.fork_page): it adopts what the
    blocks leave running and stops it once they are done (see processes.py). A test that runs
    a page in its own process leaves that process's other children alone. `workdir`: the
    page's working folder, made by its worker (else here); removed when the page ends.
    """
    runner = job["runner"]
    torch.set_num_threads(INTRA_OP_THREADS)
    workdir = workdir or tempfile.mkdtemp(prefix="docverify-")
    os.chdir(workdir)
    copy_data_files(job["blocks"])
    if own_process:
        processes.become_subreaper()  # a block's orphaned processes stay ours
    me = os.getpid()
    owners: dict[int, str] = {}  # each process a block left running → that block's key
    try:
        conn.send((protocol.ENV, environment(runner)))
        sessions: dict[str, dict[str, Any]] = {}
        streams = Streams()
        carried: dict[str, set[str]] = {}  # each session's device marks so far
        files = {spec["filename"] for spec in job["blocks"]}  # the page's own code
        current = setup.Setup(default_device=None)  # a fresh process: torch's own default
        for spec in job["blocks"]:
            current = apply_setup(setup.for_policy(runner, spec["device_policy"]), current)
            conn.send((protocol.START, spec["key"]))
            namespace = sessions.setdefault(spec["session"], {}) if spec["session"] else {}
            if unfixed := hashing.mismatch(spec["hash_seed"]):  # its output could not be trusted
                result = protocol.failure(f"no se ejecutó: {unfixed}")
            else:
                with watchdog.watching(conn, spec):  # its line, if it nears its limit
                    result = run_block(spec, namespace, streams, files)
            carry_marks(result, spec["session"], carried)
            conn.send((protocol.DONE, spec["key"], result))
            for pid in processes.descendants(me) if own_process else ():
                owners.setdefault(pid, spec["key"])  # left running: a later block may use it
        last = job["blocks"][-1]["key"] if job["blocks"] else ""
        left = processes.stop_descendants(me) if own_process else []
        if stopped := by_block(left, owners, last):
            conn.send((protocol.STOPPED, stopped))
        conn.send((protocol.END,))
    finally:
        os.chdir(tempfile.gettempdir())
        shutil.rmtree(workdir, ignore_errors=True)
        conn.close()


def copy_data_files(blocks: list[BlockSpec]) -> None:
    """Copy the page's data files (parsing/data_files.py) into the working folder, where its
    blocks open them by name. One that vanished since the page was read is left out: the
    block that opens it fails with its own FileNotFoundError, and the build with it."""
    for name, source in {n: p for b in blocks for n, p in b.get("data_paths", {}).items()}.items():
        with contextlib.suppress(OSError):
            shutil.copyfile(source, name)


def by_block(
    stopped: list[processes.Stopped], owners: dict[int, str], last: str
) -> dict[str, list[str]]:
    """The commands of the stopped processes per block that started them: the block after
    which the process (or the nearest ancestor of it that was stopped) was first seen; else,
    one started after the last look, the page's last block."""
    parents = {p.pid: p.parent for p in stopped}
    found: dict[str, list[str]] = {}
    for process in stopped:
        pid = process.pid
        while pid not in owners and pid in parents:
            pid = parents[pid]
        found.setdefault(owners.get(pid, last), []).append(process.command)
    return found


def carry_marks(result: BlockResult, session: str | None, carried: dict[str, set[str]]) -> None:
    """A block of a session is marked with its session's earlier marks too (a model built from
    random weights stays random when a later block only prints model(x)); its own marks then
    carry over to the session's later blocks."""
    if not session:
        return
    own = set(result.get("device_dependent", []))
    earlier = carried.setdefault(session, set())
    result["device_dependent"] = list(device_marks.ordered(own | earlier))
    earlier |= own


def apply_setup(wanted: setup.Setup, current: setup.Setup) -> setup.Setup:
    """Give the process the set-up `wanted`, touching torch only when it differs from `current`.

    Only when it changes: a block may set its own default device for the blocks after it, and
    a page whose blocks share one policy keeps today's single set-up before its first block.
    """
    if wanted != current:
        torch.set_default_device(wanted.default_device)
    return wanted


def run_block(
    spec: BlockSpec,
    namespace: dict[str, Any],
    streams: Streams | None = None,
    files: set[str] | None = None,
) -> BlockResult:
    """Execute one block statement by statement; never raises for the block's own errors.

    `streams`: the page's random streams; without them the block starts from the seed.
    `files`: where the page's code lives, for the device marks (running/marks.py); without
    them, the block's own file. The result's `device_dependent` holds the block's own marks."""
    streams = streams or Streams()
    streams.begin(spec)
    marks.start(files or {spec["filename"]})
    output = ""
    try:
        result = _run_block(spec, namespace)
        output = result["output"]
    finally:
        found = marks.stop(output)
        streams.end(spec)
    result["device_dependent"] = found
    return result


def _run_block(spec: BlockSpec, namespace: dict[str, Any]) -> BlockResult:
    namespace.setdefault("__name__", "__main__")
    namespace.setdefault("__builtins__", __builtins__)
    filename = spec["filename"]
    source = "\n" * (spec["first_line"] - 1) + spec["code"]
    capture = Capture(spec["output_limit"], filename)
    spans: list[tuple[int, int, int, int]] = []  # (first line, last line, start, end)
    result: BlockResult = {
        "output": "",
        "error": None,
        "exception": None,
        "traceback": "",
        "expectations": [],
        "duration": 0.0,
    }
    started = time.perf_counter()
    try:
        tree = ast.parse(source, filename)
    except SyntaxError as exc:
        result["error"] = f"error de sintaxis en {filename}:{exc.lineno}: {exc.msg}"
        return result
    shown = last_value.shown_expression(tree, source) if spec["show_last_value"] else None
    with redirect(capture), warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = show_warning(capture)
        for statement in tree.body:
            start = capture.size
            capture.line = statement.lineno
            try:
                _execute(statement, statement is shown, filename, namespace, capture, result)
            except OutputLimitError:
                result["error"] = f"la salida supera el límite de {spec['output_limit']} caracteres"
                break
            except SystemExit as exc:
                result["error"] = (
                    f"el bloque llamó a sys.exit({exc.code!r}) en "
                    f"{filename}:{statement.lineno}; un bloque no puede "
                    "terminar su proceso"
                )
                break
            except BaseException as exc:  # the block's own exception: recorded, not raised
                _raised(exc, filename, source, capture, result)
                break
            finally:
                drain_fds(capture)
                spans.append(
                    (
                        statement.lineno,
                        statement.end_lineno or statement.lineno,
                        start,
                        capture.size,
                    )
                )
    output = capture.value()
    result.update(output=output, output_lines=capture.output_lines())
    result["expectations"] = block_text.expectations(source, spans, output)
    result["duration"] = time.perf_counter() - started
    return result


def _raised(
    exc: BaseException, filename: str, source: str, capture: Capture, result: BlockResult
) -> None:
    """The block's own exception, recorded in its output and its result (never raised)."""
    capture.line = result["exception_line"] = block_text.raising_line(exc, filename)
    with contextlib.suppress(OutputLimitError):
        capture.write(block_text.exception_line(exc))
    result["exception"] = block_text.exception_line(exc).rstrip("\n")
    result["exception_type"] = [
        type(exc).__name__,
        f"{type(exc).__module__}.{type(exc).__qualname__}",
    ]
    result["exception_message"] = str(exc)
    result["traceback"] = block_text.block_traceback(exc, filename, source.split("\n"))


def _execute(
    statement: ast.stmt,
    show: bool,
    filename: str,
    namespace: dict[str, Any],
    capture: Capture,
    result: BlockResult,
) -> None:
    """Run one top-level statement; with `show`, a bare last expression shows its value."""
    if not show:
        code = compile(ast.Module([statement], type_ignores=[]), filename, "exec")
        exec(code, namespace)
        return
    assert isinstance(statement, ast.Expr)
    value = eval(compile(ast.Expression(statement.value), filename, "eval"), namespace)
    drain_fds(capture)  # what C code printed while evaluating it comes first, as in Jupyter
    if text := last_value.shown(value):
        capture.write(text)
        result["value"] = text


# Preloaded by the fork server: move everything imported so far (torch's many objects) out of
# the collector's reach, so that a collection in a forked page does not touch, and so copy,
# every page of the inherited heap.
gc.freeze()
