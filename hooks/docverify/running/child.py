"""Runs blocks inside a worker process: capture, seeds, expected exceptions, expectations.

This module is preloaded (with torch) by the fork server, so each page's process starts warm.
It must not initialise CUDA at import time: only a forked child may do that.
"""

from __future__ import annotations

import ast
import contextlib
import ctypes
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
from pathlib import Path
from typing import Any

import numpy
import torch

_EXPECT = re.compile(r"#\s*Expectativa:\s*(?P<value>.+?)\s*$")
try:
    _LIBC = ctypes.CDLL(None)
except OSError:  # pragma: no cover - every Linux has a libc
    _LIBC = None


class OutputLimitError(BaseException):
    """Raised from inside a block's print when it writes more than the limit."""


class _Capture(io.TextIOBase):
    """One stream for stdout, stderr and warnings, in the order they were written."""

    def __init__(self, limit: int) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.limit = limit
        self.spool: Any = None  # the file that fds 1 and 2 point at while a block runs

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if self.spool is not None:
            _drain_fds(self)  # what C code wrote to fds 1 and 2 so far comes first
        return self.append(text)

    def append(self, text: str) -> int:
        self.size += len(text)
        if self.size > self.limit:
            raise OutputLimitError
        self.parts.append(text)
        return len(text)

    def value(self) -> str:
        return "".join(self.parts)


def environment(runner: str) -> dict[str, str]:
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


_WARM_UP = """\
import warnings
import torch
x = torch.arange(6.0, requires_grad=True).reshape(2, 3)
(x * x).sum().backward()
print(x.grad, x.grad.tolist(), repr(x.sum()))  # Expectativa: 0
warnings.warn("warm")
raise ValueError("warm")
"""


def warm_up() -> None:
    """Run one throwaway block, so that lazy set-up happens once here, not in every page.

    Called by each warm worker before it forks page processes: the first tensor repr, autograd
    call, warning, traceback and tokenize pass fill caches that a forked page then shares
    instead of rebuilding (and copying on write). CPU only: CUDA must stay uninitialised here.
    """
    with tempfile.TemporaryDirectory(prefix="docverify-warm-") as folder:
        here = Path.cwd()
        os.chdir(folder)
        try:
            run_block(
                {
                    "code": _WARM_UP,
                    "filename": "<warm-up>",
                    "first_line": 1,
                    "output_limit": 100_000,
                    "seed": 0,
                },
                {},
            )
        finally:
            os.chdir(here)


def run_page(conn: Connection, job: dict[str, Any]) -> None:
    """Run a page's blocks in order, streaming ('start', key) and ('done', key, result)."""
    runner = job["runner"]
    workdir = tempfile.mkdtemp(prefix="docverify-")
    os.chdir(workdir)
    try:
        if runner == "gpu":
            torch.set_default_device("cuda")
        conn.send(("env", environment(runner)))
        sessions: dict[str, dict[str, Any]] = {}
        for spec in job["blocks"]:
            conn.send(("start", spec["key"]))
            namespace = sessions.setdefault(spec["session"], {}) if spec["session"] else {}
            conn.send(("done", spec["key"], run_block(spec, namespace)))
        conn.send(("end",))
    finally:
        os.chdir(tempfile.gettempdir())
        shutil.rmtree(workdir, ignore_errors=True)
        conn.close()


def run_block(spec: dict[str, Any], namespace: dict[str, Any]) -> dict[str, Any]:
    """Execute one block statement by statement; never raises for the block's own errors."""
    seed = spec["seed"]
    torch.manual_seed(seed)
    random.seed(seed)
    numpy.random.seed(seed)
    namespace.setdefault("__name__", "__main__")
    namespace.setdefault("__builtins__", __builtins__)
    filename = spec["filename"]
    source = "\n" * (spec["first_line"] - 1) + spec["code"]
    capture = _Capture(spec["output_limit"])
    spans: list[tuple[int, int, int, int]] = []  # (first line, last line, start, end)
    result: dict[str, Any] = {"error": None, "exception": None, "traceback": ""}
    started = time.perf_counter()
    try:
        tree = ast.parse(source, filename)
    except SyntaxError as exc:
        result["error"] = f"error de sintaxis en {filename}:{exc.lineno}: {exc.msg}"
        result.update(output="", expectations=[], duration=0.0)
        return result
    with _redirect(capture), warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = _show_warning(capture)
        for statement in tree.body:
            start = capture.size
            try:
                code = compile(ast.Module([statement], type_ignores=[]), filename, "exec")
                exec(code, namespace)
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
                _drain_fds(capture)
                spans.append(
                    (
                        statement.lineno,
                        statement.end_lineno or statement.lineno,
                        start,
                        capture.size,
                    )
                )
    output = capture.value()
    result["output"] = output
    result["expectations"] = _expectations(source, spans, output)
    result["duration"] = time.perf_counter() - started
    return result


def _exception_line(exc: BaseException) -> str:
    return "".join(traceback.format_exception_only(type(exc), exc)).splitlines()[-1] + "\n"


def _block_traceback(exc: BaseException, filename: str, source: list[str]) -> str:
    """The block's own frames as `file:line: code`, without the engine's frames."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == filename]
    lines = [
        f"  {f.filename}:{f.lineno}: {source[f.lineno - 1].strip()}"
        for f in frames
        if f.lineno and f.lineno <= len(source)
    ]
    return "\n".join([*lines, _exception_line(exc).rstrip("\n")])


def _show_warning(capture: _Capture) -> Any:
    def show(message: Warning | str, category: type[Warning], *_: Any, **__: Any) -> None:
        capture.write(f"{category.__name__}: {message}\n")

    return show


@contextlib.contextmanager
def _redirect(capture: _Capture) -> Any:
    """Send Python's and the C library's stdout/stderr into the capture."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    spool = tempfile.TemporaryFile()  # noqa: SIM115 - closed in the finally below
    os.dup2(spool.fileno(), 1)
    os.dup2(spool.fileno(), 2)
    capture.spool = spool
    old_out, old_err = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = capture  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = old_out, old_err
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in saved:
            os.close(fd)
        capture.spool = None
        spool.close()


def _drain_fds(capture: _Capture) -> None:
    """Append what C code wrote straight to file descriptors 1 and 2 since the last drain."""
    if _LIBC is not None:
        _LIBC.fflush(None)
    spool = capture.spool
    if spool.seek(0, os.SEEK_END) == 0:
        return
    spool.seek(0)
    data = spool.read()
    spool.seek(0)
    spool.truncate()
    with contextlib.suppress(OutputLimitError):
        capture.append(data.decode("utf-8", "replace"))


def _expectations(
    source: str, spans: list[tuple[int, int, int, int]], output: str
) -> list[dict[str, Any]]:
    """Pair each `# Expectativa: X` comment with what its top-level statement printed."""
    found = []
    with contextlib.suppress(tokenize.TokenError, SyntaxError):
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT and (match := _EXPECT.search(token.string)):
                found.append((token.start[0], match.group("value")))
    result = []
    for line, expected in found:
        span = next((s for s in spans if s[0] <= line <= s[1]), None)
        observed = output[span[2] : span[3]].strip() if span else None
        result.append({"line": line, "expected": expected, "observed": observed})
    return result


# Preloaded by the fork server: move everything imported so far (torch's many objects) out of
# the collector's reach, so that a collection in a forked page does not touch, and so copy,
# every page of the inherited heap.
gc.freeze()
