"""A glossary data file for tests: the terms the site's lint must know, in the documented format.

The terms the issue requires (a computation graph is a «grafo», one term for backpropagation,
«hoja» for a leaf tensor, `backward` and `grad_fn` as code only), written as an author writes
docs/glosario.yml (the format is in the author guide, «El glosario»).
"""

from __future__ import annotations

GLOSSARY = """\
terms:
  - term: grafo
    english: computational graph
    definition: "Registro de las operaciones que produjeron un tensor."
    avoid: ["gráfico computacional"]
  - term: retropropagación
    english: backpropagation
    definition: "Recorrido del grafo desde la salida que calcula los gradientes."
    avoid: ["propagación inversa", "retropropagar"]
  - term: hoja
    english: leaf tensor
    definition: "Tensor que no produjo ninguna operación registrada."
    avoid: []
  - term: backward
    english: backward
    definition: "Método de un tensor que lanza la retropropagación desde él."
    avoid: []
    code: true
  - term: grad_fn
    english: grad_fn
    definition: "Atributo con el nodo del grafo que produjo un tensor."
    avoid: []
    code: true
"""
