"""Preloaded by the fork server only: spare every page process a re-import of the main module.

multiprocessing re-runs the parent's main script (or `-m` module) in each new process so that
objects defined there can be unpickled. Page processes never receive such objects (their target
lives in docverify.running.worker, their arguments are plain data), yet the re-import cost about
30-60 ms per page (`mkdocs`, `docverify`). Python 3.12+ fixes the fork server's own '__main__'
preload; 3.11 ignores it. So the server's `__main__` is made to look like the parent's (same
file or module name, not executed): a forked child then sees its main as already in place.
"""

from __future__ import annotations

import importlib.machinery
import multiprocessing
import os
import sys
import types

ENV = "DOCVERIFY_PARENT_MAIN"  # "path:<file>" or "name:<module>", set by Executor
# Set when the fork server is another interpreter (docverify canary): see keep_own_path.
OWN_PATH = "DOCVERIFY_OWN_SYS_PATH"
_server_path = list(sys.path)  # the fork server's own sys.path, when it preloads this module


def keep_own_path() -> None:
    """In a child of a fork server that runs another interpreter, put back its own sys.path.

    multiprocessing gives every child the parent's sys.path (spawn.prepare), which would make
    what a block imports later (a lazily imported submodule of numpy, sympy for torch) come
    from the parent's site-packages instead of that interpreter's. Only with OWN_PATH: the
    engine's own fork server keeps multiprocessing's behaviour.
    """
    if os.environ.get(OWN_PATH) == "1":
        sys.path[:] = _server_path


def _stand_in(identity: str) -> None:
    kind, _, value = identity.partition(":")
    if not value:
        return
    main = types.ModuleType("__mp_main__")
    if kind == "name":
        main.__spec__ = importlib.machinery.ModuleSpec(value, None)
    elif kind == "path":
        main.__file__ = value
    else:
        return
    sys.modules["__main__"] = sys.modules["__mp_main__"] = main


def main_identity() -> str:
    """How multiprocessing names this process's main module (see forkserver_main)."""
    main = sys.modules.get("__main__")
    name = getattr(getattr(main, "__spec__", None), "name", None)
    if name:
        return f"name:{name}"
    path = getattr(main, "__file__", None)
    if not path:
        return ""
    # Built exactly as multiprocessing.spawn.get_preparation_data builds it: compared as text.
    if not os.path.isabs(path) and multiprocessing.process.ORIGINAL_DIR is not None:  # noqa: PTH117
        path = os.path.join(multiprocessing.process.ORIGINAL_DIR, path)  # noqa: PTH118
    return f"path:{os.path.normpath(path)}"


_stand_in(os.environ.get(ENV, ""))
