"""This machine's own parallel ceiling for the engine's work: two processes against one.

A probe process does what one engine worker does, with no engine around it: for every page of
the corpus it forks a page process that runs the page's blocks (`child.run_page`), reads its
messages, and reaps it later without waiting for its teardown. As the engine's workers are forks
of its fork server, the probes are forks of one process that imported torch
(docverify.running.child) and warmed up once. One probe alone takes t1; two probes forked and
started together, each doing the same work, take t2 (from the first start to the last end). The
ceiling 2·t1/t2 is the speed-up two workers could reach on this machine with no coordination at
all: 2.0 on two idle cores, less where the cores are shared, throttled or busy with the kernel's
part of the work (copy-on-write faults, unmapping). The import, the warm-up and the forks of the
probes are not timed: every probe is ready before any starts.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import traceback
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from docverify.bench.corpus import page_specs
from docverify.running import protocol, worker

GO = b"g"  # what starts every probe at once (one byte, whatever it is)


def measure(corpus: Path, env: dict[str, str]) -> tuple[float, float]:
    """Seconds of one probe alone, and of two probes together, each running every page."""
    done = subprocess.run(
        [sys.executable, "-m", "docverify.bench.ceiling", str(corpus), "cpu"],
        cwd=corpus,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=3600,
    )
    if done.returncode != 0:
        raise RuntimeError(f"la sonda del techo falló:\n{done.stderr[-4000:]}")
    spans = json.loads(done.stdout.strip().splitlines()[-1])
    return spans["alone"], spans["together"]


def main(root: Path, runner: str) -> dict[str, Any]:
    """Import torch and warm up once, then time one probe alone and two probes together."""
    from docverify.running import warm  # noqa: PLC0415 - imports torch, as the fork server does

    jobs: list[protocol.PageTask] = [
        {"runner": runner, "blocks": specs} for specs in page_specs(root, runner)
    ]
    warm.warm_up()
    blocks = sum(len(job["blocks"]) for job in jobs)
    return {"alone": _together(jobs, 1), "together": _together(jobs, 2), "blocks": blocks}


def _together(jobs: list[protocol.PageTask], count: int) -> float:
    """Fork `count` probes, start them together, return the span from first start to last end."""
    probes = []
    for _ in range(count):
        go_read, go_write = os.pipe()
        span_read, span_write = os.pipe()
        pid = os.fork()
        if pid == 0:  # a probe
            code = 1
            try:
                for fd in (go_write, span_read, *(f for _, *fds in probes for f in fds)):
                    os.close(fd)  # its own parent ends, and those of the probes forked before
                os.read(go_read, 1)  # every probe is forked before any starts
                os.write(span_write, json.dumps(probe(jobs)).encode())
                code = 0
            except BaseException:  # reported on stderr; the exit code says it
                traceback.print_exc()
            finally:
                os._exit(code)
        os.close(go_read)
        os.close(span_write)
        probes.append((pid, go_write, span_read))
    for _, go_write, _ in probes:
        os.write(go_write, GO)
        os.close(go_write)
    spans, failed = [], 0
    for pid, _, span_read in probes:
        with os.fdopen(span_read, "rb") as channel:
            raw = channel.read()
        _, status = os.waitpid(pid, 0)
        if os.waitstatus_to_exitcode(status) == 0:
            spans.append(json.loads(raw))
        else:
            failed += 1
    if failed:
        raise RuntimeError(f"falló {failed} de {count} sondas del techo (ver arriba)")
    return max(s["end"] for s in spans) - min(s["start"] for s in spans)


def probe(jobs: list[protocol.PageTask]) -> dict[str, float]:
    """One engine worker's loop over every page, timed from its start."""
    started = time.monotonic()  # CLOCK_MONOTONIC: comparable between the two probes
    finished: list[int] = []  # pages that ended, reaped without waiting for their teardown
    done = 0
    for job in jobs:  # the engine worker's own fork and reaping (running/worker.py)
        finished = worker.still_running(finished)
        pid, read_fd, workdir = worker.fork_page(job)
        last = None  # pragma: no mutate; equivalent: "" too is only ever compared with END
        with Connection(read_fd, writable=False) as page:
            while True:
                try:
                    message = page.recv()
                except (EOFError, OSError):
                    break
                done += message[0] == protocol.DONE
                last = message[0]
        if last != protocol.END:  # as the worker does: a page that ended itself removed it
            shutil.rmtree(workdir, ignore_errors=True)
        finished.append(pid)
    ended = time.monotonic()
    for pid in finished:
        os.waitpid(pid, 0)
    expected = sum(len(job["blocks"]) for job in jobs)
    if done != expected:
        raise RuntimeError(f"la sonda del techo ejecutó {done} de {expected} bloques")
    return {"start": started, "end": ended, "blocks": done}


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]), sys.argv[2])), flush=True)
