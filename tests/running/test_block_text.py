"""What the page shows of a block's exception and of its `# Expectativa:` comments, called here
on exceptions raised in this process (the child calls the same functions after running a block)."""

from __future__ import annotations

import json

import pytest
from docverify.running import block_text

BLOCK = "<bloque>"


def raised(code: str, filename: str = BLOCK) -> BaseException:
    """The exception that `code`, compiled as `filename`, raises."""
    try:
        exec(compile(code, filename, "exec"), {"json": json})
    except Exception as exc:
        return exc
    raise AssertionError("the code raised nothing")


def test_exception_line_is_type_and_whole_message_with_its_notes() -> None:
    exc = ValueError("primera\nsegunda")
    exc.add_note("una nota")
    assert block_text.exception_line(exc) == "ValueError: primera\nsegunda\nuna nota\n"


def test_exception_line_of_a_syntax_error_leaves_out_its_file_code_and_caret() -> None:
    try:
        compile("x = (1,\n", BLOCK, "exec")
    except SyntaxError as exc:
        line = block_text.exception_line(exc)
    assert line == "SyntaxError: '(' was never closed\n"


# Line 2 raises inside f, which line 3 calls: the innermost frame of the block is line 2.
NESTED = "def f():\n    raise KeyError('k')\nf()\n"
# The block's line 1 calls json, which raises in its own file: the block's frame is line 1.
ELSEWHERE = "json.loads('{')\n"


def test_raising_line_is_the_innermost_frame_of_the_block() -> None:
    assert block_text.raising_line(raised(NESTED), BLOCK) == 2
    assert block_text.raising_line(raised("\n\n" + ELSEWHERE), BLOCK) == 3


def test_raising_line_is_zero_when_no_frame_is_the_blocks() -> None:
    assert block_text.raising_line(raised(NESTED, "<otro>"), BLOCK) == 0
    exc = ValueError("sin traceback")
    assert block_text.raising_line(exc, BLOCK) == 0


def test_block_traceback_lists_the_blocks_frames_then_the_exception() -> None:
    source = NESTED.splitlines()
    assert block_text.block_traceback(raised(NESTED), BLOCK, source) == (
        "  <bloque>:3: f()\n  <bloque>:2: raise KeyError('k')\nKeyError: 'k'"
    )


def test_block_traceback_leaves_out_the_engines_frames_and_lines_past_the_source() -> None:
    exc = raised(ELSEWHERE)
    shown = block_text.block_traceback(exc, BLOCK, ["json.loads('{')"])
    assert shown == (
        "  <bloque>:1: json.loads('{')\n"
        "json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes:"
        " line 1 column 2 (char 1)"
    )
    # A source shorter than the frame's line (the last line exactly is kept, one past it is not).
    exc = raised(NESTED)
    assert block_text.block_traceback(exc, BLOCK, source=["f()", "raise"]) == (
        "  <bloque>:2: raise\nKeyError: 'k'"
    )
    assert block_text.block_traceback(exc, BLOCK, source=["f()"]) == "KeyError: 'k'"


SOURCE = (
    "x = (1 +  # Expectativa: 3\n     2)\nprint(x)  # Expectativa: 3\ny = 4  # Expectativa: nada\n"
)
# Statement spans: (first line, last line, where its output starts, where it ends).
SPANS = [(1, 2, 0, 0), (3, 3, 0, 2)]


def test_expectations_pair_each_comment_with_its_statements_output() -> None:
    assert block_text.expectations(SOURCE, SPANS, "3\n") == [
        {"line": 1, "expected": "3", "observed": ""},
        {"line": 3, "expected": "3", "observed": "3"},
        {"line": 4, "expected": "nada", "observed": None},
    ]


def test_expectations_comment_inside_a_statement_belongs_to_it() -> None:
    source = "print(  # Expectativa: 5\n    5,\n)\n"
    assert block_text.expectations(source, [(1, 3, 0, 2)], "5\n") == [
        {"line": 1, "expected": "5", "observed": "5"}
    ]
    source = "print(\n    5,  # Expectativa: 5\n)\n"
    assert block_text.expectations(source, [(1, 3, 0, 2)], "5\n") == [
        {"line": 2, "expected": "5", "observed": "5"}
    ]


@pytest.mark.parametrize(
    "source",
    [
        "a = 1  # Expectativa: 1\nb = (\n",  # tokenize: EOF in a multi-line statement
        "a = 1  # Expectativa: 1\nif a:\n        b = 1\n    c = 2\n",  # a dedent to no level
    ],
)
def test_expectations_of_text_tokenize_rejects_keep_the_comments_before(source: str) -> None:
    assert block_text.expectations(source, [(1, 1, 0, 2)], "1\n") == [
        {"line": 1, "expected": "1", "observed": "1"}
    ]


@pytest.mark.parametrize("message", ["con espacios al final  ", "en el eje X"])
def test_block_traceback_keeps_the_message_up_to_its_last_character(message: str) -> None:
    assert block_text.block_traceback(ValueError(message), BLOCK, []) == f"ValueError: {message}"
