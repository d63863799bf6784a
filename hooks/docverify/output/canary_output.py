"""What the torch canary leaves and shows: its report folder, its summary, its boxes on pages.

The folder is a check report (report_folder.write: report.json, findings.txt, diffs/) with the
`canary` section (report/canary.py), plus `resumen.md`, a summary in Spanish for people (and
for the body of CI's issue). On a site built with DOCVERIFY_CANARY_REPORT, each page with blocks
that would change gets a short list at its top, and each such block a collapsed box under its
output with how it would change; a block whose code changed since the report says only that.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from docverify.core.config import Config, today
from docverify.core.dates import spanish_date_of
from docverify.core.files import write_atomic
from docverify.core.findings import Level
from docverify.core.status import Status
from docverify.output import markup
from docverify.parsing.pages import Block, Page
from docverify.report import canary, report_folder, report_json
from docverify.verifying.outcome import Verification


def write(
    config: Config, folder: Path, verification: Verification, section: report_json.Canary
) -> list[Path]:
    """Write the check report with its canary section, and the summary beside it."""
    written = report_folder.write(folder, verification, config=config, canary=section)
    path = folder / canary.SUMMARY_FILE
    write_atomic(path, summary(config, verification, section))
    return [*written, path]


def _side(data: Mapping[str, Any]) -> str:
    return f"{data.get('torch', '?')} ({data.get('variant', '?')})"


def summary(config: Config, verification: Verification, section: report_json.Canary) -> str:
    """resumen.md: what would change and why, for people, in Spanish Markdown."""
    project, candidate = section.project, section.candidate
    tally = section.counts
    lines = [
        f"# {section.headline}",
        "",
        f"Canario de docverify del {spanish_date_of(today().isoformat())}, runner "
        f"{verification.runner}: cada bloque del sitio ejecutado con torch {_side(candidate)} y "
        "comparado con su grabación, con las mismas reglas que `docverify check`.",
        "",
        "| | Proyecto | Canario |",
        "|---|---|---|",
        f"| torch | {_side(project)} | {_side(candidate)} |",
        f"| numpy | {project.get('numpy', '?')} | {candidate.get('numpy', '?')} |",
        f"| Python | {project.get('python', '?')} | {candidate.get('python', '?')} |",
        "",
        f"Bloques ejecutados: {tally['blocks']} · coinciden con su grabación: {tally['ok']} · "
        f"cambiarían: {tally['changed']} ({tally['diverge']} con otra salida, {tally['error']} "
        f"fallarían) · sin grabación: {tally['missing']} · avisos nuevos: {tally['warnings']} · "
        f"fuentes con huella cuyo código cambia: {len(section.sources)}.",
    ]
    lines += _changed(config, verification, section) + _sources(section)
    lines += _adopting(candidate)
    return "\n".join(lines) + "\n"


def _changed(config: Config, verification: Verification, section: report_json.Canary) -> list[str]:
    """The blocks that would change, each with its place, new warnings and what fails."""
    lines: list[str] = []
    if section.changed:
        lines += ["", "## Bloques que cambiarían"]
    for key in section.changed:
        outcome = verification.outcomes[key]
        block = outcome.block
        lines += [
            "",
            f"### `{key}`: {outcome.status.label}",
            "",
            f"Página `{config.rel(config.docs_dir / block.page)}:{block.fence_line}`, código "
            f"`{config.rel(block.origin)}:{block.origin_line}`.",
        ]
        if warned := section.warnings.get(key):
            lines += ["", "Avisos nuevos:", "", *(f"- `{w}`" for w in warned)]
        for finding in outcome.findings:
            if finding.level is Level.ERROR:
                lines += ["", finding.message]
                if finding.detail:
                    kind = "diff" if finding.detail.startswith("---") else "text"
                    lines += ["", markup.fence(finding.detail.rstrip(), kind)]
    quiet = {k: w for k, w in section.warnings.items() if k not in section.changed}
    if quiet:
        lines += ["", "## Avisos nuevos en bloques que no cambian de salida", ""]
        lines += [f"- `{key}`: `{w}`" for key, found in quiet.items() for w in found]
    return lines


def _sources(section: report_json.Canary) -> list[str]:
    """The fingerprinted sources whose code changes with the canary's packages."""
    lines: list[str] = []
    if section.sources:
        lines += ["", "## Fuentes con huella cuyo código cambia"]
    for source in section.sources:
        after = (
            f"la huella pasa de `{source['sha256'][:12]}…` a `{source['new_sha256'][:12]}…`"
            if source["new_sha256"]
            else f"no se puede leer: {source['problem']}"
        )
        lines += [
            "",
            f"### «{source['reference']}» («{source['title']}»)",
            "",
            f"`{source['path']}:{source['line']}`: `{source['target']}`, verificada con "
            f"{source['package']} {source['verified_version']}; en {source['package']} "
            f"{source['version'] or '?'}, {after}.",
        ]
        if source["diff"]:
            lines += ["", markup.fence(source["diff"].rstrip(), "diff")]
    return lines


