"""Curve pictures: draw a verified curve (verifying/curve.py) as an inline SVG line chart.

Axes with ticks and their labels, the axis names read from the output, one polyline, and a
`<title>`/`<desc>` that tell screen readers the data in Spanish. Colours come from CSS classes
(docverify.css, through Material's variables), so the light and dark schemes both apply; the
width follows the page (viewBox, no fixed size). Pure functions: no MkDocs, no torch, no script.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable

from docverify.verifying.curve import Curve, parse

# Layout, in SVG user units (the picture scales to the page's width).
WIDTH, HEIGHT = 560, 320
LEFT, RIGHT, TOP, BOTTOM = 76, 24, 16, 64
TICK, TARGET_TICKS, MAX_MARKERS = 5, 5, 40


def number(value: float, decimals: int | None = None) -> str:
    """A number as a Spanish reader writes it: decimal comma, no «-0»."""
    text = f"{value:.{decimals}f}" if decimals is not None else f"{value:.6g}"
    if float(text) == 0:
        text = text.removeprefix("-")
    return text.replace(".", ",")


def nice_step(span: float, target: int = TARGET_TICKS) -> float:
    """A step of 1, 2 or 5 × 10^k that cuts `span` into about `target` parts."""
    raw = span / max(1, target)
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def _decimals(step: float) -> int:
    return max(0, -math.floor(math.log10(step) + 1e-9))


def y_ticks(low: float, high: float) -> tuple[float, float, list[float], int]:
    """Rounded bounds around [low, high], the ticks between them and their decimals."""
    if high == low:
        pad = abs(low) * 0.1 or 1.0
        low, high = low - pad, high + pad
    step = nice_step(high - low)
    # The bounds: the ticks at or just outside [low, high] (1e-9: a bound on a tick, read as a
    # float a hair beyond it, is that tick).
    start, end = math.floor(low / step + 1e-9) * step, math.ceil(high / step - 1e-9) * step
    count = round((end - start) / step)
    return start, end, [start + i * step for i in range(count + 1)], _decimals(step)


def x_ticks(low: int, high: int) -> list[int]:
    """Integer ticks from `low` to `high` (x is an integer: an epoch, a step)."""
    step = max(1, round(nice_step(high - low)))
    first = math.ceil(low / step) * step
    return list(range(first, high + 1, step))


def _names(curve: Curve) -> tuple[str, str]:
    return curve.x_label or "x", curve.y_label or "valor"


def describe(curve: Curve) -> str:
    """The data in Spanish, for screen readers (the <desc> of the picture)."""
    x_name, y_name = _names(curve)
    xs = [x for x, _ in curve.points]
    ys = [y for _, y in curve.points]
    first, last = ys[0], ys[-1]
    trend = "baja" if last < first else "sube" if last > first else "no cambia"
    low, high = ys.index(min(ys)), ys.index(max(ys))
    text = (
        f"Curva de {len(ys)} puntos: {y_name} según {x_name}, de {x_name} {xs[0]} a "
        f"{x_name} {xs[-1]}. {y_name[:1].upper() + y_name[1:]} empieza en {number(first)} y "
        f"termina en {number(last)} ({trend}); mínimo {number(ys[low])} en {x_name} {xs[low]}, "
        f"máximo {number(ys[high])} en {x_name} {xs[high]}."
    )
    if len(ys) <= 2 * MAX_MARKERS:
        text += " Valores: " + "; ".join(f"{x}: {number(y)}" for x, y in curve.points) + "."
    return text


def svg(curve: Curve, title: str, element_id: str) -> str:
    """Inline SVG of `curve`: grid, axes with ticks and names, the line and its points."""
    xs = [x for x, _ in curve.points]
    ys = [y for _, y in curve.points]
    y_low, y_high, y_marks, decimals = y_ticks(min(ys), max(ys))
    x_low, x_high = xs[0], xs[-1]
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM

    def px(x: float) -> float:
        return LEFT + (x - x_low) / (x_high - x_low) * (right - LEFT)

    def py(y: float) -> float:
        return bottom - (y - y_low) / (y_high - y_low) * (bottom - TOP)

    x_name, y_name = _names(curve)
    parts = [
        f'<svg class="dv-curve-svg" role="img" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'aria-labelledby="{element_id}-t {element_id}-d" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{element_id}-t">{html.escape(title)}</title>',
        f'<desc id="{element_id}-d">{html.escape(describe(curve))}</desc>',
        '<g class="dv-curve-grid">',
        *(
            f'<line x1="{LEFT}" y1="{py(v):.1f}" x2="{right}" y2="{py(v):.1f}"/>'
            for v in y_marks[1:]
        ),
        "</g>",
        '<g class="dv-curve-axis">',
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{bottom}"/>',
        f'<line x1="{LEFT}" y1="{bottom}" x2="{right}" y2="{bottom}"/>',
        *(
            f'<line x1="{LEFT - TICK}" y1="{py(v):.1f}" x2="{LEFT}" y2="{py(v):.1f}"/>'
            for v in y_marks
        ),
        *(
            f'<line x1="{px(v):.1f}" y1="{bottom}" x2="{px(v):.1f}" y2="{bottom + TICK}"/>'
            for v in x_ticks(x_low, x_high)
        ),
        "</g>",
        '<g class="dv-curve-ticks">',
        *(
            f'<text x="{LEFT - TICK - 3}" y="{py(v):.1f}" text-anchor="end" '
            f'dominant-baseline="central">{number(v, decimals)}</text>'
            for v in y_marks
        ),
        *(
            f'<text x="{px(v):.1f}" y="{bottom + TICK + 18}" text-anchor="middle">{v}</text>'
            for v in x_ticks(x_low, x_high)
        ),
        "</g>",
        f'<text class="dv-curve-label" x="{(LEFT + right) / 2:.1f}" y="{HEIGHT - 8}" '
        f'text-anchor="middle">{html.escape(x_name)}</text>',
        f'<text class="dv-curve-label" x="18" y="{(TOP + bottom) / 2:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 18 {(TOP + bottom) / 2:.1f})">{html.escape(y_name)}</text>',
        '<polyline class="dv-curve-line" fill="none" points="'
        + " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in curve.points)
        + '"/>',
    ]
    return "".join([*parts, *_markers(curve, px, py), "</svg>"])


def _markers(curve: Curve, px: Callable[[float], float], py: Callable[[float], float]) -> list[str]:
    """A circle on each point, unless there are too many to tell apart."""
    if len(curve.points) > MAX_MARKERS:
        return []
    circles = [f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3"/>' for x, y in curve.points]
    return ['<g class="dv-curve-points">', *circles, "</g>"]


def figure(text: str, title: str, element_id: str) -> str:
    """The HTML figure shown under a curve block: the chart and a visible caption."""
    picture = svg(parse(text), title, element_id)
    return (
        f'<figure class="dv-curve">{picture}'
        f"<figcaption>{html.escape(title)} (dibujada a partir de la salida verificada)"
        "</figcaption></figure>"
    )
