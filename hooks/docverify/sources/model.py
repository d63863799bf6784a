"""Sources: the structured `sources:` of an article, with dates validated by the engine."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from docverify.core.config import Config
from docverify.core.dates import parse_date
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing.pages import Page
from docverify.sources import fingerprint as fingerprint_mod  # clash: Source.fingerprint

REQUIRED = ("title", "reference", "verified")
OPTIONAL = ("url", "review_days", "owner", "fingerprint")


@dataclass(frozen=True)
class Source:
    page: str
    line: int
    title: str
    reference: str
    verified: dt.date
    url: str | None = None
    review_days: int | None = None
    owner: str | None = None
    fingerprint: fingerprint_mod.Fingerprint | None = field(default=None, compare=False)
    # Line of each key in the page, so that `docverify sources --reverify` can edit in place.
    key_lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    @property
    def label(self) -> str:
        """How messages name the source: its reference and its title."""
        return f"«{self.reference}» («{self.title}»)"


def read_sources(config: Config, page: Page) -> tuple[list[Source], list[Finding]]:
    """The page's sources, and a finding for each one that is not well formed."""
    where = config.rel(page.path)
    raw = page.meta.get("sources")
    if raw is None:
        return [], []
    if not isinstance(raw, list):
        return [], [
            Finding(
                Kind.MALFORMED_SOURCES,
                "«sources» debe ser una lista de fuentes.",
                where,
                page.meta_line("sources"),
                "escribe cada fuente como «- title: …, reference: …, verified: …».",
            )
        ]
    found: list[Source] = []
    findings: list[Finding] = []
    for index, item in enumerate(raw, 1):
        line = getattr(item, "line", page.meta_line("sources"))
        label = (
            item.get("reference") or item.get("title") or f"n.º {index}"
            if isinstance(item, dict)
            else f"n.º {index}"
        )

        def bad(kind: Kind, message: str, fix: str, line: int = line, label: str = label) -> None:
            findings.append(Finding(kind, f"fuente «{label}»: {message}", where, line, fix))

        if (source := _source(page, item, line, bad)) is not None:
            found.append(source)
    return found, findings


def _source(page: Page, item: object, line: int, bad: Callable[..., None]) -> Source | None:
    """One entry of `sources:` (at `line`) as a Source, or None after saying what is wrong."""
    if not isinstance(item, dict):
        bad(
            Kind.MALFORMED_SOURCE,
            "no es un mapa clave: valor.",
            "escribe la fuente con title, reference y verified.",
        )
        return None
    unknown = sorted(set(item) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        bad(
            Kind.UNKNOWN_SOURCE_KEY,
            f"claves desconocidas: {', '.join(unknown)}.",
            f"usa solo {', '.join(REQUIRED + OPTIONAL)}.",
        )
    missing = [key for key in ("title", "reference") if not item.get(key)]
    if missing:
        bad(
            Kind.INCOMPLETE_SOURCE,
            f"falta {', '.join(missing)}.",
            f"añade {', '.join(missing)} a la fuente.",
        )
        return None
    date_line = item.key_lines.get("verified", line) if hasattr(item, "key_lines") else line
    try:
        verified = parse_date(item.get("verified"))
    except ValueError as exc:
        bad(
            Kind.INVALID_DATE,
            str(exc) + ".",
            'escribe verified: "AAAA-MM-DD" con la fecha en que comprobaste la fuente.',
            line=date_line,
        )
        return None
    lines = dict(getattr(item, "key_lines", {}))
    extras = _optional(item, lines, line)
    if isinstance(extras, tuple):
        key, message, fix = extras
        bad(Kind.MALFORMED_SOURCE, message, fix, line=lines.get(key, line))
        return None
    return Source(
        page=page.rel,
        line=line,
        title=str(item["title"]),
        reference=str(item["reference"]),
        verified=verified,
        key_lines=lines,
        **extras,
    )


def _optional(
    item: dict[str, Any], lines: dict[str, int], line: int
) -> dict[str, Any] | tuple[str, str, str]:
    """The optional keys, checked; or (key, message, fix) for the first bad one."""
    url, days, owner = item.get("url"), item.get("review_days"), item.get("owner")
    if url is not None and not (isinstance(url, str) and url.startswith(("https://", "http://"))):
        return "url", f"url «{url}» no es una dirección http(s).", 'escribe url: "https://…".'
    if days is not None and (isinstance(days, bool) or not isinstance(days, int) or days <= 0):
        return (
            "review_days",
            f"review_days «{days}» debe ser un número entero de días > 0.",
            "escribe review_days: 90 (o quítalo para usar el máximo del proyecto).",
        )
    if owner is not None and not (isinstance(owner, str) and owner.strip()):
        return "owner", "owner debe ser un nombre o usuario.", 'escribe owner: "@usuario".'
    fp = None
    if "fingerprint" in item:
        fp, reason = fingerprint_mod.parse(item["fingerprint"], lines.get("fingerprint", line))
        if fp is None:
            return (
                "fingerprint",
                reason + ".",
                "escribe package, object (o file) y ejecuta docverify sources --reverify "
                "REFERENCIA para calcular version y sha256.",
            )
    return {"url": url, "review_days": days, "owner": owner, "fingerprint": fp}
