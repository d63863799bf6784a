"""Record's second run (verifying/stability.py): only pages with something to write run again,
and the likely causes and the [..] a refusal suggests."""

from __future__ import annotations

import pytest
from conftest import Project
from docverify.parsing.pages import read_site
from docverify.running.executor import Executor
from docverify.verifying import compare, stability
from docverify.verifying.record import record
from docverify.verifying.verify import execute
from support.blocks import block

TOL = compare.Tolerance(1e-5, 1e-8)


@pytest.mark.usefixtures("local_author")  # record refuses under CI=true (.ci/run sets it)
def test_only_pages_with_a_new_or_changed_output_run_a_second_time(
    project: Project, executor: Executor
) -> None:
    """Each call of `run` is a run of its pages: the first of every page, then a second of
    those with something to write; once all is recorded, one run and nothing more."""
    project.page("nueva.md", block("print(1)", "uno"))
    project.page("igual.md", block("print(2)", "dos"))
    project.page("cambia.md", block("print(3)", "tres"))
    cfg = project.config
    record(cfg, [p for p in read_site(cfg) if p.rel != "nueva.md"], "cpu", executor)
    project.page("cambia.md", block("print(4)", "tres"))
    calls: list[list[str]] = []

    def counted(*args, **kwargs):
        calls.append(sorted(page.rel for page in args[1]))
        return execute(*args, **kwargs)

    done = record(cfg, read_site(cfg), "cpu", executor, run=counted)
    assert calls == [["cambia.md", "igual.md", "nueva.md"], ["cambia.md", "nueva.md"]]
    assert done.run_twice == 2 and len(done.written) == 2 and done.unchanged == 1
    calls.clear()
    again = record(cfg, read_site(cfg), "cpu", executor, run=counted)
    assert calls == [["cambia.md", "igual.md", "nueva.md"]] and again.run_twice == 0


def test_a_second_run_is_compared_as_check_compares_it() -> None:
    """Volatile values and [..] markers hold across the two runs; another number, a missing
    line or a failed second run do not, and each changed line is named with its index."""
    body = compare.merge(None, "<AddBackward0 object at 0x7f2c1a3b9e50>\n1", TOL)
    same = {"output": "<AddBackward0 object at 0x7f00000000aa>\n1", "error": None}
    assert stability.changed_lines(body, same, TOL) is None  # type: ignore[arg-type]
    assert stability.changed_lines("id [..]\n1", {"output": "id 42\n1", "error": None}, TOL) is None  # type: ignore[arg-type]
    other = {"output": "<AddBackward0 object at 0x7f00000000aa>\n2", "error": None}
    assert stability.changed_lines(body, other, TOL) == [(1, "1", "2")]  # type: ignore[arg-type]
    failed = {"output": "", "error": "Traceback\nValueError: x"}
    [*_, last] = stability.changed_lines("1", failed, TOL)  # type: ignore[arg-type]
    assert last[2] == "(falló: ValueError: x)"
    assert stability.changed_lines("1", None, TOL)


def test_a_second_run_that_prints_the_same_and_then_fails_is_unstable() -> None:
    """The failure alone tells the runs apart: same output, then an error (or no result at
    all), is a changed line after the last one, never a match."""
    same_then_error = {"output": "1", "error": "Traceback\nValueError: x"}
    assert stability.changed_lines("1", same_then_error, TOL) == [  # type: ignore[arg-type]
        (1, "", "(falló: ValueError: x)")
    ]
    assert stability.changed_lines("", {"output": "", "error": "boom"}, TOL) == [  # type: ignore[arg-type]
        (1, "", "(falló: boom)")
    ]
    assert stability.changed_lines("", None, TOL) == [(1, "", "(falló: sin resultado)")]
    assert stability.changed_lines("1", None, TOL) == [
        (0, "1", ""),
        (1, "", "(falló: sin resultado)"),
    ]
    # The other branch: the same output and no error is stable, also when it is empty.
    assert stability.changed_lines("1", {"output": "1", "error": None}, TOL) is None  # type: ignore[arg-type]
    assert stability.changed_lines("", {"output": "", "error": None}, TOL) is None  # type: ignore[arg-type]


def test_the_causes_named_are_those_the_code_shows() -> None:
    names = {
        "print(list(set(palabras)))": ["hash-order"],
        'print({"a", "b"})': ["hash-order"],
        "import uuid\nprint(uuid.uuid4())": ["os-random"],
        "import time\nprint(time.time())": ["clock"],
        "from concurrent.futures import ThreadPoolExecutor": ["threads"],
        'print(f"{x}")': [c.name for c in stability.CAUSES],  # nothing shows: all of them
    }
    for code, expected in names.items():
        assert [c.name for c in stability.likely_causes(code)] == expected, code


def test_the_marker_suggested_keeps_what_both_runs_printed() -> None:
    assert stability.marked("id: 31416a67 fin", "id: 9a5b8b63 fin") == "id: [..] fin"
    assert stability.marked("abc", "xyz") == "[..]"
    assert compare.line_matches(stability.marked("t=0.31 s", "t=0.29 s"), "t=0.77 s", TOL)
