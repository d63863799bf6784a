"""The set-up plan of a block: cuda as the default device only on the gpu runner and only under
the default policy (the author guide's «cuda por defecto»)."""

from __future__ import annotations

import pytest
from docverify.running.setup import Setup, for_policy


@pytest.mark.parametrize(
    ("runner", "policy", "device"),
    [
        ("gpu", "default-cuda", "cuda"),
        ("gpu", "as-written", None),
        ("cpu", "default-cuda", None),
        ("cpu", "as-written", None),
    ],
)
def test_only_the_gpu_runner_under_the_default_policy_sets_cuda(
    runner: str, policy: str, device: str | None
) -> None:
    assert for_policy(runner, policy) == Setup(default_device=device)


def test_an_unknown_policy_is_refused_with_the_known_ones() -> None:
    with pytest.raises(ValueError) as raised:
        for_policy("gpu", "cuda")
    assert str(raised.value) == (
        "unknown device policy 'cuda'; expected one of ('default-cuda', 'as-written')"
    )
