"""Preloaded by the fork server only (executor.PRELOAD): the server ends without a teardown.

multiprocessing's fork server ends (SystemExit) once the process that started it is gone; the
interpreter would then finalize every module it imported, torch included: 0.1–0.3 s of CPU
after every command that ran blocks and every fork server let go for another hash seed (the
test suite starts about 25). Nothing the server holds needs that teardown: its children end with
os._exit (multiprocessing's and running/worker.py's), and its socket is its parent's to
remove. So its last atexit hook, which runs first, flushes its output and ends it at once:
status 0, or 1 after an uncaught exception (the server itself only ends with a bare
SystemExit).

Only the process that imported this module ends so: a process forked from it that finalizes
normally (a block's own fork, say) keeps the interpreter's teardown and exit status.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sys

_SERVER = os.getpid()


def end_now() -> None:
    if os.getpid() != _SERVER:
        return
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    # The interpreter sets sys.last_value when it prints an uncaught exception (not SystemExit).
    os._exit(1 if hasattr(sys, "last_value") else 0)


atexit.register(end_now)
