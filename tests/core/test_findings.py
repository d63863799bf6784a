"""core.findings: what, where and how to fix, as an author reads it and as JSON keeps it."""

from __future__ import annotations

import pytest
from docverify.core.findings import Finding, Level, errors
from docverify.core.kinds import Kind

FULL = Finding(
    Kind.MISSING_ID,
    "bloque sin id.",
    "docs/a.md",
    7,
    'añade id="uno".',
    Level.WARNING,
    "detalle 1\ndetalle 2\n\n",
)


def test_where_is_path_and_line_or_the_path_alone() -> None:
    assert FULL.where == "docs/a.md:7"
    assert Finding(Kind.MISSING_ID, "m", "docs/a.md", 0, "f").where == "docs/a.md"
    assert Finding(Kind.MISSING_ID, "m", "docs/a.md", 1, "f").where == "docs/a.md:1"


def test_the_text_an_author_reads() -> None:
    plain = Finding(Kind.DIVERGENCE, "difiere.", "docs/b.md", 0, "graba.")
    assert (
        plain.format()
        == str(plain)
        == "docs/b.md: [divergencia] difiere.\n  → Cómo arreglarlo: graba."
    )
    assert (
        FULL.format()
        == str(FULL)
        == (
            "docs/a.md:7: [id-ausente] bloque sin id.\n"
            '  → Cómo arreglarlo: añade id="uno".\n'
            "detalle 1\n"
            "detalle 2"
        )
    )


def test_its_json_and_back() -> None:
    data = FULL.to_json()
    assert data == {
        "kind": "missing-id",
        "label": "id-ausente",
        "level": "warning",
        "path": "docs/a.md",
        "line": 7,
        "message": "bloque sin id.",
        "fix": 'añade id="uno".',
        "detail": "detalle 1\ndetalle 2\n\n",
    }
    assert Finding.from_json(data) == FULL
    back = Finding.from_json({**data, "line": "7", "level": "info"})
    assert (back.line, back.level) == (7, Level.INFO)


@pytest.mark.parametrize("detail", [{}, {"detail": None}, {"detail": ""}])
def test_a_finding_read_back_without_detail_has_none(detail: dict[str, object]) -> None:
    data = {k: v for k, v in FULL.to_json().items() if k != "detail"} | detail
    back = Finding.from_json(data)
    assert back.detail == "" and back == Finding(
        Kind.MISSING_ID, "bloque sin id.", "docs/a.md", 7, 'añade id="uno".', Level.WARNING
    )


def test_a_finding_is_an_error_unless_told_otherwise() -> None:
    assert Finding(Kind.MISSING_ID, "m", "p", 1, "f").level is Level.ERROR


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="no-such-kind"):
        Finding("no-such-kind", "m", "p", 1, "f")  # type: ignore[arg-type]


def test_errors_keeps_only_the_errors_in_order() -> None:
    found = [
        Finding(Kind.MISSING_ID, "a", "p", 1, "f"),
        Finding(Kind.MISSING_ID, "b", "p", 2, "f", Level.WARNING),
        Finding(Kind.MISSING_ID, "c", "p", 3, "f", Level.INFO),
        Finding(Kind.DIVERGENCE, "d", "p", 4, "f", Level.ERROR),
    ]
    assert [f.message for f in errors(found)] == ["a", "d"]
    assert errors([]) == []


def test_the_detail_keeps_trailing_spaces_of_its_last_line() -> None:
    """A diff's last line may differ only by its trailing spaces: only the newlines go."""
    spaced = Finding(
        Kind.DIVERGENCE, "difiere.", "docs/b.md", 3, "graba.", detail="- a \n+ a\n\t\n"
    )
    assert spaced.format().endswith("graba.\n- a \n+ a\n\t")
    # Only newlines: not any other character at the end of the detail.
    lettered = Finding(Kind.DIVERGENCE, "difiere.", "docs/b.md", 3, "graba.", detail="+ X\nX\n\n")
    assert lettered.format().endswith("graba.\n+ X\nX")
