"""The panel under a block: the verdicts of its runners, as a reader sees them (the one place).

It receives a block's typed verdicts (verifying/outcome.py: the build runner's and every other
runner's, decided by verifying/judge.py) and words them: the output per runner with where and
when it was observed, one panel when runners agree and tabs otherwise, the expectations, the
picture of a graph or curve block, what the canary's torch would change, and the box of the
block's errors. runner_view.py words another runner; nothing here compares anything.
"""

from __future__ import annotations

import html
from textwrap import indent

from docverify.core.config import LABEL
from docverify.core.dates import spanish_date_of
from docverify.core.findings import Level
from docverify.core.policies import DEVICE_LABEL
from docverify.core.status import Status
from docverify.output import canary, curve, graph, markup, runner_view
from docverify.site.result import block_anchor
from docverify.verifying import curve as curve_text
from docverify.verifying import graph as graph_text
from docverify.verifying.outcome import Outcome, Provenance, Source


def _provenance(runner: str, torch: str | None, when: str, device_policy: str) -> str:
    # On the gpu runner the device policy says what the GPU output means (core/policies.py).
    device = f" · {DEVICE_LABEL[device_policy]}" if runner == "gpu" else ""
    text = f"{LABEL[runner]}{device} · torch {torch or '?'} · {when}"
    # A span, not a <p>: Markdown wraps inline HTML inside the admonition in its own <p>.
    return f'<span class="dv-provenance">{html.escape(text)}</span>'


def _panel(text: str, provenance: str) -> str:
    return f"{markup.fence(text)}\n\n{provenance}"


def _ok(runner: str, outcome: Outcome) -> str:
    """The mark of a verified output; an expected error says so instead of a bare ✓."""
    if outcome.block.options.get("raises"):
        return f"{LABEL[runner]}: Error esperado ✓"
    return f"{LABEL[runner]} ✓"


def _silent(outcome: Outcome, panels: list[tuple[str, str, str]], kind: str) -> bool:
    """Did the block print nothing, on every runner shown, and pass?"""
    return (
        bool(panels)
        and kind in ("success", "info")
        and all(not text for _, text, _ in panels)
        and not outcome.expectations
        and not (outcome.result or {}).get("error")
    )


def _no_output(parts: list[str], marks: list[str]) -> str:
    """A block that prints nothing: no empty panel, one discreet line with the same marks."""
    line = html.escape("Sin salida · " + " · ".join(marks))
    return "\n\n".join([*parts, markup.raw(f'<p class="dv-no-output">{line}</p>')]) + "\n"


def _error_and_expectations(outcome: Outcome) -> str:
    """Below the panels: the block's error, and each expectation with what was observed."""
    extra = ""
    if outcome.result and outcome.result.get("error"):
        extra += f"\n\n**Error:** {html.escape(outcome.result['error'])}"
    if outcome.expectations:
        items = "\n".join(
            f"- Esperado {html.escape(e['expected'])} · Observado "
            f"<code>{html.escape(str(e['observed']))}</code> {'✓' if e['ok'] else '✗'}"
            for e in outcome.expectations
        )
        extra += f'\n\n<div class="dv-expectations">\n\n{items}\n\n</div>'
    return extra


def _observed_when(seen: Provenance) -> str:
    """Where and when this build's runner output was observed: here, the cache or a report."""
    if seen.source == Source.REPORT:  # a build from reports: observed by a verification job
        return runner_view.reported(seen)
    if seen.source == Source.CACHE:
        return f"observada el {spanish_date_of(seen.date)} (caché local de docverify)"
    return f"observada el {spanish_date_of(seen.date)} en esta construcción"


