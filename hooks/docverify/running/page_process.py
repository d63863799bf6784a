# One page's process while the executor runs it, and what happens when it dies early.
"""The state of a running page process (the executor, executor.py, updates it from its messages)
and `died`: a page process that ended early fails its current block, fails the blocks after it
of the same session, and re-queues the others."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from docverify.running import protocol
from docverify.running.protocol import BlockResult, BlockSpec


@dataclass
class PageJob:
    page: str
    runner: str
    blocks: list[BlockSpec]  # in page order


@dataclass
class Running:
    """A page process while it runs: its job, its worker, where it is, why it ended."""

    job: PageJob
    zygote: Any  # the warm worker that forked it (executor.py)
    pid: int | None = None  # the page process (a child of the zygote)
    current: str | None = None
    deadline: float = float("inf")
    done: set[str] = field(default_factory=set)
    ended: bool = False  # the page said "end": it finished on its own
    reason: str | None = None  # why the engine killed it (timeout)
    running: tuple[str, int] | None = None  # (block, line) it said it ran near its limit
    exitcode: int | None = None
    # block key → processes it left running that had to be stopped ("": the running block's)
    stopped: dict[str, list[str]] = field(default_factory=dict)


def note(state: Running, message: tuple[Any, ...]) -> None:
    """Keep what a page process said of its processes left running and of its block's line
    near the limit (protocol.STOPPED, protocol.RUNNING)."""
    if message[0] == protocol.RUNNING:
        state.running = (message[1], message[2])
    elif message[0] == protocol.STOPPED:
        for key, commands in message[1].items():
            state.stopped.setdefault(key, []).extend(commands)


def died(
    state: Running,
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
        ),
        state.running[1] if state.running and state.running[0] == failed else 0,
        protocol.TIMED_OUT if reason else "",  # the executor gives a reason for a timeout only
    )
    specs = state.job.blocks
    index = next(i for i, b in enumerate(specs) if b["key"] == failed)
    session = specs[index]["session"]
    rest = []
    for spec in specs[index + 1 :]:
        if session and spec["session"] == session:
            results[spec["key"]] = protocol.failure(
                f"no se ejecutó: el bloque «{failed}» de la misma sesión «{session}» falló antes",
                cause=protocol.AFTER_FAILURE,
            )
        else:
            rest.append(spec)
    if rest:
        pending.append(PageJob(state.job.page, state.job.runner, rest))
