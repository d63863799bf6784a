# The random streams a page's blocks draw from: one per session, as in a script.
"""Random state in a page's process: torch's (every device), numpy's and Python's generators,
seeded, saved and restored per session (child.py runs each block between `begin` and `end`)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy
import torch

from docverify.running.protocol import BlockSpec


@dataclass(frozen=True)
class RandomState:
    """The global random generators a block draws from: torch's CPU generator, CUDA's (only
    when CUDA is initialised, else None), numpy's global RandomState and Python's random."""

    torch_cpu: torch.Tensor
    torch_cuda: list[torch.Tensor] | None
    numpy: Any
    python: Any

    @classmethod
    def capture(cls) -> RandomState:
        cuda = torch.cuda.get_rng_state_all() if torch.cuda.is_initialized() else None
        return cls(torch.get_rng_state(), cuda, numpy.random.get_state(), random.getstate())

    def restore(self, seed: int) -> None:
        # Every device's generator at the seed first (lazily where CUDA is not initialised):
        # a session that never drew from CUDA continues it from the seed, as a script would.
        torch.manual_seed(seed)
        torch.set_rng_state(self.torch_cpu)
        if self.torch_cuda is not None:
            torch.cuda.set_rng_state_all(self.torch_cuda)
        numpy.random.set_state(self.numpy)
        random.setstate(self.python)


def seed_everything(seed: int) -> None:
    """What a script does once at its top: torch (every device), numpy and random seeded."""
    torch.manual_seed(seed)
    random.seed(seed)
    numpy.random.seed(seed)


class Streams:
    """One random stream per session, as in a script; a block without a session is its own.

    A session's stream is seeded before its first block and saved after each of its blocks,
    then restored before its next one: its blocks draw the numbers that one script running them
    in order, after one seed, would draw, whatever other blocks ran in between. A block without
    a session starts from the seed, and what it draws touches no session's stream.
    """

    def __init__(self) -> None:
        self.saved: dict[str, RandomState] = {}

    def begin(self, spec: BlockSpec) -> None:
        state = self.saved.get(spec["session"] or "")
        if state is None:
            seed_everything(spec["seed"])
        else:
            state.restore(spec["seed"])

    def end(self, spec: BlockSpec) -> None:
        if spec["session"]:
            self.saved[spec["session"]] = RandomState.capture()
