# The verification page: every source with its age and status, every block with its runs.
"""«Informe de verificación»: Markdown generated at each build (and by `docverify sources`).

The hook adds it to the site as a generated page at URI; the engine writes all of it.
"""

from __future__ import annotations

import datetime as dt

from docverify.core import device_marks, device_rule
from docverify.core.config import LABEL, RUNNERS, Config
from docverify.core.dates import day_count, spanish_date, spanish_date_of
from docverify.core.markdown import md_escape
from docverify.core.policies import DEVICE_LABEL
from docverify.core.status import Status
from docverify.output import coverage
from docverify.parsing.pages import Page
from docverify.site import navigation
from docverify.site.coverage import Coverage
from docverify.sources.freshness import STATUS, Freshness, SourceStatus, evaluate
from docverify.verifying.outcome import Outcome, Provenance, Source, Verification

URI = navigation.REPORT_URI  # the site reserves the name (site/navigation.py)
TITLE = "Informe de verificación"


def build(
    config: Config, pages: list[Page], verification: Verification | None, today: dt.date
) -> str:
    """The verification page for `pages` on `today`, with this build's block results when given."""
    return render(config, pages, verification, evaluate(config, pages, today))


def render(
    config: Config,
    pages: list[Page],
    verification: Verification | None,
    fresh: Freshness,
    cov: Coverage | None = None,
) -> str:
    """The whole verification page, in Markdown; it opens with the build's counts (`cov`)."""
    origin = verification.origin if verification else None
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
        *([opening] if (opening := coverage.verification_opening(cov)) else []),
        *_peer_lines(verification),
        "## Cómo leer este informe",
        sources_intro(fresh),
        (
            "Cada bloque se ejecutó en la verificación de este commit (arriba, dónde); su tabla "
            "dice cuándo se grabó su salida en cada runner, con qué grabación compara cada runner "
            "y si la salida observada coincide con ella, comprobado en esta construcción."
            if origin is not None
            else "Cada bloque se ejecuta en cada construcción"
            + _cached_clause(cov.cached if cov else 0)
            + "; su tabla dice cuándo se grabó su salida en cada runner, con qué grabación "
            "compara cada runner y si la salida de esta construcción coincide con ella."
        )
        + f" Sin grabación propia, el runner GPU compara con la de CPU ("
        f"{device_rule.NAME}: {device_rule.TEXT}), salvo en un bloque cuya salida "
        "en una GPU puede no ser la de CPU ("
        f"{device_marks.any_text()}): ese necesita su propia grabación de GPU.",
        *by_article(pages, verification, fresh),
    ]
    return "\n\n".join(parts) + "\n"


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
    """When a source expires and when it is flagged for review."""
    pol = fresh.policy
    return (
        f"Una fuente caduca {pol.max_age_days} días después de verificarse (o antes, si "
        f"tiene su propio intervalo); en los últimos {pol.warn_days} días se marca para "
        "revisar. Si el código citado de un paquete instalado cambia, se marca también."
    )


def sources_markdown(fresh: Freshness, titles: dict[str, str] | None = None) -> str:
    """Sources by review-by date: page, source, verification date, age, review-by, status."""
    if not fresh.statuses:
        return sources_intro(fresh) + "\n\nNinguna página cita fuentes."
    return sources_intro(fresh) + "\n\n" + _source_table(fresh, fresh.statuses, titles)


