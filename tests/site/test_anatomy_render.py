"""site.anatomy's rendering: an article's header and footer, as Markdown, from its front matter.

Each test writes a small article and compares the Markdown with the text written here by hand:
the parts in reading order, each list item on its line, the seed article's editorial box only
with what it holds, the FAQ question quoted safely and each source with its date.
"""

from __future__ import annotations

import datetime as dt

from conftest import Project
from docverify.parsing.pages import Page, read_page
from docverify.site import anatomy
from docverify.sources.model import Source

FRONT = """\
---
title: "Tensores"
description: "Qué es un tensor."
goals:
  - "Crear un tensor"
  - "Leer su forma"
prerequisites:
  - "Python"
approach: "Con ejemplos."
takeaways:
  - "Un tensor tiene forma."
faq:
  - question: 'Es "un array"?'
    answer: "Casi."
  - question: "¿Y la GPU?"
    answer: "También."
{extra}---

## Idea
"""

HEADER = """\
# Tensores

<p class="dv-lead">Qué es un tensor.</p>

{box}!!! abstract "Qué aprenderás"

    - Crear un tensor
    - Leer su forma

!!! info "Antes de empezar"

    - Python

<p class="dv-approach">Con ejemplos.</p>

!!! success "Conclusiones clave"

    - Un tensor tiene forma.

"""


def _page(project: Project, extra: str = "") -> Page:
    path = project.page("articulos/tensores.md", FRONT.format(extra=extra))
    return read_page(project.config, path)


def test_the_header_shows_each_part_in_reading_order(project: Project) -> None:
    assert anatomy.render_header(_page(project)) == HEADER.format(box="")


def test_a_seed_articles_box_shows_the_lists_it_has(project: Project) -> None:
    both = "editorial_goals:\n  - Uno\n  - Dos\neditorial_prerequisites:\n  - Tres\n"
    box = (
        '!!! editorial "Añadido editorial: para quién es"\n\n'
        "    **Al terminar sabrás:**\n\n    - Uno\n    - Dos\n\n"
        "    **Necesitas antes:**\n\n    - Tres\n\n"
    )
    assert anatomy.render_header(_page(project, both)) == HEADER.format(box=box)
    # An empty list, or one written as a text (a finding of the check), is left out.
    one = "editorial_goals: []\neditorial_prerequisites:\n  - Tres\n"
    box = (
        '!!! editorial "Añadido editorial: para quién es"\n\n'
        "    **Necesitas antes:**\n\n    - Tres\n\n"
    )
    assert anatomy.render_header(_page(project, one)) == HEADER.format(box=box)
    none = 'editorial_goals: []\neditorial_prerequisites: "Tres"\n'
    assert anatomy.render_header(_page(project, none)) == HEADER.format(box="")
    assert anatomy.editorial_box(_page(project, none)) == []


def _source(reference: str, title: str, url: str | None) -> Source:
    return Source("articulos/tensores.md", 20, title, reference, dt.date(2026, 3, 4), url=url)


def test_the_footer_shows_the_faq_and_each_source_with_its_dates(project: Project) -> None:
    linked = _source("PyTorch / torch/_tensor.py", "El *tensor*", "https://example.org/t")
    plain = _source("Un libro", "Capítulo_2", None)
    page = _page(project)
    footer = anatomy.render_footer(page, [linked, plain], {})
    assert page.meta["faq"][0]["question"] == 'Es "un array"?'
    day = '<time datetime="2026-03-04">2026-03-04</time>'
    expected = (
        "\n\n## Preguntas frecuentes\n\n"
        '??? question "Es &quot;un array&quot;?"\n\n    Casi.\n\n'
        '??? question "¿Y la GPU?"\n\n    También.\n\n'
        "## Fuentes\n\n"
        '<div class="dv-sources" markdown>\n\n'
        rf"- **[PyTorch / torch/\_tensor.py](https://example.org/t)** — El \*tensor\*. "
        f"Fuente verificada {day}{{note}}\n"
        rf"- **Un libro** — Capítulo\_2. Fuente verificada {day}"
        "\n\n</div>\n"
    )
    assert footer == expected.format(note="")
    note = "revisar antes del 2026-06-02"
    footer = anatomy.render_footer(page, [linked, plain], {linked: note})
    assert footer == expected.format(note=f' <span class="dv-date">({note})</span>')
