"""A notebook's place in the site (output/notebook_links.py): the box under its article, its
page's first paragraph, metadata and HTML, and its article's links moved to the notebook page."""

from __future__ import annotations

import pytest
from docverify.output import notebook_links

BOX_START = (
    '<p class="dv-notebook">Este artículo en un cuaderno de Jupyter, con su código y sus '
    'salidas: <a href="cuaderno/">ver el cuaderno</a> · '
    '<a href="../a.ipynb" download>descargarlo (.ipynb)</a>'
)


def test_the_box_under_an_article() -> None:
    assert notebook_links.article_box("cuaderno/", "../a.ipynb") == BOX_START + "</p>\n\n"
    assert notebook_links.article_box("cuaderno/", "../a.ipynb", []) == BOX_START + "</p>\n\n"


def test_the_box_names_the_data_files_to_keep_beside_the_notebook() -> None:
    one = notebook_links.article_box("cuaderno/", "../a.ipynb", [("d.csv", "../d.csv")])
    assert one == (
        BOX_START + '. Su código lee <a href="../d.csv" download><code>d.csv</code></a>: '
        "descárgalo y guárdalo junto al cuaderno</p>\n\n"
    )
    two = notebook_links.article_box("cuaderno/", "../a.ipynb", [("d.csv", "d"), ("e.pt", "e")])
    assert two == (
        BOX_START + '. Su código lee <a href="d" download><code>d.csv</code></a>, '
        '<a href="e" download><code>e.pt</code></a>: descárgalos y guárdalos junto al '
        "cuaderno</p>\n\n"
    )


def test_the_notebooks_own_line_on_its_data_files() -> None:
    assert notebook_links.data_note([("d.csv", "../d.csv")]) == (
        "> El código de este cuaderno lee [`d.csv`](../d.csv): descárgalo y guárdalo junto al "
        "cuaderno."
    )
    assert notebook_links.data_note([("d.csv", "d"), ("e.pt", "e")]) == (
        "> El código de este cuaderno lee [`d.csv`](d), [`e.pt`](e): descárgalos y guárdalos "
        "junto al cuaderno."
    )


def test_a_notebook_pages_metadata() -> None:
    assert notebook_links.page_meta("Tensores") == {
        "description": "Cuaderno de Jupyter del artículo «Tensores», con sus salidas verificadas.",
        "search": {"exclude": True},
    }


LINKS = (
    '<p class="dv-notebook-links"><a class="md-button md-button--primary" href="a.ipynb" '
    'download>Descargar el cuaderno (.ipynb)</a> <a class="md-button" href="../a/">Volver al '
    "artículo «A»</a></p>"
)


def test_a_notebook_pages_first_paragraph() -> None:
    assert notebook_links.links("a.ipynb", "../a/", "A") == LINKS


def test_a_notebook_pages_html_as_readers_get_it() -> None:
    toolbar = (
        '<div class="celltoolbar">\n<div class="button_container tags_button_container">\n'
        '<span class="tag-container">\n<span class="cell-tag">raises-exception</span>\n</span>\n'
        "</div>\n</div>"
    )
    cell = (
        '<div class="highlight-ipynb hl-python"><pre><span class="n">x</span>'
        '<span class="o">=</span><span class="mi">1</span></pre></div>'
    )
    html = (
        '<script src="https://cdn.example/m.js"></script>'
        + toolbar
        + cell
        + '<div class="highlight"><pre>texto</pre></div>'
    )
    assert notebook_links.notebook_html(html, "a.ipynb", "../a/", "A") == (
        LINKS
        + '<div tabindex="0" class="highlight-ipynb hl-python"><pre>x'
        + '<span class="o">=</span><span class="mi">1</span></pre></div>'
        + '<div class="highlight"><pre tabindex="0">texto</pre></div>'
    )


@pytest.mark.parametrize(
    ("target", "article", "expected"),
    [
        ("a.md#x", "articulos/b.md", ("articulos/a.md", "#x")),
        ("a.md?q=1", "articulos/b.md", ("articulos/a.md", "?q=1")),
        ("a.md", "articulos/b.md", ("articulos/a.md", "")),
        ("../img/f.png", "articulos/b.md", ("img/f.png", "")),
        ("a.md", "index.md", ("a.md", "")),
        ("../fuera.md", "index.md", None),  # outside the docs
        ("https://pytorch.org/", "articulos/b.md", None),
        ("mailto:alguien@example.org", "articulos/b.md", None),
        ("/absoluta/", "articulos/b.md", None),
        ("#arriba", "articulos/b.md", None),
    ],
)
def test_the_docs_file_a_link_names(
    target: str, article: str, expected: tuple[str, str] | None
) -> None:
    assert notebook_links.link_target(target, article) == expected


def test_a_link_without_a_url_is_left_as_written() -> None:
    html = '<a href="a.md">A</a> <a href="b.md#x">B</a>'
    urls = {"articulos/a.md": "", "articulos/b.md": "../b/"}
    shown = notebook_links.relink_html(html, "articulos/c.md", urls.get)
    assert shown == '<a href="a.md">A</a> <a href="../b/#x">B</a>'


def test_markdown_links_are_moved_to_the_notebook_page() -> None:
    text = '[A](a.md#x "título") y [B](../b.md)'
    assert notebook_links.relink_markdown(text, "articulos/c.md", "nb.md") == (
        '[A](articulos/a.md#x "título") y [B](b.md)'
    )
    assert notebook_links.relink_markdown(text, "articulos/c.md", "cuadernos/c/index.md") == (
        '[A](../../articulos/a.md#x "título") y [B](../../b.md)'
    )
