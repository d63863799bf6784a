"""site.anatomy: an article's required parts, on the article `docverify new` writes.

The scaffold's page (site/scaffold.page_text) passes the check as written; each test breaks
one part of it and expects the finding that names that part, at its line.
"""

from __future__ import annotations

import pytest
import yaml
from conftest import Project
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_page
from docverify.site import anatomy, scaffold

PAGE = "articulos/nuevo.md"


def _scaffold() -> str:
    return scaffold.page_text("nuevo", "Un artículo nuevo", "2026-01-01")


def _front(text: str) -> dict[str, object]:
    return yaml.safe_load(text.split("---\n")[1])


def _check(project: Project, text: str) -> list[tuple[Kind, int, str]]:
    path = project.page(PAGE, text)
    found = anatomy.check(project.config, read_page(project.config, path))
    return [(f.kind, f.line, f.message) for f in found]


# The parts the scaffold writes as YAML lists: each one is rendered item by item.
LISTS = [key for key, value in _front(_scaffold()).items() if isinstance(value, list)]


def test_the_scaffold_has_every_part(project: Project) -> None:
    assert _check(project, _scaffold()) == []
    assert set(LISTS) >= {"goals", "prerequisites", "takeaways", "faq", "sources"}


@pytest.mark.parametrize("key", LISTS)
def test_a_list_part_written_as_text_is_named(project: Project, key: str) -> None:
    """A list part written as one string would be rendered letter by letter (or fail later):
    the check names it, at its line."""
    text = _scaffold()
    front = text.split("---\n")[1]
    start = front.index(f"\n{key}:\n") + 1
    end = start + len(f"{key}:\n")
    while front[end:].startswith(" "):
        end = front.index("\n", end) + 1
    broken = text.replace(front, front[:start] + f'{key}: "un texto"\n' + front[end:], 1)
    assert isinstance(_front(broken)[key], str)
    line = broken.split("\n").index(f'{key}: "un texto"') + 1
    found = _check(project, broken)
    assert (Kind.MALFORMED_PART, line) in [(kind, at) for kind, at, _ in found], found
    assert anatomy.META_PARTS[key] in next(m for k, _, m in found if k is Kind.MALFORMED_PART)


@pytest.mark.parametrize("key", sorted(anatomy.EDITORIAL_LISTS))
def test_an_editorial_list_written_as_text_is_named(project: Project, key: str) -> None:
    """A seed article's lists for a learner are optional, and lists when written."""
    text = _scaffold()
    assert _check(project, text.replace("approach:", f"{key}:\n  - Algo\napproach:", 1)) == []
    broken = text.replace("approach:", f'{key}: "un texto"\napproach:', 1)
    line = broken.split("\n").index(f'{key}: "un texto"') + 1
    name = {"editorial_goals": "Al terminar sabrás", "editorial_prerequisites": "Necesitas antes"}
    assert _findings(project, broken) == [
        (
            Kind.MALFORMED_PART,
            f"docs/{PAGE}",
            line,
            f"«{name[key]}» (editorial) debe ser una lista.",
            f"escribe «{key}:» como lista «- …».",
        )
    ]


# --- Every finding whole: kind, path, line, message, fix -----------------------------------

WHERE = f"docs/{PAGE}"
# The name each front-matter part has in the messages, as an author reads it.
NAMES = {
    "title": "título",
    "description": "frase inicial",
    "goals": "«Qué aprenderás»",
    "prerequisites": "«Antes de empezar»",
    "approach": "la línea de enfoque",
    "takeaways": "«Conclusiones clave»",
    "faq": "«Preguntas frecuentes»",
    "sources": "«Fuentes»",
}


def _findings(project: Project, text: str) -> list[tuple[Kind, str, int, str, str]]:
    path = project.page(PAGE, text)
    found = anatomy.check(project.config, read_page(project.config, path))
    return [(f.kind, f.path, f.line, f.message, f.fix) for f in found]


def _without(text: str, key: str, instead: str = "") -> str:
    """`text` with the front matter's `key` (its line and its indented lines) replaced."""
    front = text.split("---\n")[1]
    start = front.index(f"{key}:")
    end = front.index("\n", start) + 1
    while front[end:].startswith(" "):
        end = front.index("\n", end) + 1
    return text.replace(front, front[:start] + instead + front[end:], 1)


@pytest.mark.parametrize("key", sorted(NAMES))
def test_a_missing_part_is_named_with_its_key(project: Project, key: str) -> None:
    """Absent, it is named at line 1; present but empty, at its own line."""
    missing = (
        Kind.MISSING_PART,
        WHERE,
        1,
        f"falta {NAMES[key]} (clave «{key}» del front matter).",
        f"añade «{key}:» al front matter (ver la guía de autores o `docverify new`).",
    )
    assert _findings(project, _without(_scaffold(), key)) == [missing]
    empty = _without(_scaffold(), key, f"{key}: []\n" if key in LISTS else f'{key}: ""\n')
    line = empty.split("\n").index(f"{key}: []" if key in LISTS else f'{key}: ""') + 1
    found = [f for f in _findings(project, empty) if f[0] is Kind.MISSING_PART]
    assert found == [(*missing[:2], line, *missing[3:])]


