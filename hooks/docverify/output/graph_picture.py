"""Autograd graph pictures: draw a verified walk of grad_fn (verifying/graph.py) as inline SVG.

The picture is drawn from the verified text only: pure functions, no MkDocs, no torch, no
third-party script.
"""

from __future__ import annotations

import html

from docverify.verifying.graph import Graph, layers, parse

# Layout, in SVG user units (1 unit = 1 CSS px at the natural size).
CHAR_W, BOX_H, PAD_X, GAP_X, GAP_Y, MARGIN = 7.8, 30, 10, 18, 46, 8


def describe(graph: Graph) -> str:
    """A Spanish sentence per node, for screen readers (the <desc> of the picture)."""
    sentences = [f"{len(graph.labels)} nodos, de la salida hacia las hojas."]
    for node, label in enumerate(graph.labels):
        ends = [b for a, b in graph.edges if a == node]
        once = list(dict.fromkeys(ends))
        targets = [
            graph.labels[b] + (f" ({ends.count(b)} veces)" if ends.count(b) > 1 else "")
            for b in once
        ]
        if targets:
            sentences.append(f"{label} pasa el gradiente a {', '.join(targets)}.")
    return " ".join(sentences)


def _rows(graph: Graph) -> tuple[list[list[int | tuple[int, int]]], dict[object, float]]:
    """Rows of items top to bottom, and each item's centre x before centring the rows.

    An item is a node index or, for an edge that skips rows, a bend point (edge, row) that
    takes a little room in each row it crosses, so no edge runs through a box. Each row is
    ordered by the mean position of what points into it (one top-down pass).
    """
    depth = layers(graph)
    rows: list[list[int | tuple[int, int]]] = [[] for _ in range(max(depth) + 1)]
    parents: dict[object, list[object]] = {}
    for node, level in enumerate(depth):
        rows[level].append(node)
    for index, (a, b) in enumerate(graph.edges):
        previous: object = a
        for level in range(depth[a] + 1, depth[b]):
            bend = (index, level)
            rows[level].append(bend)
            parents.setdefault(bend, []).append(previous)
            previous = bend
        parents.setdefault(b, []).append(previous)
    centre: dict[object, float] = {}
    for level, row in enumerate(rows):
        if level:
            # Below the first row every item has something pointing into it.
            row.sort(key=lambda item: sum(centre[p] for p in parents[item]) / len(parents[item]))
        cursor = 0.0
        for item in row:
            w = _width(graph, item)
            centre[item] = cursor + w / 2
            cursor += w + GAP_X
    return rows, centre


def _width(graph: Graph, item: object) -> float:
    return len(graph.labels[item]) * CHAR_W + 2 * PAD_X if isinstance(item, int) else 12.0


def svg(graph: Graph, title: str, element_id: str) -> str:
    """Inline SVG of `graph`: a box per node, layered top to bottom, an arrow per edge. Its
    natural width (its viewBox's, in CSS px) is also --dv-graph-width, below which the
    stylesheet does not shrink it (see `figure`)."""
    rows, _ = _rows(graph)
    row_w = [sum(_width(graph, i) for i in row) + GAP_X * (len(row) - 1) for row in rows]
    total_w = max(row_w) + 2 * MARGIN
    total_h = len(rows) * BOX_H + (len(rows) - 1) * GAP_Y + 2 * MARGIN
    cx: dict[object, float] = {}
    top: dict[object, float] = {}
    for level, row in enumerate(rows):
        cursor = (total_w - row_w[level]) / 2
        for item in row:
            w = _width(graph, item)
            cx[item], top[item] = cursor + w / 2, MARGIN + level * (BOX_H + GAP_Y)
            cursor += w + GAP_X
    parts = [
        f'<svg class="dv-graph-svg" role="img" viewBox="0 0 {total_w:.0f} {total_h:.0f}" '
        f'width="{total_w:.0f}" height="{total_h:.0f}" style="--dv-graph-width: {total_w:.0f}px" '
        f'aria-labelledby="{element_id}-t {element_id}-d" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{element_id}-t">{html.escape(title)}</title>',
        f'<desc id="{element_id}-d">{html.escape(describe(graph))}</desc>',
        f'<defs><marker id="{element_id}-a" viewBox="0 0 10 10" refX="10" refY="5" '
        'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
        '<path class="dv-graph-arrow" d="M 0 0 L 10 5 L 0 10 z"/></marker></defs>',
    ]
    seen: dict[tuple[int, int], int] = {}
    for index, (a, b) in enumerate(graph.edges):
        repeat = graph.edges.count((a, b))
        k = seen.get((a, b), 0)
        seen[(a, b)] = k + 1
        shift = (k - (repeat - 1) / 2) * 12
        # Its bend points, top to bottom (the rows' order).
        bends = [i for row in rows for i in row if isinstance(i, tuple) and i[0] == index]
        points = [(cx[a] + shift, top[a] + BOX_H)]
        points += [(cx[i], top[i] + y) for i in bends for y in (0, BOX_H)]
        points.append((cx[b] + shift, top[b]))
        coords = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        parts.append(
            f'<polyline class="dv-graph-edge" points="{coords}" fill="none" '
            f'marker-end="url(#{element_id}-a)"/>'
        )
    for node, label in enumerate(graph.labels):
        leaf = not any(a == node for a, _ in graph.edges)
        kind = "dv-graph-leaf" if leaf else "dv-graph-node"
        w = _width(graph, node)
        parts.append(
            f'<g class="{kind}"><rect x="{cx[node] - w / 2:.1f}" y="{top[node]:.1f}" '
            f'width="{w:.1f}" height="{BOX_H}" rx="4"/>'
            f'<text x="{cx[node]:.1f}" y="{top[node] + BOX_H / 2:.1f}" '
            f'text-anchor="middle" dominant-baseline="central">{html.escape(label)}</text></g>'
        )
    parts.append("</svg>")
    return "".join(parts)


def figure(text: str, title: str, element_id: str) -> str:
    """The HTML figure shown under a graph block: the picture and a visible caption.

    The picture shrinks to the page's width, but not below the width at which its labels would
    be drawn smaller than the stylesheet allows (docs/stylesheets/docverify.css, from the
    natural width the picture gives as --dv-graph-width): a wider graph scrolls sideways in its
    own box, as code does, which the keyboard reaches (tabindex)."""
    picture = svg(parse(text), title, element_id)
    return (
        f'<figure class="dv-graph"><div class="dv-graph-scroll" tabindex="0">{picture}</div>'
        f"<figcaption>{html.escape(title)} (dibujado a partir de la salida verificada)"
        "</figcaption></figure>"
    )
