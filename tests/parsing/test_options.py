"""parsing.options: the info string of a fence, and whether a block executes."""

from __future__ import annotations

import pytest
from docverify.parsing.options import is_executed, parse_options


@pytest.mark.parametrize("info", ["", "   ", "\t\n"])
def test_an_empty_info_string_has_no_language_and_no_options(info: str) -> None:
    assert parse_options(info) == ("", {})


def test_language_bare_keys_and_quoted_values() -> None:
    info = """  python exec id=uno title="Dos palabras" source='above'  """
    assert parse_options(info) == (
        "python",
        {"exec": "true", "id": "uno", "title": "Dos palabras", "source": "above"},
    )


def test_a_value_keeps_every_character_but_the_quotes_around_it() -> None:
    # Letters at either end of a value (X, a, e) are part of it: only quotes are stripped.
    assert parse_options('py id=XaX title="eXe"') == ("py", {"id": "XaX", "title": "eXe"})


@pytest.mark.parametrize("value", ["1", "yes", "on", "true", "ON", "True", "YES"])
def test_exec_true_in_any_case_executes(value: str) -> None:
    assert is_executed({"exec": value}) is True


@pytest.mark.parametrize("options", [{}, {"exec": "off"}, {"exec": "0"}, {"id": "on"}])
def test_exec_missing_or_false_does_not_execute(options: dict[str, str]) -> None:
    assert is_executed(options) is False
