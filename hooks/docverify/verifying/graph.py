"""Autograd graph outputs: read a block's verified walk of grad_fn as a graph (drawn by output/).

A block marked graph="<title>" prints a walk of `grad_fn.next_functions`, one node a line:

    [0] AddBackward0 → [1], [3]
    [1] MulBackward0 → [2], [2]
    [2] AccumulateGrad (hoja x)

That text is the block's output, recorded and verified like any other; verification checks that it
reads as a graph (an unreadable one is a finding), and output/graph_picture.py draws the picture
from the verified text only, so a change in torch's graph is a divergence before it is a new
picture. Other lines of the output are ignored. Pure functions: no MkDocs, no torch.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

OPTION = "graph"
# `next` is the arrow and what it points to, or "" (a node that points nowhere).
_NODE = re.compile(r"^\[(?P<id>\d+)\] (?P<label>.+?)(?P<next>(?: → \[\d+\](?:, \[\d+\])*)?)\s*$")
_REF = re.compile(r"\[(\d+)\]")


class GraphError(ValueError):
    """The output holds no readable graph (the message is for authors, in Spanish)."""


@dataclass(frozen=True)
class Graph:
    labels: tuple[str, ...]  # node i's label
    edges: tuple[tuple[int, int], ...]  # (from, to), in output order; repeats kept


def parse(text: str) -> Graph:
    """The graph printed in `text`; nodes numbered 0..n-1 in order, every reference defined."""
    labels: dict[int, str] = {}
    edges: list[tuple[int, int]] = []
    for line in text.splitlines():
        match = _NODE.match(line.strip())
        if not match:
            continue
        node = int(match.group("id"))
        if node != len(labels):
            raise GraphError(f"el nodo [{node}] no sigue al [{len(labels) - 1}]: numera 0, 1, 2…")
        labels[node] = match.group("label")
        edges += [(node, int(ref)) for ref in _REF.findall(match.group("next"))]
    if not labels:
        raise GraphError("la salida no tiene ninguna línea «[0] Nodo → [1], …».")
    undefined = sorted({b for _, b in edges if b not in labels})
    if undefined:
        raise GraphError(f"la salida nombra nodos que no define: {undefined}.")
    graph = Graph(tuple(labels[i] for i in range(len(labels))), tuple(edges))
    layers(graph)  # raises on a cycle
    return graph


def layers(graph: Graph) -> list[int]:
    """Layer of each node: its longest distance from a node nothing points to."""
    n = len(graph.labels)
    depth = [0] * n
    for _ in range(n):
        before = list(depth)
        for a, b in graph.edges:
            depth[b] = max(depth[b], depth[a] + 1)
        if depth == before:
            return depth
    raise GraphError("el grafo tiene un ciclo: un recorrido de grad_fn nunca vuelve atrás.")
