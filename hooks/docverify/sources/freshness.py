# Freshness: the sources policy, each source's age, review-by date, drift and findings.
"""Freshness of cited sources: stale, future, soon due and drifted sources, as findings.

Policy lives in `[tool.docverify.sources]` of pyproject.toml:

    max_age_days = 180   # a source older than this fails the build
    warn_days = 30       # inside this window before its review-by date it is reported (INFO)
    drift = "error"      # or "report": a changed fingerprinted source fails, or is reported
    snapshots_dir = "fingerprints"   # verified texts, for `docverify sources --reverify` diffs

A source's review-by date is its verification date plus its own `review_days` (at most
max_age_days) or max_age_days. Exactly on the review-by date it still passes; one day later it is
stale. INFO findings never fail `mkdocs build --strict`, which fails on WARNING and above.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path

from docverify.core import versions
from docverify.core.config import Config
from docverify.core.dates import day_count, spanish_date
from docverify.core.findings import Finding, Level
from docverify.core.kinds import Kind
from docverify.parsing.pages import Page
from docverify.sources import fingerprint
from docverify.sources.model import Source, read_sources

DRIFT_MODES = ("error", "report")
# Status of a source, with the Spanish words readers see on the verification page.
FRESH = ("ok", "soon")  # the statuses of a source that does not fail the build
STATUS = {
    "ok": "al día",
    "soon": "revisar pronto",
    "stale": "caducada",
    "future": "fecha futura",
    "drift": "el código citado cambió",
}


@dataclass(frozen=True)
class Policy:
    max_age_days: int = 180
    warn_days: int = 30
    drift: str = "error"
    snapshots_dir: str = "fingerprints"

    @property
    def drift_level(self) -> Level:
        return Level.ERROR if self.drift == "error" else Level.INFO


# Each setting of [tool.docverify.sources] and its default: the fields of Policy, written once.
DEFAULTS = {f.name: f.default for f in fields(Policy)}


@dataclass
class SourceStatus:
    """One source evaluated on a given day."""

    source: Source
    age_days: int
    review_by: dt.date
    status: str  # a key of STATUS
    installed: fingerprint.Installed | None = None
    drift_note: str = ""
    findings: list[Finding] = field(default_factory=list)


@dataclass
class Freshness:
    policy: Policy
    today: dt.date
    statuses: list[SourceStatus]
    findings: list[Finding]


def policy(config: Config) -> tuple[Policy, list[Finding]]:
    """The sources policy of the project, and a finding for each bad setting (then its default)."""
    raw = dict(config.sources)
    findings: list[Finding] = []
    where = config.pyproject

    def bad(key: str, message: str, fix: str) -> None:
        line = config.line_of(f"sources.{key}")
        findings.append(Finding(Kind.SOURCES_POLICY, message, where, line, fix))

    for key in sorted(set(raw) - set(DEFAULTS)):
        bad(
            key,
            f"clave desconocida «{key}» en [tool.docverify.sources].",
            f"usa solo {', '.join(DEFAULTS)}.",
        )
        raw.pop(key)
    values = {**DEFAULTS, **raw}
    for key in ("max_age_days", "warn_days"):
        value = values[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            bad(
                key,
                f"{key} = {value!r} en [tool.docverify.sources] debe ser un entero ≥ 0.",
                f"escribe {key} = {DEFAULTS[key]}.",
            )
            values[key] = DEFAULTS[key]
    if values["drift"] not in DRIFT_MODES:
        bad(
            "drift",
            f'drift = {values["drift"]!r} en [tool.docverify.sources]: usa "error" o "report".',
            'escribe drift = "error" (falla) o drift = "report" (informa).',
        )
        values["drift"] = DEFAULTS["drift"]
    if not isinstance(values["snapshots_dir"], str) or not values["snapshots_dir"]:
        bad(
            "snapshots_dir",
            "snapshots_dir debe ser una carpeta relativa al proyecto.",
            'escribe snapshots_dir = "fingerprints".',
        )
        values["snapshots_dir"] = DEFAULTS["snapshots_dir"]
    return Policy(**values), findings


def snapshots_dir(config: Config, pol: Policy) -> Path:
    return config.root / pol.snapshots_dir


def review_by(pol: Policy, source: Source) -> dt.date:
    days = min(source.review_days or pol.max_age_days, pol.max_age_days)
    return source.verified + dt.timedelta(days=days)


def evaluate(config: Config, pages: list[Page], today: dt.date) -> Freshness:
    """Every source of `pages` judged on `today`, with every finding (malformed ones included)."""
    pol, findings = policy(config)
    statuses: list[SourceStatus] = []
    for page in pages:
        sources, problems = read_sources(config, page)
        findings.extend(problems)
        for source in sources:
            status = source_status(config, pol, source, today)
            statuses.append(status)
            findings.extend(status.findings)
    return Freshness(policy=pol, today=today, statuses=statuses, findings=findings)


def source_status(config: Config, pol: Policy, source: Source, today: dt.date) -> SourceStatus:
    """Date rule, then drift rule, for one source."""
    where = config.rel(config.docs_dir / source.page)
    line = source.key_lines.get("verified", source.line)
    age = (today - source.verified).days
    due = review_by(pol, source)
    status = SourceStatus(source=source, age_days=age, review_by=due, status="ok")
    reverify = f'docverify sources --reverify "{source.reference}"'
    verified = source.verified.isoformat()

    def add(kind: Kind, message: str, fix: str, level: Level = Level.ERROR, at: int = line) -> None:
        status.findings.append(
            Finding(kind, f"fuente {source.label}: {message}", where, at, fix, level=level)
        )

    if source.review_days and source.review_days > pol.max_age_days:
        add(
            Kind.MALFORMED_SOURCE,
            f"review_days {source.review_days} supera el máximo del "
            f"proyecto ({pol.max_age_days} días); se usa el máximo.",
            f"escribe review_days: {pol.max_age_days} o menos.",
            at=source.key_lines.get("review_days", source.line),
        )
    if age < 0:
        status.status = "future"
        add(
            Kind.FUTURE_DATE,
            f"verificada el {verified}, una fecha futura (hoy es {today.isoformat()}).",
            "escribe la fecha en que de verdad comprobaste la fuente.",
        )
    elif today > due:
        status.status = "stale"
        add(
            Kind.STALE_SOURCE,
            f"verificada el {verified}, hace {day_count(age)} (máximo "
            f"{(due - source.verified).days}); debía revisarse a más tardar el {due.isoformat()}.",
            f"vuelve a comprobar la fuente y ejecuta {reverify} (o actualiza «verified:»).",
        )
    elif (due - today).days <= pol.warn_days:
        status.status = "soon"
        add(
            Kind.SOURCE_REVIEW_DUE,
            f"verificada el {verified}, hace {day_count(age)}; revísala a más "
            f"tardar el {due.isoformat()} (faltan {day_count((due - today).days)}).",
            f"comprueba la fuente y ejecuta {reverify}.",
            level=Level.INFO,
        )
    if source.fingerprint is not None:
        _drift(pol, source, status, add=add, reverify=reverify)
    return status


def _drift(
    pol: Policy, source: Source, status: SourceStatus, *, add: Callable[..., None], reverify: str
) -> None:
    fp = source.fingerprint
    assert fp is not None
    at = fp.key_lines.get(fp.kind, fp.line)  # the `object:` or `file:` line
    if not (fp.sha256 and fp.version):
        add(
            Kind.INCOMPLETE_FINGERPRINT,
            f"la huella de {fp.label} no tiene version y sha256.",
            f"calcúlalos con {reverify}.",
            at=fp.line,
        )
        return
    try:
        now = fingerprint.installed(fp)
    except fingerprint.FingerprintError as exc:
        if status.status in FRESH:
            status.status = "drift"
        status.drift_note = str(exc)
        add(
            Kind.CHANGED_SOURCE,
            f"no se puede comprobar su huella: {exc} (se verificó con {fp.package} {fp.version}).",
            f"instala {fp.package} o revisa la fuente con {reverify}.",
            level=pol.drift_level,
            at=at,
        )
        return
    status.installed = now
    if now.sha256 != fp.sha256:
        if status.status in FRESH:
            status.status = "drift"
        status.drift_note = (
            f"{fp.label}: {fp.package} {fp.version} → {now.version} "
            f"instalado; huella {fp.sha256[:12]}… → {now.sha256[:12]}…"
        )
        add(
            Kind.CHANGED_SOURCE,
            f"el código de {fp.label} cambió desde que se verificó "
            f"({fp.package} {fp.version} → {now.version} instalado; huella {fp.sha256[:12]}… → "
            f"{now.sha256[:12]}…).",
            f"revisa el cambio con {reverify} y corrige el artículo si hace falta.",
            level=pol.drift_level,
            at=at,
        )
    elif not versions.same(fp.version, now.version):
        add(
            Kind.SAME_FINGERPRINT,
            f"{fp.package} {now.version} instalado (verificada con "
            f"{fp.version}), pero {fp.label} no cambió.",
            f"si quieres, actualiza la versión con {reverify}.",
            level=Level.INFO,
            at=at,
        )


def due(fresh: Freshness) -> list[SourceStatus]:
    """The sources inside their warning window (warn_days before their review-by date) or past
    it, the soonest first: what must be re-verified before every build starts failing."""
    window = fresh.policy.warn_days
    found = [
        s for s in fresh.statuses if s.age_days >= 0 and (s.review_by - fresh.today).days <= window
    ]
    return sorted(found, key=lambda s: (s.review_by, s.source.page, s.source.line))


def footer_note(status: SourceStatus) -> str:
    """What a source shows after its verification date: its review-by date, in Spanish."""
    return f"revisar a más tardar el {spanish_date(status.review_by)}"
