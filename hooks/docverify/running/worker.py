"""The targets of the executor's child processes: warm workers and the CUDA probe.

They live here, not in docverify.running.child, so that the verifying process never imports
torch: pickling docverify.running.child.run_page would import it. In a child of the fork server
the imports of child and warm below are free, since the server preloaded them.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from multiprocessing.connection import Connection, wait
from multiprocessing.reduction import ForkingPickler

from docverify.running import forkserver_main, processes, protocol

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
    # The processes a killed page leaves are adopted here and stopped (see processes.py).
    processes.become_subreaper()
    serve(conn)


def serve(conn: Connection) -> None:
    """The warm worker's loop: run each page that `conn` sends, until it closes; then wait for
    the pages that ended. Apart from zygote_main's set-up, so that the tests can run it in their
    own process (they fake the stopping of its descendants: those are the test process's)."""
    from docverify.running import warm  # noqa: PLC0415 - preloaded by the fork server

    finished: list[int] = []  # pages that ended on their own, reaped without waiting
    while True:
        finished = still_running(finished)
        try:
            job = conn.recv()
        except (EOFError, OSError):
            for pid in finished:
                os.waitpid(pid, 0)
            return
        warm.for_page(job)
        pid, read_fd, workdir = fork_page(job, conn)
        conn.send((protocol.PID, pid))
        ended, stopped = relay(pid, read_fd, conn, finished)
        if ended:
            # Unmapping torch takes ~10 ms: the next page need not wait for it.
            finished.append(pid)
            conn.send((protocol.EXIT, 0))
        else:
            _, status = os.waitpid(pid, 0)
            # What the page could not stop itself: its descendants, now adopted by this worker.
            stopped += processes.stop_descendants(os.getpid(), skip=finished)
            # A page killed (or ended by os._exit in a block) never removed its working folder.
            shutil.rmtree(workdir, ignore_errors=True)
            if stopped:
                conn.send((protocol.STOPPED, {"": [p.command for p in stopped]}))
            conn.send((protocol.EXIT, os.waitstatus_to_exitcode(status)))


def relay(
    pid: int, read_fd: int, conn: Connection, finished: list[int]
) -> tuple[bool, list[processes.Stopped]]:
    """Relay the page process's pickled messages as they are (no need to unpickle here) until
    its pipe closes; return whether it said "end", and what had to be stopped meanwhile.

    A process the page started may have inherited the pipe's write end (an os.fork in a block):
    if the page process is gone (killed on a timeout) while the pipe stays open, its remaining
    descendants are stopped here, which closes the pipe.
    """
    ended = False
    stopped: list[processes.Stopped] = []
    watch = _pidfd(pid)
    with Connection(read_fd, writable=False) as page:
        while True:
            ready = wait([page, watch]) if watch is not None else [page]
            if page not in ready:  # the page process exited, and its pipe is still open
                assert watch is not None
                os.close(watch)
                watch = None
                stopped += processes.stop_descendants(os.getpid(), skip=[*finished, pid])
                continue
            try:
                message = page.recv_bytes()
            except (EOFError, OSError):
                break
            ended = message == _END
            conn.send_bytes(message)
    if watch is not None:
        os.close(watch)
    return ended, stopped


def _pidfd(pid: int) -> int | None:
    """A file descriptor that becomes readable when process `pid` exits (Linux 5.3+), or None."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def fork_page(job: protocol.PageTask, *close: Connection) -> tuple[int, int, str]:
    """Fork a page process that runs `job` in a new working folder and writes its messages to a
    new pipe (closing `close`, the parent's channels, in it); return its pid, the pipe's read
    end and the folder (the page removes it when it ends; a page killed cannot)."""
    from docverify.running import child  # noqa: PLC0415 - preloaded by the fork server

    workdir = tempfile.mkdtemp(prefix="docverify-")
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the page process
        code = 1
        try:
            os.close(read_fd)
            for channel in close:
                channel.close()
            child.run_page(
                Connection(write_fd, readable=False), job, own_process=True, workdir=workdir
            )
            code = 0
        finally:
            os._exit(code)
    os.close(write_fd)
    return pid, read_fd, workdir


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
