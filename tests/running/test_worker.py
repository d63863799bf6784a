"""A warm worker's helpers, in this process: relaying a page's messages as they are, reaping the
pages that ended without waiting for the others, the pidfd that tells a page's exit, and a
page forked from this process (the fork runs it and ends).

The worker's loop (zygote_main) stays in the executor's tests: it makes its process a
subreaper, warms it up and serves pages until its channel closes, which the test process must
not do."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from multiprocessing import Pipe
from multiprocessing.connection import Connection
from pathlib import Path

import pytest
from docverify.running import protocol, worker


def spawn(code: str) -> int:
    return os.posix_spawn(sys.executable, [sys.executable, "-c", code], os.environ)


@pytest.fixture
def sleeper() -> Iterator[int]:
    """A process that runs until the test ends."""
    pid = spawn("import time; time.sleep(60)")
    yield pid
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


def test_still_running_reaps_the_pages_that_ended_and_keeps_the_others(sleeper: int) -> None:
    done = spawn("")
    os.waitid(os.P_PID, done, os.WEXITED | os.WNOWAIT)  # ended, not reaped yet
    assert worker.still_running([done, sleeper]) == [sleeper]
    with pytest.raises(ChildProcessError):
        os.waitpid(done, os.WNOHANG)  # reaped


def test_a_pidfd_of_a_running_process_and_none_of_a_gone_one(sleeper: int) -> None:
    fd = worker._pidfd(sleeper)
    assert isinstance(fd, int)
    os.close(fd)
    gone = spawn("")
    os.waitpid(gone, 0)
    assert worker._pidfd(gone) is None


def page_says(*messages: tuple) -> int:
    """The read end of a pipe on which a page wrote `messages` and closed it."""
    read_fd, write_fd = os.pipe()
    with Connection(write_fd, readable=False) as page:
        for message in messages:
            page.send(message)
    return read_fd


@pytest.mark.parametrize("last", [(protocol.END,), (protocol.START, "p/c")])
def test_relay_passes_every_message_and_says_whether_the_page_ended(
    sleeper: int, last: tuple
) -> None:
    read_fd = page_says((protocol.START, "p/b"), (protocol.DONE, "p/b", {"output": "1\n"}), last)
    parent, here = Pipe()
    ended, stopped = worker.relay(sleeper, read_fd, here, [])
    assert (ended, stopped) == (last == (protocol.END,), [])
    assert [parent.recv() if parent.poll(5) else None for _ in range(3)] == [
        (protocol.START, "p/b"),
        (protocol.DONE, "p/b", {"output": "1\n"}),
        last,
    ]
    assert not parent.poll()


def test_the_probe_and_the_identity_are_sent_then_the_channel_closed() -> None:
    import torch  # noqa: PLC0415 - what the worker's probe reads

    parent, here = Pipe()
    worker.probe(here)
    assert parent.recv() is torch.cuda.is_available()
    with pytest.raises(EOFError):
        parent.recv()
    parent, here = Pipe()
    worker.identify(here)
    assert parent.recv() == {
        "executable": sys.executable,
        "torch": str(torch.__version__),
        "torch_file": str(torch.__file__),
    }
    with pytest.raises(EOFError):
        parent.recv()


def test_a_forked_page_runs_its_blocks_and_its_messages_are_relayed(tmp_path: Path) -> None:
    """What a worker does for each page, here: fork_page forks this process (the page runs
    child.run_page in the fork and ends with os._exit), relay passes its messages on."""
    from support.blocks import spec  # noqa: PLC0415

    job = {"page": "p", "runner": "cpu", "blocks": [spec("print(6 * 7)", key="p/a")]}
    pid, read_fd, workdir = worker.fork_page(job)  # type: ignore[arg-type]
    parent, here = Pipe()
    ended, stopped = worker.relay(pid, read_fd, here, [])
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0 and (ended, stopped) == (True, [])
    messages = []
    while parent.poll(0):
        messages.append(parent.recv())
    assert [m[0] for m in messages] == ["env", "start", "done", "end"]
    assert messages[2][1] == "p/a" and messages[2][2]["output"] == "42\n"
    assert Path(workdir).name.startswith("docverify-") and not Path(workdir).exists()


def test_a_page_that_fails_to_run_ends_with_one() -> None:
    job = {"page": "p", "runner": "cpu", "blocks": "no es una lista"}
    pid, read_fd, _ = worker.fork_page(job)  # type: ignore[arg-type]
    os.close(read_fd)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 1
