"""core.dates: dates in Spanish words for readers, strict ISO dates from authors."""

from __future__ import annotations

import datetime as dt

import pytest
from docverify.core.dates import day_count, parse_date, spanish_date, spanish_date_of


@pytest.mark.parametrize(
    ("day", "words"),
    [
        (dt.date(2026, 1, 5), "5 de enero de 2026"),
        (dt.date(2026, 9, 23), "23 de septiembre de 2026"),
        (dt.date(1999, 12, 31), "31 de diciembre de 1999"),
    ],
)
def test_a_date_in_spanish_words(day: dt.date, words: str) -> None:
    assert spanish_date(day) == words


@pytest.mark.parametrize(
    ("count", "said"), [(0, "0 días"), (1, "1 día"), (2, "2 días"), (12, "12 días")]
)
def test_a_count_of_days_is_singular_only_for_one(count: int, said: str) -> None:
    assert day_count(count) == said


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ("2026-02-01", "1 de febrero de 2026"),
        (" 2026-02-01\n", "1 de febrero de 2026"),
        (dt.date(2026, 3, 4), "4 de marzo de 2026"),
        (None, "fecha desconocida"),
        ("", "fecha desconocida"),
        ("ayer", "fecha desconocida"),
        ("2026-02-30", "fecha desconocida"),
    ],
)
def test_a_recorded_date_in_words_or_unknown(raw: object, words: str) -> None:
    assert spanish_date_of(raw) == words


@pytest.mark.parametrize("raw", ["2026-09-23", " 2026-09-23 ", dt.date(2026, 9, 23)])
def test_an_iso_date_is_read(raw: object) -> None:
    assert parse_date(raw) == dt.date(2026, 9, 23)


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (None, "falta la fecha de verificación"),
        ("", "falta la fecha de verificación"),
        ("  ", "falta la fecha de verificación"),
        ("2026-9-23", "fecha «2026-9-23» mal formada: usa AAAA-MM-DD (por ejemplo 2026-09-23)"),
        (" 23/09/2026 ", "fecha «23/09/2026» mal formada: usa AAAA-MM-DD (por ejemplo 2026-09-23)"),
        (20260923, "fecha «20260923» mal formada: usa AAAA-MM-DD (por ejemplo 2026-09-23)"),
        ("2026-09-23x", "fecha «2026-09-23x» mal formada: usa AAAA-MM-DD (por ejemplo 2026-09-23)"),
        ("2026-13-45", "fecha «2026-13-45» imposible: ese día no existe"),
        ("2025-02-29", "fecha «2025-02-29» imposible: ese día no existe"),
    ],
)
def test_anything_else_is_refused_with_its_reason(raw: object, reason: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_date(raw)
    assert str(info.value) == reason
