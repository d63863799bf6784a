"""Run the `mkdocs` and `docverify` commands inside the test process, as their console scripts do.

A command run here goes through the same entry point (MkDocs' click command, docverify's
`main`), arguments, configuration, plugins and hooks as in a new process; what it prints is
captured and returned as a `subprocess.CompletedProcess`. What it saves: importing MkDocs, its
plugins and the engine again (~2 s of CPU), and starting a fork server that imports torch again
(~3 s): every build shares this process's warm executor (docverify.running.executor.shared), as
`mkdocs serve` rebuilds do. The console scripts themselves stay covered by the tests that start
them (the session's strict build, `docverify new` and `record` of the authored site, serve,
the benchmark).

While a command runs, the process's working folder and environment are the command's:
pytest-xdist runs one test at a time per process, so nothing else sees them.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import subprocess
import sys
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path


@contextlib.contextmanager
def _as_command(cwd: Path, env: dict[str, str]) -> Iterator[None]:
    """Run the body in `cwd` with exactly `env` as the environment; restore both after."""
    before_env, before_cwd = dict(os.environ), Path.cwd()
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    try:
        yield
    finally:
        os.chdir(before_cwd)
        os.environ.clear()
        os.environ.update(before_env)


def _run(
    name: str,
    args: list[str],
    cwd: Path,
    env: dict[str, str],
    call: Callable[[], int | None],
    stdin: str = "",
) -> subprocess.CompletedProcess[str]:
    out, err = io.StringIO(), io.StringIO()
    before_stdin = sys.stdin
    # What was typed, through a pipe: not a terminal, and with a byte stream below, as MkDocs
    # expects of sys.stdin.
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8")
    with (
        _as_command(cwd, env),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        try:
            code = call() or 0
        except SystemExit as exc:  # what the console script would exit with
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except Exception:  # an uncaught exception: Python prints it and exits with 1
            traceback.print_exc()
            code = 1
        finally:
            sys.stdin = before_stdin
    return subprocess.CompletedProcess([name, *args], code, out.getvalue(), err.getvalue())


def mkdocs(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`mkdocs ARGS` in `cwd` with `env`, in this process."""
    from mkdocs.__main__ import cli  # noqa: PLC0415 - only tests that build import MkDocs

    logger = logging.getLogger("mkdocs")
    handlers, level, propagate = list(logger.handlers), logger.level, logger.propagate
    try:
        # Click always exits (SystemExit) in standalone mode, as the console script does.
        return _run("mkdocs", args, cwd, env, lambda: cli.main(args, "mkdocs"))
    finally:
        # The command's log handler writes to the captured stream: remove it, whatever MkDocs
        # left (it removes its handler only when its state object is collected).
        for handler in logger.handlers:
            if handler not in handlers:
                logger.removeHandler(handler)
        logger.setLevel(level)
        logger.propagate = propagate


def docverify(
    args: list[str], cwd: Path, env: dict[str, str], stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """`docverify ARGS` in `cwd` with `env` (and `stdin` typed), in this process."""
    from docverify.cli.main import main  # noqa: PLC0415

    return _run("docverify", args, cwd, env, lambda: main(args), stdin)


def command(
    name: str,
    args: list[str],
    cwd: Path,
    env: dict[str, str],
    *,
    new_process: bool = False,
    timeout: int = 600,
) -> subprocess.CompletedProcess[str]:
    """`NAME ARGS` (mkdocs or docverify): here, or with `new_process` its console script."""
    if not new_process:
        return {"mkdocs": mkdocs, "docverify": docverify}[name](args, cwd, env)
    return subprocess.run(
        [str(Path(sys.executable).parent / name), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=timeout,
    )
