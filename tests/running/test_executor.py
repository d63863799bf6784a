"""running.executor: which runner a machine can serve; one executor per process."""

from __future__ import annotations

import os
import shutil
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
