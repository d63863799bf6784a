"""The fork server's hash seed, in this process with a stand-in for multiprocessing's fork server:
which seed a run asks for, when the running server is let go, and how it is let go."""

from __future__ import annotations

import multiprocessing.forkserver
import os
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from docverify.running import server_seed
from docverify.running.page_process import PageJob
from support.blocks import spec


def test_the_seed_of_a_run_is_its_blocks_one_seed() -> None:
    assert server_seed.seed_of([]) == 0  # settings' default hash_seed
    jobs = [PageJob("a", "cpu", [spec("", hash_seed=4)]), PageJob("b", "cpu", [])]
    assert server_seed.seed_of(jobs) == 4
    jobs.append(PageJob("c", "cpu", [spec("", hash_seed=4), spec("", hash_seed=7)]))
    with pytest.raises(ValueError) as raised:
        server_seed.seed_of(jobs)
    assert str(raised.value) == (
        "bloques con distintos hash_seed en una misma ejecución ([4, 7]): un proceso de fork "
        "solo puede arrancar con uno"
    )


class Server:
    """multiprocessing's fork server, as server_seed reads it."""

    def __init__(self, pid: int | None = None, address: str | None = None) -> None:
        self._lock = threading.Lock()
        self._forkserver_pid = pid
        self._forkserver_address = address
        self._forkserver_alive_fd: int | None = None


@pytest.fixture
def let_go(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The servers let go, instead of letting them go."""
    calls: list[Any] = []
    monkeypatch.setattr(server_seed, "_let_go", calls.append)
    return calls


def serve(monkeypatch: pytest.MonkeyPatch, server: Server, seed: int | None) -> None:
    monkeypatch.setattr(multiprocessing.forkserver, "_forkserver", server)
    monkeypatch.setattr(server_seed, "_server_seed", seed)


@pytest.mark.parametrize(
    ("running", "seed", "asked", "expected", "let_go_too"),
    [
        (False, None, None, 0, False),  # nothing runs: the default
        (False, 5, 6, 6, False),
        (True, 5, None, 5, False),  # any: the running server's
        (True, 5, 5, 5, False),
        (True, 5, 6, 6, True),  # another: let the running one go
        (True, None, None, 0, True),  # a server of unknown seed: the default, afresh
    ],
)
def test_the_seed_wanted_and_when_the_running_server_goes(
    monkeypatch: pytest.MonkeyPatch,
    let_go: list[Any],
    running: bool,
    seed: int | None,
    asked: int | None,
    expected: int,
    let_go_too: bool,
) -> None:
    server = Server(pid=1234 if running else None)
    serve(monkeypatch, server, seed)
    assert server_seed.wanted(asked) == expected
    assert let_go == ([server] if let_go_too else [])


def test_started_records_the_servers_seed(monkeypatch: pytest.MonkeyPatch, let_go: list) -> None:
    serve(monkeypatch, Server(pid=1234), None)
    server_seed.started(9)
    assert server_seed.wanted(None) == 9 and let_go == []


@pytest.mark.parametrize("socket_is", ["file", "abstract", "gone"])
def test_letting_go_closes_its_pipe_forgets_it_removes_its_socket_and_reaps_it(
    tmp_path: Path, socket_is: str
) -> None:
    # The child waits for its stdin to close: the reaper is still waiting for it when the test
    # looks (a child that ended at once could be reaped, its thread gone, before the look).
    stdin, keep = os.pipe()
    child = os.posix_spawn(
        sys.executable,
        [sys.executable, "-c", "import sys; sys.stdin.read()"],
        os.environ,
        file_actions=[(os.POSIX_SPAWN_DUP2, stdin, 0)],
    )
    os.close(stdin)
    socket = tmp_path / "socket"
    if socket_is != "gone":  # removed already (its server's own clean-up): nothing to remove
        socket.write_text("", encoding="utf-8")
    address = "\0docverify-test" if socket_is == "abstract" else str(socket)
    server = Server(pid=child, address=address)
    read, write = os.pipe()
    server._forkserver_alive_fd = write
    # Reapers of the worker's own servers may still be running: this call's is the new one.
    before = set(threading.enumerate())
    try:
        server_seed._let_go(server)
        started = set(threading.enumerate()) - before
        [reaper] = [t for t in started if t.name == "docverify:reap-forkserver"]
        assert reaper.daemon and reaper.is_alive()  # waiting for the server to end
    finally:
        os.close(keep)  # the child ends (also when the test failed: nothing waits for it)
    os.set_blocking(read, False)  # an open write end raises here instead of waiting
    assert os.read(read, 1) == b""  # the write end is closed: the server would see EOF
    os.close(read)
    assert (server._forkserver_pid, server._forkserver_address) == (None, None)
    assert server._forkserver_alive_fd is None
    assert socket.exists() is (socket_is == "abstract")  # an abstract one has no file
    reaper.join(timeout=30)
    assert not reaper.is_alive()
    with pytest.raises(ChildProcessError):
        os.waitpid(child, os.WNOHANG)  # reaped already
