"""A warm worker, in this process: its loop (serve) over pages that are processes this test
starts, relaying a page's messages as they are, reaping the pages that ended without waiting
for the others, the pidfd that tells a page's exit, and a page forked from this process (the
fork runs it and ends).

zygote_main's set-up (a subreaper, warmed up) is not done here: it is checked with fakes, and
the stopping of what a page left is faked (this process's descendants are pytest's). The
executor's tests run the real worker."""

from __future__ import annotations

import os
import pickle
import signal
import sys
import threading
from collections.abc import Iterator
from multiprocessing import Pipe
from multiprocessing.connection import Connection
from pathlib import Path

import pytest
from docverify.running import forkserver_main, processes, protocol, warm, worker


def spawn(code: str, stdin: int | None = None) -> int:
    """A Python process running `code` (reading `stdin` as its standard input, if given)."""
    actions = [(os.POSIX_SPAWN_DUP2, stdin, 0)] if stdin is not None else []
    argv = [sys.executable, "-c", code]
    return os.posix_spawn(sys.executable, argv, os.environ, file_actions=actions)


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


def test_relay_of_a_page_that_said_nothing(sleeper: int) -> None:
    parent, here = Pipe()
    assert worker.relay(sleeper, page_says(), here, []) == (False, [])
    assert not parent.poll()


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


def fork_page(job: dict) -> tuple[int, int, str]:
    """worker.fork_page, whose page process must end inside it: were it ever to come back here
    (a forked pytest going on with the tests), it ends with 99."""
    me = os.getpid()
    try:
        return worker.fork_page(job)  # type: ignore[arg-type]
    finally:
        if os.getpid() != me:
            os._exit(99)


def test_a_forked_page_runs_its_blocks_and_its_messages_are_relayed(tmp_path: Path) -> None:
    """What a worker does for each page, here: fork_page forks this process (the page runs
    child.run_page in the fork and ends with os._exit), relay passes its messages on."""
    from support.blocks import spec  # noqa: PLC0415

    job = {"page": "p", "runner": "cpu", "blocks": [spec("print(6 * 7)", key="p/a")]}
    pid, read_fd, workdir = fork_page(job)
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
    pid, read_fd, _ = fork_page(job)
    os.close(read_fd)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 1


def test_zygote_main_sets_its_process_up_then_serves_its_channel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[object] = []
    monkeypatch.setattr(forkserver_main, "keep_own_path", lambda: calls.append("path"))
    monkeypatch.setattr(warm, "warm_up", lambda: calls.append("warm"))
    monkeypatch.setattr(processes, "become_subreaper", lambda: calls.append("subreaper"))
    monkeypatch.setattr(worker, "serve", lambda conn: calls.append(("serve", conn)))
    conn = object()
    worker.zygote_main(conn)  # type: ignore[arg-type]
    assert calls == ["path", "warm", "subreaper", ("serve", conn)]


class Channel:
    """The worker's end of its channel: the jobs it receives (then EOF), what it sends."""

    def __init__(self, jobs: list[dict], at_end) -> None:
        self.jobs, self.at_end, self.sent = jobs, at_end, []

    def recv(self) -> dict:
        if self.jobs:
            return self.jobs.pop(0)
        self.at_end()
        raise EOFError

    def send(self, message: tuple) -> None:
        self.sent.append(message)

    def send_bytes(self, message: bytes) -> None:
        self.sent.append(pickle.loads(message))


class Fds:
    """The write ends this test holds, each closed once: by the test's fakes, or all of them
    after a few seconds (a mutant that would wait forever for one fails instead)."""

    def __init__(self) -> None:
        self.open: dict[str, int] = {}
        self.lock = threading.Lock()
        self.timer = threading.Timer(10.0, self.close_all)
        self.timer.start()

    def close(self, name: str) -> None:
        with self.lock:
            if name in self.open:
                os.close(self.open.pop(name))

    def close_all(self) -> None:
        for name in list(self.open):
            self.close(name)


