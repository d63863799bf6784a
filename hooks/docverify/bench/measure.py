# The benchmark behind `docverify bench`: measures P1, P2 and P3 and prints ratios, never asserts.
"""Measure the build speed targets on this machine and print them, ending with one line:

    P1=<ratio> P2=<seconds>s/<speed-up>x/<MiB>MiB P3=<blocks re-run>/<ratio> ceiling=<x>x
    record=<x>x   (on the same line)

P1  full strict build of the site (cache off, every block runs) ÷ (build with execution off
    + every block run in one warm process). Target ≤ 1.5. The warm process is the naive design
    this engine must not lose much against: one process that imports torch once (that import
    is timed: the full build pays exactly one too, in its fork server) and then runs every
    block, with no isolation. The ratio without that import is printed as well.
P2  synthetic corpus in a temporary folder (200 pages × 10 blocks of small torch operations),
    recorded once, then verified with `docverify check --no-cache` with 1 and 2 workers:
    seconds with 2 workers, speed-up, peak memory (RSS summed over the process tree; PSS too).
    Targets ≤ 30 s, ≥ 1.6x, ≤ 1536 MiB. In the same repetitions, this machine's own parallel
    ceiling (bench/ceiling.py: two processes doing the same fork-and-run work as one) and the
    2-worker speed-up as a fraction of it (target ≥ 0.85).
    Also timed once: recording the whole corpus (every page new, so each runs twice, the
    second time in new processes) ÷ the median 2-worker check: what `record` costs.
P3  `mkdocs serve`-style rebuild after a prose edit, in one process with the cache on: blocks
    re-run (target 0) and time ÷ the same rebuild with execution off (target ≤ 1.2).

Everything runs on a copy of the site in a temporary folder (the author's docs/, snippets/ and
.cache/ are never touched) and in subprocesses, so every figure includes its own start-up.
Figures are medians of --repeat runs. Only this package measures time; tests never do.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from docverify.bench.common import Bench
from docverify.bench.parallel import p2
from docverify.bench.sites import p1, p3

__all__ = ["Bench", "run"]
PROC = Path("/proc")


def run(bench: Bench, out: Any = print) -> str:
    """Measure everything, print as it goes, and return the machine-readable line."""
    out(f"docverify bench · {describe_machine()}")
    out(f"repeticiones: {bench.repeat} (se da la mediana) · runner {bench.runner}")
    if bench.smoke:
        out("prueba de humo (--smoke): cada paso una vez; estas cifras no juzgan los objetivos")
    try:
        isolation(bench, out)
        p1(bench, out)
        p2(bench, out)
        p3(bench, out)
    finally:
        shutil.rmtree(bench.work, ignore_errors=True)
    f = bench.figures
    return (
        f"P1={f['P1']:.2f} P2={f['P2_seconds']:.1f}s/{f['P2_speedup']:.2f}x/"
        f"{f['P2_mib']:.0f}MiB P3={f['P3_blocks']}/{f['P3_ratio']:.2f} ceiling={f['ceiling']:.2f}x "
        f"record={f['record_ratio']:.2f}x"
    )


def describe_machine(proc: Path = PROC) -> str:
    """Cores, CPU model, memory, Python and torch; `proc` is where /proc's files are read."""
    cpus = os.cpu_count() or 1
    try:
        model = next(
            line.split(":", 1)[1].strip()
            for line in (proc / "cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        )
    except (OSError, StopIteration):
        model = "CPU desconocida"
    try:
        kib = int(
            next(
                line.split()[1]
                for line in (proc / "meminfo").read_text().splitlines()
                if line.startswith("MemTotal")
            )
        )
        memory = f"{kib / 1024 / 1024:.0f} GiB de RAM"
    except (OSError, StopIteration):
        memory = "RAM desconocida"
    return (
        f"{cpus} núcleos ({model}) · {memory} · Python {sys.version.split()[0]} · "
        f"torch {_version('torch')}"
    )


def _version(package: str) -> str:
    from docverify.core import versions  # noqa: PLC0415

    return versions.installed(package) or "no instalado"


def isolation(bench: Bench, out: Any) -> None:
    """What page isolation costs per page: fork from the warm server vs a fresh interpreter."""
    from docverify.core import policies  # noqa: PLC0415

    # clash: `executor`, the Executor this function makes
    from docverify.running import executor as executor_mod  # noqa: PLC0415
    from docverify.running.executor import PageJob  # noqa: PLC0415

    def page(n: int) -> PageJob:
        return PageJob(
            f"p{n}",
            bench.runner,
            [
                {
                    "key": f"p{n}/b",
                    "code": "import torch\nprint(torch.ones(2).sum())\n",
                    "filename": "bench.py",
                    "first_line": 1,
                    "session": None,
                    "timeout": 120,
                    "output_limit": 10000,
                    "seed": 0,
                    "hash_seed": 0,
                    "device_policy": policies.DEFAULT_CUDA,
                    "show_last_value": False,
                }
            ],
        )

    executor = executor_mod.shared(1)
    executor.run([page(-1)])  # warm-up: the fork server imports torch once, a worker starts
    count = bench.count(20)
    started = time.perf_counter()
    results = executor.run([page(n) for n in range(count)])
    costs = {"forkserver": (time.perf_counter() - started) / count}
    assert all(r["output"] == "tensor(2.)\n" for r in results.values()), results
    # The alternative: a fresh interpreter per page, which must import torch again.
    fresh = [sys.executable, "-c", "import docverify.running.child"]
    started = time.perf_counter()
    spawns = bench.count(3)
    for _ in range(spawns):
        subprocess.run(fresh, check=True, capture_output=True)
    costs["spawn"] = (time.perf_counter() - started) / spawns
    bench.figures["fork_ms"] = costs["forkserver"] * 1000
    bench.figures["spawn_ms"] = costs["spawn"] * 1000
    out(
        f"aislamiento por página: fork desde el servidor caliente {costs['forkserver'] * 1000:.0f}"
        f" ms · intérprete nuevo (spawn, importa torch) {costs['spawn'] * 1000:.0f} ms"
    )
