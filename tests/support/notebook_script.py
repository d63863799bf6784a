"""A downloaded notebook's code cells run in order as one script in a new interpreter."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any


def run_cells(
    notebook: dict[str, Any], folder: Path, hash_seed: str | None = None
) -> dict[str, str]:
    """What each code cell printed, by cell id, the cells run in order as one script in
    `folder` (started with PYTHONHASHSEED=`hash_seed` when given)."""
    script = [
        f"print('<<{cell['id']}>>')\n{cell['source']}\n"
        for cell in notebook["cells"]
        if cell["cell_type"] == "code"
    ]
    env = {**os.environ, **({"PYTHONHASHSEED": hash_seed} if hash_seed is not None else {})}
    done = subprocess.run(
        [sys.executable, "-c", "\n".join(script)],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    printed: dict[str, str] = {}
    cell = ""
    for line in done.stdout.splitlines():
        if found := re.fullmatch(r"<<([\w-]+)>>", line):
            cell = found.group(1)
            printed[cell] = ""
        else:
            printed[cell] += line + "\n"
    return printed
