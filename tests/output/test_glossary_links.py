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


def _a(anchor: str, title: str, text: str) -> str:
    return f'<a class="dv-glossary" href="../glosario/#{anchor}" title="{title}">{text}</a>'


GRAFO = _a("grafo", "Registro de operaciones.", "grafo")
BACKWARD = "Lanza la retropropagación."


def test_a_link_lands_on_the_word_on_any_line() -> None:
    html = "<p>uno dos</p>\n<p>tres\ncuatro</p>\n<p>y el grafo</p>"  # a text on its third line
    assert _link(html) == f"<p>uno dos</p>\n<p>tres\ncuatro</p>\n<p>y el {GRAFO}</p>"
    code = "<p>a\n<code>y.backward()</code>\n</p>"
    assert _link(code) == f"<p>a\n{_a('backward', BACKWARD, '<code>y.backward()</code>')}\n</p>"


def test_every_term_of_a_text_and_its_entities_untouched() -> None:
    html = "<p>Un grafo &amp; hoja</p>"
    hoja = _a("hoja", "Lo mismo, corto.", "hoja")
    assert _link(html) == f"<p>Un {GRAFO} &amp; {hoja}</p>"


def test_an_end_tag_without_its_start_closes_nothing() -> None:
    html = "<h2>A</span> grafo</h2><p>grafo</p>"
    assert _link(html) == f"<h2>A</span> grafo</h2><p>{GRAFO}</p>"


def test_an_empty_element_opens_nothing_and_a_bare_class_is_none() -> None:
    html = '<p><img class="dv-output" alt=""> el grafo</p>'
    assert _link(html) == f'<p><img class="dv-output" alt=""> el {GRAFO}</p>'
    assert _link("<p class>grafo</p>") == f"<p class>{GRAFO}</p>"


@pytest.mark.parametrize("escaped", ["&lt;backward&gt;", "&#60;backward&#62;"])
def test_inline_code_is_read_with_its_entities(escaped: str) -> None:
    """`<backward>` is not a call of backward: the code read as the reader sees it."""
    html = f"<p><code>{escaped}</code> y <code>x.backward()</code></p>"
    linked = _a("backward", BACKWARD, "<code>x.backward()</code>")
    assert _link(html) == f"<p><code>{escaped}</code> y {linked}</p>"


def test_a_glossary_of_code_terms_only_and_what_its_link_escapes() -> None:
    term = Term("backward", "backward", "Lanza «x» & `y`.", (), True, 1, 2)
    only = Glossary(Path("g"), (term,))
    out = glossary_links.link_first_uses("<p>grafo <code>backward</code></p>", only, 'a"b/')
    assert out == (
        '<p>grafo <a class="dv-glossary" href="a&quot;b/#backward" title="Lanza «x» &amp; y.">'
        "<code>backward</code></a></p>"
    )


def test_one_link_per_term_also_within_one_text() -> None:
    assert _link("<p>El grafo y el grafo.</p>") == f"<p>El {GRAFO} y el grafo.</p>"
    hoja = _a("hoja", "Lo mismo, corto.", "hoja")
    html = "<p>El grafo.</p><p>Otro grafo y una hoja.</p>"
    assert _link(html) == f"<p>El {GRAFO}.</p><p>Otro grafo y una {hoja}.</p>"
    code = "<p><code>backward</code> y <code>backward</code></p>"
    linked = _a("backward", BACKWARD, "<code>backward</code>")
    assert _link(code) == f"<p>{linked} y <code>backward</code></p>"


def test_a_code_term_outside_code_is_not_linked() -> None:
    html = "<p><em>backward</em> y backward</p>"
    assert _link(html) == html


def test_highlighted_inline_code_is_read_as_its_whole_text() -> None:
    """Inline code highlighted token by token (pymdownx.inlinehilite) names `backward` too."""
    code = (
        '<code class="highlight"><span class="n">y</span><span class="o">.</span>'
        '<span class="n">backward</span><span class="p">()</span></code>'
    )
    assert _link(f"<p>Llama a {code}.</p>") == f"<p>Llama a {_a('backward', BACKWARD, code)}.</p>"