def _adopting(candidate: Mapping[str, Any]) -> list[str]:
    """How to adopt the canary's torch, step by step."""
    return [
        "",
        "## Cómo adoptarlo",
        "",
        "1. Sube la versión fijada en `pyproject.toml` "
        f"(`torch=={str(candidate.get('torch', '?')).split('+')[0]}`) e instala: "
        "`python3 tasks.py install`.",
        "2. `docverify accept CARPETA` con esta carpeta: muestra el diff de cada bloque que "
        "cambia, pregunta y escribe sus grabaciones. Un bloque que fallaría se corrige antes.",
        "3. `docverify sources --reverify REF` para cada fuente de arriba: muestra el diff y "
        "actualiza su huella y su fecha.",
        "4. `docverify check` y `python3 tasks.py build`; revisa `git diff` y confirma.",
        "",
        "El canario no escribe grabaciones ni hace fallar ninguna construcción.",
    ]


# --- on the site ------------------------------------------------------------------------------


def anchor(block_id: str) -> str:
    return f"dv-canario-{block_id}"


def _when(view: canary.CanaryView) -> str:
    return f"canario del {spanish_date_of(view.report.date)}"


def block_box(view: canary.CanaryView | None, block: Block) -> str:
    """Under a block's output: a collapsed box with how the canary's torch would change it."""
    change = view.changes.get(block.key) if view else None
    if view is None or change is None:
        return ""
    what = "esta salida cambiaría" if change.status == Status.DIVERGE else "este bloque fallaría"
    title = f"Con torch {view.torch} ({view.variant}), {what} · {_when(view)}"
    parts = [
        f'<details class="info dv-canary" id="{anchor(block.id)}">',
        f"<summary>{html.escape(title)}</summary>",
    ]
    if change.warnings:
        shown = ", ".join(f"<code>{html.escape(w)}</code>" for w in change.warnings)
        parts.append(f"<p>Avisos nuevos: {shown}</p>")
    parts.append(markup.diff_html(change.diff or change.error))
    parts.append("</details>")
    return "\n\n" + markup.raw("\n".join(parts)) + "\n"


def page_list(view: canary.CanaryView | None, page: Page) -> str:
    """At the top of a page: which of its blocks and sources the canary's torch would change."""
    if view is None:
        return ""
    changed = [b for b in page.blocks if b.key in view.changes]
    stale = [b for b in page.blocks if b.key in view.stale]
    sources = view.sources(page.rel)
    if not (changed or stale or sources):
        return ""
    count = len(changed)
    title = (
        f"Próxima versión de torch: con torch {view.torch} ({view.variant}) cambiaría"
        f"{'' if count == 1 else 'n'} {count} bloque{'' if count == 1 else 's'} de esta página"
        f" · {_when(view)}"
    )
    items = []
    for block in changed:
        change = view.changes[block.key]
        what = "su salida cambiaría" if change.status == Status.DIVERGE else "fallaría"
        warned = len(change.warnings)
        extra = f", {warned} aviso{'' if warned == 1 else 's'} nuevo{'' if warned == 1 else 's'}"
        items.append(
            f'<li><a href="#{anchor(block.id)}">«{html.escape(block.id)}»</a>: '
            f"{what}{extra if warned else ''}</li>"
        )
    for source in sources:
        items.append(
            f"<li>el código citado por la fuente «{html.escape(str(source['reference']))}» "
            f"(<code>{html.escape(str(source['target']))}</code>) cambia</li>"
        )
    for block in stale:
        items.append(
            f"<li>«{html.escape(block.id)}»: el informe del canario es anterior a su código "
            "actual; no se sabe qué imprimiría</li>"
        )
    return (
        '<details class="info dv-canary-page">\n'
        f"<summary>{html.escape(title)}</summary>\n"
        f"<ul>\n{''.join(items)}\n</ul>\n</details>\n\n"
    )
