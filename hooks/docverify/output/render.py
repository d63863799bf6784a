"""What readers see under a block: the verified output per runner, its provenance, expectations."""

from __future__ import annotations

import html
import re
from textwrap import indent

from docverify.core.config import LABEL
from docverify.core.dates import spanish_date_of
from docverify.core.policies import DEVICE_LABEL
from docverify.core.status import Status
from docverify.output import coverage, runner_view
from docverify.site.coverage import Coverage
from docverify.verifying.outcome import Outcome, Provenance, Source, Verification

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


def legend(cov: Coverage | None, verification: Verification | None = None) -> str:
    """Shown once above the blocks of an article: what the marks in the output titles mean,
    with what this version's coverage says of the runners (output/coverage.py). A build from
    the verification jobs' reports (`report.origin`) observed nothing itself: it says so."""
    here = (
        "la salida que observó la verificación de este commit (su procedencia está bajo ella)"
        if verification is not None and verification.origin is not None
        else "la salida observada para esta versión"
    )
    cpu = f"«CPU ✓»: {here} coincide con la grabada. " if cov is None or cov.cpu_observed else ""
    runners = coverage.legend_gpu(cov)
    verdict = coverage.verdict(cov) + " " if cov is not None else ""
    return (
        '<p class="dv-legend"><strong>Cómo leer las salidas.</strong> '
        + html.escape(verdict, quote=False)
        + "Bajo cada bloque está lo que imprimió en cada runner (la máquina que ejecuta los "
        "bloques). "
        + html.escape(cpu + runners + (" " if runners else ""), quote=False)
        + "«Error esperado ✓»: el bloque debía terminar con ese error y así fue. "
        "«✗»: no coincide o el bloque falló, y el sitio no se publica. "
        "«Esperado · Observado»: el valor que anuncia el texto frente al que se imprimió.</p>"
    )


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
        parts.append(
            f'<p class="dv-only">Solo {LABEL[block.only]}: '
            f"{html.escape(block.options.get('reason', ''))}</p>"
        )
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
        content = '<p class="dv-pending">Aún no hay salida grabada para este bloque.</p>'
    content = "\n\n".join(
        [*parts, content + _error_and_expectations(outcome)]
    )  # the cpu-only/gpu-only reason, first
    title = title.replace('"', "&quot;")
    return f'!!! {kind} dv-output "{title}"\n\n{indent(content, "    ")}\n'