@pytest.mark.parametrize("key", LISTS)
def test_a_list_part_written_as_text_says_so_once(project: Project, key: str) -> None:
    broken = _without(_scaffold(), key, f'{key}: "un texto"\n')
    line = broken.split("\n").index(f'{key}: "un texto"') + 1
    assert _findings(project, broken) == [
        (
            Kind.MALFORMED_PART,
            WHERE,
            line,
            f"{NAMES[key]} debe ser una lista.",
            f"escribe «{key}:» como lista «- …».",
        )
    ]


def test_each_faq_item_needs_its_question_and_its_answer(project: Project) -> None:
    faq = (
        "faq:\n"
        '  - question: "¿Completa?"\n    answer: "Sí."\n'
        '  - question: "¿Sin respuesta?"\n'
        '  - answer: "Sin pregunta."\n'
        '  - question: ""\n    answer: "Pregunta vacía."\n'
        '  - "Solo un texto"\n'
    )
    text = _without(_scaffold(), "faq", faq)
    lines = text.split("\n")
    faq_line = lines.index("faq:") + 1
    at = [lines.index(f"  - {item}") + 1 for item in ('question: "¿Sin respuesta?"',)]
    at += [lines.index('  - answer: "Sin pregunta."') + 1, lines.index('  - question: ""') + 1]
    fix = "escribe «- question: …» y «answer: …»."
    assert _findings(project, text) == [
        (Kind.MALFORMED_FAQ, WHERE, at[0], "la pregunta 2 necesita «question» y «answer».", fix),
        (Kind.MALFORMED_FAQ, WHERE, at[1], "la pregunta 3 necesita «question» y «answer».", fix),
        (Kind.MALFORMED_FAQ, WHERE, at[2], "la pregunta 4 necesita «question» y «answer».", fix),
        # A text has no line of its own: the FAQ's.
        (Kind.MALFORMED_FAQ, WHERE, faq_line, "la pregunta 5 necesita «question» y «answer».", fix),
    ]


def _with_body(body: str) -> str:
    text = _scaffold()
    return text[: text.index("## Idea principal")] + body


def _sections(*titles: str) -> str:
    return "".join(f"## {title}\n\nTexto.\n\n" for title in titles)


def _line(text: str, line: str) -> int:
    return text.split("\n").index(line) + 1


def test_each_closing_section_is_required_after_the_last_heading(project: Project) -> None:
    text = _with_body(_sections("Idea", "Pasos de implementación", "Otra"))
    last = _line(text, "## Otra")
    assert _findings(project, text) == [
        (
            Kind.MISSING_PART,
            WHERE,
            last,
            f"falta la sección «## {section}».",
            f"añade «## {section}» después de las secciones del cuerpo.",
        )
        for section in ("Cómo elegir", "Ejemplo para copiar")
    ]


def test_a_body_without_headings_is_named_where_it_starts(project: Project) -> None:
    text = _with_body("Solo texto, sin secciones.\n")
    start = _line(text, "Solo texto, sin secciones.") - 1  # the blank line after «---»
    found = _findings(project, text)
    assert [(kind, line) for kind, _, line, _, _ in found] == [(Kind.MISSING_PART, start)] * 4
    assert found[-1][3:] == (
        "el artículo no tiene secciones de cuerpo antes de «## Cómo elegir».",
        "añade al menos una sección «## …» con el texto del artículo.",
    )


def test_the_closing_sections_need_a_body_section_before_them(project: Project) -> None:
    closing = ("Cómo elegir", "Pasos de implementación", "Ejemplo para copiar")
    text = _with_body(_sections(*closing))
    start = _line(text, "## Cómo elegir") - 1
    assert _findings(project, text) == [
        (
            Kind.MISSING_PART,
            WHERE,
            start,
            "el artículo no tiene secciones de cuerpo antes de «## Cómo elegir».",
            "añade al menos una sección «## …» con el texto del artículo.",
        )
    ]
    assert _findings(project, _with_body(_sections("Idea", *closing))) == []
    # One body section, and none of the closing ones: only those three are missing.
    found = _findings(project, _with_body(_sections("Idea")))
    assert [message for _, _, _, message, _ in found] == [
        f"falta la sección «## {section}»." for section in closing
    ]