def _source_table(
    fresh: Freshness, statuses: list[SourceStatus], titles: dict[str, str] | None = None
) -> str:
    """The table of `statuses` by review-by date; with `titles`, a first column names the page."""
    page = ["Página"] if titles is not None else []
    head = [*page, "Fuente", "Verificada", "Edad", "Revisar a más tardar", "Estado", "Responsable"]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for status in sorted(statuses, key=lambda s: (s.review_by, s.source.page)):
        source = status.source
        cells = [_link(source.page, titles)] if titles is not None else []
        cells += [
            f"{md_escape(source.reference)} — {md_escape(source.title)}",
            spanish_date(source.verified),
            day_count(status.age_days),
            spanish_date(status.review_by),
            _status_text(status, fresh.today),
            md_escape(source.owner or "—"),
        ]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def by_article(pages: list[Page], verification: Verification | None, fresh: Freshness) -> list[str]:
    """A section per page with sources or executed blocks: its heading (a link to it), its
    sources' table and its blocks' table."""
    parts: list[str] = []
    for page in sorted(pages, key=lambda p: p.rel):
        statuses = [s for s in fresh.statuses if s.source.page == page.rel]
        if not statuses and not page.blocks:
            continue
        title = md_escape(str(page.meta.get("title") or page.rel))
        parts.append(f"## [{title}]({page.rel})")
        if statuses:
            parts += ["### Fuentes", _stacked("dv-report-fuentes", _source_table(fresh, statuses))]
        if page.blocks and verification is not None:
            table = _block_table(page, verification)
            parts += ["### Bloques de código", _stacked("dv-report-bloques", table)]
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


def blocks_markdown(config: Config, pages: list[Page], verification: Verification) -> str:
    """Every executed block, page by page (a heading and a table each)."""
    tables = [
        f"### {md_escape(str(p.meta.get('title') or p.rel))}\n\n{_block_table(p, verification)}"
        for p in sorted(pages, key=lambda p: p.rel)
        if p.blocks
    ]
    return "\n\n".join(tables) or "Ninguna página tiene bloques ejecutados."


def _block_table(page: Page, verification: Verification) -> str:
    """The executed blocks of `page`: the runners each runs on (with the GPU's device policy),
    its recording dates, the recording each runner compares with and this build's verdicts."""
    rows = [
        "| Bloque | Runners | Grabada | Compara con | Esta construcción |",
        "|---|---|---|---|---|",
    ]
    for block in page.blocks:
        outcome = verification.outcomes[block.key]
        runs = [r for r in RUNNERS if block.runs_on(r)]
        device = f" ({DEVICE_LABEL[block.device_policy]})" if "gpu" in runs else ""
        recorded = "; ".join(f"{LABEL[r]}: {_recorded(outcome, r)}" for r in runs)
        compared = "; ".join(
            f"{LABEL[r]}: {md_escape(outcome.verdicts[r].reference.described)}" for r in runs
        )
        rows.append(
            f"| `{block.id}` | {', '.join(LABEL[r] for r in runs)}{device} | {recorded} | "
            f"{compared} | {_now(verification, outcome)} |"
        )
    return "\n".join(rows)


def _recorded(outcome: Outcome, runner: str) -> str:
    """When the block's recording of `runner` was made, or why it has none."""
    if not outcome.block.runs_on(runner):
        return "no corre"
    if (recording := outcome.recordings.get(runner)) is not None:
        return spanish_date_of(recording.header.get("date"))
    # None of its own: compared with another runner's recording, or none yet.
    falls_back = outcome.verdicts[runner].reference.needed != runner
    return "sin grabación propia" if falls_back else "aún sin grabación"


def _now(verification: Verification, outcome: Outcome) -> str:
    """This build's verdict on the block, and the other runner's from its report."""
    seen = outcome.verdict.provenance
    reported = seen is not None and seen.source == Source.REPORT
    now = (
        f"{LABEL.get(verification.runner, verification.runner)}"
        + (" (ejecución de CI)" if reported and seen and seen.run_url else "")
        + (" (informe local)" if reported and seen and not seen.run_url else "")
        + f": {_shown(outcome.status)}"
    )
    for runner in RUNNERS:
        if (verdict := outcome.reported(runner)) and verdict.provenance:
            origin = "ejecución de CI" if verdict.provenance.run_url else "informe local"
            now += f"; {LABEL[runner]} ({origin}): {_shown(verdict.status)}"
    return now


def _shown(status: Status) -> str:
    """A block's status in the report's table: its label and its mark."""
    return f"{status.label} {status.mark}".rstrip()


def _link(rel: str, titles: dict[str, str] | None) -> str:
    """A link to the page, named by its title when known (relative to the report at the root)."""
    return f"[{md_escape((titles or {}).get(rel, rel))}]({rel})"
