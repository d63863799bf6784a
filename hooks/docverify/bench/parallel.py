"""P2: the synthetic corpus verified with 1 and 2 workers, against this machine's ceiling."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from docverify.bench import ceiling
from docverify.bench.common import TARGETS, Bench, timed, verdict
from docverify.bench.corpus import make_corpus
from docverify.bench.memory import PeakMemory


def _check_corpus(corpus: Path, workers: int, env: dict[str, str]) -> tuple[float, int, int]:
    args = [
        sys.executable,
        "-m",
        "docverify.cli.main",
        "check",
        "--runner",
        "cpu",
        "--no-cache",
        "--workers",
        str(workers),
    ]
    started = time.perf_counter()
    process = subprocess.Popen(
        args, cwd=corpus, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    with PeakMemory(process.pid) as memory:
        stdout, stderr = process.communicate(timeout=1800)
    seconds = time.perf_counter() - started
    if process.returncode != 0:
        raise RuntimeError(
            f"docverify check falló en el corpus sintético:\n{stdout[-2000:]}\n{stderr[-4000:]}"
        )
    return seconds, memory.rss, memory.pss


def p2(bench: Bench, out: Any) -> None:
    """Each repetition measures the engine and the ceiling back to back, under the same load."""
    corpus = make_corpus(bench.work / "corpus", bench.pages, bench.blocks)
    env = bench.env()  # without CI: the corpus is recorded as an author records, not under CI
    # Every page is new: record runs each twice (verifying/stability.py), with 2 workers.
    record_args = ["record", "--runner", "cpu", "--workers", "2"]
    recorded, _ = timed([sys.executable, "-m", "docverify.cli.main", *record_args], corpus, env)
    times: dict[int, list[float]] = {1: [], 2: []}
    probes: list[tuple[float, float]] = []  # (one probe alone, two together) per repetition
    rss = pss = 0
    for _ in range(bench.repeat):
        for workers in (1, 2):
            seconds, peak_rss, peak_pss = _check_corpus(corpus, workers, env)
            times[workers].append(seconds)
            if workers == 2:
                rss, pss = max(rss, peak_rss), max(pss, peak_pss)
        probes.append(ceiling.measure(corpus, env))
    one, two = statistics.median(times[1]), statistics.median(times[2])
    speedup = one / two
    mib = rss / 2**20
    top = statistics.median(2 * a / t for a, t in probes)
    share = speedup / top
    bench.figures.update(
        P2_seconds=two,
        P2_speedup=speedup,
        P2_mib=mib,
        p2_one=one,
        p2_pss_mib=pss / 2**20,
        ceiling=top,
        P2_of_ceiling=share,
        record_ratio=recorded / two,
    )
    total = bench.pages * bench.blocks
    out(
        f"P2 · {bench.pages} páginas × {bench.blocks} bloques ({total}): 1 worker {one:.1f} s · "
        f"2 workers {two:.1f} s {verdict(two, TARGETS['P2_seconds'])} · aceleración "
        f"{speedup:.2f}x {verdict(speedup, TARGETS['P2_speedup'], lower_is_better=False)} · "
        f"pico RSS {mib:.0f} MiB {verdict(mib, TARGETS['P2_mib'])} (PSS {pss / 2**20:.0f} MiB)"
    )
    out(
        f"P2 · techo de esta máquina: el mismo trabajo de fork y ejecución en un proceso "
        f"{statistics.median(a for a, _ in probes):.1f} s, dos procesos a la vez "
        f"{statistics.median(t for _, t in probes):.1f} s → {top:.2f}x · la aceleración de 2 "
        "workers es "
        f"{share:.2f} del techo {verdict(share, TARGETS['P2_of_ceiling'], lower_is_better=False)}"
    )
    out(
        f"P2 · grabar el corpus entero (cada página nueva se ejecuta dos veces, la segunda en "
        f"otro proceso) con 2 workers: {recorded:.1f} s = {recorded / two:.2f}x una verificación "
        "con 2 workers (una sola medida)"
    )
