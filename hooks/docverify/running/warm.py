"""Warm-up of a warm worker: one throwaway block run before it forks any page process."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from docverify.core import policies
from docverify.running.child import run_block

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
