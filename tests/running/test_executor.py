"""running.executor: which runner a machine can serve; one executor per process."""

from __future__ import annotations

import importlib.util
import math
import multiprocessing.forkserver
import multiprocessing.spawn
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import mkdocs_build
from docverify.running import executor as executor_mod
from docverify.running import forkserver_main, server_seed, worker
from docverify.running.executor import Executor
from docverify.running.page_process import PageJob, Running
from support.site import executed_fences


def test_gpu_runner_without_cuda_is_a_clear_error(executor: Executor) -> None:
    if executor.resolve_runner("auto") == "gpu":
        pytest.skip("esta máquina tiene CUDA")
    with pytest.raises(ValueError, match="CUDA no está disponible"):
        executor.resolve_runner("gpu")
    assert executor.resolve_runner("cpu") == "cpu"


def test_one_shared_executor_per_worker_count() -> None:
    """shared(): the same executor for the same number of workers (None: one per core)."""
    two = executor_mod.shared(2)
    assert executor_mod.shared(2) is two and two.workers == 2
    assert executor_mod.shared(None) is executor_mod.shared(os.cpu_count())
    assert executor_mod.shared(1) is not two and executor_mod.shared(1).workers == 1


@pytest.mark.slow
def test_builds_in_one_process_share_its_warm_workers(tmp_path: Path, small: Path) -> None:
    """Two sites built in this process (two paths: MkDocs loads each one's hooks module) run
    their blocks in the process's shared executor, on the same warm workers."""
    executor = executor_mod.shared()
    blocks = executed_fences(small)
    assert blocks
    workers = set()
    for n in range(2):
        root = Path(shutil.copytree(small, tmp_path / f"src{n}"))
        before = executor.executed
        done = mkdocs_build(root, tmp_path / f"site{n}")  # cache off: every block runs
        assert done.returncode == 0, done.stderr
        assert executor.executed - before == blocks
        workers.add(frozenset(z.process.pid for z in executor._idle))
    assert len(workers) == 1, workers  # no worker was started for the second build


def _ended(script: str) -> subprocess.CompletedProcess[str]:
    """`script` run by a new interpreter that imported server_exit as the fork server does,
    after registering an atexit hook that says when the interpreter's teardown runs."""
    preamble = (
        "import atexit, os, sys\n"
        "atexit.register(lambda: print(f'teardown {os.getpid()}', flush=True))\n"
        "import docverify.running.server_exit\n"
    )
    return subprocess.run(
        [sys.executable, "-c", preamble + script],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_fork_server_ends_without_the_interpreters_teardown() -> None:
    """running/server_exit.py, preloaded last by every fork server: the server ends at once,
    with status 0, or 1 after an uncaught exception; a process forked from it keeps its
    teardown and its own status."""
    assert executor_mod.PRELOAD[-1] == "docverify.running.server_exit"
    done = _ended("print('servido', flush=True)\n")
    assert (done.returncode, done.stdout) == (0, "servido\n"), done
    failed = _ended("raise RuntimeError('roto')\n")
    assert failed.returncode == 1 and "RuntimeError: roto" in failed.stderr, failed
    assert "teardown" not in failed.stdout, failed
    forked = _ended(
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    sys.exit(3)\n"
        "print('hijo', pid, os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), flush=True)\n"
    )
    child = forked.stdout.split()[1]
    assert forked.returncode == 0 and forked.stdout.splitlines() == [
        f"teardown {child}",
        f"hijo {child} 3",
    ], forked


# A worker of its own (nothing another test ran has warmed it), in its own interpreter.
OPTIMIZER = """
from docverify.running.executor import Executor, PageJob
from support.blocks import spec

probe = "import sys\\nprint('torch._dynamo' in sys.modules)\\n"
executor = Executor(workers=1)
trains = "# con torch.optim\\n" + probe
for page, code in (("antes", probe), ("entrena", trains), ("despues", probe)):
    [result] = executor.run([PageJob(page, "cpu", [spec(code, key=page + "/b")])]).values()
    print(page, result["output"].strip(), result["error"])
"""


def test_a_worker_makes_an_optimizer_once_for_the_pages_that_train() -> None:
    """An optimizer's first import (torch._dynamo, ~1 s of CPU) happens in the warm worker, before
    it forks the first page whose code uses `torch.optim`; every later page shares it. A page
    that never mentions an optimizer does not pay for it."""
    tests = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, "-c", OPTIMIZER],
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(tests), *sys.path])},
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.split("\n")[:3] == [
        "antes False None",
        "entrena True None",
        "despues True None",
    ]


def test_workers_none_or_zero_mean_one_per_core_and_never_fewer_than_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 6)
    assert [executor_mod.worker_count(n) for n in (None, 0, 1, 3, -2)] == [6, 6, 1, 3, 1]
    monkeypatch.setattr(os, "cpu_count", lambda: None)  # unknown: one
    assert executor_mod.worker_count(None) == 1


def test_every_module_the_fork_server_preloads_exists() -> None:
    assert all(importlib.util.find_spec(name) for name in executor_mod.PRELOAD)


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> Executor:
    """A new executor that never starts a child: what it would ask one is in `fresh.asked`."""
    monkeypatch.setenv(forkserver_main.ENV, "")  # Executor() sets it: restored after
    executor = Executor(3, python="/otro/python", path=("/motor",))
    asked: list[tuple] = []

    def ask(target: Any, timeout: float, default: Any) -> Any:
        # A child that never answers must not hang the build: a finite wait, always.
        assert isinstance(timeout, int | float) and 0 < timeout < math.inf, timeout
        asked.append((target, default))
        return executor.answer  # type: ignore[attr-defined]

    executor.asked = asked  # type: ignore[attr-defined]
    executor._ask = ask  # type: ignore[method-assign]
    return executor


