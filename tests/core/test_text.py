"""Counts said in Spanish (core/text.py)."""

from __future__ import annotations

from docverify.core.text import counted


def test_a_count_takes_the_singular_only_for_exactly_one() -> None:
    """«1 grabación escrita», but «0 grabaciones escritas» and «2 …» (Spanish: zero is plural)."""
    said = {n: counted(n, "grabación escrita", "grabaciones escritas") for n in (0, 1, 2, 11, 21)}
    assert said == {
        0: "0 grabaciones escritas",
        1: "1 grabación escrita",
        2: "2 grabaciones escritas",
        11: "11 grabaciones escritas",
        21: "21 grabaciones escritas",
    }
