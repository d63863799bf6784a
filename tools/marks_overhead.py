"""What detecting device marks costs: the site's blocks run with and without it (not a test).

    .venv/bin/python tools/marks_overhead.py [--runs 8]

Each run is a fresh process that runs every cpu block of the site in order, as a page process
does (sessions, random streams, the page's files), and times the blocks; with marks "off" the
detection (running/marks.py) is replaced by a stub, so nothing is installed. Runs alternate
between the two modes; the minimum and the median of each, and their ratio, are printed. One
torch thread (OMP_NUM_THREADS=1), so that the figures depend less on the machine's load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ONE_RUN = """
import os, sys, tempfile, time, types
sys.path.insert(0, "hooks")
from docverify.core import config
from docverify.parsing.pages import read_site
from docverify.running import child
from docverify.verifying.specs import spec
if sys.argv[1] == "off":
    child.marks = types.SimpleNamespace(start=lambda files: None, stop=lambda output: [])
cfg = config.load()
pages = read_site(cfg)
os.chdir(tempfile.mkdtemp())
total = 0.0
for page in pages:
    specs = [spec(cfg, b) for b in page.blocks if b.runs_on("cpu")]
    files = {s["filename"] for s in specs}
    streams, sessions = child.Streams(), {}
    for s in specs:
        namespace = sessions.setdefault(s["session"], {}) if s["session"] else {}
        start = time.perf_counter()
        child.run_block(s, namespace, streams, files)
        total += time.perf_counter() - start
print(total)
"""


def once(mode: str) -> float:
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", ONE_RUN, mode],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=8)
    runs = parser.parse_args().runs
    times: dict[str, list[float]] = {"on": [], "off": []}
    for _ in range(runs):
        for mode, values in times.items():
            values.append(once(mode))
    for mode, values in times.items():
        median = statistics.median(values)
        print(f"marcas {mode}: mínimo {min(values):.3f} s, mediana {median:.3f} s")
    ratio = min(times["on"]) / min(times["off"])
    middle = statistics.median(times["on"]) / statistics.median(times["off"])
    print(f"con marcas / sin marcas: {ratio:.3f} (mínimos), {middle:.3f} (medianas)")


if __name__ == "__main__":
    main()
