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
from docverify.output import canary_output, curve_picture, graph_picture, markup, runner_view
from docverify.report.canary import CanaryView
from docverify.site.result import block_anchor
from docverify.verifying import curve, graph
from docverify.verifying.outcome import Outcome, Provenance, SeenIn


def _provenance(runner: str, torch: str | None, when: str, device_policy: str) -> str:
    # On the gpu runner the device policy says what the GPU output means (core/policies.py).
    device = f" · {DEVICE_LABEL[device_policy]}" if runner == "gpu" else ""
    text = f"{LABEL[runner]}{device} · torch {torch or '?'} · {when}"
    return f'<li class="dv-provenance">{html.escape(text)}</li>'


def _silent(outcome: Outcome, panels: list[tuple[str, str]], kind: str) -> bool:
    """Did the block print nothing, on every runner shown, and pass?"""
    return (
        bool(panels)
        and kind in ("success", "info")
        and all(not text for _, text in panels)
        and not outcome.expectations
        and not (outcome.result or {}).get("error")
    )


def _details(outcome: Outcome) -> list[str]:
    """What the line folds: the block's error, and each expectation with what was observed."""
    found = []
    if outcome.result and outcome.result.get("error"):
        found.append(f"<li><strong>Error:</strong> {html.escape(outcome.result['error'])}</li>")
    for e in outcome.expectations:
        found.append(
            f'<li class="dv-expectation">Esperado {html.escape(e["expected"])} · Observado '
            f"<code>{html.escape(str(e['observed']))}</code> {'✓' if e['ok'] else '✗'}</li>"
        )
    return found


def _where(seen: Provenance) -> str:
    """Where this build's runner output was observed, when not in this build: a few words for
    the line (the full account, once, is on the page that explains the verification)."""
    if seen.source == SeenIn.REPORT:  # a build from reports: observed by a verification job
        split = f" ({seen.shards} partes)" if seen.shards not in ("", "1") else ""
        return ("en CI" if seen.run_url else "comprobación local") + split
    if seen.source == SeenIn.CACHE:
        return "caché local"
    return ""


def _line(marks: list[str], seen: Provenance | None) -> str:
    """The one line under an output (HTML): the first mark, then where it ran (torch, the
    date, and where it was observed when not in this build), then the other runners' marks."""
    where: list[str] = []
    if seen is not None:
        said = [f"torch {seen.torch}", spanish_date_of(seen.date), _where(seen)]
        text = html.escape(" · ".join(part for part in said if part))
        where = [f'<span class="dv-provenance">{text}</span>']
    escaped = [html.escape(mark) for mark in marks]
    return " · ".join([*escaped[:1], *where, *escaped[1:]])


def _check(line: str, kind: str, items: list[str]) -> str:
    """The verification line; with something to add, it folds it (a <details>: keyboard- and
    screen-reader-reachable), open on a failure."""
    if not items:
        return markup.raw(f'<p class="dv-check">{line}</p>')
    opened = " open" if kind in ("failure", "warning") else ""
    return markup.raw(
        f'<details class="dv-check"{opened}><summary>{line}</summary>'
        f"<ul>{''.join(items)}</ul></details>"
    )


def render_outcome(outcome: Outcome) -> str:
    """Markdown for the output of one block, attached to its code like a notebook's cell: the
    output (tabs when runners differ), then one line (the mark, where it ran, torch, the date,
    the other runners' marks) that folds the provenance, the expectations and the other
    runners' state. The panel's kind (its colour) is the verdict: success, an expected error,
    a failure, a missing recording."""
    runner, block, verdict = outcome.runner, outcome.block, outcome.verdict
    parts: list[str] = []
    if block.only:
        reason = html.escape(block.options.get("reason", ""))
        parts.append(markup.raw(f'<p class="dv-only">Solo {LABEL[block.only]}: {reason}</p>'))
    panels: list[tuple[str, str]] = []  # (runner, text)
    notes: list[str] = []  # the folded items: where each output was observed, what is known
    marks: list[str] = []
    kind = "success"
    seen = verdict.provenance
    if not verdict.status.ran:
        kind = "info"
        # Only a build that runs nothing (it fails: ejecucion-desactivada) shows this.
        marks.append("Salida grabada, no ejecutada ahora")
    elif verdict.observed is not None and seen is not None:
        panels.append((runner, verdict.observed))
        if verdict.status == Status.OK:  # an expected error says so instead of a bare ✓
            expected = block.options.get("raises")
            marks.append(f"{LABEL[runner]}: Error esperado ✓" if expected else f"{LABEL[runner]} ✓")
            kind = "example" if expected else kind
        else:
            kind = "failure" if verdict.status != Status.MISSING else "warning"
            marks.append(f"{LABEL[runner]} ✗ ({verdict.status.label})")
    for other in outcome.others():
        view = runner_view.other(block, other)
        marks.append(view.mark)
        if view.same:
            notes.append(_provenance(other.runner, view.torch, view.same_when, block.device_policy))
        elif view.text is not None:
            panels.append((other.runner, view.text))
            notes.append(_provenance(other.runner, view.torch, view.when, block.device_policy))
        elif view.note:
            notes.append(f"<li>{html.escape(view.note)}</li>")
    line = _line(marks, seen if verdict.status.ran else None)
    if _silent(outcome, panels, kind):
        line = "Sin salida · " + line
        return "\n\n".join([*parts, markup.raw(f'<p class="dv-no-output">{line}</p>')]) + "\n"
    if len(panels) == 1:
        content = markup.fence(panels[0][1])
    elif panels:
        content = "\n\n".join(
            f'=== "{LABEL[r]}"\n\n{indent(markup.fence(t), "    ")}' for r, t in panels
        )
    else:
        pending = "Aún no hay salida comprobada para este bloque."
        content = markup.raw(f'<p class="dv-pending">{pending}</p>')
    content = "\n\n".join([*parts, content, _check(line, kind, _details(outcome) + notes)])
    return f'!!! {kind} dv-output ""\n\n{indent(content, "    ")}\n'


def markdown(outcome: Outcome, canary_view: CanaryView | None = None) -> str:
    """Everything under one block: its panel, its picture, the canary's box and its errors."""
    block = outcome.block
    shown = render_outcome(outcome) + figure(outcome)
    if canary_view is not None:  # a build given a canary's report
        shown += canary_output.block_box(canary_view, block)
    failures = [f for f in outcome.findings if f.level is Level.ERROR]
    if failures:
        title = f"Error en el bloque «{block.id}»"
        shown += "\n" + markup.problems_box(block_anchor(block.id), title, failures)
    return shown


def figure(outcome: Outcome) -> str:
    """The picture of a graph block, drawn from its output, and of a curve block, drawn from
    the recording its output matched (so changing the recording changes the picture); nothing
    unless the block verified: an unreadable one is a finding of the verification, and a guess
    is never drawn."""
    if outcome.status != Status.OK:
        return ""
    pictures = (
        (graph.OPTION, outcome.observed, graph_picture.figure, "dv-grafo"),
        (curve.OPTION, outcome.verdict.compared, curve_picture.figure, "dv-curva"),
    )
    shown = ""
    for option, text, draw, prefix in pictures:
        title = outcome.block.options.get(option)
        if not title or text is None:
            continue
        try:
            drawn = draw(text, title, f"{prefix}-{outcome.block.id}")
        except (graph.GraphError, curve.CurveError):
            continue
        shown += f"\n\n{markup.raw(drawn)}\n"
    return shown
