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


def test_what_counts_as_a_number_signs_exponents_and_words() -> None:
    text = (
        "paso -1: valor .5\n"  # a signed integer x, a y without integer part
        "paso +2: valor 1E+2\n"  # an explicit plus, an exponent
        "paso 3 info 7e-1\n"  # «info» is a word, not inf
        "paso 4 x1.5 = 2\n"  # «x1.5» is part of a name
        "paso 5: v.3 = 3.0\n"  # «.3» after a letter and a dot is part of a name
        "paso 6: 7abc 1\n"  # «7abc» is a word
        "paso 7.5: 1\n"  # x is not an integer: no point
    )
    assert curve.parse(text).points == (
        (-1, 0.5),
        (2, 100.0),
        (3, 0.7),
        (4, 2.0),
        (5, 3.0),
        (6, 1.0),
    )


def test_axis_names_come_from_the_first_point_without_their_punctuation() -> None:
    text = "\t[Época] 1 | (pérdida) = 0.5;\n{paso}: 2 – error/ 0.25\n"
    read = curve.parse(text)
    assert (read.x_label, read.y_label) == ("Época", "pérdida")
    assert curve.parse("1 2\n2 3").x_label == "" == curve.parse("1 2\n2 3").y_label
    # With three numbers, y is the last: the words after the middle one are still the y axis.
    assert curve.parse("época 1/3: pérdida 0.9\népoca 2/3: pérdida 0.8").y_label == "3: pérdida"
    # Two points are enough.
    assert curve.parse("1 2\n2 3").points == ((1, 2.0), (2, 3.0))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "nada\n",
            "la salida no tiene ningún punto; una curva necesita al menos 2 líneas como "
            "«época 1: pérdida 0.93» (x entero primero, y al final).",
        ),
        (
            "época 1: pérdida 0.5\n",
            "la salida tiene un solo punto; una curva necesita al menos 2 líneas",
        ),
        (
            "cabecera\népoca 1: pérdida 0.5\n  época 2: pérdida nan  \n",
            "la línea 3 («época 2: pérdida nan») da y = nan, que no es un número finito.",
        ),
        (
            "época 1/2: pérdida 0.5\népoca 2/2: pérdida -inf",
            "la línea 2 («época 2/2: pérdida -inf») da y = -inf, que no es un número finito.",
        ),
        (
            "época 1: pérdida 0.5\népoca 2: pérdida 0.4\népoca 2: pérdida 0.3",
            "la línea 3 («época 2: pérdida 0.3») tiene x = 2 después de x = 2: x debe crecer "
            "de una línea a la siguiente.",
        ),
    ],
)
def test_each_refusal_names_the_line_and_the_rule(text: str, message: str) -> None:
    with pytest.raises(curve.CurveError) as refused:
        curve.parse(text)
    assert str(refused.value).startswith(message)


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
