"""verifying.canary: which warnings are new, and what the canary section counts."""

from __future__ import annotations

from docverify.core import volatile
from docverify.report import canary
from docverify.verifying import compare

TOL = compare.Tolerance(rtol=1e-5, atol=1e-8, volatile=volatile.NAMES)
RECORDED = (
    "UserWarning: a reference cycle (Triggered internally at [..])\n"
    "FutureWarning: x will change\n"
    "tensor([1., 2.])"
)


def test_a_recorded_warning_is_not_new_even_through_a_placeholder() -> None:
    """The recording's [..] stands for this machine's path, as `check` compares it."""
    observed = (
        "UserWarning: a reference cycle (Triggered internally at /w/engine.cpp:1307.)\n"
        "FutureWarning: x will change\n"
        "tensor([1., 2.])"
    )
    assert canary.new_warnings(RECORDED, observed, TOL) == []


def test_new_and_repeated_warnings_are_new() -> None:
    observed = (
        "DeprecationWarning: y is deprecated\n"
        "FutureWarning: x will change\n"
        "FutureWarning: x will change\n"  # once more than recorded: new once
        "tensor([1., 2.])\n"
        "sin aviso: esto no es un Warning: de Python"
    )
    assert canary.new_warnings(RECORDED, observed, TOL) == [
        "DeprecationWarning: y is deprecated",
        "FutureWarning: x will change",
    ]
    assert canary.new_warnings(None, "UserWarning: z", TOL) == ["UserWarning: z"]


def test_the_headline_counts_in_spanish() -> None:
    assert canary.headline("2.14.1", 1) == "torch 2.14.1 cambiaría 1 bloque"
    assert canary.headline("2.14.1", 0) == "torch 2.14.1 cambiaría 0 bloques"
