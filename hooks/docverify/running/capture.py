"""Capture of a block's output: Python's writes and the C library's fds 1 and 2, in order.

Each write is traced to the line of the block's code that made it, so that a divergence can be
located at the line that printed the first differing output.
"""

from __future__ import annotations

import bisect
import contextlib
import ctypes
import io
import os
import re
import sys
import tempfile
from typing import Any

try:
    _LIBC = ctypes.CDLL(None)
except OSError:  # pragma: no cover - every Linux has a libc
    _LIBC = None


class OutputLimitError(BaseException):
    """Raised from inside a block's print when it writes more than the limit."""


class Capture(io.TextIOBase):
    """One stream for stdout, stderr and warnings, in the order they were written."""

    def __init__(self, limit: int, filename: str | None = None) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.limit = limit
        self.filename = filename  # the block's code: writes are traced to its lines
        self.line = 0  # the line of the statement running (for C-level writes)
        self.writes: list[tuple[int, int]] = []  # (offset in the output, line that wrote it)
        self.spool: Any = None  # the file that fds 1 and 2 point at while a block runs

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if self.spool is not None:
            drain_fds(self)  # what C code wrote to fds 1 and 2 so far comes first
        return self.append(text)

    def append(self, text: str) -> int:
        self.size += len(text)
        if self.size > self.limit:
            raise OutputLimitError
        if text and self.filename is not None:
            self.writes.append((self.size - len(text), self._writer_line()))
        self.parts.append(text)
        return len(text)

    def _writer_line(self) -> int:
        """The innermost line of the block's own code on the stack (its print, its call)."""
        frame = sys._getframe(2)
        while frame is not None and frame.f_code.co_filename != self.filename:
            frame = frame.f_back
        return frame.f_lineno if frame is not None and frame.f_lineno else self.line

    def output_lines(self) -> list[int]:
        """For each output line (split as core/text.normalise splits), the line that wrote it."""
        text = self.value()
        starts = [0, *(m.end() for m in re.finditer(r"\r\n|\r|\n", text))]
        offsets = [offset for offset, _ in self.writes]
        return [
            self.writes[i][1] if (i := bisect.bisect_right(offsets, start) - 1) >= 0 else 0
            for start in starts
        ]

    def value(self) -> str:
        return "".join(self.parts)


def show_warning(capture: Capture) -> Any:
    def show(message: Warning | str, category: type[Warning], *_: Any, **__: Any) -> None:
        capture.write(f"{category.__name__}: {message}\n")

    return show


@contextlib.contextmanager
def redirect(capture: Capture) -> Any:
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


def drain_fds(capture: Capture) -> None:
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
