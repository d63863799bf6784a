"""What every part of the benchmark shares: targets, where to measure, timing a subprocess."""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TARGETS = {
    "P1": 1.5,
    "P2_seconds": 30.0,
    "P2_speedup": 1.6,
    "P2_mib": 1536,
    "P2_of_ceiling": 0.85,
    "P3_blocks": 0,
    "P3_ratio": 1.2,
}


@dataclass
class Bench:
    """Where to measure, how often, and what was measured (filled in as it goes)."""

    root: Path
    repeat: int = 3
    pages: int = 200
    blocks: int = 10
    runner: str = "cpu"
    smoke: bool = False  # every step once with the smallest counts: checks it runs, not speed
    work: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="docverify-bench-")))
    figures: dict[str, Any] = field(default_factory=dict)

    def count(self, full: int) -> int:
        """How many times to repeat an inner measurement: `full`, or 1 in a smoke run."""
        return 1 if self.smoke else full

    def env(self, **extra: str) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("CI", "DOCVERIFY_CACHE", "DOCVERIFY_EXECUTE")
        }
        return {**env, "NO_MKDOCS_2_WARNING": "1", "DOCVERIFY_RUNNER": self.runner, **extra}


def verdict(value: float, target: float, lower_is_better: bool = True) -> str:
    ok = value <= target if lower_is_better else value >= target
    return f"{'✓' if ok else '✗'} (objetivo {'≤' if lower_is_better else '≥'} {target:g})"


def timed(
    args: list[str], cwd: Path, env: dict[str, str], expect_ok: bool = True
) -> tuple[float, subprocess.CompletedProcess[str]]:
    """Run a command to its end; its wall time in seconds, and what it printed."""
    started = time.perf_counter()
    done = subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, check=False, timeout=1800
    )
    seconds = time.perf_counter() - started
    if expect_ok and done.returncode != 0:
        raise RuntimeError(
            f"falló «{' '.join(args)}» en {cwd} (código {done.returncode}):\n"
            f"{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
        )
    return seconds, done
