"""Curve outputs: read a block's verified printed numbers as the points of a line chart.

A block marked curve="<title>" prints one point per line, for example a training loop:

    entrenando 3 épocas
    época 1: pérdida 0.9321
    época 2: pérdida 0.7104
    época 3: pérdida 0.5530

The rule, one line at a time: the line's first number is x and must be an integer; the line's
last number is y; a line with fewer than two numbers is not a point and is ignored (a heading, a
summary), as is a line whose first number is not an integer. The words before x name the x axis
(«época») and the words between x and y name the y axis («pérdida»), read on the first point.
A readable curve has at least two points, x strictly increasing and every y finite (`nan` and
`inf` are numbers of the line, so a diverging loss is a finding, not a gap in the picture).

That text is the block's output, recorded and verified like any other; verification checks that
it reads as a curve (an unreadable one is a finding) and output/curve_picture.py draws the
picture from the recording the output matched. Pure functions: no MkDocs, no torch.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

OPTION = "curve"
# A number standing on its own: not part of a word (`conv2d`, `Backward0`) or of a dotted name.
_NUMBER = re.compile(
    r"(?<![\w.])[-+]?(?:(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?|(?:nan|inf)(?![a-z]))(?!\w)",
    re.IGNORECASE,
)
_INTEGER = re.compile(r"[-+]?\d+")
_LABEL_EDGES = " \t:=,;()[]{}|-–—/"
MIN_POINTS = 2


class CurveError(ValueError):
    """The output holds no readable curve (the message is for authors, in Spanish)."""


@dataclass(frozen=True)
class Curve:
    points: tuple[tuple[int, float], ...]  # (x, y) in output order, x strictly increasing
    x_label: str  # the words before x on the first point's line («época»), or ""
    y_label: str  # the words between x and y on that line («pérdida»), or ""


def parse(text: str) -> Curve:
    """The curve printed in `text` (see the module's rule); CurveError when it cannot be read."""
    points: list[tuple[int, float]] = []
    labels = ("", "")  # pragma: no mutate; equivalent: read only after the first point sets it
    for number, line in enumerate(text.splitlines(), 1):
        numbers = list(_NUMBER.finditer(line))
        if len(numbers) < 2 or not _INTEGER.fullmatch(numbers[0].group()):
            continue
        x, y = int(numbers[0].group()), float(numbers[-1].group())
        if not math.isfinite(y):
            raise CurveError(
                f"la línea {number} («{line.strip()}») da y = {numbers[-1].group()}, que no es "
                "un número finito."
            )
        if points and x <= points[-1][0]:
            raise CurveError(
                f"la línea {number} («{line.strip()}») tiene x = {x} después de "
                f"x = {points[-1][0]}: x debe crecer de una línea a la siguiente."
            )
        if not points:
            labels = (
                line[: numbers[0].start()].strip(_LABEL_EDGES),
                line[numbers[0].end() : numbers[-1].start()].strip(_LABEL_EDGES),
            )
        points.append((x, y))
    if len(points) < MIN_POINTS:
        found = "no tiene ningún punto" if not points else "tiene un solo punto"
        raise CurveError(
            f"la salida {found}; una curva necesita al menos {MIN_POINTS} líneas como "
            "«época 1: pérdida 0.93» (x entero primero, y al final)."
        )
    return Curve(tuple(points), *labels)
