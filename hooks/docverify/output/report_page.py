# The verification report page: every source with its age and status, every block with its runs.
"""«Informe de verificación»: Markdown generated at each build (and by `docverify sources`).

The hook adds it to the site as a generated page at URI; the engine writes all of it.
"""

from __future__ import annotations

import datetime as dt

from docverify.core import device_marks
from docverify.core.config import LABEL, RUNNERS, Config
from docverify.core.dates import spanish_date, spanish_date_of
from docverify.core.markdown import md_escape
from docverify.core.policies import DEVICE_LABEL
from docverify.core.status import Status
from docverify.output import coverage
from docverify.parsing.pages import Page
from docverify.site import navigation
from docverify.site.coverage import Coverage
from docverify.sources.freshness import STATUS, Freshness, SourceStatus, evaluate
from docverify.verifying import baselines, recordings
from docverify.verifying.outcome import Report

URI = navigation.REPORT_URI  # the site reserves the name (site/navigation.py)
TITLE = "Informe de verificación"


def build(config: Config, pages: list[Page], report: Report | None, today: dt.date) -> str:
    """The report page for `pages` on `today`, with this build's block results when given."""
    return render(config, pages, report, evaluate(config, pages, today))


def render(
    config: Config,
    pages: list[Page],
    report: Report | None,
    fresh: Freshness,
    cov: Coverage | None = None,
) -> str:
    """The whole report page, in Markdown; it opens with the build's counts (`cov`)."""
    origin = report.origin if report else None
    parts = [
        f"# {TITLE}",
        f"Generado el {spanish_date(fresh.today)} al construir el sitio"
        + (
            f", en el runner {LABEL.get(report.runner, report.runner)} con torch "
            f"{report.env.get('torch', '?')}."
            if report and origin is None
            else "."
        ),
        *_origin_lines(report),
        *([opening] if (opening := coverage.report_opening(cov)) else []),
        *_peer_lines(report),
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
        f"{baselines.DEVICE_RULE}: {baselines.DEVICE_RULE_TEXT}), salvo en un bloque cuya salida "
        "en una GPU puede no ser la de CPU ("
        f"{device_marks.any_text()}): ese necesita su propia grabación de GPU.",
        *by_article(config, pages, report, fresh),
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


def _observed_by(runner: str, device: str, torch: str, date: str, run_url: str) -> str:
    """«las salidas de CPU son las que observó el runner CPU (…) el … en …»: who observed a
    runner's outputs that this build shows."""
    label = LABEL.get(runner, runner)
    where = f"la ejecución de CI {run_url}" if run_url else "un informe local"
    return (
        f"las salidas de {label} son las que observó el runner {label} ({md_escape(device)}, "
        f"torch {torch}) el {spanish_date_of(date)} en {where}"
    )


def _origin_lines(report: Report | None) -> list[str]:
    """A build from reports says that it ran nothing, and where its outputs were observed."""
    origin = report.origin if report else None
    if report is None or origin is None:
        return []
    split = f" repartida en {origin.shards} partes" if origin.shards not in ("", "1") else ""
    observed = _observed_by(report.runner, origin.device, origin.torch, origin.date, origin.run_url)
    return [
        f"Esta construcción no ejecutó ningún bloque: {observed}{split}, para este mismo código "
        f"(informes: {md_escape(', '.join(origin.reports))}), comparadas aquí con sus grabaciones."
    ]


def _peer_lines(report: Report | None) -> list[str]:
    """Where the other runner's outputs on the pages come from, when the build has its report."""
    peers = {r: p for o in (report.outcomes.values() if report else []) for r, p in o.peers.items()}
    lines = [
        _observed_by(runner, peer.device, peer.torch, peer.date, peer.run_url)
        for runner, peer in sorted(peers.items())
    ]
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
            f"{status.age_days} días",
            spanish_date(status.review_by),
            _status_text(status, fresh.today),
            md_escape(source.owner or "—"),
        ]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def by_article(
    config: Config, pages: list[Page], report: Report | None, fresh: Freshness
) -> list[str]:
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
        if page.blocks:
            table = _block_table(config, page, report)
            parts += ["### Bloques de código", _stacked("dv-report-bloques", table)]
    if not fresh.statuses:
        parts.append("Ninguna página cita fuentes.")
    if not any(p.blocks for p in pages):
        parts.append("Ninguna página tiene bloques ejecutados.")
    return parts


