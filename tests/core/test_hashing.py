"""PYTHONHASHSEED for the interpreters that run blocks (core/hashing.py); how it reaches the fork
server, its page processes and pytest's workers: tests/running/test_hash_seed.py."""

from __future__ import annotations

import os
import sys
from types import SimpleNamespace

import pytest
from docverify.core import hashing


@pytest.mark.parametrize("before", [None, "7"], ids=["sin-fijar", "fijado"])
def test_the_seed_is_set_inside_and_restored_after(
    monkeypatch: pytest.MonkeyPatch, before: str | None
) -> None:
    if before is None:
        monkeypatch.delenv("PYTHONHASHSEED", raising=False)
    else:
        monkeypatch.setenv("PYTHONHASHSEED", before)
    with pytest.raises(RuntimeError), hashing.starting_with(123):
        assert os.environ["PYTHONHASHSEED"] == "123"
        raise RuntimeError  # restored on the way out of an error too
    assert os.environ.get("PYTHONHASHSEED") == before


def test_an_interpreter_started_with_the_seed_has_no_mismatch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert hashing.mismatch(5, started_with="5") is None
    monkeypatch.setattr(hashing, "STARTED_WITH", "5")
    assert hashing.mismatch(5) is None  # this interpreter's value by default
    assert "PYTHONHASHSEED=5, no con PYTHONHASHSEED=6" in (hashing.mismatch(6) or "")


@pytest.mark.parametrize(
    ("started_with", "said"),
    [("0", "PYTHONHASHSEED=0,"), ("", "PYTHONHASHSEED=(sin fijar),")],
    ids=["otro", "sin-fijar"],
)
def test_another_start_value_is_named(started_with: str, said: str) -> None:
    why = hashing.mismatch(42, started_with=started_with)
    assert why == (
        f"este intérprete arrancó con {said} no con PYTHONHASHSEED=42 (hash_seed de "
        "[tool.docverify]): el orden de un set de cadenas cambiaría de una ejecución a otra"
    )


def test_an_interpreter_that_ignores_the_environment_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "flags", SimpleNamespace(ignore_environment=1))
    why = hashing.mismatch(42, started_with="42")  # even with the right value: -E ignored it
    assert why == (
        "este intérprete arrancó con -E o -I, que ignoran PYTHONHASHSEED: el orden de un set de "
        "cadenas cambiaría de una ejecución a otra"
    )


def test_the_largest_seed_is_the_one_python_accepts() -> None:
    assert hashing.MAXIMUM == 4294967295  # Python's documented maximum for PYTHONHASHSEED
