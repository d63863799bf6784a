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

Measured (2 cores, torch 2.13.0 CPU, 200 pages x 10 small blocks, `docverify check`): the
serial fork server gave 9.5 s with 1 worker and 6.6 s with 2; these workers give 6.1-7.1 s and
4.5-5.3 s. A fresh interpreter per page (spawn) would cost ~1.1 s a page. What remains per page
is mostly copy-on-write faults of the forked page (~2000 a page), the price of isolation;
the run also pays ~1.2 s once to start (torch import), which limits the 2-worker speed-up.
multiprocessing would also re-run the parent's main script in every new process (30-60 ms for
`mkdocs` or `docverify`); forkserver_main spares the workers that.

This process (the parent) never imports torch: child targets live in running/worker.py, and
children send only the plain values typed in running/protocol.py. Results come back keyed by
block and in page order, whatever order the pages finish in.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.forkserver
import multiprocessing.spawn
import multiprocessing.util
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from docverify.core import hashing, settings
from docverify.running import forkserver_main, protocol, worker
from docverify.running.protocol import BlockResult, BlockSpec, Environment

DEFAULT_SEED: int = settings.DEFAULTS["hash_seed"]
PRELOAD = [
    "docverify.running.forkserver_main",
    "docverify.running.worker",
    "docverify.running.child",
    "docverify.running.warm",
]
_started = 0  # blocks started by every Executor of this process
_shared: dict[int, Executor] = {}  # per number of workers: see shared()
_server_seed: int | None = None  # PYTHONHASHSEED the process's fork server started with


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
class PageJob:
    page: str
    runner: str
    blocks: list[BlockSpec]  # in page order


@dataclass
class _Zygote:
    """A warm worker forked once from the fork server; it forks one process per page."""

    process: Any
    conn: Connection
    hash_seed: int  # the fork server's PYTHONHASHSEED when it was forked: its pages keep it


@dataclass
class _Running:
    job: PageJob
    zygote: _Zygote
    pid: int | None = None  # the page process (a child of the zygote)
    current: str | None = None
    deadline: float = float("inf")
    done: set[str] = field(default_factory=set)
    ended: bool = False  # the page said "end": it finished on its own
    reason: str | None = None  # why the engine killed it (timeout)
    exitcode: int | None = None
    # block key → processes it left running that had to be stopped ("": the running block's)
    stopped: dict[str, list[str]] = field(default_factory=dict)


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
        os.environ[forkserver_main.ENV] = (
            forkserver_main.main_identity()
        )  # read once, when it starts
        self.ctx.set_forkserver_preload(PRELOAD)
        self.executed = 0  # blocks really started in a child, over this executor's life
        self._cuda: bool | None = None  # asked once, of a child
        self._idle: list[_Zygote] = []  # warm workers waiting for a page, kept across runs

    def _start_server(self, hash_seed: int | None = None) -> None:
        """Start the fork server, with `python` when given, before any child is asked for.

        It starts with PYTHONHASHSEED=`hash_seed` (None: any, the default if it must start):
        every worker and page process is a fork of it and keeps its hash secret, which a process
        draws only when it starts (core/hashing.py). One running with another seed (or started
        by something else) is stopped first, since only a new server can hash with another.
        """
        global _server_seed  # noqa: PLW0603 - the process has one fork server
        server = multiprocessing.forkserver._forkserver
        running = server._forkserver_pid is not None
        if hash_seed is None:
            hash_seed = _server_seed if running and _server_seed is not None else DEFAULT_SEED
        if running and _server_seed != hash_seed:
            _let_go(server)
        with contextlib.ExitStack() as stack:
            stack.enter_context(hashing.starting_with(hash_seed))
            if self.python is not None:
                stack.enter_context(_server_interpreter(self.python, self._path))
            multiprocessing.forkserver.ensure_running()
        _server_seed = hash_seed

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
        running: dict[Connection, _Running] = {}
        seed = seed_of(jobs)

        while pending or running:
            while pending and len(running) < self.workers:
                job = pending.popleft()
                zygote = self._zygote(seed)
                task: protocol.PageTask = {"runner": job.runner, "blocks": job.blocks}
                zygote.conn.send(task)
                running[zygote.conn] = _Running(job=job, zygote=zygote)
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
                    state.deadline = float("inf")
                    self._kill(state)
        order = [b["key"] for job in jobs for b in job.blocks]
        return {key: results[key] for key in order if key in results}

    def _zygote(self, hash_seed: int) -> _Zygote:
        """An idle warm worker that hashes with `hash_seed`, started from the fork server when
        none is idle. An idle one with another seed is let go (it ends when its pipe closes)."""
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
    def _kill(state: _Running) -> None:
        if state.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(state.pid, signal.SIGKILL)

    def _finish(
        self, state: _Running, results: dict[str, BlockResult], pending: deque[PageJob]
    ) -> None:
        """The page process is gone: fine if it ended, else fail and re-queue like a crash.
        Then each block's result says which processes it left running were stopped."""
        ran = [b["key"] for b in state.job.blocks if b["key"] in state.done]
        failed = state.current or (ran[-1] if ran else None)
        if not state.ended:
            self._died(state, results, pending, state.reason)
        for key, commands in state.stopped.items():
            owner = key or failed
            if owner and owner in results:
                results[owner]["stopped"] = [*results[owner].get("stopped", []), *commands]

    def _handle(
        self,
        state: _Running,
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
            state.current, state.deadline = None, float("inf")
        elif message[0] == protocol.STOPPED:
            for key, commands in message[1].items():
                state.stopped.setdefault(key, []).extend(commands)

    @staticmethod
    def _died(
        state: _Running,
        results: dict[str, BlockResult],
        pending: deque[PageJob],
        reason: str | None = None,
    ) -> None:
        """A page process ended early: fail its current block, re-queue the blocks after it."""
        failed = state.current
        if failed is None:
            # Died between blocks (or before the first): re-run what has not finished.
            rest = [b for b in state.job.blocks if b["key"] not in state.done]
            if rest and len(rest) < len(state.job.blocks):
                pending.append(PageJob(state.job.page, state.job.runner, rest))
            elif rest:
                for spec in rest:
                    results[spec["key"]] = protocol.failure(
                        f"el proceso de la página terminó antes de ejecutarlo "
                        f"(código de salida {state.exitcode})"
                    )
            return
        code = state.exitcode
        results[failed] = protocol.failure(
            reason
            or (
                f"terminó su proceso de forma inesperada (código de salida {code}: os._exit, "
                "señal o fallo de la extensión nativa)"
            )
        )
        specs = state.job.blocks
        index = next(i for i, b in enumerate(specs) if b["key"] == failed)
        session = specs[index]["session"]
        rest = []
        for spec in specs[index + 1 :]:
            if session and spec["session"] == session:
                results[spec["key"]] = protocol.failure(
                    f"no se ejecutó: el bloque «{failed}» de la misma sesión «{session}» "
                    "falló antes"
                )
            else:
                rest.append(spec)
        if rest:
            pending.append(PageJob(state.job.page, state.job.runner, rest))
