"""What readers see under a block: the verified output per runner, its provenance, expectations."""

from __future__ import annotations

import datetime as dt
import html
import re
from textwrap import indent

from docverify.core.config import LABEL, RUNNERS
from docverify.core.dates import spanish_date, spanish_date_of
from docverify.core.policies import DEVICE_LABEL
from docverify.core.status import Status
from docverify.output import runner_view
from docverify.verifying.outcome import Outcome, tolerance

OUTPUT_FENCE = "dv-output"  # SuperFences custom fence for outputs, formatted by format_output
_DIFF_CLASS = {"-": "dv-diff-del", "+": "dv-diff-add", "@": "dv-diff-hunk"}


def fence(text: str, info: str = OUTPUT_FENCE) -> str:
    """`text` in a Markdown fence longer than any run of backticks inside it: by default an
    output, as a fence of its own kind (OUTPUT_FENCE)."""
    longest = max((len(m) for m in re.findall(r"`{3,}", text)), default=2)
    ticks = "`" * (longest + 1)
    return f"{ticks}{info}\n{text}\n{ticks}"


def diff_html(text: str) -> str:
    """A unified diff with its removed/added lines marked, or a traceback as it is: raw HTML
    without blank lines (one would end the raw HTML block in Markdown)."""
    lines = []
    for line in text.rstrip("\n").split("\n"):
        kind = "" if line.startswith(("---", "+++")) else _DIFF_CLASS.get(line[:1], "")
        escaped = html.escape(line) or "&#8203;"
        lines.append(f'<span class="{kind}">{escaped}</span>' if kind else escaped)
    return '<pre class="dv-diff"><code>' + "\n".join(lines) + "</code></pre>"


def format_output(source: str, *_: object, **__: object) -> str:
    """HTML of one output: program output (<samp>), not code, so it gets no copy button."""
    return f'<pre class="dv-output-text"><samp>{html.escape(source)}</samp></pre>'


def _provenance(runner: str, torch: str | None, when: str, device_policy: str) -> str:
    # On the gpu runner the device policy says what the GPU output means (core/policies.py).
    device = f" · {DEVICE_LABEL[device_policy]}" if runner == "gpu" else ""
    text = f"{LABEL[runner]}{device} · torch {torch or '?'} · {when}"
    # A span, not a <p>: Markdown wraps inline HTML inside the admonition in its own <p>.
    return f'<span class="dv-provenance">{html.escape(text)}</span>'


def _panel(text: str, provenance: str) -> str:
    return f"{fence(text)}\n\n{provenance}"


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
    return "\n\n".join([*parts, f'<p class="dv-no-output">{line}</p>']) + "\n"


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


def _observed_when(outcome: Outcome, today: dt.date) -> str:
    """Where and when this build's runner output was observed: here, the cache or a report."""
    origin = outcome.origin  # a build from reports: observed by a verification job
    if origin is not None:
        return runner_view.reported(origin.date, origin.device, origin.run_url, origin.shards)
    if cached := (outcome.result or {}).get("cached"):
        return f"observada el {spanish_date_of(cached)} (caché local de docverify)"
    return f"observada el {spanish_date(today)} en esta construcción"


def render_outcome(outcome: Outcome, env: dict[str, str], today: dt.date, config: object) -> str:
    """Markdown for the output of one block: one panel when runners agree, tabs otherwise."""
    runner, block = outcome.runner, outcome.block
    # A block not run in this build (DOCVERIFY_EXECUTE=0) shows every runner's recording.
    others = [r for r in RUNNERS if r != runner or outcome.status == Status.NOT_RUN]
    parts: list[str] = []
    if outcome.block.only:
        parts.append(
            f'<p class="dv-only">Solo {LABEL[outcome.block.only]}: '
            f"{html.escape(outcome.block.options.get('reason', ''))}</p>"
        )
    panels: list[tuple[str, str, str]] = []  # (runner, text, provenance)
    marks: list[str] = []
    kind = "success"
    if not outcome.status.ran:
        kind = "info"
    elif outcome.observed is not None:
        observed = outcome.observed
        when = _observed_when(outcome, today)
        panels.append(
            (runner, observed, _provenance(runner, env.get("torch"), when, block.device_policy))
        )
        if outcome.status == Status.OK:
            marks.append(_ok(runner, outcome))
            kind = "example" if outcome.block.options.get("raises") else kind
        else:
            kind = "failure" if outcome.status != Status.MISSING else "warning"
            marks.append(f"{LABEL[runner]} ✗ ({outcome.status.label})")
    tol = tolerance(config, outcome.block)  # type: ignore[arg-type]
    notes: list[str] = []  # provenance lines of the first panel: same output, or what is known
    for other in (r for r in others if outcome.block.runs_on(r)):
        first = panels[0] if panels else (None, None, "")
        view = runner_view.other(outcome, other, first[0], first[1], tol)
        marks.append(view.mark)
        if view.same:
            notes.append(_provenance(other, view.torch, view.same_when, block.device_policy))
        elif view.text is not None:
            panels.append(
                (other, view.text, _provenance(other, view.torch, view.when, block.device_policy))
            )
        elif view.note:
            notes.append(f'<span class="dv-provenance">{html.escape(view.note)}</span>')
    if notes and panels:
        panels[0] = (panels[0][0], panels[0][1], "\n".join([panels[0][2], *notes]))
    if _silent(outcome, panels, kind):
        return _no_output(parts, marks)
    not_run = outcome.status == Status.NOT_RUN
    prefix = "Salida grabada, no ejecutada ahora · " if not_run else "Salida · "
    title = prefix + " · ".join(marks)
    if len(panels) == 1:
        content = _panel(panels[0][1], panels[0][2])
    elif panels:
        content = "\n\n".join(
            f'=== "{LABEL[r]}"\n\n{indent(_panel(t, p), "    ")}' for r, t, p in panels
        )
    else:
        content = '<p class="dv-pending">Aún no hay salida grabada para este bloque.</p>'
    content = "\n\n".join(
        [*parts, content + _error_and_expectations(outcome)]
    )  # the cpu-only/gpu-only reason, first
    title = title.replace('"', "&quot;")
    return f'!!! {kind} dv-output "{title}"\n\n{indent(content, "    ")}\n'
