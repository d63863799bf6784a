"""The page that shows a notebook for a generator without a notebook plugin
(output/notebook_page.py): its links, then its cells as Markdown and fences."""

from __future__ import annotations

import json

from docverify.output import notebook_page

LINKS = (
    '<p class="dv-notebook-links"><a class="md-button md-button--primary" href="b.ipynb" '
    'download>Descargar el cuaderno (.ipynb)</a> <a class="md-button" '
    'href="../../articulos/b/">Volver al artículo «B»</a></p>'
)


def _page(*cells: dict[str, object]) -> str:
    text = json.dumps({"cells": list(cells)})
    return notebook_page.markdown(
        text, "cuadernos/b/b.ipynb", "articulos/b.md", "B", "cuadernos/b/index.md", "articulos/b/"
    )


def _shown(cells: str) -> str:
    return f'{LINKS}\n\n<div class="dv-notebook" markdown>\n\n{cells}\n\n</div>\n'


def test_markdown_cells_keep_their_text_with_the_articles_links() -> None:
    page = _page({"cell_type": "markdown", "source": ["Ver ", "[A](a.md#x)."]})
    assert page == _shown("Ver [A](../../articulos/a.md#x).")


def test_a_code_cell_and_what_jupyter_printed_for_it() -> None:
    outputs = [
        {"output_type": "stream", "name": "stdout", "text": ["uno\n", "dos\n"]},
        {"output_type": "execute_result", "data": {"text/plain": "3\n"}},
        {"output_type": "error", "ename": "E", "traceback": ["Traceback", "ValueError: x"]},
        {"output_type": "stream", "name": "stdout", "text": "\n"},  # prints nothing visible
        {"output_type": "display_data"},  # no text to show
        {"output_type": "stream", "name": "stdout"},
        {"output_type": "error", "ename": "E"},
        {"output_type": "stream", "name": "stdout", "text": "total: 2 \n"},  # its space kept
        {"output_type": "execute_result", "data": {"text/plain": "MAX\n\n"}},
        {"output_type": "stream", "name": "stdout", "text": "LUX\n"},
        {"output_type": "execute_result", "data": {"text/plain": "3 \n"}},
    ]
    page = _page({"cell_type": "code", "source": "print(1)\nx", "outputs": outputs})
    assert page == _shown(
        "```python\nprint(1)\nx\n```\n\n"
        "```dv-output\nuno\ndos\n```\n\n"
        "```dv-output\n3\n```\n\n"
        "```dv-output\nTraceback\nValueError: x\n```\n\n"
        "```dv-output\ntotal: 2 \n```\n\n"
        "```dv-output\nMAX\n```\n\n"
        "```dv-output\nLUX\n```\n\n"
        "```dv-output\n3 \n```"
    )


def test_a_code_cell_without_outputs_or_source() -> None:
    assert _page({"cell_type": "code", "source": "x = 1"}) == _shown("```python\nx = 1\n```")
    assert _page({"cell_type": "code", "outputs": []}) == _shown("```python\n\n```")
    assert _page({"cell_type": "markdown"}) == _shown("")
