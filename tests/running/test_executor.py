"""running.executor: which runner a machine can serve; one executor per process."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import mkdocs_build
from docverify.running import executor as executor_mod
from docverify.running.executor import Executor
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
