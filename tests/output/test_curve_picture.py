"""The curve picture: an accessible SVG line chart drawn from a block's verified recording."""

from __future__ import annotations

import re
from pathlib import Path

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
