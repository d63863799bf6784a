"""The glossary's data file (docs/glosario.yml): its shape, and what issue 27 says it must know.

The page generated from it and the lint of avoided phrases are checked where they are built; this
module checks only the data they read.
"""

from __future__ import annotations

from typing import Any

import yaml
from conftest import ROOT

GLOSSARY = ROOT / "docs" / "glosario.yml"
KEYS = {"term", "english", "definition", "avoid", "code", "other_senses"}


def load() -> list[dict[str, Any]]:
    data = yaml.safe_load(GLOSSARY.read_text(encoding="utf-8"))
    assert isinstance(data, dict) and set(data) == {"terms"}, "una sola clave: «terms»"
    terms = data["terms"]
    assert isinstance(terms, list) and terms, "«terms» es una lista no vacía"
    return terms


def problems(terms: list[dict[str, Any]]) -> list[str]:
    """What is wrong with the terms, in Spanish, one line each."""
    found = []
    seen: dict[str, str] = {}
    for index, item in enumerate(terms, 1):
        name = item.get("term", f"n.º {index}") if isinstance(item, dict) else f"n.º {index}"
        if not isinstance(item, dict):
            found.append(f"término {name}: no es un mapa")
            continue
        if extra := set(item) - KEYS:
            found.append(f"término {name}: claves desconocidas {sorted(extra)}")
        for key in ("term", "english", "definition"):
            value = item.get(key)
            if not isinstance(value, str) or not value.strip() or "\n" in value.strip():
                found.append(f"término {name}: «{key}» debe ser una línea de texto")
        avoid = item.get("avoid")
        if not isinstance(avoid, list) or not all(isinstance(a, str) and a for a in avoid):
            found.append(f"término {name}: «avoid» debe ser una lista de textos")
            avoid = []
        senses = item.get("other_senses", [])
        if not isinstance(senses, list) or not all(isinstance(a, str) and a for a in senses):
            found.append(f"término {name}: «other_senses» debe ser una lista de textos")
        if "code" in item and not isinstance(item["code"], bool):
            found.append(f"término {name}: «code» es true o false")
        for phrase in [str(name), *avoid]:
            key = phrase.casefold()
            if key in seen:
                found.append(f"«{phrase}» aparece en «{seen[key]}» y en «{name}»")
            seen[key] = str(name)
    return found


def by_term(terms: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {str(t["term"]): t for t in terms}


def test_every_term_has_its_parts_once() -> None:
    """Each term: the Spanish form, the English original, a one-line definition and a list of
    phrases to avoid; no phrase is both a term and avoided, or avoided by two terms."""
    terms = load()
    assert problems(terms) == []
    # The mutations it catches: a phrase avoided by two terms, a definition of two lines.
    twice = [*terms, {"term": "otro", "english": "x", "definition": "x", "avoid": ["grafo"]}]
    assert any("«grafo» aparece" in p for p in problems(twice))
    broken = [{**terms[0], "definition": "una\nlínea más"}, *terms[1:]]
    assert any("«definition»" in p for p in problems(broken))


def test_it_knows_what_the_issue_asks() -> None:
    """The graph is a «grafo» («gráfico computacional» avoided, «gráfico» right for a chart),
    one term for backpropagation, «hoja» for a leaf tensor, backward and grad_fn kept as code."""
    terms = by_term(load())
    assert "gráfico computacional" in terms["grafo"]["avoid"]
    assert all("gráfico" not in t["avoid"] for t in terms.values())
    backprop = [t for t in terms.values() if "backpropagation" in t["english"].lower()]
    assert [t["term"] for t in backprop] == ["retropropagación"]
    assert "leaf" in terms["hoja"]["english"].lower()
    for word in ("backward", "grad_fn"):
        assert terms[word].get("code") is True, word
