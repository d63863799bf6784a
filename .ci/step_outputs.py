"""What .ci/gpu-runner.py and .ci/shards.py share as GitHub Actions steps that read a repository
variable: a malformed value is one `::error` workflow command (the run fails there, with the
Spanish message the reader acts on), otherwise the decision's line is printed and its outputs
appended to $GITHUB_OUTPUT. Python's standard library only (it runs before anything is
installed); imported from its sibling scripts, whose folder Python puts on sys.path.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path

Decision = tuple[Mapping[str, str], str]  # (step outputs, the line the log shows)


def run(
    decide: Callable[[dict[str, str]], Decision],
    variable: str,
    malformed: type[Exception],
    expected: str,
) -> int:
    """The step's exit status: 1 with the `::error` command when `decide` finds the value of
    `variable` malformed (`expected` says what it must be and where to fix it), else 0 once the
    outputs are written."""
    try:
        outputs, line = decide(dict(os.environ))
    except malformed as problem:
        # Workflow commands are read from standard output: this one marks the run as failed here.
        print(
            f"::error title={variable} mal formada::la variable del repositorio {variable} está "
            f"mal formada: {problem}. {expected}"
        )
        return 1
    print(line)
    path = os.environ.get("GITHUB_OUTPUT")
    if not path:
        print("::error::falta GITHUB_OUTPUT: este guion es un paso de GitHub Actions")
        return 1
    with Path(path).open("a", encoding="utf-8") as out:
        for key, value in outputs.items():
            out.write(f"{key}={value}\n")
    return 0
