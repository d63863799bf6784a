"""pytest plugin of `python3 tasks.py mutate` (tools/mutation.py): the tests of one mutant, the
quickest first.

mutmut runs, for each mutant, the tests that reached its function, with `-x`: the run stops at
the first failure. It hands them over in no particular order, so a mutant that a unit test kills
in milliseconds often waits first for a test that builds a site. This plugin orders them: first
the tests that start nothing, then those that start the engine's executor (a fork server that
imports torch), last those that need an authored or built site (`docverify new`, `record` or a
whole build, in other processes); within each, the module's own test file first (test_<module>.py
for the mutant's module), then by the duration mutmut measured (mutants/mutmut-stats.json).
Which tests run, and so the verdict, does not change; only how soon a killed mutant is known.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import signal
import time
from pathlib import Path

import pytest

# Fixtures by what they start, in other processes, before the test itself runs.
EXECUTOR = frozenset({"executor"})
SITE = frozenset({"authored", "built", "built_site", "small", "small_copy", "site_copy"})


def durations(stats: Path = Path("mutmut-stats.json")) -> dict[str, float]:
    """Each test's duration as mutmut measured it (empty before its first run)."""
    try:
        return dict(json.loads(stats.read_text(encoding="utf-8"))["duration_by_test"])
    except (OSError, ValueError, KeyError):
        return {}


def own_file(mutant: str) -> str:
    """The test file named after a mutant's module: `docverify.site.words.x_f__mutmut_3` →
    test_words.py (empty without a mutant: the stats run, the clean run)."""
    if "__mutmut_" not in mutant:
        return ""
    return f"test_{mutant.rpartition('.')[0].rpartition('.')[2]}.py"


def quickest_first(items: list[pytest.Item], measured: dict[str, float], own: str) -> list:
    """`items` by what their fixtures start, the own test file first, then by measured
    duration; stable, so equal keys keep pytest's order."""

    def key(item: pytest.Item) -> tuple[int, bool, float]:
        fixtures = set(getattr(item, "fixturenames", ()))
        tier = 2 if fixtures & SITE else 1 if fixtures & EXECUTOR else 0
        mine = bool(own) and item.nodeid.partition("::")[0].endswith(f"/{own}")
        return tier, not mine, measured.get(item.nodeid, 0.0)

    return sorted(items, key=key)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    mutant = os.environ.get("MUTANT_UNDER_TEST", "")
    items[:] = quickest_first(items, durations(), own_file(mutant))


STATS = "stats"  # mutmut's name for the run that maps each function to the tests that reach it


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """During mutmut's stats run, keep "stats" in this process only (mutmut's process-local copy)
    and out of the environment that subprocesses inherit: a fresh interpreter that imports the
    mutated engine (a worker of the executor, a page process) would otherwise record its calls
    too, which needs mutmut's settings from the current folder, and the engine's processes work
    in temporary folders: the call raises there and the test fails on the copy whatever the
    mutant. Their calls never reached mutmut's stats anyway (another process); with a mutant
    under test the variable stays, and subprocesses run the mutant."""
    if os.environ.get("MUTANT_UNDER_TEST") != STATS:
        return
    from mutmut.mutation import trampoline  # noqa: PLC0415

    trampoline._mutant_under_test = STATS
    del os.environ["MUTANT_UNDER_TEST"]
    config.add_cleanup(lambda: os.environ.__setitem__("MUTANT_UNDER_TEST", STATS))


# What a mutant's tests leave running: a mutant can break the code that stops the engine's
# processes (a fork server that imports torch, ~250 MB; a page process), and each such orphan
# would live on, adopted by init, for the rest of the run (dozens in one module's run). The
# process that runs a mutant's tests adopts its orphans and, when its tests end, kills what is
# left. The engine's own `running/processes.py` is not used here: it may be the mutated module.
_adopted = False
PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h


def pytest_sessionstart(session: pytest.Session) -> None:
    """With a mutant under test (or the stats run), adopt orphans (Linux); not in mutmut's fork
    server warming up, which reaps its own children by any pid."""
    global _adopted  # noqa: PLW0603 - one per process, like the subreaper flag itself
    from mutmut.mutation import trampoline  # noqa: PLC0415

    if trampoline.get_mutant_under_test():
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            _adopted = libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0


def pytest_unconfigure(config: pytest.Config) -> None:
    if _adopted:
        stop_leftovers(os.getpid())


def descendants(root: int) -> list[int]:
    """Every process below `root` (from /proc: the children of each of its threads)."""
    found: list[int] = []
    queue = [root]
    while queue:
        pid = queue.pop()
        for task in Path(f"/proc/{pid}/task").glob("*"):
            with contextlib.suppress(OSError, ValueError):
                kids = [int(n) for n in (task / "children").read_text().split()]
                found += kids
                queue += kids
    return found


def stop_leftovers(root: int, rounds: int = 20) -> None:
    """SIGKILL every descendant of `root` (this process), then reap its children, until none is
    left (a process forked while a round ran is found by the next); never waits on one."""
    for _ in range(rounds):
        found = descendants(root)
        if not found:
            return
        for pid in found:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.01)  # SIGKILL takes effect asynchronously; the next round kills again
        with contextlib.suppress(ChildProcessError):
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
