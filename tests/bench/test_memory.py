"""bench/memory.py: the memory of a process tree, read from a folder shaped like /proc, and the
peak of its samples. (tests/bench/test_bench.py reads the real /proc once.)"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from docverify.bench import memory
from docverify.bench.memory import PeakMemory, tree_memory


def _process(proc: Path, pid: str, stat: str | None, smaps: str | None) -> None:
    folder = proc / pid
    folder.mkdir(parents=True)
    if stat is not None:
        (folder / "stat").write_text(stat)
    if smaps is not None:
        (folder / "smaps_rollup").write_text(smaps)


def _smaps(rss_kib: int, pss_kib: int) -> str:
    # The shape of a real smaps_rollup: a header, then «Name:  value kB» lines.
    return (
        "55d0c0000000-7ffc00000000 ---p 00000000 00:00 0    [rollup]\n"
        f"Rss:              {rss_kib} kB\n"
        f"Pss:              {pss_kib} kB\n"
        "Pss_Anon:           7 kB\n"
        "Shared_Clean:      11 kB\n"
    )


def test_the_tree_is_its_root_and_every_descendant(tmp_path: Path) -> None:
    proc = tmp_path / "proc"
    _process(proc, "10", "10 (raiz) S 1 10 10 0", _smaps(100, 40))
    # A command name with «) » in it: the parent is the field after the last «)».
    _process(proc, "11", "11 (a) b) S 10 10 10 0", _smaps(20, 5))
    _process(proc, "12", "12 (c) S 11 10 10 0", None)  # ended between the two reads
    _process(proc, "13", "13 (d) S 12 10 10 0", _smaps(1, 1))  # its child is still counted
    _process(proc, "20", "20 (otro) S 1 20 20 0", _smaps(1000, 1000))  # not in the tree
    _process(proc, "21", None, None)  # ended before its stat was read
    _process(proc, "self", "0 (x) S 10 0 0 0", _smaps(500, 500))  # not a process folder
    assert tree_memory(10, proc) == ((100 + 20 + 1) * 1024, (40 + 5 + 1) * 1024)
    assert tree_memory(11, proc) == ((20 + 1) * 1024, (5 + 1) * 1024)
    assert tree_memory(20, proc) == (1000 * 1024, 1000 * 1024)


def test_a_process_not_listed_has_no_memory(tmp_path: Path) -> None:
    proc = tmp_path / "proc"
    _process(proc, "10", "10 (raiz) S 1 10 10 0", _smaps(100, 40))
    assert tree_memory(99, proc) == (0, 0)


def test_the_real_proc_is_the_default() -> None:
    assert Path("/proc") == memory.PROC
    rss, pss = tree_memory(os.getpid())  # this process, read from the real /proc
    assert rss > 0 and pss > 0


def test_the_peak_is_the_largest_of_each_figure_sampled(monkeypatch: pytest.MonkeyPatch) -> None:
    samples = [(5, 1), (3, 9), (7, 2)]  # RSS peaks in one sample, PSS in another
    seen: list[int] = []
    exhausted = threading.Event()

    def sample(pid: int) -> tuple[int, int]:
        seen.append(pid)
        if len(seen) > len(samples):
            exhausted.set()
            return (0, 0)
        return samples[len(seen) - 1]

    monkeypatch.setattr(memory, "tree_memory", sample)
    with PeakMemory(123, interval=0.001) as peak:
        assert peak._thread.daemon  # a sampler never keeps the benchmark alive
        assert exhausted.wait(10), f"{len(seen)} muestras"
    assert not peak._thread.is_alive()  # leaving the block stops and joins the sampler
    assert (peak.rss, peak.pss) == (7, 9)
    assert set(seen) == {123}


def test_it_samples_five_times_a_second_unless_told() -> None:
    peak = PeakMemory(1)
    assert (peak.pid, peak.interval, peak.rss, peak.pss) == (1, 0.2, 0, 0)