def test_a_closing_section_out_of_order_is_named_at_its_line(project: Project) -> None:
    """Each one after a later one is out of order, also one after a section already out of
    order (the order is the page's, not the previous section's)."""
    text = _with_body(
        _sections("Idea", "Pasos de implementación", "Ejemplo para copiar", "Cómo elegir")
    )
    order = "Cómo elegir → Pasos de implementación → Ejemplo para copiar"
    assert _findings(project, text) == [
        (
            Kind.SECTION_ORDER,
            WHERE,
            _line(text, f"## {section}"),
            f"«## {section}» está fuera de orden: el orden es {order}.",
            "mueve la sección a su sitio.",
        )
        for section in ("Pasos de implementación", "Ejemplo para copiar")
    ]


def test_a_heading_inside_a_code_fence_is_no_section(project: Project) -> None:
    """Backticks and tildes open fences; inside one, the other kind does not close it."""
    closing = _sections("Cómo elegir", "Pasos de implementación", "Ejemplo para copiar")
    fenced = "~~~text\n```\n## Idea\n```\n## Falsa\n~~~\n\n"
    text = _with_body(fenced + "```text\n## Idea\n```\n\n" + closing)
    assert [m for _, _, _, m, _ in _findings(project, text)] == [
        "el artículo no tiene secciones de cuerpo antes de «## Cómo elegir»."
    ]
    text = _with_body("## Uno  \n### Dos\n##Tres\n")
    page = read_page(project.config, project.page(PAGE, text))
    assert anatomy.headings(page) == [("Uno", _line(text, "## Uno  "))]


# --- Seed placeholders and seed notes --------------------------------------------------------

CLOSING = _sections("Cómo elegir", "Pasos de implementación", "Ejemplo para copiar")
TEMPLATE_FIX = (
    'guárdalo tal cual dentro de una nota plegada ??? semilla "Texto original (…)" y escribe al '
    'lado el contenido real en un !!! editorial "…".'
)


def _template(marker: str, line: int) -> tuple[Kind, str, int, str, str]:
    message = f"«{marker}» es texto de plantilla de la semilla y se mostraría como contenido."
    return (Kind.TEMPLATE_TEXT, WHERE, line, message, TEMPLATE_FIX)


@pytest.mark.parametrize("marker", ["Best when", "Main risk", "forward operations -> loss"])
def test_a_placeholder_is_kept_only_in_a_collapsed_seed_note(project: Project, marker: str) -> None:
    editorial = '!!! editorial "Nuestro"\n\n    Texto nuevo.\n\n'
    for header, hidden in [
        ('??? semilla "Texto original (inglés)"', True),
        ("???+ semilla", False),  # open: shown
        ('!!! semilla "Texto original"', False),  # not collapsible: shown
        ('??? note "Otra nota"', False),
    ]:
        note = f"{header}\n\n    Uno.\n\n    {marker}: algo.\n\n"
        text = _with_body("## Idea\n\n" + editorial + note + f"{marker} fuera.\n\n" + CLOSING)
        inside, outside = _line(text, f"    {marker}: algo."), _line(text, f"{marker} fuera.")
        expected = [] if hidden else [_template(marker, inside)]
        assert _findings(project, text) == [*expected, _template(marker, outside)], header


def test_a_seed_note_needs_an_editorial_replacement_in_its_section(project: Project) -> None:
    note = '??? semilla "Texto original"\n\n    Uno.\n\n'
    editorial = '!!! editorial "Nuestro"\n\n    Texto nuevo.\n\n'
    beside = _with_body("## Idea\n\n" + note + editorial + CLOSING)
    assert _findings(project, beside) == []
    # The replacement in another section is not beside it; two notes: the first is named.
    apart = _with_body("## Idea\n\n" + note + note + "## Otra\n\n" + editorial + CLOSING)
    assert _findings(project, apart) == [
        (
            Kind.SEED_WITHOUT_REPLACEMENT,
            WHERE,
            _line(apart, '??? semilla "Texto original"'),
            "una nota con el original de la semilla no tiene al lado su reemplazo editorial.",
            'añade en la misma sección un !!! editorial "…" con el contenido real.',
        )
    ]


def test_an_admonition_holds_its_indented_lines_and_blank_ones(project: Project) -> None:
    body = "Antes.\n!!! note\n    Dentro.\n\n    !!! tip\n        Más.\n    Sigue.\nFuera.\n"
    page = read_page(project.config, project.page(PAGE, _with_body(body)))
    around = anatomy.admonitions(page)
    start = page.body.split("\n").index("Antes.")
    note, tip = ("note", "!!!"), ("tip", "!!!")
    assert [stack for _, stack in around[start:]] == [
        [],  # Antes.
        [],  # the header: not yet inside
        [note],
        [note],  # a blank line keeps it open
        [note],
        [note, tip],
        [note],  # back to the note's indent: the tip is closed
        [],
        [],
    ]
    assert [n for n, _ in around] == list(range(page.body_line, page.body_line + len(around)))
    assert around[start][0] == _line(_with_body(body), "Antes.")
