# The verification page: every source with its age and status, every block with its runs.
"""«Informe de verificación»: Markdown generated at each build (and by `docverify sources`).

The hook adds it to the site as a generated page at URI; the engine writes all of it.
"""

from __future__ import annotations

import datetime as dt

from docverify.core import device_marks, device_rule
from docverify.core.config import LABEL, RUNNERS, Config
from docverify.core.dates import day_count, spanish_date, spanish_date_of
from docverify.core.findings import Level
from docverify.core.markdown import md_escape
from docverify.core.policies import AS_WRITTEN, DEVICE_LABEL
from docverify.output import coverage_text, report_blocks
from docverify.parsing.pages import Page
from docverify.site import navigation
from docverify.site.coverage import Coverage
from docverify.sources.freshness import STATUS, Freshness, SourceStatus
from docverify.verifying.outcome import Provenance, Verification

URI = navigation.REPORT_URI  # the site reserves the name (site/navigation.py)
TITLE = "Informe de verificación"


def render(
    config: Config,
    pages: list[Page],
    verification: Verification | None,
    fresh: Freshness,
    cov: Coverage | None = None,
    nav: navigation.Nav | None = None,
) -> str:
    """The whole verification page, in Markdown; it opens with the build's counts (`cov`) and
    the blocks with a problem, and goes through the pages in the order of `nav` (reading order)."""
    origin = verification.origin if verification else None
    pages = navigation.in_order(pages, nav)
    blocks = report_blocks.describe(config, pages, verification) if verification else None
    parts = [
        f"# {TITLE}",
        f"Generado el {spanish_date(fresh.today)} al construir el sitio"
        + (
            f", en el runner {LABEL.get(verification.runner, verification.runner)} con torch "
            f"{verification.env.get('torch', '?')}."
            if verification and origin is None
            else "."
        ),
        *_origin_lines(verification),
        *([opening] if (opening := coverage_text.verification_opening(cov)) else []),
        *_peer_lines(verification),
        *(report_blocks.problems(blocks, _titles(pages)) if blocks else []),
        "## Cómo leer este informe",
        sources_intro(fresh),
        *_how_to_read_blocks(verification, cov, blocks),
        *by_article(pages, fresh, blocks),
    ]
    return "\n\n".join(parts) + "\n"


def _how_to_read_blocks(
    verification: Verification | None, cov: Coverage | None, blocks: report_blocks.Blocks | None
) -> list[str]:
    """What the page says of each block, where its outputs come from, and what most blocks
    share, said once."""
    told = (
        "Cada bloque se ejecutó en la verificación de este commit (arriba, dónde); de cada uno "
        "se dice cuándo se grabó su salida en cada runner, con qué grabación compara cada runner "
        "y si la salida observada coincide con ella, comprobado en esta construcción."
        if verification is not None and verification.origin is not None
        else "Cada bloque se ejecuta en cada construcción"
        + _cached_clause(cov.cached if cov else 0)
        + "; de cada uno se dice cuándo se grabó su salida en cada runner, con qué grabación "
        "compara cada runner y si la salida de esta construcción coincide con ella."
    ) + (
        f" Sin grabación propia, el runner GPU compara con la de CPU ({device_rule.NAME}: "
        f"{device_rule.TEXT}), salvo en un bloque cuya salida en una GPU puede no ser la de CPU "
        f"({device_marks.any_text()}): ese necesita su propia grabación de GPU. No la necesita "
        f"uno que solo {device_marks.TEXT[device_marks.RANDOM]} y corre en GPU con "
        f"«{DEVICE_LABEL[AS_WRITTEN]}»: sus números los saca el generador de la CPU, como en CPU."
    )
    if blocks is None or not blocks.shared:
        return [told]
    return [
        told,
        f"Lo más común entre todos los bloques se dice aquí una vez (`{report_blocks.ID}` es el "
        "id de cada bloque):",
        report_blocks.shared_list(blocks),
        "Las páginas siguen el orden de lectura del sitio. Bajo cada una, «"
        f"{report_blocks.OWN}» dice lo más común en ella cuando no es lo de arriba; «"
        f"{report_blocks.ALIKE}», los bloques que no difieren en nada de eso, y la fila de cada "
        "uno de los demás, solo lo que difiere.",
    ]


def _titles(pages: list[Page]) -> dict[str, str]:
    """Each page's title as the page shows it (Markdown), by page.rel."""
    return {p.rel: md_escape(str(p.meta.get("title") or p.rel)) for p in pages}


def _cached_clause(cached: int) -> str:
    """Outside CI the local cache may give a block's output instead of running it again
    (`cached`: how many, Coverage.cached)."""
    if not cached:
        return ""
    return (
        ", salvo los que la caché local de docverify ya observó con este mismo código y estas "
        f"versiones ({cached} en esta, con la fecha en que se observaron)"
    )


