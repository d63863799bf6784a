# The sources due for review, as the weekly run's issue: data for machines, text for maintainers.
"""`docverify sources --due FILE`: the sources inside their warning window, as one JSON document.

The weekly workflow keeps one issue from it (opened, updated, closed when `count` is 0): `title`
and `body` are its Spanish text, `closing` what the closing comment says, `sources` the data (page
and line, reference, dates, the command that re-verifies each).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from docverify.core.config import Config
from docverify.core.dates import day_count, spanish_date
from docverify.core.markdown import md_escape
from docverify.sources.freshness import Freshness, SourceStatus, due

FORMAT = 1


def document(config: Config, fresh: Freshness) -> dict[str, Any]:
    """The due sources of `fresh` with the issue's title, body and closing comment."""
    found = due(fresh)
    rows = [_row(config, fresh, status) for status in found]
    return {
        "format": FORMAT,
        "today": fresh.today.isoformat(),
        "warn_days": fresh.policy.warn_days,
        "max_age_days": fresh.policy.max_age_days,
        "count": len(rows),
        "title": _title(found),
        "body": _body(fresh, rows),
        "closing": (
            f"Ninguna fuente está a {fresh.policy.warn_days} días o menos de su fecha de "
            f"revisión (hoy, {spanish_date(fresh.today)}): nada que revisar."
        ),
        "sources": rows,
    }


def _row(config: Config, fresh: Freshness, status: SourceStatus) -> dict[str, Any]:
    source = status.source
    return {
        "page": config.rel(config.docs_dir / source.page),
        "line": source.key_lines.get("verified", source.line),
        "reference": source.reference,
        "title": source.title,
        "url": source.url,
        "verified": source.verified.isoformat(),
        "review_by": status.review_by.isoformat(),
        "days_left": (status.review_by - fresh.today).days,
        "command": f'docverify sources --reverify "{source.reference}"',
    }


def _title(found: list[SourceStatus]) -> str:
    if not found:
        return "Fuentes por revisar: ninguna"
    first = spanish_date(found[0].review_by)
    noun = "fuente" if len(found) == 1 else "fuentes"
    return f"Fuentes por revisar: {len(found)} {noun} (la primera, a más tardar el {first})"


def _body(fresh: Freshness, rows: list[dict[str, Any]]) -> str:
    pol = fresh.policy
    intro = (
        f"Hoy, {spanish_date(fresh.today)}, estas fuentes están a {pol.warn_days} días o menos de "
        "su fecha de revisión, o ya la pasaron. El día siguiente a esa fecha, toda construcción "
        "falla (`[fuente-caducada]`) y el sitio deja de publicarse. Para cada una: comprueba que "
        "la fuente sigue diciendo lo que cita la página, ejecuta en local la orden de su fila "
        "(actualiza `verified:` y, si la tiene, la huella) y sube el commit. Esta incidencia se "
        "actualiza cada semana y se cierra sola cuando no queda ninguna."
    )
    lines = [
        intro,
        "",
        "| Página | Fuente | Revisar a más tardar | Plazo | Orden |",
        "|---|---|---|---|---|",
    ]
    for row in rows:
        name = f"{md_escape(row['reference'])} — {md_escape(row['title'])}"
        source = f"[{name}]({row['url']})" if row["url"] else name
        days = row["days_left"]
        review_by = spanish_date(dt.date.fromisoformat(row["review_by"]))
        left = f"faltan {day_count(days)}" if days >= 0 else f"**caducada** hace {day_count(-days)}"
        lines.append(
            f"| `{row['page']}:{row['line']}` | {source} | "
            f"{review_by} | {left} | `{row['command']}` |"
        )
    return "\n".join(lines)
