"""Curve outputs: how a block's printed lines read as points, and when they cannot."""

from __future__ import annotations

import pytest
from conftest import Project
from docverify.core.kinds import Kind
from docverify.core.status import Status
from docverify.parsing.pages import read_site
from docverify.running.executor import Executor
from docverify.verifying import curve
from docverify.verifying.verify import verify

TRAINING = """\
entrenando 3 épocas con conv2d
época 1: pérdida 0.9321
época 2/3: pérdida 0.7104
época 3/3: pérdida 5.53e-1
pérdida final 0.5530
lr 0.1 y pérdida 0.4
"""


def test_parse_reads_x_first_y_last_and_names_the_axes() -> None:
    read = curve.parse(TRAINING)
    # A heading, a one-number summary and a line whose first number is not an integer are no
    # points; `conv2d` holds no number; «2/3» puts x first and y last.
    assert read.points == ((1, 0.9321), (2, 0.7104), (3, 0.553))
    assert (read.x_label, read.y_label) == ("época", "pérdida")


def test_numbers_inside_names_are_not_points() -> None:
    text = "paso 1: <MseLossBackward0> tensor(0.5000, grad_fn=x)\npaso 2: tensor(0.2500)\n"
    assert curve.parse(text).points == ((1, 0.5), (2, 0.25))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("nada que dibujar", "no tiene ningún punto"),
        ("época 1: pérdida 0.5", "un solo punto"),
        ("época 1: pérdida 0.5\népoca 2: pérdida nan", "no es un número finito"),
        ("época 1: pérdida 0.5\népoca 2: pérdida -inf", "no es un número finito"),
        ("época 2: pérdida 0.5\népoca 1: pérdida 0.4", "x debe crecer"),
        ("época 1: pérdida 0.5\népoca 1: pérdida 0.4", "x debe crecer"),
    ],
)
def test_parse_refuses_what_it_cannot_draw(text: str, message: str) -> None:
    with pytest.raises(curve.CurveError, match=message):
        curve.parse(text)


CODE = 'for epoca in range(1, 4):\n    print(f"época {epoca}: pérdida {1 / epoca:.4f}")\n'
PAGE = '# Curva\n\n```python exec="on" id="curva" curve="Pérdida"\n{code}```\n'


def _verify(project: Project, executor: Executor, code: str, recorded: str):  # type: ignore[no-untyped-def]
    project.page("curva.md", PAGE.format(code=code))
    project.snippet("curva/curva.cpu.txt", f"# ----\n{recorded}\n")
    cfg = project.config
    return verify(cfg, read_site(cfg), "cpu", executor)


def test_a_readable_curve_verifies(project: Project, executor: Executor) -> None:
    recorded = "época 1: pérdida 1.0000\népoca 2: pérdida 0.5000\népoca 3: pérdida 0.3333"
    report = _verify(project, executor, CODE, recorded)
    assert report.findings == []
    assert report.outcome("curva.md", "curva").status is Status.OK


def test_an_unreadable_output_is_a_finding_before_any_comparison(
    project: Project, executor: Executor
) -> None:
    report = _verify(project, executor, 'print("época 1: pérdida 1.0")\n', "época 1: pérdida 1.0")
    [finding] = report.findings
    assert finding.kind is Kind.UNREADABLE_CURVE
    assert "su salida" in finding.message and "un solo punto" in finding.message
    assert finding.path == "docs/curva.md" and "curve=" in finding.fix


def test_a_recording_the_picture_cannot_be_drawn_from_is_a_finding(
    project: Project, executor: Executor
) -> None:
    """The output matches its recording through a [..] marker, but the chart is drawn from the
    recording, where that number is gone: a finding naming the recording, never a silent gap."""
    recorded = "época 1: pérdida [..]\népoca 2: pérdida [..]\népoca 3: pérdida 0.3333"
    report = _verify(project, executor, CODE, recorded)
    [finding] = report.findings
    assert finding.kind is Kind.UNREADABLE_CURVE
    assert "snippets/curva/curva.cpu.txt" in finding.message and "[..]" in finding.fix