def test_serve_runs_each_page_and_stops_what_the_pages_that_failed_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three pages, each a process this test starts with its messages already in its pipe:
    «p» says it ended and runs until the channel closes (then the worker waits for it); «q»
    dies at once (exit 7) while its pipe stays open (a holder, stopped by the worker: it said
    one last thing), its folder left on disk; «r» says nothing and exits 3 a moment after its
    pipe closed, its folder already gone. Stopping is faked: it returns one process a call."""
    fds = Fds()
    read_end, fds.open["p-stdin"] = os.pipe()
    pages = {
        "p": spawn("import sys, time; sys.stdin.read(); time.sleep(0.2)", stdin=read_end),
        "q": spawn("import os; os._exit(7)"),
        "r": spawn("import os, time; time.sleep(0.2); os._exit(3)"),
    }
    os.close(read_end)
    says = {"p": [(protocol.START, "p/a"), (protocol.END,)], "q": [(protocol.START, "q/a")]}
    folders = {name: tmp_path / name for name in pages}
    folders["p"].mkdir(), folders["q"].mkdir()
    channel = Channel(
        [{"page": name, "blocks": [{"code": "1"}]} for name in pages],
        at_end=lambda: fds.close("p-stdin"),
    )
    forked: list[tuple] = []

    def fork_page(job: dict, *close: object) -> tuple[int, int, str]:
        name = job["page"]
        forked.append((name, close))
        read_fd, write_fd = os.pipe()
        with Connection(os.dup(write_fd), readable=False) as page:
            for message in says.get(name, []):
                page.send(message)
        fds.open[name] = write_fd
        if name != "q":
            fds.close(name)
        return pages[name], read_fd, str(folders[name])

    stops: list[tuple] = []
    left = iter([["uno"], ["dos"], []])

    def stop_descendants(root: int, skip=()) -> list[processes.Stopped]:
        stops.append((root, list(skip)))
        if "q" in fds.open:  # the holder of q's pipe: what it wrote, then stopped
            with Connection(os.dup(fds.open["q"]), readable=False) as holder:
                holder.send((protocol.DONE, "q/a", {"output": "del hijo"}))
            fds.close("q")
        return [processes.Stopped(1, 1, command) for command in next(left)]

    monkeypatch.setattr(worker, "fork_page", fork_page)
    monkeypatch.setattr(processes, "stop_descendants", stop_descendants)
    try:
        worker.serve(channel)  # type: ignore[arg-type]
    finally:
        fds.timer.cancel()
        fds.close_all()
    p, q, r = pages.values()
    assert channel.sent == [
        (protocol.PID, p),
        (protocol.START, "p/a"),
        (protocol.END,),
        (protocol.EXIT, 0),
        (protocol.PID, q),
        (protocol.START, "q/a"),
        (protocol.DONE, "q/a", {"output": "del hijo"}),
        (protocol.STOPPED, {"": ["uno", "dos"]}),
        (protocol.EXIT, 7),
        (protocol.PID, r),
        (protocol.EXIT, 3),
    ]
    assert forked == [(name, (channel,)) for name in pages]
    me = os.getpid()
    assert stops == [(me, [p, q]), (me, [p]), (me, [p])]
    assert folders["p"].is_dir() and not folders["q"].exists()  # a page that ended removes its own
    for pid in pages.values():  # all reaped: p once the channel closed (it was still running)
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def test_serve_ends_when_its_channel_fails_and_sends_nothing() -> None:
    class Broken(Channel):
        def recv(self) -> dict:
            raise OSError("roto")

    channel = Broken([{"page": "p", "blocks": []}], at_end=None)
    worker.serve(channel)  # type: ignore[arg-type]
    assert channel.sent == []


def test_a_forked_page_stops_what_its_blocks_left_running(tmp_path: Path) -> None:
    """The page process is the page's own (own_process): it stops what a block left running
    and says so before it ends."""
    from support.blocks import spec  # noqa: PLC0415

    marker = f"30.{os.getpid()}{len(str(tmp_path))}"  # this test's: how it is named
    code = f'import subprocess\nproceso = subprocess.Popen(["sleep", "{marker}"])'
    job = {"page": "p", "runner": "cpu", "blocks": [spec(code, key="p/a")]}
    pid, read_fd, _ = fork_page(job)
    parent, here = Pipe()
    ended, _ = worker.relay(pid, read_fd, here, [])
    os.waitpid(pid, 0)
    messages = []
    while parent.poll(0):
        messages.append(parent.recv())
    assert ended and [m for m in messages if m[0] == protocol.STOPPED] == [
        (protocol.STOPPED, {"p/a": [f"sleep {marker}"]})
    ]
