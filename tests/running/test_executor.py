"""running.executor: which runner a machine can serve."""

from __future__ import annotations

import pytest
from docverify.running.executor import Executor


def test_gpu_runner_without_cuda_is_a_clear_error(executor: Executor) -> None:
    if executor.resolve_runner("auto") == "gpu":
        pytest.skip("esta máquina tiene CUDA")
    with pytest.raises(ValueError, match="CUDA no está disponible"):
        executor.resolve_runner("gpu")
    assert executor.resolve_runner("cpu") == "cpu"
