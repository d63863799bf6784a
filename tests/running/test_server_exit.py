"""The fork server's exit (running/server_exit.py), called here with os._exit replaced: imported
here, its atexit hook is taken out again at once, or it would end pytest's own process."""

from __future__ import annotations

import atexit
import io
import os
import sys

import pytest
from docverify.running import server_exit

atexit.unregister(server_exit.end_now)


class Ended(Exception):
    pass


@pytest.fixture
def exits(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    codes: list[int] = []

    def exit_(code: int) -> None:
        codes.append(code)
        raise Ended

    monkeypatch.setattr(os, "_exit", exit_)
    monkeypatch.setattr(server_exit, "_SERVER", os.getpid())
    return codes


def test_the_server_flushes_and_ends_with_zero(
    monkeypatch: pytest.MonkeyPatch, exits: list[int]
) -> None:
    out, err = io.StringIO(), io.StringIO()
    flushed = []
    monkeypatch.setattr(out, "flush", lambda: flushed.append("out"))
    monkeypatch.setattr(err, "flush", lambda: flushed.append("err"))
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.delattr(sys, "last_value", raising=False)
    with pytest.raises(Ended):
        server_exit.end_now()
    assert exits == [0] and flushed == ["out", "err"]


def test_after_an_uncaught_exception_it_ends_with_one(
    monkeypatch: pytest.MonkeyPatch, exits: list[int]
) -> None:
    monkeypatch.setattr(sys, "last_value", ValueError("x"), raising=False)
    with pytest.raises(Ended):
        server_exit.end_now()
    assert exits == [1]


def test_a_stream_that_cannot_flush_does_not_keep_it_from_ending(
    monkeypatch: pytest.MonkeyPatch, exits: list[int]
) -> None:
    class Broken(io.StringIO):
        def flush(self) -> None:
            raise OSError("tubería rota")

    monkeypatch.setattr(sys, "stdout", Broken())
    monkeypatch.delattr(sys, "last_value", raising=False)
    with pytest.raises(Ended):
        server_exit.end_now()
    assert exits == [0]


def test_a_process_forked_from_the_server_ends_as_usual(
    monkeypatch: pytest.MonkeyPatch, exits: list[int]
) -> None:
    monkeypatch.setattr(server_exit, "_SERVER", os.getpid() + 1)
    server_exit.end_now()
    assert exits == []
