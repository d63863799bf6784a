"""Device policy on the gpu runner: the set-up plan, and the page process applying it."""

from __future__ import annotations

import multiprocessing
from typing import Any

import pytest
import torch
from docverify.core.policies import AS_WRITTEN, DEFAULT_CUDA
from docverify.running import child, setup
from docverify.running.protocol import BlockSpec

# A tutorial's way (PyTorch's «Tensors»): move to cuda only when there is one, then .numpy()
# on a tensor created without naming a device, which is only right if it lives on the CPU.
MANAGES_ITS_DEVICES = """\
import torch
tensor = torch.ones(2, 2)
if torch.cuda.is_available():
    tensor = tensor.to("cuda")
print(tensor.sum().item())
t = torch.ones(3)
print(t.numpy())
"""


def spec(key: str, code: str, policy: str) -> BlockSpec:
    return {
        "key": key,
        "code": code,
        "filename": f"{key}.py",
        "first_line": 1,
        "session": "s",
        "timeout": 60.0,
        "output_limit": 10_000,
        "seed": 0,
        "hash_seed": 0,
        "device_policy": policy,
        "show_last_value": False,
    }


@pytest.mark.parametrize(
    ("runner", "policy", "device"),
    [
        ("gpu", DEFAULT_CUDA, "cuda"),
        ("gpu", AS_WRITTEN, None),
        ("cpu", DEFAULT_CUDA, None),
        ("cpu", AS_WRITTEN, None),
    ],
)
def test_plan_sets_cuda_as_default_only_on_gpu_under_default_cuda(
    runner: str, policy: str, device: str | None
) -> None:
    assert setup.for_policy(runner, policy) == setup.Setup(default_device=device)


def test_plan_refuses_an_unknown_policy() -> None:
    with pytest.raises(ValueError, match="unknown device policy"):
        setup.for_policy("gpu", "cuda")


def run_page_here(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any, runner: str, specs: list[BlockSpec]
) -> dict[str, Any]:
    """Run child.run_page in this process (no GPU needed: the environment is not asked)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(child, "environment", lambda r: {"torch": "", "python": "", "device": r})
    receiver, sender = multiprocessing.Pipe(duplex=False)
    try:
        child.run_page(sender, {"runner": runner, "blocks": specs})
    finally:
        torch.set_default_device(None)  # whatever the page set, this test process is left clean
    results = {}
    while True:
        try:
            message = receiver.recv()
        except EOFError:  # run_page closed its end: every message has been read
            return results
        if message[0] == "done":
            results[message[1]] = message[2]


def test_as_written_block_runs_its_numpy_call_on_the_gpu_runner(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    results = run_page_here(
        monkeypatch,
        tmp_path,
        "gpu",
        [spec("p/escrito", MANAGES_ITS_DEVICES, AS_WRITTEN)],
    )
    result = results["p/escrito"]
    assert result["exception"] is None, result["traceback"]
    assert result["error"] is None
    assert result["output"] == "4.0\n[1. 1. 1.]\n"


def test_default_cuda_block_creates_its_tensors_on_cuda(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """The same block under default-cuda: torch.ones(3) goes to cuda, so it cannot pass.

    With a GPU, `.numpy()` of a cuda tensor raises TypeError; without one, creating a tensor on
    cuda raises. Either way the policy reached the page process.
    """
    code = MANAGES_ITS_DEVICES + "print(torch.ones(1).device.type)\n"
    results = run_page_here(monkeypatch, tmp_path, "gpu", [spec("p/cuda", code, DEFAULT_CUDA)])
    assert results["p/cuda"]["exception"] is not None
    if not torch.cuda.is_available():
        # A +cpu torch: «Torch not compiled with CUDA enabled»; a CUDA torch with no GPU: «Found
        # no NVIDIA driver on your system».
        exception = results["p/cuda"]["exception"]
        assert any(word in exception for word in ("CUDA", "cuda", "NVIDIA")), exception


def test_policies_switch_per_block_and_torch_is_touched_only_on_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[str | None] = []
    monkeypatch.setattr(child.torch, "set_default_device", calls.append)
    policies = [DEFAULT_CUDA, DEFAULT_CUDA, AS_WRITTEN, AS_WRITTEN, DEFAULT_CUDA]
    for runner, expected in (("gpu", ["cuda", None, "cuda"]), ("cpu", [])):
        calls.clear()
        current = setup.Setup(default_device=None)
        for policy in policies:
            current = child.apply_setup(setup.for_policy(runner, policy), current)
        assert calls == expected, runner


def test_cpu_page_keeps_a_blocks_own_default_device_for_the_next(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """Nothing resets torch's default between blocks of a page: a block may set it for later."""
    first = "import torch\ntorch.set_default_device('meta')\n"
    second = "import torch\nprint(torch.ones(1).device)\n"
    results = run_page_here(
        monkeypatch,
        tmp_path,
        "cpu",
        [spec("p/a", first, AS_WRITTEN), spec("p/b", second, DEFAULT_CUDA)],
    )
    assert results["p/b"]["output"] == "meta\n"
