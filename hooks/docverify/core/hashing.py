"""Python's string hashing, fixed for every process that runs blocks (PYTHONHASHSEED).

Iterating a set of strings, or a dict built from one, follows the strings' hashes, and Python
salts them with a secret it draws when the interpreter starts, unless PYTHONHASHSEED fixes it.
The secret is read once, at start: setting the variable later changes nothing in that process,
and a forked process keeps its parent's secret. So the variable must be in the environment of
each interpreter that starts: the fork server (running/executor.py, whose warm workers and page
processes are forks of it), another interpreter of the canary (the same fork server, started
with that interpreter), a pytest worker (integrations/pytest_plugin.py) and a notebook's kernel
(the notebook tells its reader). One setting, `hash_seed` in [tool.docverify], gives the value.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator

ENV = "PYTHONHASHSEED"
# What PYTHONHASHSEED accepts: 0 (no salt at all) to 4294967295.
MAXIMUM = 2**32 - 1
# This interpreter's value at start. Imported by the fork server while it preloads (before any
# block could touch os.environ), so its forks read here the value their secret came from.
STARTED_WITH = os.environ.get(ENV)


@contextlib.contextmanager
def starting_with(seed: int) -> Iterator[None]:
    """While inside: PYTHONHASHSEED=`seed` in this process's environment, so that an interpreter
    started meanwhile (a fork server, a pytest worker) hashes with it; restored after."""
    before = os.environ.get(ENV)
    os.environ[ENV] = str(seed)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(ENV, None)
        else:
            os.environ[ENV] = before


def mismatch(seed: int, started_with: str | None = None) -> str | None:
    """Why this interpreter does not hash strings with `seed` (in Spanish), or None when it
    does. `started_with`: the value it started with (this interpreter's, by default)."""
    value = STARTED_WITH if started_with is None else started_with
    if sys.flags.ignore_environment:
        return (
            f"este intérprete arrancó con -E o -I, que ignoran {ENV}: el orden de un set de "
            "cadenas cambiaría de una ejecución a otra"
        )
    if value != str(seed):
        return (
            f"este intérprete arrancó con {ENV}={value if value else '(sin fijar)'}, no con "
            f"{ENV}={seed} (hash_seed de [tool.docverify]): el orden de un set de cadenas "
            "cambiaría de una ejecución a otra"
        )
    return None
