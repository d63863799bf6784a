"""Runs blocks inside a worker process: capture, seeds, expected exceptions, expectations.

This module is preloaded (with torch) by the fork server, so each page's process starts warm.
It must not initialise CUDA at import time: only a forked child may do that.
"""

from __future__ import annotations

import ast
import contextlib
import gc
import io
import os
import platform
import random
import re
import shutil
import sys
import tempfile
import time
import tokenize
import traceback
import warnings
from multiprocessing.connection import Connection
from typing import Any

import numpy
import torch

from docverify.running import last_value, protocol, setup
from docverify.running.capture import Capture, OutputLimitError, drain_fds, redirect, show_warning
from docverify.running.protocol import BlockResult, BlockSpec, Environment, Expectation, PageTask

_EXPECT = re.compile(r"#\s*Expectativa:\s*(?P<value>.+?)\s*$")


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


def run_page(conn: Connection, job: PageTask) -> None:
    """Run a page's blocks in order, streaming ('start', key) and ('done', key, result)."""
    runner = job["runner"]
    workdir = tempfile.mkdtemp(prefix="docverify-")
    os.chdir(workdir)
    try:
        conn.send((protocol.ENV, environment(runner)))
        sessions: dict[str, dict[str, Any]] = {}
        current = setup.Setup(default_device=None)  # a fresh process: torch's own default
        for spec in job["blocks"]:
            current = apply_setup(setup.plan(runner, spec["device_policy"]), current)
            conn.send((protocol.START, spec["key"]))
            namespace = sessions.setdefault(spec["session"], {}) if spec["session"] else {}
            conn.send((protocol.DONE, spec["key"], run_block(spec, namespace)))
        conn.send((protocol.END,))
    finally:
        os.chdir(tempfile.gettempdir())
        shutil.rmtree(workdir, ignore_errors=True)
        conn.close()


def apply_setup(wanted: setup.Setup, current: setup.Setup) -> setup.Setup:
    """Give the process the set-up `wanted`, touching torch only when it differs from `current`.

    Only when it changes: a block may set its own default device for the blocks after it, and
    a page whose blocks share one policy keeps today's single set-up before its first block.
    """
    if wanted != current:
        torch.set_default_device(wanted.default_device)
    return wanted


def run_block(spec: BlockSpec, namespace: dict[str, Any]) -> BlockResult:
    """Execute one block statement by statement; never raises for the block's own errors."""
    seed = spec["seed"]
    torch.manual_seed(seed)
    random.seed(seed)
    numpy.random.seed(seed)
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
                capture.line = result["exception_line"] = _raising_line(exc, filename)
                with contextlib.suppress(OutputLimitError):
                    capture.write(_exception_line(exc))
                result["exception"] = _exception_line(exc).rstrip("\n")
                result["exception_type"] = [
                    type(exc).__name__,
                    f"{type(exc).__module__}.{type(exc).__qualname__}",
                ]
                result["exception_message"] = str(exc)
                result["traceback"] = _block_traceback(exc, filename, source.split("\n"))
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
    result["expectations"] = _expectations(source, spans, output)
    result["duration"] = time.perf_counter() - started
    return result


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


def _exception_line(exc: BaseException) -> str:
    return "".join(traceback.format_exception_only(type(exc), exc)).splitlines()[-1] + "\n"


def _raising_line(exc: BaseException, filename: str) -> int:
    """The line of the block's innermost frame in the traceback (0 when none is the block's)."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == filename]
    return frames[-1].lineno or 0 if frames else 0


def _block_traceback(exc: BaseException, filename: str, source: list[str]) -> str:
    """The block's own frames as `file:line: code`, without the engine's frames."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == filename]
    lines = [
        f"  {f.filename}:{f.lineno}: {source[f.lineno - 1].strip()}"
        for f in frames
        if f.lineno and f.lineno <= len(source)
    ]
    return "\n".join([*lines, _exception_line(exc).rstrip("\n")])


def _expectations(
    source: str, spans: list[tuple[int, int, int, int]], output: str
) -> list[Expectation]:
    """Pair each `# Expectativa: X` comment with what its top-level statement printed."""
    found = []
    with contextlib.suppress(tokenize.TokenError, SyntaxError):
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT and (match := _EXPECT.search(token.string)):
                found.append((token.start[0], match.group("value")))
    result: list[Expectation] = []
    for line, expected in found:
        span = next((s for s in spans if s[0] <= line <= s[1]), None)
        observed = output[span[2] : span[3]].strip() if span else None
        result.append({"line": line, "expected": expected, "observed": observed})
    return result


# Preloaded by the fork server: move everything imported so far (torch's many objects) out of
# the collector's reach, so that a collection in a forked page does not touch, and so copy,
# every page of the inherited heap.
gc.freeze()
