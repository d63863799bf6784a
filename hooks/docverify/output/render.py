"""What readers see under a block: the verified output per runner, its provenance, expectations."""

from __future__ import annotations

import datetime as dt
import html
import re
from textwrap import indent

from docverify.core.config import RUNNERS
from docverify.output import runner_view
from docverify.sources.model import spanish_date, spanish_date_of
from docverify.verifying.verify import Outcome, tolerance

LABEL = {"cpu": "CPU", "gpu": "GPU"}
_STATUS_TITLE = {
    "diverge": "no coincide con su grabación",
    "missing": "sin grabación",
    "error": "falló",
}


OUTPUT_FENCE = "dv-output"  # SuperFences custom fence for outputs, formatted by format_output


def _fence(text: str) -> str:
    longest = max((len(m) for m in re.findall(r"`{3,}", text)), default=2)
    ticks = "`" * (longest + 1)
    return f"{ticks}{OUTPUT_FENCE}\n{text}\n{ticks}"


def format_output(source: str, *_: object, **__: object) -> str:
    """HTML of one output: program output (<samp>), not code, so it gets no copy button."""
    return f'<pre class="dv-output-text"><samp>{html.escape(source)}</samp></pre>'


def _provenance(runner: str, torch: str | None, when: str) -> str:
    text = f"{LABEL[runner]} · torch {torch or '?'} · {when}"
    # A span, not a <p>: Markdown wraps inline HTML inside the admonition in its own <p>.
    return f'<span class="dv-provenance">{html.escape(text)}</span>'


def _panel(text: str, provenance: str) -> str:
    return f"{_fence(text)}\n\n{provenance}"


def render_outcome(outcome: Outcome, env: dict[str, str], today: dt.date, config: object) -> str:
    """Markdown for the output of one block: one panel when runners agree, tabs otherwise."""
    runner = outcome.runner
    # A block not run in this build (DOCVERIFY_EXECUTE=0) shows every runner's recording.
    others = [r for r in RUNNERS if r != runner or outcome.status == "not-run"]
    parts: list[str] = []
    if outcome.block.only:
        parts.append(
            f'<p class="dv-only">Solo {LABEL[outcome.block.only]}: '
            f"{html.escape(outcome.block.options.get('reason', ''))}</p>"
        )
    panels: list[tuple[str, str, str]] = []  # (runner, text, provenance)
    marks: list[str] = []
    kind = "success"
    if outcome.status in ("other-runner", "not-run"):
        kind = "info"
    elif outcome.observed is not None:
        observed = outcome.observed
        cached = (outcome.result or {}).get("cached")
        when = (
            f"observada el {spanish_date_of(cached)} (caché local de docverify)"
            if cached
            else f"observada el {spanish_date(today)} en esta compilación"
        )
        panels.append((runner, observed, _provenance(runner, env.get("torch"), when)))
        if outcome.status == "ok":
            marks.append(f"{LABEL[runner]} ✓")
        else:
            kind = "failure" if outcome.status != "missing" else "warning"
            marks.append(f"{LABEL[runner]} ✗ ({_STATUS_TITLE[outcome.status]})")
    tol = tolerance(config, outcome.block)  # type: ignore[arg-type]
    notes: list[str] = []  # provenance lines of the first panel: same output, or what is known
    for other in (r for r in others if outcome.block.runs_on(r)):
        first = panels[0] if panels else (None, None, "")
        view = runner_view.other(outcome, other, first[0], first[1], tol)
        marks.append(view.mark)
        if view.same:
            notes.append(_provenance(other, view.torch, view.same_when))
        elif view.text is not None:
            panels.append((other, view.text, _provenance(other, view.torch, view.when)))
        elif view.note:
            notes.append(f'<span class="dv-provenance">{html.escape(view.note)}</span>')
    if notes and panels:
        panels[0] = (panels[0][0], panels[0][1], "\n".join([panels[0][2], *notes]))
    prefix = "Salida grabada, no ejecutada ahora · " if outcome.status == "not-run" else "Salida · "
    title = prefix + " · ".join(marks)
    if len(panels) == 1:
        content = _panel(panels[0][1], panels[0][2])
    elif panels:
        content = "\n\n".join(
            f'=== "{LABEL[r]}"\n\n{indent(_panel(t, p), "    ")}' for r, t, p in panels
        )
    else:
        content = '<p class="dv-pending">Aún no hay salida grabada para este bloque.</p>'
    if outcome.result and outcome.result.get("error"):
        content += f"\n\n**Error:** {html.escape(outcome.result['error'])}"
    if outcome.expectations:
        items = "\n".join(
            f"- Esperado {html.escape(e['expected'])} · Observado "
            f"<code>{html.escape(str(e['observed']))}</code> {'✓' if e['ok'] else '✗'}"
            for e in outcome.expectations
        )
        content += f'\n\n<div class="dv-expectations" markdown>\n\n{items}\n\n</div>'
    content = "\n\n".join([*parts, content])  # the cpu-only/gpu-only reason, first
    title = title.replace('"', "&quot;")
    return f'!!! {kind} dv-output "{title}"\n\n{indent(content, "    ")}\n'
