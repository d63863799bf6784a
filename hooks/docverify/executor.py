"""Runs pages in warm, isolated processes, in parallel, with a timeout per block.

Why a fork server: importing torch costs about a second. The fork server imports torch once
(without initialising CUDA), then forks a fresh child per page, so each page gets clean global
torch state (default dtype and device, grad mode, threads) without paying the import again.
Long-lived workers that reset state between pages would be faster still, but cannot undo every
global a block may touch; a fork can. CUDA is initialised only in the children.
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

PRELOAD = ["docverify.child"]


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
            self.ctx.set_forkserver_preload(PRELOAD)
        self.executed = 0  # blocks really started in a child, over this executor's life
        self._auto: str | None = None

    def resolve_runner(self, runner: str) -> str:
        """'auto' becomes gpu when CUDA is available (asked of a child, never of this process).

        The answer is kept: `mkdocs serve` asks again on every rebuild.
        """
        if runner != "auto":
            return runner
        if self._auto is not None:
            return self._auto
        receiver, sender = self.ctx.Pipe(duplex=False)
        process = self.ctx.Process(target=_probe, args=(sender,))
        process.start()
        sender.close()
        try:
            available = receiver.recv() if receiver.poll(120) else False
        except EOFError:
            available = False
        process.join(5)
        self._auto = "gpu" if available else "cpu"
        return self._auto

    def run(self, jobs: list[PageJob],
            on_env: Callable[[dict[str, str]], None] | None = None) -> dict[str, dict[str, Any]]:
        """Run every job; return block key → result in job and block order, whatever order the
        pages finish in (callers iterate pages anyway; this keeps dumps and logs stable too)."""
        results: dict[str, dict[str, Any]] = {}
        pending: deque[PageJob] = deque(j for j in jobs if j.blocks)
        running: dict[Connection, _Running] = {}

        def start(job: PageJob) -> None:
            receiver, sender = self.ctx.Pipe(duplex=False)
            process = self.ctx.Process(target=_run_page, args=(sender, {
                "runner": job.runner, "blocks": job.blocks}), name=f"docverify:{job.page}")
            process.start()
            sender.close()
            running[receiver] = _Running(job=job, process=process, conn=receiver)

        while pending or running:
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
                if message[0] == "env" and on_env:
                    on_env(message[1])
                elif message[0] == "start":
                    state.current = message[1]
                    self.executed += 1
                    spec = next(b for b in state.job.blocks if b["key"] == message[1])
                    state.deadline = time.monotonic() + spec["timeout"]
                elif message[0] == "done":
                    results[message[1]] = message[2]
                    state.done.add(message[1])
                    state.current, state.deadline = None, float("inf")
                elif message[0] == "end":
                    state.process.join()
                    conn.close()
                    del running[conn]  # type: ignore[arg-type]
            now = time.monotonic()
            for conn, state in list(running.items()):
                if state.deadline <= now:
                    state.process.kill()
                    state.process.join()
                    spec = next(b for b in state.job.blocks if b["key"] == state.current)
                    self._died(state, results, pending,
                               f"superó el tiempo límite de {spec['timeout']:g} s y se detuvo")
                    conn.close()
                    del running[conn]
        order = [b["key"] for job in jobs for b in job.blocks]
        return {key: results[key] for key in order if key in results}

    @staticmethod
    def _died(state: _Running, results: dict[str, dict[str, Any]], pending: deque[PageJob],
              reason: str | None = None) -> None:
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
                        f"(código de salida {state.process.exitcode})")
            return
        code = state.process.exitcode
        results[failed] = _failure(reason or (
            f"terminó su proceso de forma inesperada (código de salida {code}: os._exit, "
            "señal o fallo de la extensión nativa)"))
        specs = state.job.blocks
        index = next(i for i, b in enumerate(specs) if b["key"] == failed)
        session = specs[index]["session"]
        rest = []
        for spec in specs[index + 1:]:
            if session and spec["session"] == session:
                results[spec["key"]] = _failure(
                    f"no se ejecutó: el bloque «{failed}» de la misma sesión «{session}» "
                    "falló antes")
            else:
                rest.append(spec)
        if rest:
            pending.append(PageJob(state.job.page, state.job.runner, rest))


def _failure(message: str) -> dict[str, Any]:
    # "engine": the block did not finish on its own (timeout, dead process); never cached.
    return {"output": "", "error": message, "exception": None, "traceback": "",
            "expectations": [], "duration": 0.0, "engine": True}


# The targets of child processes live here, not in docverify.child, so that this (parent)
# process never imports torch: pickling docverify.child.run_page would import it. In a child
# of the fork server the import below is free, since the server preloaded it.
def _run_page(conn: Connection, job: dict[str, Any]) -> None:
    from docverify import child  # noqa: PLC0415

    child.run_page(conn, job)


def _probe(conn: Connection) -> None:
    from docverify import child  # noqa: PLC0415

    child.probe(conn)
