"""The autograd graph picture: parsed from a block's printed walk, drawn as accessible SVG."""

from __future__ import annotations

import re

import pytest
from docverify.output import graph_picture as drawing
from docverify.verifying import graph

WALK = """\
otra línea que no es del grafo
[0] MulBackward0 → [1], [2]
[1] SinBackward0 → [2]
[2] AccumulateGrad (hoja x)
"""


def test_parse_reads_nodes_and_edges_and_skips_other_lines() -> None:
    parsed = graph.parse(WALK)
    assert parsed.labels == ("MulBackward0", "SinBackward0", "AccumulateGrad (hoja x)")
    assert parsed.edges == ((0, 1), (0, 2), (1, 2))
    assert graph.layers(parsed) == [0, 1, 2]  # the longest path puts the leaf last


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("nada que dibujar", "ninguna línea"),
        ("[0] A → [1]", "no define"),
        ("[0] A → [1]\n[1] B → [0]", "ciclo"),
        ("[1] A", "numera"),
    ],
)
def test_parse_refuses_what_it_cannot_draw(text: str, message: str) -> None:
    with pytest.raises(graph.GraphError, match=message):
        graph.parse(text)


def test_svg_is_accessible_and_draws_every_node_and_edge() -> None:
    parsed = graph.parse("[0] MulBackward0 → [1], [1]\n[1] AccumulateGrad (hoja x)")
    svg = drawing.svg(parsed, "Grafo de y = x * x", "g")
    assert svg.startswith('<svg class="dv-graph-svg" role="img"')
    assert 'aria-labelledby="g-t g-d"' in svg
    assert '<title id="g-t">Grafo de y = x * x</title>' in svg
    assert "AccumulateGrad (hoja x) (2 veces)" in svg  # the <desc>
    assert re.findall(r"<text[^>]*>([^<]*)</text>", svg) == list(parsed.labels)
    assert svg.count("<polyline") == 2  # a repeated edge is drawn twice, side by side
    assert "<script" not in svg and 'fill="#' not in svg and 'stroke="#' not in svg  # CSS colours


def test_an_edge_that_skips_a_row_bends_around_the_box_in_between() -> None:
    svg = drawing.svg(graph.parse(WALK), "t", "g")
    lines = re.findall(r'points="([^"]*)"', svg)
    assert sorted(len(p.split()) for p in lines) == [2, 2, 4]  # 0→2 passes row 1 at a bend
