"""running.watchdog: a block near its time limit says which of its lines it runs, and a
timeout's finding points there instead of at the block's first line."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace
from typing import Any

from conftest import Project
from docverify.core.kinds import Kind
from docverify.running import protocol, watchdog
from docverify.running.executor import Executor
from support.blocks import block, run, spec

LOOP = "x = 1\n\n\ndef espera():\n    while True:\n        time.sleep(0.01)\n\n\nespera()\n"


class Sent:
    """A connection that keeps what is sent on it."""

    def __init__(self) -> None:
        self.messages: list[tuple[Any, ...]] = []

    def send(self, message: tuple[Any, ...]) -> None:
        self.messages.append(message)


def _loop_line(code: str) -> int:
    return code.split("\n").index("        time.sleep(0.01)") + 1


def _in_thread(code: str, filename: str, seconds: float) -> tuple[threading.Thread, dict]:
    """`code` compiled as `filename`, run in a thread for about `seconds`."""
    stop = time.monotonic() + seconds
    namespace: dict[str, Any] = {"time": time}
    body = code.replace("while True:", "while time.monotonic() < STOP:")
    namespace["STOP"] = stop
    thread = threading.Thread(target=exec, args=(compile(body, filename, "exec"), namespace))
    thread.start()
    return thread, namespace


def test_current_line_is_the_innermost_line_of_the_blocks_file() -> None:
    thread, _ = _in_thread(LOOP, "bloque.py", 1.0)
    time.sleep(0.2)
    try:
        assert watchdog.current_line(thread.ident or 0, "bloque.py") == _loop_line(LOOP)
        assert watchdog.current_line(thread.ident or 0, "otro.py") == 0
    finally:
        thread.join()


def test_current_line_walks_out_of_another_files_code_to_the_blocks_line() -> None:
    """The block calls code of another file that runs on: its own line is the call's."""
    namespace: dict[str, Any] = {"time": time, "STOP": time.monotonic() + 1.0}
    exec(compile(LIBRARY, "otro.py", "exec"), namespace)
    thread = threading.Thread(target=exec, args=(compile(CALLER, "bloque.py", "exec"), namespace))
    thread.start()
    time.sleep(0.2)
    try:
        assert watchdog.current_line(thread.ident or 0, "bloque.py") == 3  # gira()
    finally:
        thread.join()


def test_current_line_of_a_frame_between_lines_is_none() -> None:
    """A frame whose line Python does not know (f_lineno None) gives 0, no made-up line."""
    code = SimpleNamespace(co_filename="bloque.py")
    frame = SimpleNamespace(f_code=code, f_lineno=None, f_back=None)
    assert watchdog.current_line(7, "bloque.py", {7: frame}) == 0
    assert watchdog.current_line(8, "bloque.py", {7: frame}) == 0
    frame.f_lineno = 4
    assert watchdog.current_line(7, "bloque.py", {7: frame}) == 4


LIBRARY = "def gira():\n    while time.monotonic() < STOP:\n        time.sleep(0.01)\n"
CALLER = "x = 1\n\ngira()\n"


def test_a_block_near_its_limit_sends_its_line_once() -> None:
    conn = Sent()
    code = LOOP.replace("while True:", "while time.monotonic() < STOP:")
    with watchdog.watching(conn, spec(code, filename="b.py", timeout=0.3)):  # type: ignore[arg-type]
        exec(compile(code, "b.py", "exec"), {"time": time, "STOP": time.monotonic() + 0.8})
    assert conn.messages == [(protocol.RUNNING, "p/b", _loop_line(LOOP))]


def test_a_block_done_before_its_limit_sends_nothing() -> None:
    conn = Sent()
    with watchdog.watching(conn, spec("x = 1", timeout=0.3)):  # type: ignore[arg-type]
        pass
    time.sleep(0.5)
    assert conn.messages == []


def test_a_timeout_points_at_the_line_the_block_ran(project: Project, executor: Executor) -> None:
    page = project.page("a.md", "# A\n\n" + block("import time\n" + LOOP, "bucle", ' timeout="1"'))
    report = run(project, executor)
    [finding] = [f for f in report.findings if f.kind is Kind.EXECUTION_FAILURE]
    assert "tiempo límite de 1 s" in finding.message, finding.message
    assert (
        page.read_text(encoding="utf-8").split("\n")[finding.line - 1] == "        time.sleep(0.01)"
    )
    assert f"corrige el código en {finding.path}:{finding.line};" in finding.fix, finding.fix
