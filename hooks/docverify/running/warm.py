"""Warm-up of a warm worker: one throwaway block run before it forks any page process, and
what the pages it forks would each set up again (an optimizer's first import)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import torch

from docverify.core import policies
from docverify.running.child import run_block
from docverify.running.protocol import PageTask

_WARM_UP = """\
import warnings
import torch
x = torch.arange(6.0, requires_grad=True).reshape(2, 3)
(x * x).sum().backward()
print(x.grad, x.grad.tolist(), repr(x.sum()))  # Expectativa: 0
warnings.warn("warm")
raise ValueError("warm")
"""


def warm_up() -> None:
    """Run one throwaway block, so that lazy set-up happens once here, not in every page.

    Called by each warm worker before it forks page processes: the first tensor repr, autograd
    call, warning, traceback and tokenize pass fill caches that a forked page then shares
    instead of rebuilding (and copying on write). CPU only: CUDA must stay uninitialised here.
    """
    with tempfile.TemporaryDirectory(prefix="docverify-warm-") as folder:
        here = Path.cwd()
        os.chdir(folder)
        try:
            run_block(
                {
                    "key": "<warm-up>",
                    "code": _WARM_UP,
                    "filename": "<warm-up>",
                    "first_line": 1,
                    "output_limit": 100_000,
                    "seed": 0,
                    "hash_seed": 0,  # not checked here: only run_page checks a page's seed
                    "session": None,
                    "timeout": 60.0,
                    "device_policy": policies.DEFAULT_CUDA,
                    "show_last_value": True,
                },
                {},
            )
        finally:
            os.chdir(here)


_ready: set[str] = set()  # what this worker has already set up for the pages it forks


def for_page(job: PageTask) -> None:
    """Before forking a page whose code uses `torch.optim`: make one optimizer here, once.

    An optimizer's class imports torch._dynamo the first time one is made (~1.3 s of CPU on
    this machine): in every page process that trains a model, which start from this worker.
    Made here, the import is done once per worker and every later page shares it. A page that
    never mentions an optimizer does not pay for it (most of a test suite's small pages).
    """
    if "optim" in _ready or not any("optim" in block["code"] for block in job["blocks"]):
        return
    torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
    _ready.add("optim")
