"""Python's string hashing as a new interpreter computes it with a given PYTHONHASHSEED."""

from __future__ import annotations

import os
import subprocess
import sys


def fresh_hash(seed: int, text: str = "docverify") -> str:
    """hash(`text`) in a new interpreter started with PYTHONHASHSEED=`seed`."""
    done = subprocess.run(
        [sys.executable, "-c", f"print(hash({text!r}))"],
        env={**os.environ, "PYTHONHASHSEED": str(seed)},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()