def _status_text(status: SourceStatus, today: dt.date) -> str:
    text = STATUS[status.status]
    if status.status == "soon":
        text += f" (faltan {(status.review_by - today).days} días)"
    if status.drift_note:
        text += f": {md_escape(status.drift_note)}"
    elif status.source.fingerprint and status.installed:
        text += f"; huella de {md_escape(status.source.fingerprint.target)} intacta"
    return text


def blocks_markdown(config: Config, pages: list[Page], report: Report | None) -> str:
    """Every executed block, page by page (a heading and a table each)."""
    tables = [
        f"### {md_escape(str(p.meta.get('title') or p.rel))}\n\n{_block_table(config, p, report)}"
        for p in sorted(pages, key=lambda p: p.rel)
        if p.blocks
    ]
    return "\n\n".join(tables) or "Ninguna página tiene bloques ejecutados."


def _block_table(config: Config, page: Page, report: Report | None) -> str:
    """The executed blocks of `page`: the runners each runs on, its recording dates and this
    build's result."""
    rows = [
        "| Bloque | Runners | Grabada | Compara con | Esta construcción |",
        "|---|---|---|---|---|",
    ]
    for block in page.blocks:
        runs = [r for r in RUNNERS if block.runs_on(r)]
        device = f" ({DEVICE_LABEL[block.device_policy]})" if "gpu" in runs else ""
        outcome = report.outcomes.get(block.key) if report else None
        # The build loaded every recording of its blocks once; reuse them.
        recs = (
            outcome.recordings
            if outcome
            else {r: rec for r in runs if (rec := recordings.load(config, block, r))}
        )
        dates = []
        for runner in runs:
            rec = recs.get(runner)
            if rec is not None:
                date = spanish_date_of(rec.header.get("date"))
            else:  # none of its own: compared with another runner's recording, or none
                fallback = baselines.expected_runner(block, runner, recs) != runner
                date = "sin grabación propia" if fallback else "aún sin grabación"
            dates.append(f"{LABEL[runner]}: {date}")
        now = (
            f"{LABEL.get(report.runner, report.runner)}"
            + (" (ejecución de CI)" if outcome.origin and outcome.origin.run_url else "")
            + (" (informe local)" if outcome.origin and not outcome.origin.run_url else "")
            + f": {_shown(outcome.status)}"
            if report and outcome
            else "sin ejecutar"
        )
        for runner, peer in sorted((outcome.peers if outcome else {}).items()):
            origin = "ejecución de CI" if peer.run_url else "informe local"
            now += f"; {LABEL[runner]} ({origin}): {_shown(peer.status)}"
        compared = "; ".join(
            f"{LABEL[r]}: {md_escape(baselines.describe(config, block, r, recs))}" for r in runs
        )
        rows.append(
            f"| `{block.id}` | "
            f"{', '.join(LABEL[r] for r in runs)}{device} | {'; '.join(dates)} | "
            f"{compared} | {now} |"
        )
    return "\n".join(rows)


def _shown(status: Status) -> str:
    """A block's status in the report's table: its label and its mark."""
    return f"{status.label} {status.mark}".rstrip()


def _link(rel: str, titles: dict[str, str] | None) -> str:
    """A link to the page, named by its title when known (relative to the report at the root)."""
    return f"[{md_escape((titles or {}).get(rel, rel))}]({rel})"
