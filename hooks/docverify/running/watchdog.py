# In a page process: which line a block runs when it nears its time limit.
"""A block that nears its time limit says which line of its code it is running.

The executor kills a page process whose block runs past its `timeout` (executor.py), and a
killed process says nothing more: without this, the finding could only point at the block's
first line. Shortly before the limit, a timer thread reads the line the block's own code runs
now (its innermost frame in the block's file, also inside a function the block defined) and
sends ("running", key, line); the executor keeps it for the failure (page_process.died).

A thread needs the GIL: Python code, even `while True: pass`, lets it run; a C call that holds
the GIL for the whole rest of the limit does not, and the finding then keeps the first line.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterator
from multiprocessing.connection import Connection
from typing import Any

from docverify.running import protocol
from docverify.running.protocol import BlockSpec

MARGIN = 0.5  # seconds before the limit (at most a tenth of it) when the line is read


def current_line(thread_id: int, filename: str, frames: dict[int, Any] | None = None) -> int:
    """The line of `filename` that thread `thread_id` runs now, in its innermost frame of that
    file (0: none of its frames is in that file, or that frame is between lines); `frames`:
    each thread's innermost frame, sys._current_frames() unless given."""
    frame = (sys._current_frames() if frames is None else frames).get(thread_id)
    while frame is not None:
        if frame.f_code.co_filename == filename:
            return frame.f_lineno or 0
        frame = frame.f_back
    return 0


@contextlib.contextmanager
def watching(conn: Connection, spec: BlockSpec) -> Iterator[None]:
    """While the block of `spec` runs in this thread: its line, sent once near its limit."""
    lock, state = threading.Lock(), {"done": False}
    thread_id = threading.get_ident()

    def report() -> None:
        line = current_line(thread_id, spec["filename"])
        with lock:  # never while the block's own thread sends, once it is done
            if line and not state["done"]:
                conn.send((protocol.RUNNING, spec["key"], line))

    delay = max(spec["timeout"] - min(MARGIN, spec["timeout"] / 10), 0.0)
    timer = threading.Timer(delay, report)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        with lock:
            state["done"] = True
        timer.cancel()
