"""What a page process sets up before each block, as a plan: pure, so tests read it without a GPU.

The gpu runner guarantees a CUDA machine. Under the `default-cuda` policy (the default) it also
makes cuda the default device, so code that never names a device (`torch.ones(2)`) runs on the
GPU: that is what gives the GPU recording its meaning. Under `as-written` the code decides where
tensors go, as in a tutorial that writes `if torch.cuda.is_available(): x = x.to("cuda")` and
later calls `.numpy()` on a CPU tensor. The cpu runner never sets a default device. The child
applies the plan only when it changes from the previous block's, so a page whose blocks share
a policy is set up once, before its first block, as it always was.
"""

from __future__ import annotations

from dataclasses import dataclass

from docverify.core.policies import DEFAULT_CUDA
from docverify.running.protocol import DEVICE_POLICIES


@dataclass(frozen=True)
class Setup:
    """The global state a page process gives a block before running it."""

    default_device: str | None  # for torch.set_default_device; None: torch's own (cpu)


def for_policy(runner: str, policy: str) -> Setup:
    """The set-up of a block of device policy `policy` on `runner` (cpu or gpu)."""
    if policy not in DEVICE_POLICIES:
        raise ValueError(f"unknown device policy {policy!r}; expected one of {DEVICE_POLICIES}")
    if runner == "gpu" and policy == DEFAULT_CUDA:
        return Setup(default_device="cuda")
    return Setup(default_device=None)
