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

    def __init__(self, workers: int | None = None) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.ctx = multiprocessing.get_context("forkserver")
        self.ctx.set_forkserver_preload(PRELOAD)

    def resolve_runner(self, runner: str) -> str:
        """'auto' becomes gpu when CUDA is available; an explicit gpu without CUDA is an error.

        CUDA is asked of a throwaway child, never of this process, so forks stay safe.
        """
        if runner == "cpu":
            return runner
        available = self._cuda_available()
        if runner == "gpu" and not available:
            raise ValueError(
                "se pidió el runner gpu, pero CUDA no está disponible en esta máquina "
                "(torch.cuda.is_available() es False). Usa --runner cpu o ejecuta en una "
                "máquina con GPU.")
        return "gpu" if available else "cpu"

    def _cuda_available(self) -> bool:
        from docverify import child  # noqa: PLC0415 - only the fork server should import torch

        receiver, sender = self.ctx.Pipe(duplex=False)
        process = self.ctx.Process(target=child.probe, args=(sender,))
        process.start()
        sender.close()
        try:
            available = receiver.recv() if receiver.poll(120) else False
        except EOFError:
            available = False
        process.join(5)
        return bool(available)

    def run(self, jobs: list[PageJob],
            on_env: Callable[[dict[str, str]], None] | None = None) -> dict[str, dict[str, Any]]:
        """Run every job; return block key → result, whatever order they finish in."""
        from docverify import child  # noqa: PLC0415

        results: dict[str, dict[str, Any]] = {}
        pending: deque[PageJob] = deque(j for j in jobs if j.blocks)
        running: dict[Connection, _Running] = {}

        def start(job: PageJob) -> None:
            receiver, sender = self.ctx.Pipe(duplex=False)
            process = self.ctx.Process(target=child.run_page, args=(sender, {
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
        return results

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
    return {"output": "", "error": message, "exception": None, "traceback": "",
            "expectations": [], "duration": 0.0}
