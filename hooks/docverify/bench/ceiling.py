"""This machine's own parallel ceiling for the engine's work: two processes against one.

A probe process does what one engine worker does, with no engine around it: it imports torch
(docverify.running.child) and warms up, then for every page of the corpus forks a page process
that runs the page's blocks (`child.run_page`), reads its messages, and reaps it later without
waiting for its teardown. One probe alone takes t1; two probes started together, each doing the
same work, take t2 (from the first start to the last end). The ceiling 2·t1/t2 is the speed-up
two workers could reach on this machine with no coordination at all: 2.0 on two idle cores,
less where the cores are shared, throttled or busy with the kernel's part of the work
(copy-on-write faults, unmapping). Imports and warm-up are not timed: both probes are ready
before either starts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from multiprocessing.connection import Connection
from pathlib import Path

from docverify.bench.corpus import page_specs
from docverify.running import protocol, worker


def measure(corpus: Path, env: dict[str, str]) -> tuple[float, float]:
    """Seconds of one probe alone, and of two probes together, each running every page."""
    return _together(corpus, env, 1), _together(corpus, env, 2)


def _together(corpus: Path, env: dict[str, str], count: int) -> float:
    args = [sys.executable, "-m", "docverify.bench.ceiling", str(corpus), "cpu"]
    probes = [
        subprocess.Popen(
            args,
            cwd=corpus,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(count)
    ]
    try:
        for probe in probes:  # every probe has imported torch and warmed up before any starts
            assert probe.stdout is not None
            if probe.stdout.readline().strip() != "ready":
                raise RuntimeError(f"la sonda del techo no arrancó:\n{probe.communicate()[1]}")
        for probe in probes:
            assert probe.stdin is not None
            probe.stdin.write("go\n")
            probe.stdin.flush()
        spans = []
        for probe in probes:
            stdout, stderr = probe.communicate(timeout=1800)
            if probe.returncode != 0:
                raise RuntimeError(f"la sonda del techo falló:\n{stderr[-4000:]}")
            spans.append(json.loads(stdout.strip().splitlines()[-1]))
    finally:
        for probe in probes:
            if probe.poll() is None:
                probe.kill()
                probe.wait()
    return max(s["end"] for s in spans) - min(s["start"] for s in spans)


def probe(root: Path, runner: str) -> dict[str, float]:
    """One engine worker's loop over every page of `root`, timed from the signal on stdin."""
    from docverify.running import warm  # noqa: PLC0415 - imports torch, as a worker has

    jobs = [{"runner": runner, "blocks": specs} for specs in page_specs(root, runner)]
    warm.warm_up()
    print("ready", flush=True)
    sys.stdin.readline()
    started = time.monotonic()  # CLOCK_MONOTONIC: comparable between the two probes
    finished: list[int] = []  # pages that ended, reaped without waiting for their teardown
    done = 0
    for job in jobs:  # the engine worker's own fork and reaping (running/worker.py)
        finished = worker.still_running(finished)
        pid, read_fd = worker.fork_page(job)
        with Connection(read_fd, writable=False) as page:
            while True:
                try:
                    message = page.recv()
                except (EOFError, OSError):
                    break
                done += message[0] == protocol.DONE
        finished.append(pid)
    ended = time.monotonic()
    for pid in finished:
        os.waitpid(pid, 0)
    expected = sum(len(job["blocks"]) for job in jobs)
    if done != expected:
        raise RuntimeError(f"la sonda del techo ejecutó {done} de {expected} bloques")
    return {"start": started, "end": ended, "blocks": done}


if __name__ == "__main__":
    print(json.dumps(probe(Path(sys.argv[1]), sys.argv[2])), flush=True)
