"""bench/parallel.py (P2): what it runs, the figures it keeps and the lines it prints, with the
corpus, the commands, the memory sampler and the ceiling probe stood in. Nothing is timed.
(Named apart from tests/running/test_parallel.py: one basename per test file.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest
from docverify.bench import parallel
from docverify.bench.common import Bench

MIB = 2**20


class _Popen:
    """subprocess.Popen stood in: a process that prints `stdout`/`stderr` and exits `code`."""

    made: ClassVar[list[_Popen]] = []
    answer = ("salida", "errores", 0)

    def __init__(self, args: list[str], **kwargs: Any) -> None:
        self.args, self.kwargs, self.pid = args, kwargs, 4242
        self.stdout, self.stderr, self.returncode = type(self).answer
        self.waited: list[float] = []
        type(self).made.append(self)

    def communicate(self, timeout: float) -> tuple[str, str]:
        self.waited.append(timeout)
        return self.stdout, self.stderr


class _Peak:
    """PeakMemory stood in: the peak it found, and whether the process ran inside it."""

    sampled: ClassVar[list[tuple[int, bool]]] = []

    def __init__(self, pid: int) -> None:
        self.pid, self.rss, self.pss = pid, 0, 0

    def __enter__(self) -> _Peak:
        self.rss, self.pss = 300 * MIB, 60 * MIB
        return self

    def __exit__(self, *_: object) -> None:
        process = _Popen.made[-1]
        type(self).sampled.append((self.pid, bool(process.waited)))


@pytest.fixture
def stood_in(monkeypatch: pytest.MonkeyPatch) -> None:
    _Popen.made, _Peak.sampled = [], []
    monkeypatch.setattr(parallel, "subprocess", SimpleNamespace(Popen=_Popen, PIPE=-1))
    monkeypatch.setattr(parallel, "PeakMemory", _Peak)
    ticks = iter([3.0, 9.5])
    monkeypatch.setattr(parallel, "time", SimpleNamespace(perf_counter=lambda: next(ticks)))


@pytest.mark.usefixtures("stood_in")
def test_a_check_of_the_corpus_is_timed_with_its_peak_memory(tmp_path: Path) -> None:
    _Popen.answer = ("salida", "errores", 0)
    assert parallel._check_corpus(tmp_path, 2, {"A": "1"}) == (6.5, 300 * MIB, 60 * MIB)
    (process,) = _Popen.made
    assert process.args == [
        sys.executable,
        "-m",
        "docverify.cli.main",
        "check",
        "--runner",
        "cpu",
        "--no-cache",
        "--workers",
        "2",
    ]
    assert process.kwargs == {
        "cwd": tmp_path,
        "env": {"A": "1"},
        "stdout": -1,
        "stderr": -1,
        "text": True,
    }
    assert process.waited == [1800]
    assert _Peak.sampled == [(4242, True)]  # the process's own tree, sampled while it ran


@pytest.mark.usefixtures("stood_in")
def test_a_failed_check_of_the_corpus_is_an_error_with_the_end_of_its_output(
    tmp_path: Path,
) -> None:
    _Popen.answer = ("a" + "b" * 2000, "d" + "e" * 4000, 1)
    with pytest.raises(RuntimeError) as raised:
        parallel._check_corpus(tmp_path, 1, {})
    assert str(raised.value) == (
        "docverify check falló en el corpus sintético:\n" + "b" * 2000 + "\n" + "e" * 4000
    )


def test_the_real_popen_is_used_by_default() -> None:
    assert parallel.subprocess is subprocess


def test_p2_verifies_with_one_and_two_workers_against_the_ceiling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    bench = Bench(tmp_path, repeat=3, pages=4, blocks=3, runner="cpu", work=tmp_path / "w")
    corpus = tmp_path / "corpus"
    events: list[Any] = []

    def make_corpus(dest: Path, pages: int, blocks: int) -> Path:
        events.append(("corpus", dest, pages, blocks))
        return corpus

    def timed(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, Any]:
        events.append(("timed", args, cwd, env.get("CI"), env.get("DOCVERIFY_RUNNER")))
        return 25.0, None

    # Per repetition: 1 worker, 2 workers (seconds, RSS, PSS); the 1-worker peaks are ignored.
    checks = {
        1: iter([(15.0, 999 * MIB, 999 * MIB), (16.0, 0, 0), (14.0, 0, 0)]),
        2: iter(
            [(10.0, 100 * MIB, 50 * MIB), (9.0, 300 * MIB, 40 * MIB), (11.0, 200 * MIB, 60 * MIB)]
        ),
    }

    def check_corpus(where: Path, workers: int, env: dict[str, str]) -> tuple[float, int, int]:
        events.append(("check", where, workers, env.get("CI")))
        return next(checks[workers])

    probes = iter([(6.0, 8.0), (8.0, 8.0), (7.0, 8.0)])  # ceilings 1.5, 2.0, 1.75

    def measure(where: Path, env: dict[str, str]) -> tuple[float, float]:
        events.append(("ceiling", where, env.get("CI"), env.get("DOCVERIFY_RUNNER")))
        return next(probes)

    monkeypatch.setattr(parallel, "make_corpus", make_corpus)
    monkeypatch.setattr(parallel, "timed", timed)
    monkeypatch.setattr(parallel, "_check_corpus", check_corpus)
    monkeypatch.setattr(parallel, "ceiling", SimpleNamespace(measure=measure))
    lines: list[str] = []
    parallel.p2(bench, lines.append)

    record = [sys.executable, "-m", "docverify.cli.main", "record", "--runner", "cpu"]
    each = [
        ("check", corpus, 1, None),
        ("check", corpus, 2, None),
        ("ceiling", corpus, None, "cpu"),
    ]
    assert events == [
        ("corpus", tmp_path / "w" / "corpus", 4, 3),
        ("timed", [*record, "--workers", "2"], corpus, None, "cpu"),
        *each * 3,
    ]
    # Medians: 15 s and 10 s (1.5x); ceiling 1.75x; the largest 2-worker peaks: 300 and 60 MiB.
    assert bench.figures == pytest.approx(
        {
            "P2_seconds": 10.0,
            "P2_speedup": 1.5,
            "P2_mib": 300.0,
            "p2_one": 15.0,
            "p2_pss_mib": 60.0,
            "ceiling": 1.75,
            "P2_of_ceiling": 1.5 / 1.75,
            "record_ratio": 2.5,
        }
    )
    assert lines == [
        "P2 · 4 páginas × 3 bloques (12): 1 worker 15.0 s · 2 workers 10.0 s ✓ (objetivo ≤ 30)"
        " · aceleración 1.50x ✗ (objetivo ≥ 1.6) · pico RSS 300 MiB ✓ (objetivo ≤ 1536) "
        "(PSS 60 MiB)",
        "P2 · techo de esta máquina: el mismo trabajo de fork y ejecución en un proceso 7.0 s, "
        "dos procesos a la vez 8.0 s → 1.75x · la aceleración de 2 workers es 0.86 del techo "
        "✓ (objetivo ≥ 0.85)",
        "P2 · grabar el corpus entero (cada página nueva se ejecuta dos veces, la segunda en "
        "otro proceso) con 2 workers: 25.0 s = 2.50x una verificación con 2 workers (una sola "
        "medida)",
    ]


def test_no_memory_sampled_is_a_peak_of_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = Bench(tmp_path, repeat=1, pages=1, blocks=1, work=tmp_path / "w")
    monkeypatch.setattr(parallel, "make_corpus", lambda *_: tmp_path)
    monkeypatch.setattr(parallel, "timed", lambda *_: (4.0, None))
    monkeypatch.setattr(parallel, "_check_corpus", lambda *_: (2.0, 0, 0))
    monkeypatch.setattr(parallel, "ceiling", SimpleNamespace(measure=lambda *_: (1.0, 1.0)))
    lines: list[str] = []
    parallel.p2(bench, lines.append)
    assert (bench.figures["P2_mib"], bench.figures["p2_pss_mib"]) == (0.0, 0.0)
    assert "pico RSS 0 MiB ✓ (objetivo ≤ 1536) (PSS 0 MiB)" in lines[0]