def _observed_by(seen: Provenance) -> str:
    """«las salidas de CPU son las que observó el runner CPU (…) el … en …»: who observed a
    runner's outputs that this build shows."""
    label = LABEL.get(seen.runner, seen.runner)
    where = f"la ejecución de CI {seen.run_url}" if seen.run_url else "un informe local"
    return (
        f"las salidas de {label} son las que observó el runner {label} "
        f"({md_escape(seen.device)}, torch {seen.torch}) el {spanish_date_of(seen.date)} en "
        f"{where}"
    )


def _origin_lines(verification: Verification | None) -> list[str]:
    """A build from reports says that it ran nothing, and where its outputs were observed."""
    origin = verification.origin if verification else None
    if origin is None:
        return []
    split = f" repartida en {origin.shards} partes" if origin.shards not in ("", "1") else ""
    return [
        f"Esta construcción no ejecutó ningún bloque: {_observed_by(origin)}{split}, para este "
        f"mismo código (informes: {md_escape(', '.join(origin.reports))}), comparadas aquí con "
        "sus grabaciones."
    ]


def _peer_lines(verification: Verification | None) -> list[str]:
    """Where the other runner's outputs on the pages come from, when the build has its report."""
    seen = {
        runner: verdict.provenance
        for outcome in (verification.outcomes.values() if verification else [])
        for runner in RUNNERS
        if (verdict := outcome.reported(runner)) and verdict.provenance
    }
    lines = [_observed_by(provenance) for _, provenance in sorted(seen.items())]
    return [f"{line[0].upper()}{line[1:]}, para este mismo código." for line in lines]


def _stacked(name: str, markdown: str) -> str:
    """Wrap a table so that the site's CSS stacks its cells on narrow screens (no side scroll)."""
    return f'<div class="dv-report {name}" markdown>\n\n{markdown}\n\n</div>'


def sources_intro(fresh: Freshness) -> str:
    """When a source expires and when it is flagged for review; what a change of the cited
    code does, as the policy's `drift` decides (an error stops the build like an expired source)."""
    pol = fresh.policy
    drift = (
        "la construcción falla igual"
        if pol.drift_level is Level.ERROR
        else "se marca también, sin que falle la construcción"
    )
    return (
        f"Una fuente caduca {pol.max_age_days} días después de verificarse (o antes, si "
        "tiene su propio intervalo): caducada, la construcción falla y el sitio no se publica; "
        f"en los últimos {pol.warn_days} días se marca para revisar. Si el código citado de un "
        f"paquete instalado cambia, {drift}."
    )


def sources_markdown(fresh: Freshness) -> str:
    """Sources by review-by date: page, source, verification date, age, review-by, status."""
    if not fresh.statuses:
        return sources_intro(fresh) + "\n\nNinguna página cita fuentes."
    return sources_intro(fresh) + "\n\n" + _source_table(fresh, fresh.statuses)


def _source_table(fresh: Freshness, statuses: list[SourceStatus]) -> str:
    """The table of `statuses` by review-by date, then page.
    The owner column is last, and only there when a source in the table names one (a column of
    dashes would say «Responsable: —» on every stacked row)."""
    owned = any(status.source.owner for status in statuses)
    head = ["Fuente", "Verificada", "Edad", "Revisar a más tardar", "Estado"]
    head += ["Responsable"] if owned else []
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for status in sorted(statuses, key=lambda s: (s.review_by, s.source.page)):
        source = status.source
        cells = [
            f"{md_escape(source.reference)} — {md_escape(source.title)}",
            spanish_date(source.verified),
            day_count(status.age_days),
            spanish_date(status.review_by),
            _status_text(status, fresh.today),
        ]
        cells += [md_escape(source.owner or "—")] if owned else []
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def by_article(
    pages: list[Page], fresh: Freshness, blocks: report_blocks.Blocks | None
) -> list[str]:
    """A section per page with sources or executed blocks, in the order of `pages`: its heading
    (a link to it), its sources' table and its blocks (`blocks`, when the build has results).
    No heading inside a section: the table of contents lists the pages and nothing under them
    (a nested entry is a landmark named after its page, and two pages may share a title)."""
    parts: list[str] = []
    titles = _titles(pages)
    for page in pages:
        statuses = [s for s in fresh.statuses if s.source.page == page.rel]
        if not statuses and not page.blocks:
            continue
        parts.append(f"## [{titles[page.rel]}]({page.rel})")
        if statuses:
            parts += [
                f"**Fuentes** ({len(statuses)})",
                _stacked("dv-report-fuentes", _source_table(fresh, statuses)),
            ]
        if page.blocks and blocks is not None:
            parts += report_blocks.article(blocks, page.rel)
    if not fresh.statuses:
        parts.append("Ninguna página cita fuentes.")
    if not any(p.blocks for p in pages):
        parts.append("Ninguna página tiene bloques ejecutados.")
    return parts


def _status_text(status: SourceStatus, today: dt.date) -> str:
    text = STATUS[status.status]
    if status.status == "soon":
        text += f" (faltan {day_count((status.review_by - today).days)})"
    if status.drift_note:
        text += f": {md_escape(status.drift_note)}"
    elif status.source.fingerprint and status.installed:
        text += f"; huella de {md_escape(status.source.fingerprint.target)} intacta"
    return text
