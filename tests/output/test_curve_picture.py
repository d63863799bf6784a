"""The curve picture: an accessible SVG line chart drawn from a block's verified recording."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import Project
from docverify.core.status import Status
from docverify.output import curve_picture as drawing
from docverify.output import panel
from docverify.parsing.pages import Block
from docverify.verifying import curve, judge
from docverify.verifying.outcome import Observation, Outcome
from docverify.verifying.recordings import Recording

LOSS = "época 1: pérdida 0.9\népoca 2: pérdida 0.5\népoca 3: pérdida 0.25\népoca 4: pérdida 0.2"


def _points(svg: str) -> list[tuple[float, float]]:
    [points] = re.findall(r'<polyline class="dv-curve-line"[^>]* points="([^"]*)"', svg)
    return [tuple(map(float, p.split(","))) for p in points.split()]  # type: ignore[misc]


def test_svg_is_accessible_scalable_and_coloured_by_css() -> None:
    svg = drawing.svg(curve.parse(LOSS), "Pérdida por época", "c")
    assert svg.startswith('<svg class="dv-curve-svg" role="img" viewBox="0 0 ')
    assert 'aria-labelledby="c-t c-d"' in svg
    assert '<title id="c-t">Pérdida por época</title>' in svg
    [desc] = re.findall(r'<desc id="c-d">([^<]*)</desc>', svg)
    assert "4 puntos" in desc and "pérdida según época" in desc and "(baja)" in desc
    assert "1: 0,9; 2: 0,5; 3: 0,25; 4: 0,2" in desc  # every value, with a decimal comma
    assert ' width="' not in svg.split(">", 1)[0]  # the page's CSS sets the width
    assert "<script" not in svg and not re.search(r'(fill|stroke)="#', svg)


def test_axes_have_ticks_and_the_names_the_output_gives() -> None:
    svg = drawing.svg(curve.parse(LOSS), "t", "c")
    labels = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    assert {"0,2", "0,4", "0,6", "0,8", "1,0"} <= set(labels)  # y ticks, rounded steps
    assert {"1", "2", "3", "4"} <= set(labels)  # x ticks, integers
    assert "época" in labels and "pérdida" in labels  # the axes' names


def test_the_line_goes_through_every_point_in_order() -> None:
    points = _points(drawing.svg(curve.parse(LOSS), "t", "c"))
    assert len(points) == 4
    xs, ys = [x for x, _ in points], [y for _, y in points]
    assert xs == sorted(xs) and len(set(xs)) == 4
    assert ys == sorted(ys)  # the loss falls: each point lower on the page (larger y)


def test_changing_a_value_changes_the_picture() -> None:
    before = _points(drawing.svg(curve.parse(LOSS), "t", "c"))
    after = _points(drawing.svg(curve.parse(LOSS.replace("0.5", "0.7")), "t", "c"))
    assert before != after and before[0][0] == after[0][0]
    assert after[1][1] < before[1][1]  # a larger loss is drawn higher


def test_a_flat_curve_still_has_a_scale() -> None:
    svg = drawing.svg(curve.parse("paso 1: 2.0\npaso 2: 2.0"), "t", "c")
    ys = {y for _, y in _points(svg)}
    assert len(ys) == 1 and not re.search(r"\b(nan|inf)\b", svg)


def _outcome(
    project: Project, recorded: str | None, observed: str, error: str | None = None
) -> Outcome:
    """The block's outcome as the judge decides it: a curve block (rtol=0.5: 0.25 and 0.3 are
    the same output) that printed `observed`, against a recording of `recorded` (None: none)."""
    options = {"curve": "Pérdida", "rtol": "0.5"}
    block = Block("a.md", "curva", "", project.root / "docs/a.md", 1, 1, options=options)
    recs = (
        {} if recorded is None else {"cpu": Recording(Path("curva.cpu.txt"), "cpu", {}, recorded)}
    )
    result = {
        "output": observed,
        "error": error,
        "exception": None,
        "traceback": "",
        "expectations": [],
        "duration": 0.0,
    }
    seen = Observation(result)  # type: ignore[arg-type]
    verdict = judge.judge(project.config, block, "cpu", seen, recs=recs)
    return judge.outcome(project.config, block, verdict, recs)


def test_the_figure_is_drawn_from_the_recording_it_matched(project: Project) -> None:
    """Change the recording, the picture changes (the observed output is the same)."""
    first = panel.figure(_outcome(project, LOSS, LOSS))
    other = LOSS.replace("0.25", "0.3")
    changed = panel.figure(_outcome(project, other, LOSS))
    assert '<figure class="dv-curve">' in first and "<figcaption>Pérdida" in first
    assert _points(first) != _points(changed)
    assert _points(changed) == _points(drawing.svg(curve.parse(other), "", ""))


def test_no_figure_for_an_output_that_did_not_verify(project: Project) -> None:
    cases = {
        Status.DIVERGE: _outcome(project, LOSS, LOSS.replace("0.9", "9.0")),
        Status.ERROR: _outcome(project, LOSS, LOSS, error="falló"),
        Status.MISSING: _outcome(project, None, LOSS),
    }
    for status, outcome in cases.items():
        assert outcome.status == status and panel.figure(outcome) == ""
    unreadable = _outcome(project, "sin puntos", "sin puntos")
    assert unreadable.status == Status.ERROR and panel.figure(unreadable) == ""


def test_a_bound_on_a_tick_is_the_axis_end_not_one_step_beyond() -> None:
    """A curve from 0 to 1 (an accuracy, a loss that reaches 0) is drawn on an axis from 0 to 1:
    not from -0,2, a value no point has (the bug: the lower bound went one step down whenever
    the minimum was a multiple of the step)."""
    low, high, marks, decimals = drawing.y_ticks(0.0, 1.0)
    assert (low, high, decimals) == (0.0, 1.0, 1)
    assert [round(m, 9) for m in marks] == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    assert [round(m, 9) for m in drawing.y_ticks(0.6, 1.0)[2]] == [0.6, 0.7, 0.8, 0.9, 1.0]
    svg = drawing.svg(curve.parse("paso 1: exactitud 0\npaso 2: exactitud 1"), "", "c")
    assert "-0,2" not in svg


def test_numbers_as_a_spanish_reader_writes_them() -> None:
    assert drawing.number(0.5) == "0,5"
    assert drawing.number(-1.5) == "-1,5"
    assert drawing.number(2.0, 1) == "2,0"
    assert drawing.number(-0.0) == "0"
    assert drawing.number(-0.001, 2) == "0,00"  # rounds to zero: no «-0,00»
    assert drawing.number(-0.001) == "-0,001"
    assert drawing.number(1234567.0) == "1,23457e+06"  # six significant digits


@pytest.mark.parametrize(
    ("span", "target", "step"),
    [(1.0, 5, 0.2), (2.0, 5, 0.5), (44.0, 5, 10.0), (1.0, 10, 0.1), (7.0, 0, 10.0), (3.0, 1, 5.0)],
)
def test_a_nice_step_is_1_2_or_5_times_a_power_of_ten(
    span: float, target: int, step: float
) -> None:
    assert drawing.nice_step(span, target) == pytest.approx(step)


def test_the_y_range_around_the_values_and_its_decimals() -> None:
    low, high, marks, decimals = drawing.y_ticks(0.1, 0.5)  # a step of 0.1: one decimal
    assert (round(low, 9), round(high, 9), decimals) == (0.1, 0.5, 1)
    assert len(marks) == 5
    assert drawing.y_ticks(0.0, 0.2)[3] == 2  # a step of 0.05
    assert drawing.y_ticks(0.0, 40.0)[:3] == (0.0, 40.0, [0.0, 10.0, 20.0, 30.0, 40.0])
    assert drawing.y_ticks(0.0, 40.0)[3] == 0
    assert drawing.y_ticks(0.0, 5.0)[3] == 0  # a step of 1
    # A flat curve: a range around its value (a tenth of it, or 1 around 0).
    assert [round(v, 9) for v in drawing.y_ticks(5.0, 5.0)[:2]] == [4.4, 5.6]
    assert [round(v, 9) for v in drawing.y_ticks(-5.0, -5.0)[:2]] == [-5.6, -4.4]
    assert drawing.y_ticks(0.0, 0.0)[:3] == (-1.0, 1.0, [-1.0, -0.5, 0.0, 0.5, 1.0])


@pytest.mark.parametrize(
    ("low", "high", "ticks"),
    [
        (1, 3, [1, 2, 3]),
        (1, 2, [1, 2]),
        (0, 100, [0, 20, 40, 60, 80, 100]),
        (3, 47, [10, 20, 30, 40]),
        (10, 20, [10, 12, 14, 16, 18, 20]),
    ],
)
def test_x_ticks_are_integers(low: int, high: int, ticks: list[int]) -> None:
    assert drawing.x_ticks(low, high) == ticks


def test_the_description_says_the_data() -> None:
    assert drawing.describe(curve.parse(LOSS)) == (
        "Curva de 4 puntos: pérdida según época, de época 1 a época 4. Pérdida empieza en 0,9 y "
        "termina en 0,2 (baja); mínimo 0,2 en época 4, máximo 0,9 en época 1. "
        "Valores: 1: 0,9; 2: 0,5; 3: 0,25; 4: 0,2."
    )
    flat = curve.Curve(((1, 1.0), (2, 0.0), (3, 0.0), (4, 1.0)), "", "")
    assert drawing.describe(flat) == (
        "Curva de 4 puntos: valor según x, de x 1 a x 4. Valor empieza en 1 y termina en 1 "
        "(no cambia); mínimo 0 en x 2, máximo 1 en x 1. Valores: 1: 1; 2: 0; 3: 0; 4: 1."
    )
    assert "(sube)" in drawing.describe(curve.Curve(((1, 0.0), (2, 1.0)), "", ""))


def _many(n: int) -> curve.Curve:
    return curve.Curve(tuple((x, float(x % 3)) for x in range(1, n + 1)), "paso", "y")


def test_many_points_are_not_listed_nor_marked() -> None:
    assert " Valores: " in drawing.describe(_many(80))
    assert " Valores: " not in drawing.describe(_many(81))
    assert drawing.svg(_many(40), "", "c").count("<circle ") == 40
    assert "<circle " not in drawing.svg(_many(41), "", "c")
    assert 'class="dv-curve-points"' not in drawing.svg(_many(41), "", "c")


def test_the_whole_picture_of_a_small_curve() -> None:
    """Every element of the picture of two points, worked out by hand from the layout: a
    560 × 320 box, the plot from x 76 to 536 and from y 16 to 256."""
    drawn = curve.Curve(((1, 0.0), (3, 1.0)), "época", "pérdida")
    ys = ["256.0", "208.0", "160.0", "112.0", "64.0", "16.0"]  # 0, 0.2 … 1 up the axis
    xs = ["76.0", "306.0", "536.0"]  # 1, 2, 3
    described = (
        "Curva de 2 puntos: pérdida según época, de época 1 a época 3. Pérdida empieza en 0 y "
        "termina en 1 (sube); mínimo 0 en época 1, máximo 1 en época 3. Valores: 1: 0; 3: 1."
    )
    expected = (
        '<svg class="dv-curve-svg" role="img" viewBox="0 0 560 320" aria-labelledby="c-t c-d" '
        'xmlns="http://www.w3.org/2000/svg"><title id="c-t">Pérdida &lt;2&gt;</title>'
        f'<desc id="c-d">{described}</desc><g class="dv-curve-grid">'
        + "".join(f'<line x1="76" y1="{y}" x2="536" y2="{y}"/>' for y in ys[1:])
        + '</g><g class="dv-curve-axis"><line x1="76" y1="16" x2="76" y2="256"/>'
        '<line x1="76" y1="256" x2="536" y2="256"/>'
        + "".join(f'<line x1="71" y1="{y}" x2="76" y2="{y}"/>' for y in ys)
        + "".join(f'<line x1="{x}" y1="256" x2="{x}" y2="261"/>' for x in xs)
        + '</g><g class="dv-curve-ticks">'
        + "".join(
            f'<text x="68" y="{y}" text-anchor="end" dominant-baseline="central">{label}</text>'
            for y, label in zip(ys, ["0,0", "0,2", "0,4", "0,6", "0,8", "1,0"], strict=True)
        )
        + "".join(
            f'<text x="{x}" y="279" text-anchor="middle">{label}</text>'
            for x, label in zip(xs, "123", strict=True)
        )
        + '</g><text class="dv-curve-label" x="306.0" y="312" text-anchor="middle">época</text>'
        '<text class="dv-curve-label" x="18" y="136.0" text-anchor="middle" '
        'transform="rotate(-90 18 136.0)">pérdida</text>'
        '<polyline class="dv-curve-line" fill="none" points="76.0,256.0 536.0,16.0"/>'
        '<g class="dv-curve-points"><circle cx="76.0" cy="256.0" r="3"/>'
        '<circle cx="536.0" cy="16.0" r="3"/></g></svg>'
    )
    assert drawing.svg(drawn, "Pérdida <2>", "c") == expected


def test_a_range_away_from_zero_fills_the_plot() -> None:
    """From 2 to 4 (ticks every 0,5): 2 at the bottom (256), 4 at the top (16), 3 halfway."""
    svg = drawing.svg(curve.Curve(((1, 2.0), (2, 4.0)), "x", "y"), "", "c")
    assert _points(svg) == [(76.0, 256.0), (536.0, 16.0)]
    assert '<line x1="76" y1="136.0" x2="536" y2="136.0"/>' in svg
    assert ">2,5</text>" in svg and ">3,5</text>" in svg


def test_the_figure_around_the_picture() -> None:
    text = "época 1: pérdida 0\népoca 3: pérdida 1"
    picture = drawing.svg(curve.parse(text), "A & B", "f")
    assert drawing.figure(text, "A & B", "f") == (
        f'<figure class="dv-curve">{picture}<figcaption>A &amp; B (dibujada a partir de la '
        "salida verificada)</figcaption></figure>"
    )
