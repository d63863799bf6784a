# The verification page: every source with its age and status, every block with its runs.
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
from docverify.verifying.outcome import Verification

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
        "## Fuentes",
        _stacked(
            "dv-report-fuentes",
            sources_markdown(fresh, {p.rel: str(p.meta.get("title") or p.rel) for p in pages}),
        ),
        "## Bloques de código",
        (
            "Cada bloque se ejecutó en la verificación de este commit (arriba, dónde); la tabla "
            "dice cuándo se grabó su salida en cada runner, con qué grabación compara cada runner "
            "y si la salida observada coincide con ella, comprobado en esta construcción."
            if origin is not None
            else "Cada bloque se ejecuta en cada construcción"
            + _cached_clause(cov.cached if cov else 0)
            + "; la tabla dice cuándo se grabó su salida en cada runner, con qué grabación compara "
            "cada runner y si la salida de esta construcción coincide con ella."
        )
        + f" Sin grabación propia, el runner GPU compara con la de CPU ("
        f"{baselines.DEVICE_RULE}: {baselines.DEVICE_RULE_TEXT}), salvo en un bloque cuya salida "
        "en una GPU puede no ser la de CPU ("
        f"{device_marks.any_text()}): ese necesita su propia grabación de GPU.",
        _stacked("dv-report-bloques", blocks_markdown(config, pages, verification)),
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


def _origin_lines(verification: Verification | None) -> list[str]:
    """A build from reports says that it ran nothing, and where its outputs were observed."""
    origin = verification.origin if verification else None
    if verification is None or origin is None:
        return []
    split = f" repartida en {origin.shards} partes" if origin.shards not in ("", "1") else ""
    observed = _observed_by(
        verification.runner, origin.device, origin.torch, origin.date, origin.run_url
    )
    return [
        f"Esta construcción no ejecutó ningún bloque: {observed}{split}, para este mismo código "
        f"(informes: {md_escape(', '.join(origin.reports))}), comparadas aquí con sus grabaciones."
    ]


def _peer_lines(verification: Verification | None) -> list[str]:
    """Where the other runner's outputs on the pages come from, when the build has its report."""
    peers = {
        r: p
        for o in (verification.outcomes.values() if verification else [])
        for r, p in o.peers.items()
    }
    lines = [
        _observed_by(runner, peer.device, peer.torch, peer.date, peer.run_url)
        for runner, peer in sorted(peers.items())
    ]
    return [f"{line[0].upper()}{line[1:]}, para este mismo código." for line in lines]


def _stacked(name: str, markdown: str) -> str:
    """Wrap a table so that the site's CSS stacks its cells on narrow screens (no side scroll)."""
    return f'<div class="dv-report {name}" markdown>\n\n{markdown}\n\n</div>'


def sources_markdown(fresh: Freshness, titles: dict[str, str] | None = None) -> str:
    """Sources by review-by date: page, source, verification date, age, review-by, status."""
    pol = fresh.policy
    intro = (
        f"Una fuente caduca {pol.max_age_days} días después de verificarse (o antes, si "
        f"tiene su propio intervalo); en los últimos {pol.warn_days} días se marca para "
        "revisar. Si el código citado de un paquete instalado cambia, se marca también."
    )
    if not fresh.statuses:
        return intro + "\n\nNinguna página cita fuentes."
    rows = [
        "| Página | Fuente | Verificada | Edad | Revisar a más tardar | Estado | Responsable |",
        "|---|---|---|---|---|---|---|",
    ]
    for status in sorted(fresh.statuses, key=lambda s: (s.review_by, s.source.page)):
        source = status.source
        rows.append(
            " | ".join(
                [
                    f"| {_link(source.page, titles)}",
                    f"{md_escape(source.reference)} — {md_escape(source.title)}",
                    spanish_date(source.verified),
                    f"{status.age_days} días",
                    spanish_date(status.review_by),
                    _status_text(status, fresh.today),
                    md_escape(source.owner or "—") + " |",
                ]
            )
        )
    return intro + "\n\n" + "\n".join(rows)


def _status_text(status: SourceStatus, today: dt.date) -> str:
    text = STATUS[status.status]
    if status.status == "soon":
        text += f" (faltan {(status.review_by - today).days} días)"
    if status.drift_note:
        text += f": {md_escape(status.drift_note)}"
    elif status.source.fingerprint and status.installed:
        text += f"; huella de {md_escape(status.source.fingerprint.target)} intacta"
    return text


def blocks_markdown(config: Config, pages: list[Page], verification: Verification | None) -> str:
    """Every executed block: the runners it runs on, its recording dates and this build's result."""
    rows = [
        "| Página | Bloque | Runners | Dispositivo en GPU | "
        + " | ".join(f"Grabada en {LABEL[r]}" for r in RUNNERS)
        + " | Compara con | Esta construcción |",
        "|---|---|---|---|" + "---|" * len(RUNNERS) + "---|---|",
    ]
    count = 0
    titles = {p.rel: str(p.meta.get("title") or p.rel) for p in pages}
    for page in sorted(pages, key=lambda p: p.rel):
        for block in page.blocks:
            count += 1
            runs = [r for r in RUNNERS if block.runs_on(r)]
            device = DEVICE_LABEL[block.device_policy] if "gpu" in runs else "—"
            outcome = verification.outcomes.get(block.key) if verification else None
            # The build loaded every recording of its blocks once; reuse them.
            recs = (
                outcome.recordings
                if outcome
                else {r: rec for r in runs if (rec := recordings.load(config, block, r))}
            )
            dates = []
            for runner in RUNNERS:
                if runner not in runs:
                    dates.append("no corre")
                    continue
                rec = recs.get(runner)
                if rec is not None:
                    dates.append(spanish_date_of(rec.header.get("date")))
                else:  # none of its own: compared with another runner's recording, or none
                    fallback = baselines.expected_runner(block, runner, recs) != runner
                    dates.append("sin grabación propia" if fallback else "aún sin grabación")
            now = (
                f"{LABEL.get(verification.runner, verification.runner)}"
                + (" (ejecución de CI)" if outcome.origin and outcome.origin.run_url else "")
                + (" (informe local)" if outcome.origin and not outcome.origin.run_url else "")
                + f": {_shown(outcome.status)}"
                if verification and outcome
                else "sin ejecutar"
            )
            for runner, peer in sorted((outcome.peers if outcome else {}).items()):
                origin = "ejecución de CI" if peer.run_url else "informe local"
                now += f"; {LABEL[runner]} ({origin}): {_shown(peer.status)}"
            compared = "; ".join(
                f"{LABEL[r]}: {md_escape(baselines.describe(config, block, r, recs))}" for r in runs
            )
            rows.append(
                f"| {_link(page.rel, titles)} | `{block.id}` | "
                f"{', '.join(LABEL[r] for r in runs)} | {device} | {' | '.join(dates)} | "
                f"{compared} | {now} |"
            )
    if not count:
        return "Ninguna página tiene bloques ejecutados."
    return "\n".join(rows)


def _shown(status: Status) -> str:
    """A block's status in the report's table: its label and its mark."""
    return f"{status.label} {status.mark}".rstrip()


def _link(rel: str, titles: dict[str, str] | None) -> str:
    """A link to the page, named by its title when known (relative to the report at the root)."""
    return f"[{md_escape((titles or {}).get(rel, rel))}]({rel})"
