"""Peak memory of a process tree, sampled from /proc while it runs (P2's memory figure)."""

from __future__ import annotations

import os
import threading
from collections import defaultdict
from pathlib import Path

PROC = Path("/proc")


class PeakMemory:
    """Samples RSS and PSS summed over a process and all its descendants, from /proc.

    Each sample walks /proc and every process's page tables (smaps_rollup): at 20 Hz that took
    a noticeable share of the 2 cores it was timing, so it samples at 5 Hz; the peak is the
    steady state of the fork server and its workers, which lasts the whole run.
    """

    def __init__(self, pid: int, interval: float = 0.2) -> None:
        self.pid, self.interval = pid, interval
        self.rss = self.pss = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def __enter__(self) -> PeakMemory:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def _loop(self) -> None:
        while not self._stop.is_set():
            rss, pss = tree_memory(self.pid)
            self.rss, self.pss = max(self.rss, rss), max(self.pss, pss)
            self._stop.wait(self.interval)


def tree_memory(root: int, proc: Path = PROC) -> tuple[int, int]:
    """(RSS, PSS) in bytes of `root` and its descendants. RSS counts shared pages once per
    process (pessimistic for forked children); PSS splits them (what the tree really uses).
    `proc` is where the processes are listed (the tests give a folder shaped like /proc)."""
    children: dict[int, list[int]] = defaultdict(list)
    for entry in os.scandir(proc):
        if entry.name.isdigit():
            try:
                stat = (proc / entry.name / "stat").read_text()
            except OSError:
                continue
            children[int(stat.rsplit(")", 1)[1].split()[1])].append(int(entry.name))
    pids, rss, pss = [root], 0, 0
    for pid in pids:
        pids.extend(children.get(pid, []))
        try:
            for line in (proc / str(pid) / "smaps_rollup").read_text().splitlines():
                if line.startswith("Rss:"):
                    rss += int(line.split()[1]) * 1024
                elif line.startswith("Pss:"):
                    pss += int(line.split()[1]) * 1024
        except OSError:
            continue
    return rss, pss
