"""Dates as readers see them (in Spanish words) and as authors write them (strict ISO)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from docverify.core.text import counted

_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MONTHS = (
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
)


def spanish_date(day: dt.date) -> str:
    """23 de septiembre de 2026."""
    return f"{day.day} de {MONTHS[day.month - 1]} de {day.year}"


def day_count(count: int) -> str:
    """«1 día», «0 días», «12 días»: a count of days as a reader says it."""
    return counted(count, "día", "días")


def spanish_date_of(raw: Any) -> str:
    """A recorded date (ISO text) in Spanish words, or «fecha desconocida» if it is not one."""
    try:
        return spanish_date(parse_date(raw))
    except ValueError:
        return "fecha desconocida"


def parse_date(raw: Any) -> dt.date:
    """Strict ISO YYYY-MM-DD; anything else raises ValueError with a Spanish reason."""
    text = str(raw).strip() if raw is not None else ""
    if not text:
        raise ValueError("falta la fecha de verificación")
    if not _ISO.match(text):
        raise ValueError(f"fecha «{text}» mal formada: usa AAAA-MM-DD (por ejemplo 2026-09-23)")
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"fecha «{text}» imposible: ese día no existe") from None
