"""verifying.graph: a block's printed walk of grad_fn read as a graph, and what is refused.

The drawing is tested in tests/output/test_graph.py; these are the parser's own tests, here
beside the module (the mutation run takes a module's mirrored tests)."""

from __future__ import annotations

import pytest
from docverify.verifying import graph


def test_nodes_edges_and_labels_are_read_exactly() -> None:
    text = (
        "una línea cualquiera\n"
        "  [0] AddBackward0 → [1], [2], [1]  \n"  # surrounding spaces, a repeated edge
        "[1] MulBackward0 (x · 2) → [2]\n"
        "[2] AccumulateGrad (hoja x)\n"
        "[9 no es un nodo\n"
    )
    read = graph.parse(text)
    assert read == graph.Graph(
        ("AddBackward0", "MulBackward0 (x · 2)", "AccumulateGrad (hoja x)"),
        ((0, 1), (0, 2), (0, 1), (1, 2)),
    )


def test_a_label_without_arrow_keeps_every_word() -> None:
    assert graph.parse("[0] AccumulateGrad (hoja w) → nada").labels == (
        "AccumulateGrad (hoja w) → nada",
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("nada que dibujar", "la salida no tiene ninguna línea «[0] Nodo → [1], …»."),
        ("[1] A", "el nodo [1] no sigue al [-1]: numera 0, 1, 2…"),
        ("[0] A\n[2] B", "el nodo [2] no sigue al [0]: numera 0, 1, 2…"),
        ("[0] A\n[0] B", "el nodo [0] no sigue al [0]: numera 0, 1, 2…"),
        ("[0] A → [3], [1], [5]\n[1] B", "la salida nombra nodos que no define: [3, 5]."),
        (
            "[0] A → [1]\n[1] B → [0]",
            "el grafo tiene un ciclo: un recorrido de grad_fn nunca vuelve atrás.",
        ),
        ("[0] A → [0]", "el grafo tiene un ciclo"),
    ],
)
def test_each_refusal_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(graph.GraphError) as refused:
        graph.parse(text)
    assert str(refused.value).startswith(message)


def test_layers_take_the_longest_path_even_when_edges_come_in_reverse_order() -> None:
    # 1 → 0 → 2, listed so that one pass over the edges is not enough: 2 is on layer 2.
    read = graph.parse("[0] A → [2]\n[1] B → [0]\n[2] C")
    assert graph.layers(read) == [1, 0, 2]
    # A longest chain listed backwards needs one pass per edge, and is still not a cycle.
    chain = graph.parse("[0] A\n[1] B → [0]\n[2] C → [1]\n[3] D → [2]")
    assert graph.layers(chain) == [3, 2, 1, 0]
    assert graph.layers(graph.parse("[0] solo")) == [0]
