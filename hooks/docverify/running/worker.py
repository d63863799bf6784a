"""The targets of the executor's child processes: warm workers and the CUDA probe.

They live here, not in docverify.running.child, so that the verifying process never imports
torch: pickling docverify.running.child.run_page would import it. In a child of the fork server
the imports of child and warm below are free, since the server preloaded them.
"""

from __future__ import annotations

import os
from multiprocessing.connection import Connection
from multiprocessing.reduction import ForkingPickler

from docverify.running import forkserver_main, protocol

_END = ForkingPickler.dumps((protocol.END,))  # what a page process sends last, as bytes


def zygote_main(conn: Connection) -> None:
    """A warm worker: for each page it receives, fork a page process and relay its messages.

    Forking here, in parallel on every worker, instead of in the single fork server, keeps the
    fork (copying the page tables of a process that mapped torch) off the serial path. The page
    process writes to its own pipe; relaying through this worker means a page killed mid-message
    cannot corrupt the parent's channel. CUDA is never touched here: only in the page process.
    """
    from docverify.running import warm  # noqa: PLC0415 - preloaded by the fork server

    forkserver_main.keep_own_path()
    warm.warm_up()
    finished: list[int] = []  # pages that ended on their own, reaped without waiting
    while True:
        finished = still_running(finished)
        try:
            job = conn.recv()
        except (EOFError, OSError):
            for pid in finished:
                os.waitpid(pid, 0)
            return
        pid, read_fd = fork_page(job, conn)
        conn.send((protocol.PID, pid))
        ended = False
        with Connection(read_fd, writable=False) as page:
            while True:  # relay the pickled bytes as they are: no need to unpickle here
                try:
                    message = page.recv_bytes()
                except (EOFError, OSError):
                    break
                ended = message == _END
                conn.send_bytes(message)
        if ended:
            # Unmapping torch takes ~10 ms: the next page need not wait for it.
            finished.append(pid)
            conn.send((protocol.EXIT, 0))
        else:
            _, status = os.waitpid(pid, 0)
            conn.send((protocol.EXIT, os.waitstatus_to_exitcode(status)))


def fork_page(job: protocol.PageTask, *close: Connection) -> tuple[int, int]:
    """Fork a page process that runs `job` and writes its messages to a new pipe (closing
    `close`, the parent's channels, in it); return its pid and the pipe's read end."""
    from docverify.running import child  # noqa: PLC0415 - preloaded by the fork server

    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the page process
        code = 1
        try:
            os.close(read_fd)
            for channel in close:
                channel.close()
            child.run_page(Connection(write_fd, readable=False), job)
            code = 0
        finally:
            os._exit(code)
    os.close(write_fd)
    return pid, read_fd


def still_running(pids: list[int]) -> list[int]:
    """Reap the page processes of `pids` that have ended, without waiting; return the rest."""
    return [p for p in pids if os.waitpid(p, os.WNOHANG) == (0, 0)]


def probe(conn: Connection) -> None:
    from docverify.running import child  # noqa: PLC0415

    forkserver_main.keep_own_path()
    child.probe(conn)


def identify(conn: Connection) -> None:
    from docverify.running import child  # noqa: PLC0415

    forkserver_main.keep_own_path()
    child.identify(conn)
