"""Runs pages in warm, isolated processes, in parallel, with a timeout per block.

Why fork: importing torch costs about a second. The fork server imports torch once (without
initialising CUDA) and starts one warm worker per slot (`workers`, default one per core); each
worker runs a throwaway block once, so lazy set-up (tensor repr, autograd, warnings, tokenize)
is done, then forks a fresh process per page. Each page gets clean global torch state (default
dtype and device, grad mode, threads, seeds) without paying the import again. Long-lived
workers that reset state between pages would be faster still, but cannot undo every global a
block may touch; a fork can. CUDA is initialised only in the page processes.

Why the workers fork, and not the fork server: forking a process that mapped torch costs
~7-15 ms (page tables), and the single fork server did it serially for every page while the
parent waited. Forking in each worker keeps that off the serial path. A worker relays its page
process's messages as bytes, so a page killed mid-message cannot corrupt the parent's channel,
and reaps finished pages without waiting for their teardown (~10 ms unmapping torch).

Measured (2 cores, torch 2.13.0 CPU, 200 pages x 10 small blocks, `docverify check`): 4.5-5.3 s
with 2 workers, against 6.6 s for the serial fork server and ~1.1 s a page for a fresh (spawned)
interpreter; what remains per page is mostly copy-on-write faults, the price of isolation, and
~1.2 s once for the torch import. forkserver_main spares each new process the re-run of the
parent's main script that multiprocessing would do (30-60 ms for `mkdocs` or `docverify`).

This process (the parent) never imports torch: child targets live in running/worker.py, and
children send only the plain values typed in running/protocol.py. Results come back keyed by
block and in page order, whatever order the pages finish in.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import multiprocessing.forkserver
import multiprocessing.spawn
import os
import signal
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from docverify.core import hashing
from docverify.running import forkserver_main, page_process, protocol, server_seed, worker
from docverify.running.page_process import PageJob
from docverify.running.protocol import BlockResult, Environment

PRELOAD = [  # what the fork server imports; server_exit last, so its atexit hook runs first
    f"docverify.running.{name}"
    for name in ("forkserver_main", "worker", "child", "warm", "server_exit")
]
_started = 0  # blocks started by every Executor of this process
_shared: dict[int, Executor] = {}  # per number of workers: see shared()


def shared(workers: int | None = None) -> Executor:
    """This process's executor with `workers` warm workers, made on first use.

    Every build the process makes shares it: each `mkdocs serve` rebuild (MkDocs loads the hooks
    module once per process, but a site with another path loads its own copy), or several sites
    built in one process. Its warm workers then start once, not once per build.
    """
    count = worker_count(workers)
    if count not in _shared:
        _shared[count] = Executor(count)
    return _shared[count]


def worker_count(workers: int | None) -> int:
    """How many warm workers `workers` means: None (or 0) is one per core."""
    return max(1, workers or os.cpu_count() or 1)


def blocks_started() -> int:
    """How many blocks this process has really run (in children) so far: cache hits are not."""
    return _started


@contextlib.contextmanager
def _server_interpreter(python: str, path: Sequence[str]) -> Iterator[None]:
    """While the fork server starts: `python` as its executable, `path` first on its
    PYTHONPATH, and its children told to keep that interpreter's own sys.path (see
    forkserver_main.keep_own_path). Everything is restored once it has started."""
    executable = multiprocessing.spawn.get_executable()
    saved = {k: os.environ.get(k) for k in ("PYTHONPATH", forkserver_main.OWN_PATH)}
    old = saved["PYTHONPATH"]
    os.environ["PYTHONPATH"] = os.pathsep.join([*path, *([old] if old else [])])
    os.environ[forkserver_main.OWN_PATH] = "1"
    multiprocessing.spawn.set_executable(python)
    try:
        yield
    finally:
        multiprocessing.spawn.set_executable(executable)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@dataclass
class _Zygote:
    """A warm worker forked once from the fork server; it forks one process per page."""

    process: Any
    conn: Connection
    hash_seed: int  # the fork server's PYTHONHASHSEED when it was forked: its pages keep it


class Executor:
    """Owns the fork server and the warm workers. One per process is enough (see shared()).

    With `python`, the fork server (so every worker and page process) is that interpreter,
    with `path` first on its PYTHONPATH (this checkout's engine): `docverify canary` runs the
    blocks under another torch that way. A process has one fork server, started by the first
    executor that needs it: such an executor must be the process's first, and `identity()`
    says which interpreter its children really run.
    """

    def __init__(
        self, workers: int | None = None, python: str | None = None, path: Sequence[str] = ()
    ) -> None:
        self.workers = worker_count(workers)
        self.ctx = multiprocessing.get_context("forkserver")
        self.python = python
        self._path = list(path)
        # Read once, when the fork server starts.
        os.environ[forkserver_main.ENV] = forkserver_main.main_identity()
        self.ctx.set_forkserver_preload(PRELOAD)
        self.executed = 0  # blocks really started in a child, over this executor's life
        self._cuda: bool | None = None  # asked once, of a child
        self._idle: list[_Zygote] = []  # warm workers waiting for a page, kept across runs

    def _start_server(self, hash_seed: int | None = None) -> None:
        """Start the fork server, with `python` when given, before any child is asked for, and
        with PYTHONHASHSEED=`hash_seed` (None: any), which its forks keep (server_seed.py)."""
        hash_seed = server_seed.wanted(hash_seed)
        with contextlib.ExitStack() as stack:
            stack.enter_context(hashing.starting_with(hash_seed))
            if self.python is not None:
                stack.enter_context(_server_interpreter(self.python, self._path))
            multiprocessing.forkserver.ensure_running()
        server_seed.started(hash_seed)

    def identity(self) -> dict[str, str]:
        """What a child of this executor runs: its sys.executable and torch's file and version
        (asked of a throwaway child, like CUDA: this process never imports torch)."""
        return dict(self._ask(worker.identify, 600, {}))

    def resolve_runner(self, runner: str) -> str:
        """'auto' becomes gpu when CUDA is available; an explicit gpu without CUDA is an error.

        CUDA is asked of a throwaway child, never of this process, so forks stay safe. The
        answer is kept: `mkdocs serve` asks again on every rebuild.
        """
        if runner == "cpu":
            return runner
        available = self._cuda_available()
        if runner == "gpu" and not available:
            raise ValueError(
                "se pidió el runner gpu, pero CUDA no está disponible en esta máquina "
                "(torch.cuda.is_available() es False). Usa --runner cpu o ejecuta en una "
                "máquina con GPU."
            )
        return "gpu" if available else "cpu"

    def _cuda_available(self) -> bool:
        if self._cuda is None:
            self._cuda = bool(self._ask(worker.probe, 120, False))
        return self._cuda

    def _ask(self, target: Callable[[Any], None], timeout: float, default: Any) -> Any:
        """What `target` sends back from a throwaway child of the fork server (`default` when it
        says nothing within `timeout` seconds or dies): never asked of this process."""
        self._start_server()
        receiver, sender = self.ctx.Pipe(duplex=False)
        process = self.ctx.Process(target=target, args=(sender,))
        process.start()
        sender.close()
        try:
            answer = receiver.recv() if receiver.poll(timeout) else default
        except EOFError:
            answer = default
        process.join(5)
        return answer

    def run(
        self, jobs: list[PageJob], on_env: Callable[[Environment], None] | None = None
    ) -> dict[str, BlockResult]:
        """Run every job; return block key → result in job and block order, whatever order the
        pages finish in (callers iterate pages anyway; this keeps dumps and logs stable too)."""
        results: dict[str, BlockResult] = {}
        pending: deque[PageJob] = deque(j for j in jobs if j.blocks)
        running: dict[Connection, page_process.Running] = {}
        seed = server_seed.seed_of(jobs)

        while pending or running:
            while pending and len(running) < self.workers:
                job = pending.popleft()
                zygote = self._zygote(seed)
                task: protocol.PageTask = {"runner": job.runner, "blocks": job.blocks}
                zygote.conn.send(task)
                running[zygote.conn] = page_process.Running(job=job, zygote=zygote)
            now = time.monotonic()
            timeout = max(0.0, min((r.deadline for r in running.values()), default=now) - now)
            for conn in wait(list(running), timeout=min(timeout, 1.0)):
                state = running[conn]  # type: ignore[index]
                try:
                    message = conn.recv()  # type: ignore[union-attr]
                except (EOFError, OSError):  # the worker itself died: replace it
                    self._kill(state)
                    state.zygote.process.join(5)
                    state.exitcode = state.zygote.process.exitcode
                    self._finish(state, results, pending)
                    del running[conn]  # type: ignore[arg-type]
                    continue
                if message[0] == protocol.EXIT:
                    state.exitcode = message[1]
                    self._idle.append(state.zygote)
                    self._finish(state, results, pending)
                    del running[conn]  # type: ignore[arg-type]
                else:
                    self._handle(state, message, results, on_env)
            now = time.monotonic()
            for state in running.values():
                if state.deadline <= now:  # its worker reports "exit" once the kill lands
                    spec = next(b for b in state.job.blocks if b["key"] == state.current)
                    state.reason = f"superó el tiempo límite de {spec['timeout']:g} s y se detuvo"
                    state.deadline = math.inf
                    self._kill(state)
        order = [b["key"] for job in jobs for b in job.blocks]
        return {key: results[key] for key in order if key in results}

    def _zygote(self, hash_seed: int) -> _Zygote:
        """An idle warm worker that hashes with `hash_seed` (one with another is let go), or a
        new one from the fork server."""
        while self._idle:
            zygote = self._idle.pop()
            if zygote.hash_seed == hash_seed:
                return zygote
            zygote.conn.close()
        self._start_server(hash_seed)
        here, there = self.ctx.Pipe(duplex=True)
        process = self.ctx.Process(
            target=worker.zygote_main, args=(there,), name="docverify:worker", daemon=True
        )
        process.start()
        there.close()
        return _Zygote(process=process, conn=here, hash_seed=hash_seed)

    @staticmethod
    def _kill(state: page_process.Running) -> None:
        if state.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(state.pid, signal.SIGKILL)

    def _finish(
        self, state: page_process.Running, results: dict[str, BlockResult], pending: deque[PageJob]
    ) -> None:
        """The page process is gone: fine if it ended, else fail and re-queue like a crash.
        Then each block's result says which processes it left running were stopped."""
        ran = [b["key"] for b in state.job.blocks if b["key"] in state.done]
        failed = state.current or (ran[-1] if ran else None)
        if not state.ended:
            page_process.died(state, results, pending, state.reason)
        for key, commands in state.stopped.items():
            owner = key or failed
            if owner and owner in results:
                results[owner]["stopped"] = [*results[owner].get("stopped", []), *commands]

    def _handle(
        self,
        state: page_process.Running,
        message: tuple[Any, ...],
        results: dict[str, BlockResult],
        on_env: Callable[[Environment], None] | None,
    ) -> None:
        """Apply one message from a page process (relayed by its worker)."""
        global _started  # noqa: PLW0603 - a process-wide count, read by the bench
        if message[0] == protocol.PID:
            state.pid = message[1]
        elif message[0] == protocol.END:
            state.ended = True
        elif message[0] == protocol.ENV and on_env:
            on_env(message[1])
        elif message[0] == protocol.START:
            state.current = message[1]
            self.executed += 1
            _started += 1
            spec = next(b for b in state.job.blocks if b["key"] == message[1])
            state.deadline = time.monotonic() + spec["timeout"]
        elif message[0] == protocol.DONE:
            results[message[1]] = message[2]
            state.done.add(message[1])
            state.current, state.deadline = None, math.inf
        elif message[0] in (protocol.STOPPED, protocol.RUNNING):
            page_process.note(state, message)
