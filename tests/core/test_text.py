"""Text in its normal form and counts said in Spanish (core/text.py)."""

from __future__ import annotations

from docverify.core.text import counted, normalise


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


def test_normal_form_unifies_newlines_and_drops_trailing_blanks_only() -> None:
    """Windows (CRLF) and old Mac (CR) newlines become LF; spaces at the end of a line and blank
    lines at the end go; spaces at the start of a line and blank lines inside stay."""
    assert normalise("  a  \r\n\tb\r\rc \n\n \n") == "  a\n\tb\n\nc"
    assert normalise("x\r\ny") == "x\ny"  # one newline, not two
    assert normalise("") == "" and normalise("\n \n") == ""