def render_outcome(outcome: Outcome) -> str:
    """Markdown for the output of one block: one panel when runners agree, tabs otherwise."""
    runner, block, verdict = outcome.runner, outcome.block, outcome.verdict
    parts: list[str] = []
    if block.only:
        reason = html.escape(block.options.get("reason", ""))
        parts.append(markup.raw(f'<p class="dv-only">Solo {LABEL[block.only]}: {reason}</p>'))
    panels: list[tuple[str, str, str]] = []  # (runner, text, provenance)
    marks: list[str] = []
    kind = "success"
    if not verdict.status.ran:
        kind = "info"
    elif verdict.observed is not None and verdict.provenance is not None:
        seen = verdict.provenance
        when = _observed_when(seen)
        panels.append(
            (runner, verdict.observed, _provenance(runner, seen.torch, when, block.device_policy))
        )
        if verdict.status == Status.OK:
            marks.append(_ok(runner, outcome))
            kind = "example" if block.options.get("raises") else kind
        else:
            kind = "failure" if verdict.status != Status.MISSING else "warning"
            marks.append(f"{LABEL[runner]} ✗ ({verdict.status.label})")
    notes: list[str] = []  # provenance lines of the first panel: same output, or what is known
    for other in outcome.others():
        view = runner_view.other(block, other)
        marks.append(view.mark)
        if view.same:
            notes.append(_provenance(other.runner, view.torch, view.same_when, block.device_policy))
        elif view.text is not None:
            when = _provenance(other.runner, view.torch, view.when, block.device_policy)
            panels.append((other.runner, view.text, when))
        elif view.note:
            notes.append(f'<span class="dv-provenance">{html.escape(view.note)}</span>')
    if notes and panels:
        panels[0] = (panels[0][0], panels[0][1], "\n".join([panels[0][2], *notes]))
    if _silent(outcome, panels, kind):
        return _no_output(parts, marks)
    not_run = verdict.status == Status.NOT_RUN
    prefix = "Salida grabada, no ejecutada ahora · " if not_run else "Salida · "
    title = prefix + " · ".join(marks)
    if len(panels) == 1:
        content = _panel(panels[0][1], panels[0][2])
    elif panels:
        content = "\n\n".join(
            f'=== "{LABEL[r]}"\n\n{indent(_panel(t, p), "    ")}' for r, t, p in panels
        )
    else:
        pending = "Aún no hay salida grabada para este bloque."
        content = markup.raw(f'<p class="dv-pending">{pending}</p>')
    content = "\n\n".join(
        [*parts, content + _error_and_expectations(outcome)]
    )  # the cpu-only/gpu-only reason, first
    title = title.replace('"', "&quot;")
    return f'!!! {kind} dv-output "{title}"\n\n{indent(content, "    ")}\n'


def markdown(outcome: Outcome, canary_view: canary.View | None = None) -> str:
    """Everything under one block: its panel, its picture, the canary's box and its errors."""
    block = outcome.block
    shown = render_outcome(outcome)
    shown += graph_figure(outcome) + curve_figure(outcome)
    shown += canary.block_box(canary_view, block)
    failures = [f for f in outcome.findings if f.level is Level.ERROR]
    if failures:
        title = f"Error en el bloque «{block.id}»"
        shown += "\n" + markup.problems_box(block_anchor(block.id), title, failures)
    return shown


def graph_figure(outcome: Outcome) -> str:
    """The picture of a graph block, drawn only from an output that matched its recording
    (an unreadable description is a finding of the verification: never draw a guess)."""
    title = outcome.block.options.get(graph_text.OPTION)
    if not title or outcome.status != Status.OK or outcome.observed is None:
        return ""
    try:
        figure = graph.figure(outcome.observed, title, f"dv-grafo-{outcome.block.id}")
    except graph_text.GraphError:
        return ""
    return f"\n\n{markup.raw(figure)}\n"


def curve_figure(outcome: Outcome) -> str:
    """The chart of a curve block, drawn from the recording its output matched (so changing
    the recording changes the picture); nothing unless the block verified, since an unreadable
    curve is a finding of the verification: never draw a guess."""
    title = outcome.block.options.get(curve_text.OPTION)
    compared = outcome.verdict.compared
    if not title or outcome.status != Status.OK or compared is None:
        return ""
    try:
        figure = curve.figure(compared, title, f"dv-curva-{outcome.block.id}")
    except curve_text.CurveError:
        return ""
    return f"\n\n{markup.raw(figure)}\n"
