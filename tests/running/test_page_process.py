"""A page process that ended early (running/page_process.died): which blocks fail, with which
message, and which go back to the queue for another process."""

from __future__ import annotations

from collections import deque

from docverify.running.page_process import PageJob, Running, died
from docverify.running.protocol import AFTER_FAILURE, TIMED_OUT, BlockResult, failure
from support.blocks import spec


def page(*sessions: str | None) -> PageJob:
    """A page of one block per session given, keys p/0, p/1…"""
    return PageJob("p", "cpu", [spec("", key=f"p/{i}", session=s) for i, s in enumerate(sessions)])


def ended(state: Running, reason: str | None = None) -> tuple[dict[str, BlockResult], list]:
    results: dict[str, BlockResult] = {}
    pending: deque[PageJob] = deque()
    died(state, results, pending, reason)
    return results, [(j.page, j.runner, [b["key"] for b in j.blocks]) for j in pending]


def test_dying_before_the_first_block_fails_every_block() -> None:
    results, pending = ended(Running(page(None, "s"), zygote=None, exitcode=3))
    message = "el proceso de la página terminó antes de ejecutarlo (código de salida 3)"
    assert results == {"p/0": failure(message), "p/1": failure(message)}
    assert pending == []


def test_dying_between_blocks_requeues_those_not_done() -> None:
    state = Running(page(None, "s", "s"), zygote=None, done={"p/0"}, exitcode=0)
    assert ended(state) == ({}, [("p", "cpu", ["p/1", "p/2"])])


def test_dying_after_the_last_block_leaves_nothing_to_do() -> None:
    state = Running(page(None, "s"), zygote=None, done={"p/0", "p/1"})
    assert ended(state) == ({}, [])


def test_dying_in_a_block_fails_it_and_its_sessions_later_blocks() -> None:
    state = Running(page("s", "s", None, "t", "s"), zygote=None, current="p/1", exitcode=-9)
    results, pending = ended(state)
    assert results == {
        "p/1": failure(
            "terminó su proceso de forma inesperada (código de salida -9: os._exit, señal o "
            "fallo de la extensión nativa)"
        ),
        "p/4": failure(
            "no se ejecutó: el bloque «p/1» de la misma sesión «s» falló antes",
            cause=AFTER_FAILURE,
        ),
    }
    assert pending == [("p", "cpu", ["p/2", "p/3"])]


def test_a_block_without_a_session_takes_no_other_block_with_it() -> None:
    state = Running(page(None, None), zygote=None, current="p/0", exitcode=1)
    results, pending = ended(state, reason="superó el tiempo")
    assert results == {"p/0": failure("superó el tiempo", cause=TIMED_OUT)}  # a reason: a timeout
    assert pending == [("p", "cpu", ["p/1"])]


def test_dying_in_the_last_block_requeues_nothing() -> None:
    state = Running(page(None, None), zygote=None, current="p/1", exitcode=1)
    results, pending = ended(state)
    assert list(results) == ["p/1"] and pending == []
