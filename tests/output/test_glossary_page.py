"""The glossary page (output/glossary_page.py): each entry as a reader reads it, in order."""

from __future__ import annotations

from pathlib import Path

from docverify.output import glossary_page
from docverify.site.glossary import Glossary, Term


def _term(term: str, **changes: object) -> Term:
    made = {
        "term": term,
        "english": "english",
        "definition": "Definición.",
        "avoid": (),
        "code": False,
        "line": 1,
        "definition_line": 3,
    }
    return Term(**(made | changes))  # type: ignore[arg-type]


def test_an_entry_says_the_term_its_definition_and_its_english_name() -> None:
    term = _term("grafo", english="computational graph", avoid=("gráfico", "diagrama"))
    assert glossary_page.entry(term) == (
        "## grafo { #grafo }\n\nDefinición.\n\n"
        "En inglés: *computational graph*. Evitamos: «gráfico», «diagrama»."
    )


def test_a_code_term_is_written_as_code_and_said_so() -> None:
    term = _term("grad_fn", english="grad_fn", code=True)
    assert glossary_page.entry(term) == (
        "## `grad_fn` { #grad-fn }\n\nDefinición.\n\n"
        "En inglés: *grad\\_fn*. Se escribe solo como código."
    )


def test_a_terms_markdown_characters_are_escaped() -> None:
    term = _term("a*b", english="x_y", avoid=("c*d",))
    assert glossary_page.entry(term) == (
        "## a\\*b { #a-b }\n\nDefinición.\n\nEn inglés: *x\\_y*. Evitamos: «c\\*d»."
    )


def test_definitions_keep_their_code_and_escape_the_rest() -> None:
    assert glossary_page.definition("Sin código *aquí*.") == "Sin código \\*aquí\\*."
    assert glossary_page.definition("`a*b` y *c*") == "`a*b` y \\*c\\*"
    assert glossary_page.definition("Dos: `x` y `y_z`.") == "Dos: `x` y `y_z`."
    assert glossary_page.definition("Uno ` suelto y `otro`") == "Uno \\` suelto y \\`otro\\`"


def test_terms_in_spanish_order_accents_aside() -> None:
    glossary = Glossary(
        Path("glosario.yml"), (_term("bote"), _term("Ábaco"), _term("ábaco"), _term("cesta"))
    )
    page = glossary_page.render(glossary)
    order = [page.index(f"## {name} ") for name in ("Ábaco", "ábaco", "bote", "cesta")]
    assert order == sorted(order)
    assert page.endswith("En inglés: *english*.\n")


def test_a_glossary_without_terms_says_so() -> None:
    page = glossary_page.render(Glossary(Path("glosario.yml"), ()))
    assert page == (
        "# Glosario\n\nLos términos que usa este sitio: la forma en español que escribimos, su "
        "original en inglés y las expresiones que evitamos. Cada artículo enlaza aquí la primera "
        "vez que usa uno de ellos.\n\nTodavía no hay términos.\n"
    )
    assert "Todavía no hay términos." not in glossary_page.render(
        Glossary(Path("glosario.yml"), (_term("grafo"),))
    )
