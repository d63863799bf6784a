"""Runs pages in warm, isolated processes, in parallel, with a timeout per block.

Why a fork server: importing torch costs about a second. The fork server imports torch once
(without initialising CUDA), then forks a fresh child per page, so each page gets clean global
torch state (default dtype and device, grad mode, threads) without paying the import again.
Long-lived workers that reset state between pages would be faster still, but cannot undo every
global a block may touch; a fork can. CUDA is initialised only in the children.

Measured (`docverify bench`, 2 shared cores, torch 2.13.0 CPU): a page costs 20-60 ms of
process overhead when forked from the warm server, against about 1.5 s when each page starts a
fresh interpreter (spawn) that imports torch; 200 pages x 10 blocks verify in about 20 s with 2
workers (1.8x one worker), RSS summed over the tree about 0.6 GiB (PSS about 0.3 GiB: forked
children share torch's pages). multiprocessing would also re-run the parent's main script in
every page process (30-60 ms a page for `mkdocs` or `docverify`); forkserver_main spares that.

This process (the parent) never imports torch: child targets are the wrappers at the bottom of
this module, and children send plain strings and numbers only. Pages run at most `workers` at a
time (default: one per core); results come back keyed by block and in page order.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from docverify import forkserver_main

PRELOAD = ["docverify.forkserver_main", "docverify.child"]
_started = 0  # blocks started by every Executor of this process


def blocks_started() -> int:
    """How many blocks this process has really run (in children) so far: cache hits are not."""
    return _started


@dataclass
class PageJob:
    page: str
    runner: str
    blocks: list[dict[str, Any]]  # specs, in page order


@dataclass
class _Running:
    job: PageJob
    process: Any
    conn: Connection
    current: str | None = None
    deadline: float = float("inf")
    done: set[str] = field(default_factory=set)


class Executor:
    """Owns the fork server context. One per process is enough; it can be reused."""

    def __init__(self, workers: int | None = None, start_method: str = "forkserver") -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.ctx = multiprocessing.get_context(start_method)
        if start_method == "forkserver":
            os.environ[forkserver_main.ENV] = _main_identity()  # read once, when it starts
            self.ctx.set_forkserver_preload(PRELOAD)
        self.executed = 0  # blocks really started in a child, over this executor's life
        self._cuda: bool | None = None  # asked once, of a child

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
        if self._cuda is not None:
            return self._cuda
        receiver, sender = self.ctx.Pipe(duplex=False)
        process = self.ctx.Process(target=_probe, args=(sender,))
        process.start()
        sender.close()
        try:
            available = receiver.recv() if receiver.poll(120) else False
        except EOFError:
            available = False
        process.join(5)
        self._cuda = bool(available)
        return self._cuda

    def run(
        self, jobs: list[PageJob], on_env: Callable[[dict[str, str]], None] | None = None
    ) -> dict[str, dict[str, Any]]:
        """Run every job; return block key → result in job and block order, whatever order the
        pages finish in (callers iterate pages anyway; this keeps dumps and logs stable too)."""
        results: dict[str, dict[str, Any]] = {}
        pending: deque[PageJob] = deque(j for j in jobs if j.blocks)
        running: dict[Connection, _Running] = {}
        exiting: list[Any] = []  # pages that said "end": reaped without holding their slot

        def start(job: PageJob) -> None:
            receiver, sender = self.ctx.Pipe(duplex=False)
            process = self.ctx.Process(
                target=_run_page,
                args=(sender, {"runner": job.runner, "blocks": job.blocks}),
                name=f"docverify:{job.page}",
            )
            process.start()
            sender.close()
            running[receiver] = _Running(job=job, process=process, conn=receiver)

        while pending or running:
            exiting = [p for p in exiting if p.exitcode is None]  # exitcode polls and reaps
            while pending and len(running) < self.workers:
                start(pending.popleft())
            now = time.monotonic()
            timeout = max(0.0, min((r.deadline for r in running.values()), default=now) - now)
            ready = wait(list(running), timeout=min(timeout, 1.0))
            for conn in ready:
                state = running[conn]  # type: ignore[index]
                try:
                    message = conn.recv()  # type: ignore[union-attr]
                except (EOFError, OSError):
                    self._died(state, results, pending)
                    del running[conn]  # type: ignore[arg-type]
                    continue
                if self._handle(state, message, results, on_env):
                    # Tearing down a process that mapped torch takes ~10 ms: let the next page
                    # start meanwhile instead of waiting here.
                    exiting.append(state.process)
                    conn.close()
                    del running[conn]  # type: ignore[arg-type]
            now = time.monotonic()
            for conn, state in list(running.items()):
                if state.deadline <= now:
                    state.process.kill()
                    state.process.join()
                    spec = next(b for b in state.job.blocks if b["key"] == state.current)
                    self._died(
                        state,
                        results,
                        pending,
                        f"superó el tiempo límite de {spec['timeout']:g} s y se detuvo",
                    )
                    conn.close()
                    del running[conn]
        for process in exiting:
            process.join()
        order = [b["key"] for job in jobs for b in job.blocks]
        return {key: results[key] for key in order if key in results}

    def _handle(
        self,
        state: _Running,
        message: tuple[Any, ...],
        results: dict[str, dict[str, Any]],
        on_env: Callable[[dict[str, str]], None] | None,
    ) -> bool:
        """Apply one message from a page process; True when the page has ended."""
        global _started  # noqa: PLW0603 - a process-wide count, read by the bench
        if message[0] == "env" and on_env:
            on_env(message[1])
        elif message[0] == "start":
            state.current = message[1]
            self.executed += 1
            _started += 1
            spec = next(b for b in state.job.blocks if b["key"] == message[1])
            state.deadline = time.monotonic() + spec["timeout"]
        elif message[0] == "done":
            results[message[1]] = message[2]
            state.done.add(message[1])
            state.current, state.deadline = None, float("inf")
        return message[0] == "end"

    @staticmethod
    def _died(
        state: _Running,
        results: dict[str, dict[str, Any]],
        pending: deque[PageJob],
        reason: str | None = None,
    ) -> None:
        """A page process ended early: fail its current block, re-queue the blocks after it."""
        state.process.join(5)
        failed = state.current
        if failed is None:
            # Died between blocks (or before the first): re-run what has not finished.
            rest = [b for b in state.job.blocks if b["key"] not in state.done]
            if rest and len(rest) < len(state.job.blocks):
                pending.append(PageJob(state.job.page, state.job.runner, rest))
            elif rest:
                for spec in rest:
                    results[spec["key"]] = _failure(
                        f"el proceso de la página terminó antes de ejecutarlo "
                        f"(código de salida {state.process.exitcode})"
                    )
            return
        code = state.process.exitcode
        results[failed] = _failure(
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
                results[spec["key"]] = _failure(
                    f"no se ejecutó: el bloque «{failed}» de la misma sesión «{session}» "
                    "falló antes"
                )
            else:
                rest.append(spec)
        if rest:
            pending.append(PageJob(state.job.page, state.job.runner, rest))


def _failure(message: str) -> dict[str, Any]:
    # "engine": the block did not finish on its own (timeout, dead process); never cached.
    return {
        "output": "",
        "error": message,
        "exception": None,
        "traceback": "",
        "expectations": [],
        "duration": 0.0,
        "engine": True,
    }


def _main_identity() -> str:
    """How multiprocessing names this process's main module (see forkserver_main)."""
    import sys  # noqa: PLC0415

    main = sys.modules.get("__main__")
    name = getattr(getattr(main, "__spec__", None), "name", None)
    if name:
        return f"name:{name}"
    path = getattr(main, "__file__", None)
    if not path:
        return ""
    # Built exactly as multiprocessing.spawn.get_preparation_data builds it: compared as text.
    if not os.path.isabs(path) and multiprocessing.process.ORIGINAL_DIR is not None:  # noqa: PTH117
        path = os.path.join(multiprocessing.process.ORIGINAL_DIR, path)  # noqa: PTH118
    return f"path:{os.path.normpath(path)}"


# The targets of child processes live here, not in docverify.child, so that this (parent)
# process never imports torch: pickling docverify.child.run_page would import it. In a child
# of the fork server the import below is free, since the server preloaded it.
def _run_page(conn: Connection, job: dict[str, Any]) -> None:
    from docverify import child  # noqa: PLC0415

    child.run_page(conn, job)


def _probe(conn: Connection) -> None:
    from docverify import child  # noqa: PLC0415

    child.probe(conn)
