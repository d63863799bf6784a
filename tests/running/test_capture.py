"""The capture of a block's output, in this process: Python's writes, the C library's writes to
fds 1 and 2 in their place among them, the limit, and the block line each output line came from."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings

import pytest
from docverify.running.capture import Capture, OutputLimitError, drain_fds, redirect, show_warning

BLOCK = "<bloque>"


def run_block(code: str, capture: Capture) -> None:
    """`code` as the child runs it: compiled as the block's file, its output redirected."""
    with redirect(capture):
        exec(compile(code, BLOCK, "exec"), {"os": os})
        drain_fds(capture)


def test_the_limit_allows_exactly_limit_characters() -> None:
    capture = Capture(limit=5)
    assert capture.write("abc") == 3
    assert capture.write("de") == 2
    assert capture.value() == "abcde" and capture.size == 5
    with pytest.raises(OutputLimitError):
        capture.write("f")


def test_without_the_blocks_file_no_write_is_traced() -> None:
    capture = Capture(limit=100)
    capture.write("x\n")
    assert capture.writes == []
    assert capture.writable()


def test_each_write_is_traced_to_the_innermost_line_of_the_block() -> None:
    capture = Capture(limit=100, filename=BLOCK)
    code = "def f():\n    print('dentro')\n\nprint('fuera')\nf()\n"
    run_block(code, capture)
    assert capture.value() == "fuera\ndentro\n"
    # print writes the text and its newline apart: two writes each, at their offsets.
    assert capture.writes == [(0, 4), (5, 4), (6, 2), (12, 2)]
    assert capture.output_lines() == [4, 2, 2]


def test_a_write_from_outside_the_block_takes_the_running_statements_line() -> None:
    capture = Capture(limit=100, filename=BLOCK)
    capture.line = 7
    capture.write("motor\n")
    assert capture.writes == [(0, 7)]


def test_output_lines_split_as_the_text_is_normalised() -> None:
    capture = Capture(limit=100, filename=BLOCK)
    capture.line = 1
    capture.write("a\r\nb")
    capture.line = 2
    capture.write("c\rd\ne\n")
    # Lines: "a" (from 0), "bc" (from 3), "d" (from 6), "e" (from 8), "" (from 10).
    assert capture.output_lines() == [1, 1, 2, 2, 2]


def test_an_output_line_is_the_first_writers_even_when_another_line_ends_it() -> None:
    capture = Capture(limit=100, filename=BLOCK)
    capture.line = 1
    capture.write("a")
    capture.line = 2
    capture.write("b\nc\n")
    assert capture.output_lines() == [1, 2, 2]


def test_output_lines_before_any_traced_write_are_line_zero() -> None:
    capture = Capture(limit=100, filename=BLOCK)
    capture.parts.append("sin traza\n")  # text no traced write made (the engine's own)
    capture.size = 10
    capture.line = 3
    capture.write("luego\n")
    assert capture.output_lines() == [0, 3, 3]


def test_c_writes_come_in_order_among_pythons() -> None:
    capture = Capture(limit=100, filename=BLOCK)
    code = "print('a')\nos.write(1, b'fd1\\n')\nos.write(2, b'fd2\\n')\nprint('b')\n"
    run_block(code, capture)
    assert capture.value() == "a\nfd1\nfd2\nb\n"


# In a process whose C stdout is a pipe, so fully buffered (PYTHONUNBUFFERED would unbuffer it).
PRINTF = """
import ctypes
from docverify.running.capture import Capture, drain_fds, redirect
capture = Capture(limit=100)
with redirect(capture):
    ctypes.CDLL(None).printf(b"sin salto")
    print("b")
    drain_fds(capture)
print(repr(capture.value()))
"""


def test_the_c_librarys_buffer_is_flushed_before_draining() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env["PYTHONPATH"] = os.pathsep.join(sys.path)  # the engine this test imports
    done = subprocess.run(
        [sys.executable, "-c", PRINTF], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "'sin saltob\\n'\n"
    # Here too, with what reaches fd 1 unbuffered: mutmut runs, for a mutant, only the tests
    # that called its function in the test process.
    capture = Capture(limit=100)
    with redirect(capture):
        os.write(1, b"sin salto")
        print("b")
        drain_fds(capture)
    assert capture.value() == "sin saltob\n"


def test_redirect_puts_the_streams_and_fds_back() -> None:
    capture = Capture(limit=100)
    out, err = sys.stdout, sys.stderr
    with redirect(capture):
        assert sys.stdout is capture and sys.stderr is capture
        assert capture.spool is not None
    assert sys.stdout is out and sys.stderr is err
    assert capture.spool is None
    assert os.fstat(1) and os.fstat(2)


def test_c_output_over_the_limit_is_dropped_without_raising() -> None:
    capture = Capture(limit=3)
    with redirect(capture):
        os.write(1, b"demasiado\n")
        drain_fds(capture)
        assert capture.spool.tell() == 0  # drained: the spool is empty again
    assert capture.value() == ""


def test_a_drain_with_nothing_written_adds_nothing() -> None:
    capture = Capture(limit=100, filename=BLOCK)
    with redirect(capture):
        drain_fds(capture)
    assert capture.parts == [] and capture.writes == []


def test_a_warning_is_shown_as_category_and_message() -> None:
    capture = Capture(limit=100)
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = show_warning(capture)
        warnings.warn("cuidado", UserWarning, stacklevel=1)
    assert capture.value() == "UserWarning: cuidado\n"


def test_a_write_before_any_statement_ran_is_line_zero() -> None:
    capture = Capture(limit=100, filename=BLOCK)
    capture.write("antes\n")
    assert capture.writes == [(0, 0)]


def test_c_bytes_are_read_as_utf_8_and_what_is_not_utf_8_is_replaced() -> None:
    capture = Capture(limit=100)
    with redirect(capture):
        os.write(1, "ñandú\n".encode() + b"\xff\n")
        drain_fds(capture)
    assert capture.value() == "ñandú\n\ufffd\n"
