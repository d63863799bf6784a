"""Processes a block leaves running: found through /proc and stopped when their page ends.

A block may start a process and leave it running (`subprocess.Popen(["sleep", "300"])`, a
server, a pool, a daemon that forks twice so that its parent can exit). Nothing a block starts
may outlive its page: not on an author's laptop, not on a CI runner. The page process makes
itself a child subreaper (Linux's `prctl(PR_SET_CHILD_SUBREAPER)`), so that an orphaned
descendant, a double-forked daemon included, is re-parented to it rather than to init, and stays
reachable through `/proc/<pid>/task/<tid>/children`. When the page's blocks are done it stops
every descendant still alive (SIGKILL, round after round until none is left: one forked while
its parent was being stopped is adopted and found in the next round) and reaps them. The warm
worker that forked the page is a subreaper too, and does the same after a page process that the
engine killed (a timeout) or that died, whose descendants it then adopts.

Only the standard library: the parent imports this module's names through the protocol-free
worker, and it must not import torch. Where /proc or prctl is missing (not Linux), nothing is
found and nothing is stopped.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import time
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h
_PROC = Path("/proc")
_ROUNDS = 100  # stop rounds at most (each one stops what the one before let fork)
_REAP_SECONDS = 5.0  # how long to wait for stopped processes to exit
_EXEC_SECONDS = 0.5  # how long a live process may show no command line (inside execve)


@dataclass(frozen=True)
class Stopped:
    """A process that was still running when its page ended, and was stopped."""

    pid: int
    parent: int  # its parent when it was found (for attributing it to a block)
    command: str  # its command line, as `ps` shows it (shortened)


def become_subreaper() -> bool:
    """Adopt this process's orphaned descendants (Linux); False where that is not possible."""
    try:
        libc = ctypes.CDLL(None)
        return int(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def children(pid: int) -> list[int]:
    """The direct children of process `pid`, over all its threads."""
    try:
        tasks = list((_PROC / str(pid) / "task").iterdir())
    except OSError:
        return []
    found: list[int] = []
    for task in tasks:
        try:
            text = (task / "children").read_text()
        except OSError:
            continue
        found.extend(int(word) for word in text.split())
    return found


def _status(pid: int) -> tuple[str, int] | None:
    """(state letter, parent pid) of process `pid`, or None when it is gone."""
    try:
        text = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = text[text.rfind(")") + 2 :].split()
    return fields[0], int(fields[1])


def alive(pid: int) -> bool:
    """Is `pid` a process that still runs (neither gone nor a zombie waiting to be reaped)?"""
    status = _status(pid)
    return status is not None and status[0] not in ("Z", "X")


def descendants(root: int, skip: Collection[int] = ()) -> list[int]:
    """Every live descendant of `root`, parents before their children, without entering the
    processes in `skip` (nor their descendants)."""
    found: list[int] = []
    queue = [p for p in children(root) if p not in skip]
    seen: set[int] = set()
    while queue:
        pid = queue.pop(0)
        if pid in seen:
            continue
        seen.add(pid)
        if alive(pid):
            found.append(pid)
        queue.extend(p for p in children(pid) if p not in skip)
    return found


def command(pid: int) -> str:
    """The command line of `pid` as `ps` shows it, shortened to 80 characters. A process caught
    inside execve has its new name but no command line yet: it is read again, for up to
    _EXEC_SECONDS, while it lives; then, like a zombie's, its name in brackets."""
    deadline = time.monotonic() + _EXEC_SECONDS
    while not (text := _cmdline(pid)) and alive(pid) and time.monotonic() < deadline:
        time.sleep(0.005)
    if not text:
        with contextlib.suppress(OSError):
            text = f"[{(_PROC / str(pid) / 'comm').read_text().strip()}]"
    return text if len(text) <= 80 else text[:79] + "…"


def _cmdline(pid: int) -> str:
    try:
        raw = (_PROC / str(pid) / "cmdline").read_bytes()
    except OSError:
        return ""
    return " ".join(part.decode(errors="replace") for part in raw.split(b"\0") if part)


def stop_descendants(root: int, skip: Collection[int] = ()) -> list[Stopped]:
    """Stop (SIGKILL) every live descendant of `root` (this process) outside `skip`, round after
    round until none is left, then reap every child of `root` outside `skip`: the stopped ones
    and the adopted zombies. `skip`: children that `root` reaps itself (a worker's pages).
    Returns what was stopped, in the order it was found."""
    stopped: dict[int, Stopped] = {}
    deadline = time.monotonic() + _REAP_SECONDS
    for _ in range(_ROUNDS):
        found = descendants(root, skip)
        if not found:
            break
        for pid in found:
            status = _status(pid)
            if pid not in stopped and status is not None:
                stopped[pid] = Stopped(pid, status[1], command(pid))
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        _reap(root, stopped, skip, deadline)
    _reap(root, stopped, skip, deadline)
    return list(stopped.values())


def _reap(root: int, stopped: Collection[int], skip: Collection[int], deadline: float) -> None:
    """Until `deadline`: reap the children of `root` outside `skip` (zombies included), and
    wait for the stopped processes to be gone (reaped, where they are its children). Not for a
    child that was not stopped (forked, or adopted alive, after the look): the next round
    stops it."""
    while True:
        for pid in children(root):
            if pid not in skip:
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, os.WNOHANG)
        mine = set(children(root))
        left = [p for p in stopped if p in mine or alive(p)]
        if not left or time.monotonic() > deadline:
            return
        time.sleep(0.001)
