"""bench/common.py: the repeat count of a smoke run, the environment every measure runs in, the
verdict beside each figure, and how a command is timed (its subprocess and clock stood in)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from docverify.bench import common
from docverify.bench.common import Bench, timed, verdict


def test_a_smoke_run_repeats_each_inner_measure_once(tmp_path: Path) -> None:
    assert Bench(tmp_path, work=tmp_path).count(20) == 20
    assert Bench(tmp_path, smoke=True, work=tmp_path).count(20) == 1
    assert Bench(tmp_path, smoke=True, work=tmp_path).count(1) == 1


def test_the_environment_drops_what_would_change_a_measure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in {
        "CI": "true",
        "DOCVERIFY_CACHE": "0",
        "DOCVERIFY_EXECUTE": "0",
        "NO_MKDOCS_2_WARNING": "0",
        "DOCVERIFY_RUNNER": "cuda",
        "KEPT": "yes",
    }.items():
        monkeypatch.setenv(name, value)
    env = Bench(tmp_path, runner="mps", work=tmp_path).env()
    assert {k: env.get(k) for k in ("CI", "DOCVERIFY_CACHE", "DOCVERIFY_EXECUTE")} == {
        "CI": None,
        "DOCVERIFY_CACHE": None,
        "DOCVERIFY_EXECUTE": None,
    }
    assert env["KEPT"] == "yes"  # the rest of the environment is passed on
    assert env["NO_MKDOCS_2_WARNING"] == "1"
    assert env["DOCVERIFY_RUNNER"] == "mps"  # the bench's runner, not the caller's
    # What a measure asks for goes last: it may set back what was dropped, or override.
    extra = Bench(tmp_path, work=tmp_path).env(CI="true", DOCVERIFY_RUNNER="x")
    assert (extra["CI"], extra["DOCVERIFY_RUNNER"], extra["KEPT"]) == ("true", "x", "yes")


@pytest.mark.parametrize(
    ("value", "target", "lower", "expected"),
    [
        (1.5, 1.5, True, "✓ (objetivo ≤ 1.5)"),  # the boundary meets the target
        (1.51, 1.5, True, "✗ (objetivo ≤ 1.5)"),
        (1.2, 1.5, True, "✓ (objetivo ≤ 1.5)"),
        (1.6, 1.6, False, "✓ (objetivo ≥ 1.6)"),
        (1.59, 1.6, False, "✗ (objetivo ≥ 1.6)"),
        (2.0, 1.6, False, "✓ (objetivo ≥ 1.6)"),
        (1536.0, 1536, True, "✓ (objetivo ≤ 1536)"),
        (31.0, 30.0, True, "✗ (objetivo ≤ 30)"),  # a round target without its decimals
    ],
)
def test_the_verdict_says_whether_the_target_is_met(
    value: float, target: float, lower: bool, expected: str
) -> None:
    assert verdict(value, target, lower_is_better=lower) == expected


def test_lower_is_better_unless_said() -> None:
    assert verdict(1.0, 2.0) == "✓ (objetivo ≤ 2)"


class _Run:
    """subprocess.run and time.perf_counter stood in: records the call, answers `done`."""

    def __init__(self, done: SimpleNamespace, clock: list[float]) -> None:
        self.done, self.clock, self.calls = done, clock, []

    def run(self, args: list[str], **kwargs: Any) -> SimpleNamespace:
        self.calls.append((args, kwargs))
        return self.done

    def perf_counter(self) -> float:
        return self.clock.pop(0)


def _stand_in(monkeypatch: pytest.MonkeyPatch, done: SimpleNamespace) -> _Run:
    fake = _Run(done, [10.0, 12.5])
    # The module's own names replaced, not the standard library's: no other thread sees them.
    monkeypatch.setattr(common, "subprocess", SimpleNamespace(run=fake.run))
    monkeypatch.setattr(common, "time", SimpleNamespace(perf_counter=fake.perf_counter))
    return fake


def test_timed_runs_the_command_where_and_as_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    done = SimpleNamespace(returncode=0, stdout="dicho", stderr="")
    fake = _stand_in(monkeypatch, done)
    seconds, result = timed(["prog", "arg"], Path("/lugar"), {"A": "1"})
    assert (seconds, result) == (2.5, done)  # 12.5 - 10.0 of the clock around it
    assert fake.calls == [
        (
            ["prog", "arg"],
            {
                "cwd": Path("/lugar"),
                "env": {"A": "1"},
                "capture_output": True,
                "text": True,
                "check": False,
                "timeout": 1800,
            },
        )
    ]


def test_a_failed_command_raises_with_the_end_of_what_it_printed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 4001 characters each: only the last 4000 are shown.
    done = SimpleNamespace(returncode=3, stdout="a" + "b" * 4000, stderr="d" + "e" * 4000)
    _stand_in(monkeypatch, done)
    with pytest.raises(RuntimeError) as raised:
        timed(["prog", "arg"], Path("/lugar"), {})
    assert str(raised.value) == (
        "falló «prog arg» en /lugar (código 3):\n" + "b" * 4000 + "\n" + "e" * 4000
    )


def test_a_failure_the_caller_expects_is_returned(monkeypatch: pytest.MonkeyPatch) -> None:
    done = SimpleNamespace(returncode=1, stdout="", stderr="error esperado")
    _stand_in(monkeypatch, done)
    assert timed(["prog"], Path("/lugar"), {}, expect_ok=False) == (2.5, done)


def test_timed_really_runs_a_command(tmp_path: Path) -> None:
    code = "import os, sys; print(os.getcwd(), os.environ['X']); sys.stderr.write('e')"
    seconds, done = timed([sys.executable, "-c", code], tmp_path, {"X": "y"})
    assert seconds > 0
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{tmp_path} y\n", "e")
    assert isinstance(done, subprocess.CompletedProcess)