def test_a_new_executor_has_its_settings_and_has_run_nothing(fresh: Executor) -> None:
    assert (fresh.workers, fresh.python, fresh._path) == (3, "/otro/python", ["/motor"])
    assert fresh.executed == 0 and fresh._idle == []
    assert fresh.ctx.get_start_method() == "forkserver"  # children never fork this process
    assert os.environ[forkserver_main.ENV] == forkserver_main.main_identity()


@pytest.mark.parametrize(("cuda", "auto"), [(1, "gpu"), (None, "cpu"), (0, "cpu")])
def test_the_runner_a_machine_serves_is_asked_of_a_child_once(
    fresh: Executor, cuda: Any, auto: str
) -> None:
    fresh.answer = cuda  # type: ignore[attr-defined]
    assert fresh.resolve_runner("cpu") == "cpu" and fresh.asked == []  # cpu asks nothing
    assert fresh.resolve_runner("auto") == auto == fresh.resolve_runner("auto")
    assert fresh.asked == [(worker.probe, False)]  # once; no answer means no CUDA
    if cuda:
        assert fresh.resolve_runner("gpu") == "gpu"
        return
    with pytest.raises(ValueError) as raised:
        fresh.resolve_runner("gpu")
    assert str(raised.value) == (
        "se pidió el runner gpu, pero CUDA no está disponible en esta máquina "
        "(torch.cuda.is_available() es False). Usa --runner cpu o ejecuta en una máquina con GPU."
    )


def test_the_identity_is_what_a_child_says_or_nothing(fresh: Executor) -> None:
    fresh.answer = [("python", "/otro/python"), ("torch", "2.0")]  # type: ignore[attr-defined]
    assert fresh.identity() == {"python": "/otro/python", "torch": "2.0"}
    assert fresh.asked == [(worker.identify, {})]


def test_the_fork_servers_interpreter_and_path_last_only_while_it_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    executable = multiprocessing.spawn.get_executable()
    for before in (None, "/antes"):
        if before is None:
            monkeypatch.delenv("PYTHONPATH", raising=False)
        else:
            monkeypatch.setenv("PYTHONPATH", before)
        monkeypatch.setenv(forkserver_main.OWN_PATH, "previo")
        with executor_mod._server_interpreter("/otro/python", ["/a", "/b"]):
            assert os.fsdecode(multiprocessing.spawn.get_executable()) == "/otro/python"
            wanted = ["/a", "/b", *([before] if before else [])]
            assert os.environ["PYTHONPATH"] == os.pathsep.join(wanted)
            assert os.environ[forkserver_main.OWN_PATH] == "1"
        assert multiprocessing.spawn.get_executable() == executable
        assert os.environ.get("PYTHONPATH") == before
        assert os.environ[forkserver_main.OWN_PATH] == "previo"
    monkeypatch.delenv(forkserver_main.OWN_PATH)
    with executor_mod._server_interpreter("/otro/python", []):
        pass
    assert forkserver_main.OWN_PATH not in os.environ


@pytest.mark.parametrize("python", [None, "/otro/python"])
def test_the_fork_server_starts_with_the_seed_and_the_interpreter_asked_for(
    fresh: Executor, monkeypatch: pytest.MonkeyPatch, python: str | None
) -> None:
    """_start_server, with multiprocessing's fork server and server_seed stood in for."""
    seen: list[tuple] = []
    monkeypatch.setattr(server_seed, "wanted", lambda seed: seen.append(("wanted", seed)) or 41)
    monkeypatch.setattr(server_seed, "started", lambda seed: seen.append(("started", seed)))
    monkeypatch.setattr(
        multiprocessing.forkserver,
        "ensure_running",
        lambda: seen.append(
            (
                "running",
                os.environ["PYTHONHASHSEED"],
                os.fsdecode(multiprocessing.spawn.get_executable()),
                os.environ.get(forkserver_main.OWN_PATH),
            )
        ),
    )
    monkeypatch.setenv("PYTHONHASHSEED", "antes")
    monkeypatch.delenv(forkserver_main.OWN_PATH, raising=False)
    executable = os.fsdecode(multiprocessing.spawn.get_executable())
    fresh.python = python
    fresh._start_server(7)
    fresh._start_server()
    own = None if python is None else "1"
    running = ("running", "41", python or executable, own)
    once = [("wanted", 7), running, ("started", 41)]
    assert seen == [*once, ("wanted", None), *once[1:]]
    assert os.environ["PYTHONHASHSEED"] == "antes"


def test_killing_a_page_process_is_a_sigkill_and_a_gone_one_is_no_error() -> None:
    process = subprocess.Popen(["sleep", "60"])
    state = Running(job=PageJob("p", "cpu", []), zygote=None)
    Executor._kill(state)  # no pid yet: nothing to kill
    state.pid = process.pid
    Executor._kill(state)
    assert process.wait(10) == -signal.SIGKILL
    Executor._kill(state)  # already gone (reaped)
