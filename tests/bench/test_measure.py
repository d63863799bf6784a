"""bench/measure.py: the order of the measures and the last line, the machine's description
(from a folder shaped like /proc) and the isolation measure with its executor, subprocess and
clock stood in. Nothing is timed."""

from __future__ import annotations

import platform
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from docverify.bench import measure
from docverify.bench.common import Bench
from docverify.core import versions
from docverify.running import executor as executor_mod
from docverify.running.executor import PageJob

FIGURES = {
    "P1": 1.084,
    "P2_seconds": 11.64,
    "P2_speedup": 1.336,
    "P2_mib": 935.4,
    "P3_blocks": 0,
    "P3_ratio": 1.046,
    "ceiling": 1.5,
    "record_ratio": 2.254,
}


@pytest.fixture
def steps(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """isolation, p1, p2 and p3 stood in: each notes its name and adds its figures."""
    done: list[str] = []
    owns = {"isolation": {}, "p1": {"P1"}, "p2": set(FIGURES) - {"P1", "P3_blocks", "P3_ratio"}}
    owns["p3"] = {"P3_blocks", "P3_ratio"}

    def step(name: str) -> Any:
        def run(bench: Bench, out: Any) -> None:
            done.append(name)
            assert bench.work.is_dir()  # the folder lasts while the measures run
            bench.figures.update({k: FIGURES[k] for k in owns[name]})
            out(f"{name} medido")

        return run

    for name in owns:
        monkeypatch.setattr(measure, name, step(name))
    monkeypatch.setattr(measure, "describe_machine", lambda: "esta máquina")
    return done


def test_the_run_measures_in_order_and_ends_with_the_machine_line(
    tmp_path: Path, steps: list[str]
) -> None:
    (tmp_path / "w").mkdir()
    bench = Bench(tmp_path, repeat=3, runner="cpu", work=tmp_path / "w")
    lines: list[str] = []
    line = measure.run(bench, lines.append)
    assert line == "P1=1.08 P2=11.6s/1.34x/935MiB P3=0/1.05 ceiling=1.50x record=2.25x"
    assert steps == ["isolation", "p1", "p2", "p3"]
    assert lines == [
        "docverify bench · esta máquina",
        "repeticiones: 3 (se da la mediana) · runner cpu",
        "isolation medido",
        "p1 medido",
        "p2 medido",
        "p3 medido",
    ]
    assert not bench.work.exists()  # its temporary folder is removed


def test_a_smoke_run_says_its_figures_judge_nothing(tmp_path: Path, steps: list[str]) -> None:
    (tmp_path / "w").mkdir()
    bench = Bench(tmp_path, repeat=1, runner="gpu", smoke=True, work=tmp_path / "w")
    lines: list[str] = []
    measure.run(bench, lines.append)
    assert lines[1:3] == [
        "repeticiones: 1 (se da la mediana) · runner gpu",
        "prueba de humo (--smoke): cada paso una vez; estas cifras no juzgan los objetivos",
    ]


def test_a_failed_measure_still_removes_the_temporary_folder(
    tmp_path: Path, steps: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def p2(bench: Bench, out: Any) -> None:
        raise RuntimeError("falló P2")

    monkeypatch.setattr(measure, "p2", p2)
    (tmp_path / "w" / "dentro").mkdir(parents=True)
    bench = Bench(tmp_path, work=tmp_path / "w")
    with pytest.raises(RuntimeError, match="falló P2"):
        measure.run(bench, lambda _: None)
    assert steps == ["isolation", "p1"]
    assert not bench.work.exists()


def test_a_temporary_folder_already_gone_is_no_error(
    tmp_path: Path, steps: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def p3(bench: Bench, out: Any) -> None:
        bench.figures.update(P3_blocks=0, P3_ratio=1.0)
        bench.work.rmdir()  # a measure that cleaned up after itself

    monkeypatch.setattr(measure, "p3", p3)
    (tmp_path / "w").mkdir()
    bench = Bench(tmp_path, work=tmp_path / "w")
    assert measure.run(bench, lambda _: None).startswith("P1=1.08 ")
    assert steps == ["isolation", "p1", "p2"]


CPUINFO = """\
processor\t: 0
vendor_id\t: GenuineIntel
model name\t: Intel(R) Xeon(R) CPU @ 2.20GHz: rev 2
flags\t\t: fpu vme

processor\t: 1
model name\t: otro modelo
"""


def _proc(tmp_path: Path, cpuinfo: str | None, meminfo: str | None) -> Path:
    proc = tmp_path / "proc"
    proc.mkdir()
    if cpuinfo is not None:
        (proc / "cpuinfo").write_text(cpuinfo)
    if meminfo is not None:
        (proc / "meminfo").write_text(meminfo)
    return proc


@pytest.fixture
def machine(monkeypatch: pytest.MonkeyPatch) -> SimpleNamespace:
    """Four cores and torch 2.13.0, whatever this machine has."""
    seen = SimpleNamespace(cpus=4)
    monkeypatch.setattr(measure, "os", SimpleNamespace(cpu_count=lambda: seen.cpus))
    monkeypatch.setattr(measure, "_version", lambda package: f"{package} 2.13.0")
    return seen


def test_the_machine_is_its_cores_cpu_memory_python_and_torch(
    tmp_path: Path, machine: SimpleNamespace
) -> None:
    # 2622490 KiB is 2.501 GiB: rounds to 3 (2.499 would round to 2).
    proc = _proc(tmp_path, CPUINFO, "MemFree:  1 kB\nMemTotal:       2622490 kB\n")
    assert measure.describe_machine(proc) == (
        "4 núcleos (Intel(R) Xeon(R) CPU @ 2.20GHz: rev 2) · 3 GiB de RAM · "
        f"Python {platform.python_version()} · torch torch 2.13.0"
    )


def test_an_unknown_cpu_count_is_one(tmp_path: Path, machine: SimpleNamespace) -> None:
    machine.cpus = None
    proc = _proc(tmp_path, CPUINFO, "MemTotal: 1048576 kB\n")
    assert measure.describe_machine(proc).startswith("1 núcleos (Intel(R) Xeon(R)")


@pytest.mark.parametrize(
    ("cpuinfo", "meminfo", "cpu", "memory"),
    [
        (None, None, "CPU desconocida", "RAM desconocida"),  # not readable
        ("processor\t: 0\n", "MemFree: 3 kB\n", "CPU desconocida", "RAM desconocida"),  # absent
        (CPUINFO, None, "Intel(R) Xeon(R) CPU @ 2.20GHz: rev 2", "RAM desconocida"),
        (None, "MemTotal: 1048576 kB\n", "CPU desconocida", "1 GiB de RAM"),
    ],
)
def test_what_proc_does_not_say_is_unknown(
    tmp_path: Path,
    machine: SimpleNamespace,
    cpuinfo: str | None,
    meminfo: str | None,
    cpu: str,
    memory: str,
) -> None:
    described = measure.describe_machine(_proc(tmp_path, cpuinfo, meminfo))
    assert described.startswith(f"4 núcleos ({cpu}) · {memory} · Python ")


def test_the_real_proc_is_read_by_default() -> None:
    assert Path("/proc") == measure.PROC
    assert "desconocida" not in measure.describe_machine()  # this machine's, on Linux


def test_a_package_not_installed_is_said_so(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    def installed(package: str) -> str | None:
        asked.append(package)
        return {"torch": "2.13.0"}.get(package)

    monkeypatch.setattr(versions, "installed", installed)
    assert measure._version("torch") == "2.13.0"
    assert measure._version("ninguno") == "no instalado"
    assert asked == ["torch", "ninguno"]


# --- The isolation measure ----------------------------------------------------------------


def _spec(key: str) -> dict[str, Any]:
    return {
        "key": key,
        "code": "import torch\nprint(torch.ones(2).sum())\n",
        "filename": "bench.py",
        "first_line": 1,
        "session": None,
        "timeout": 120,
        "output_limit": 10000,
        "seed": 0,
        "hash_seed": 0,
        "device_policy": "default-cuda",
        "show_last_value": False,
    }


class _Executor:
    def __init__(self, output: str) -> None:
        self.output, self.runs, self.workers = output, [], []

    def shared(self, workers: int) -> _Executor:
        self.workers.append(workers)
        return self

    def run(self, jobs: list[PageJob]) -> dict[str, dict[str, Any]]:
        self.runs.append(jobs)
        return {job.blocks[0]["key"]: {"output": self.output} for job in jobs}


def _isolation(
    monkeypatch: pytest.MonkeyPatch, bench: Bench, output: str = "tensor(2.)\n"
) -> tuple[_Executor, list[Any], list[str]]:
    executor = _Executor(output)
    monkeypatch.setattr(executor_mod, "shared", executor.shared)
    spawned: list[Any] = []
    monkeypatch.setattr(
        measure,
        "subprocess",
        SimpleNamespace(run=lambda args, **kwargs: spawned.append((args, kwargs))),
    )
    # fork: 10.0 → 10.4898; spawn: 20.0 → 21.5006 (each just below a rounding's half).
    ticks = iter([10.0, 10.4898, 20.0, 21.5006])
    monkeypatch.setattr(measure, "time", SimpleNamespace(perf_counter=lambda: next(ticks)))
    lines: list[str] = []
    measure.isolation(bench, lines.append)
    return executor, spawned, lines


def test_isolation_times_pages_forked_against_fresh_interpreters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = Bench(tmp_path, runner="cpu", work=tmp_path)
    executor, spawned, lines = _isolation(monkeypatch, bench)
    assert executor.workers == [1]
    warm_up, timed = executor.runs
    assert warm_up == [PageJob("p-1", "cpu", [_spec("p-1/b")])]
    assert timed == [PageJob(f"p{n}", "cpu", [_spec(f"p{n}/b")]) for n in range(20)]
    fresh = (
        [measure.sys.executable, "-c", "import docverify.running.child"],
        {"check": True, "capture_output": True},
    )
    assert spawned == [fresh] * 3
    assert bench.figures == pytest.approx({"fork_ms": 489.8 / 20, "spawn_ms": 1500.6 / 3})
    assert lines == [  # 24.49 and 500.2 ms
        "aislamiento por página: fork desde el servidor caliente 24 ms · intérprete nuevo "
        "(spawn, importa torch) 500 ms"
    ]


def test_a_smoke_isolation_forks_one_page_and_spawns_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = Bench(tmp_path, runner="gpu", smoke=True, work=tmp_path)
    executor, spawned, _ = _isolation(monkeypatch, bench)
    assert executor.runs[1] == [PageJob("p0", "gpu", [_spec("p0/b")])]
    assert len(spawned) == 1
    assert bench.figures == pytest.approx({"fork_ms": 489.8, "spawn_ms": 1500.6})


def test_isolation_refuses_pages_that_printed_something_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(AssertionError):
        _isolation(monkeypatch, Bench(tmp_path, work=tmp_path), output="tensor(3.)\n")
