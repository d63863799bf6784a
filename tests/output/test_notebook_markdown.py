"""A page's Markdown as Jupyter renders it (output/notebook_markdown.py), line for line."""

from __future__ import annotations

import pytest
from docverify.output.notebook_markdown import notebook_markdown

DETAILS = "<details><summary>{}</summary>"


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (["Texto.", "", "Más."], ["Texto.", "", "Más."]),
        # An admonition: its title in bold, its content without the indentation.
        (
            ["Antes.", "", '!!! note "Ojo"', "", "    Dentro.", "", "Después."],
            ["Antes.", "", "**Ojo**", "", "Dentro.", "", "Después."],
        ),
        (["!!! tip", "    x"], ["**Tip**", "x"]),  # no title: its kind's
        (['???+ warning "W"', "    x"], ["**W**", "x"]),
        (['??? note ""', "    x"], ["**Note**", "x"]),
        (['!!! note "A"', "  x"], ["**A**", "x"]),  # less indented than its content
        # A seed note: collapsed, closed where it ends, on the line before (every line keeps
        # its place), after a blank line or after its text.
        (
            ['??? semilla "Texto original"', "", "    Original.", "", "Nuevo."],
            [DETAILS.format("Texto original"), "", "Original.", "\n</details>\n", "Nuevo."],
        ),
        (
            ['??? semilla "T"', "    Original.", "Nuevo."],
            [DETAILS.format("T"), "Original.\n\n</details>\n", "Nuevo."],
        ),
        # A seed note at the same indentation as the one before closes it.
        (
            ['??? semilla "A"', "    a", '??? semilla "B"', "    b"],
            [DETAILS.format("A"), "a\n\n</details>\n", DETAILS.format("B"), "b", "</details>"],
        ),
        # Nested, still open at the end: closed after the last line.
        (
            ['!!! note "A"', '    ??? semilla "B"', "        x"],
            ["**A**", DETAILS.format("B"), "x", "</details>"],
        ),
        (['!!! note "A"', "    x"], ["**A**", "x"]),  # nothing to close
        # Only the admonition's indentation goes: a list item's continuation keeps its own.
        (['!!! note "A"', "    - uno", "        más"], ["**A**", "- uno", "    más"]),
        # Attribute lists on headings go; the heading stays.
        (
            ["## Título { #id }", "## Otro {: .cls }", "#sin espacio", "## Normal"],
            ["## Título", "## Otro", "#sin espacio", "## Normal"],
        ),
        (["!!! note", "    ## T {#x}"], ["**Note**", "## T"]),
    ],
)
def test_jupyter_sees_each_line_where_the_page_has_it(
    lines: list[str], expected: list[str]
) -> None:
    assert notebook_markdown(lines) == expected
