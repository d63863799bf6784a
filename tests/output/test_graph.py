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


def test_the_whole_picture_of_a_repeated_edge() -> None:
    """Every element of the picture of Mul → x twice, worked out by hand from the layout: boxes
    7.8 per character plus 10 each side, 30 high, rows 46 apart, a margin of 8; the two arrows
    12 apart around the boxes' centre."""
    parsed = graph.Graph(("Mul", "x"), ((0, 1), (0, 1)))
    marker = (
        '<defs><marker id="g-a" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse"><path class="dv-graph-arrow" '
        'd="M 0 0 L 10 5 L 0 10 z"/></marker></defs>'
    )
    edge = '<polyline class="dv-graph-edge" points="{}" fill="none" marker-end="url(#g-a)"/>'
    text = '<text x="29.7" y="{}" text-anchor="middle" dominant-baseline="central">{}</text>'
    assert drawing.svg(parsed, "T & U", "g") == (
        '<svg class="dv-graph-svg" role="img" viewBox="0 0 59 122" width="59" height="122" '
        'style="--dv-graph-width: 59px" aria-labelledby="g-t g-d" '
        'xmlns="http://www.w3.org/2000/svg">'
        '<title id="g-t">T &amp; U</title>'
        '<desc id="g-d">2 nodos, de la salida hacia las hojas. Mul pasa el gradiente a x '
        "(2 veces).</desc>"
        + marker
        + edge.format("23.7,38.0 23.7,84.0")
        + edge.format("35.7,38.0 35.7,84.0")
        + '<g class="dv-graph-node"><rect x="8.0" y="8.0" width="43.4" height="30" rx="4"/>'
        + text.format("23.0", "Mul")
        + '</g><g class="dv-graph-leaf"><rect x="15.8" y="84.0" width="27.8" height="30" '
        'rx="4"/>' + text.format("99.0", "x") + "</g></svg>"
    )


# Two roots; each node of the next row under its parent (D under A, C under B), an edge from A
# to E that bends around the row between.
CROSSED = graph.Graph(("A", "B", "C", "D", "E"), ((0, 3), (1, 2), (2, 4), (0, 4)))


def test_the_whole_picture_of_rows_ordered_under_their_parents() -> None:
    """Worked out by hand: row widths 73.6, 103.6 (D, the bend of A → E, 12 wide, and C) and
    27.8, each centred in 119.6; rows at y 8, 84 and 160."""
    box = (
        '<g class="{}"><rect x="{}" y="{}" width="27.8" height="30" rx="4"/><text x="{}" y="{}" '
        'text-anchor="middle" dominant-baseline="central">{}</text></g>'
    )
    edge = '<polyline class="dv-graph-edge" points="{}" fill="none" marker-end="url(#g-a)"/>'
    svg = drawing.svg(CROSSED, "t", "g")
    assert svg.startswith('<svg class="dv-graph-svg" role="img" viewBox="0 0 120 198" ')
    assert 'width="120" height="198" ' in svg
    body = svg[svg.index("</defs>") + len("</defs>") :]
    assert body == (
        edge.format("36.9,38.0 21.9,84.0")
        + edge.format("82.7,38.0 97.7,84.0")
        + edge.format("97.7,114.0 59.8,160.0")
        + edge.format("36.9,38.0 59.8,84.0 59.8,114.0 59.8,160.0")  # down beside C and D
        + box.format("dv-graph-node", "23.0", "8.0", "36.9", "23.0", "A")
        + box.format("dv-graph-node", "68.8", "8.0", "82.7", "23.0", "B")
        + box.format("dv-graph-node", "83.8", "84.0", "97.7", "99.0", "C")
        + box.format("dv-graph-leaf", "8.0", "84.0", "21.9", "99.0", "D")
        + box.format("dv-graph-leaf", "45.9", "160.0", "59.8", "175.0", "E")
        + "</svg>"
    )


def test_a_node_is_placed_by_the_mean_of_its_parents() -> None:
    """X under A and B (mean 36.8 before centring), Y under B (59.7): X goes first, though the
    sum of its parents' places is larger than Y's."""
    parsed = graph.Graph(("A", "B", "Y", "X"), ((1, 2), (0, 3), (1, 3)))
    svg = drawing.svg(parsed, "t", "g")
    x = {label: float(at) for at, label in re.findall(r'<text x="([\d.]+)"[^>]*>(\w)</text>', svg)}
    assert x["X"] < x["Y"]


def test_each_parent_row_is_read_left_to_right() -> None:
    """Y under B, the second of three, goes before X under C, the third."""
    parsed = graph.Graph(("A", "B", "C", "X", "Y"), ((2, 3), (1, 4)))
    svg = drawing.svg(parsed, "t", "g")
    x = {label: float(at) for at, label in re.findall(r'<text x="([\d.]+)"[^>]*>(\w)</text>', svg)}
    assert x["A"] < x["B"] < x["C"] and x["Y"] < x["X"]


def test_the_description_names_where_each_node_passes_the_gradient() -> None:
    assert drawing.describe(CROSSED) == (
        "5 nodos, de la salida hacia las hojas. A pasa el gradiente a D, E. "
        "B pasa el gradiente a C. C pasa el gradiente a E."
    )


def test_the_figure_around_the_picture() -> None:
    """The picture in a box of its own that the keyboard reaches (a wide graph scrolls in it)."""
    picture = drawing.svg(graph.parse(WALK), "A & B", "f")
    assert drawing.figure(WALK, "A & B", "f") == (
        f'<figure class="dv-graph"><div class="dv-graph-scroll" tabindex="0">{picture}</div>'
        "<figcaption>A &amp; B (dibujado a partir de la salida verificada)</figcaption></figure>"
    )


def test_the_natural_width_is_the_widest_row_with_its_margins() -> None:
    """Three leaves side by side under one node: the row of leaves sets the width, which the
    picture gives the stylesheet (--dv-graph-width) as its viewBox's."""
    parsed = graph.Graph(("A", "BB", "C", "D"), ((0, 1), (0, 2), (0, 3)))
    leaves = (2 + 1 + 1) * drawing.CHAR_W + 3 * 2 * drawing.PAD_X + 2 * drawing.GAP_X
    width = f"{leaves + 2 * drawing.MARGIN:.0f}"
    picture = drawing.svg(parsed, "t", "g")
    assert f'viewBox="0 0 {width} ' in picture
    assert f'style="--dv-graph-width: {width}px"' in picture
