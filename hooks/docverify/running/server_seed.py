"""The fork server's PYTHONHASHSEED: one per process, chosen by the blocks it serves.

A process draws its hash secret when it starts (core/hashing.py), so every worker and page
process keeps the one of the fork server it was forked from. Running pages that ask for another
`hash_seed` means letting the running server go and starting a new one; executor.py asks here.
"""

from __future__ import annotations

import multiprocessing.forkserver
import multiprocessing.util
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from docverify.core import settings
from docverify.running.page_process import PageJob

DEFAULT_SEED: int = settings.DEFAULTS["hash_seed"]
_server_seed: int | None = None  # PYTHONHASHSEED the process's fork server started with


def seed_of(jobs: Sequence[PageJob]) -> int:
    """The one PYTHONHASHSEED the blocks of `jobs` ask for (the default when there are none):
    one project, one setting, so one fork server serves them all."""
    seeds = {spec["hash_seed"] for job in jobs for spec in job.blocks}
    if len(seeds) > 1:
        raise ValueError(
            f"bloques con distintos hash_seed en una misma ejecución ({sorted(seeds)}): un "
            "proceso de fork solo puede arrancar con uno"
        )
    return seeds.pop() if seeds else DEFAULT_SEED


def wanted(hash_seed: int | None) -> int:
    """The seed to start the server with: `hash_seed`, or (None: any) the running server's,
    or the default. A running server with another seed is let go first."""
    server = multiprocessing.forkserver._forkserver
    running = server._forkserver_pid is not None
    if hash_seed is None:
        hash_seed = _server_seed if running and _server_seed is not None else DEFAULT_SEED
    if running and _server_seed != hash_seed:
        _let_go(server)
    return hash_seed


def started(hash_seed: int) -> None:
    """The fork server now runs with `hash_seed`."""
    global _server_seed  # noqa: PLW0603 - the process has one fork server
    _server_seed = hash_seed


def _let_go(server: Any) -> None:
    """Ask the running fork server to stop, without waiting for it.

    Every process forked from it holds a copy of its «alive» pipe (multiprocessing sends one
    to each child), so it only ends when the last of them does: an idle worker that another
    Executor of this process keeps would make multiprocessing's own _stop(), which waits for
    the server, wait forever. A thread reaps the server when it ends.
    """
    with server._lock:
        pid, address = server._forkserver_pid, server._forkserver_address
        os.close(server._forkserver_alive_fd)
        server._forkserver_alive_fd = None
        server._forkserver_pid = server._forkserver_address = None
    if address and not multiprocessing.util.is_abstract_socket_namespace(address):
        Path(address).unlink(missing_ok=True)
    threading.Thread(
        target=os.waitpid, args=(pid, 0), name="docverify:reap-forkserver", daemon=True
    ).start()
