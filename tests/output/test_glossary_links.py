"""The glossary page and the links the build adds to each article's first use of a term."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from docverify.output import glossary_links, glossary_page
from docverify.site.glossary import Glossary, Term

TERMS = Glossary(
    Path("glosario.yml"),
    (
        Term(
            "grafo",
            "computational graph",
            "Registro de operaciones.",
            ("gráfico computacional",),
            False,
            2,
            4,
        ),
        Term("tensor hoja", "leaf tensor", "Tensor sin operación.", (), False, 7, 9),
        Term("hoja", "leaf", "Lo mismo, corto.", (), False, 12, 14),
        Term("backward", "backward", "Lanza la retropropagación.", (), True, 17, 19),
    ),
)


def _linked(html: str) -> list[tuple[str, str]]:
    """(href, text) of each glossary link."""
    soup = BeautifulSoup(html, "html.parser")
    return [(a["href"], a.get_text()) for a in soup.select(f"a.{glossary_links.LINK_CLASS}")]


def _link(html: str) -> str:
    return glossary_links.link_first_uses(html, TERMS, "../glosario/")


def test_the_first_use_in_prose_is_linked_and_only_it() -> None:
    html = "<p>El grafo crece.</p><p>Otro grafo, y los grafos.</p>"
    out = _link(html)
    assert _linked(out) == [("../glosario/#grafo", "grafo")]
    assert out.index("dv-glossary") < out.index("Otro grafo")
    assert (
        BeautifulSoup(out, "html.parser").get_text()
        == BeautifulSoup(html, "html.parser").get_text()
    )


@pytest.mark.parametrize(
    "where",
    [
        "<h2>El grafo</h2>",
        "<p><code>grafo</code></p>",
        "<pre><code>grafo = 1</code></pre>",
        '<p><a href="x">el grafo</a></p>',
        '<div class="admonition note"><p class="admonition-title">El grafo</p></div>',
        "<details><summary>El grafo</summary></details>",
        '<div class="dv-output"><pre><samp>grafo</samp></pre></div>',
        '<figure class="dv-graph"><svg><text>grafo</text></svg>'
        "<figcaption>Grafo</figcaption></figure>",
        '<details class="semilla"><summary>Original</summary><p>El grafo.</p></details>',
        "<!-- el grafo -->",
    ],
)
def test_never_where_it_is_not_prose_then_at_the_next_use(where: str) -> None:
    out = _link(f'{where}<p>Y el <em>grafo</em>: "grafo" &amp; más.</p>')
    assert _linked(out) == [("../glosario/#grafo", "grafo")]
    assert out.startswith(where)  # the place that is not prose, untouched
    assert "<em><a " in out


def test_plurals_accents_and_the_longer_term_first() -> None:
    out = _link("<p>Los Tensores Hoja y las hojas.</p>")
    assert _linked(out) == [
        ("../glosario/#tensor-hoja", "Tensores Hoja"),
        ("../glosario/#hoja", "hojas"),
    ]


def test_a_code_term_links_its_first_inline_code_whole() -> None:
    html = (
        "<h2><code>backward</code></h2><p>Un backward suelto, luego <code>y.backward()</code>.</p>"
    )
    out = _link(html)
    assert _linked(out) == [("../glosario/#backward", "y.backward()")]
    assert (
        '<a class="dv-glossary" href="../glosario/#backward" title="Lanza la retropropagación.">'
        "<code>y.backward()</code></a>" in out
    )


def test_a_use_inside_another_sense_of_the_word_is_skipped() -> None:
    """«de forma deliberada» is a manner, not a shape: the first use of «forma» that is the term
    gets the link, also one in the same text after the other sense."""
    shape = Term("forma", "shape", "El tamaño.", (), False, 3, 5, ("de forma deliberada",))
    glossary = Glossary(Path("glosario.yml"), (shape,))
    for html in (
        "<p>Limpiar de forma deliberada.</p><p>Un tensor de forma (2, 3).</p>",
        "<p>De Forma Deliberada, y la forma (2, 3).</p>",
    ):
        out = glossary_links.link_first_uses(html, glossary, "../glosario/")
        assert _linked(out) == [("../glosario/#forma", "forma")], out
        assert out.index("dv-glossary") > out.lower().index("deliberada")


def test_nothing_changes_without_a_glossary() -> None:
    html = "<p>El grafo.</p>"
    assert glossary_links.link_first_uses(html, None, "g/") == html
    assert glossary_links.link_first_uses(html, Glossary(Path("g"), ()), "g/") == html


def test_the_page_lists_every_term_with_its_anchor() -> None:
    text = glossary_page.render(TERMS)
    assert text.startswith("# Glosario\n")
    headings = re.findall(r"^## (.+?) \{ #([\w-]+) \}$", text, re.MULTILINE)
    assert headings == [
        ("`backward`", "backward"),
        ("grafo", "grafo"),
        ("hoja", "hoja"),
        ("tensor hoja", "tensor-hoja"),
    ]
    assert "*computational graph*" in text and "«gráfico computacional»" in text
    assert "Se escribe solo como código." in text


def test_code_in_a_definition_is_code_on_the_page_and_plain_in_the_tooltip() -> None:
    """A definition's `code` spans render as code on the glossary page (the rest escaped), and
    the link's tooltip, plain text, shows no backticks."""
    term = Term("hoja", "leaf", "Suma en su `.grad` la derivada; *no* es `x*y`.", (), False, 1, 3)
    glossary = Glossary(Path("glosario.yml"), (term,))
    page = glossary_page.render(glossary)
    assert "Suma en su `.grad` la derivada; \\*no\\* es `x*y`." in page, page
    assert glossary_page.definition("un ` suelto") == "un \\` suelto"
    linked = glossary_links.link_first_uses("<p>Una hoja.</p>", glossary, "g/")
    title = BeautifulSoup(linked, "html.parser").a["title"]
    assert title == "Suma en su .grad la derivada; *no* es x*y.", title
