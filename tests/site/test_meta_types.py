"""site.meta_types: every front-matter part an article shows is a text, or a located finding.

Each case takes the article `docverify new` writes (it passes every check) and replaces one
quoted text with what YAML reads as another type: a mapping (an unquoted «: » inside), a list, a
number, a boolean. The check must name the part, at the line of the value, and say to quote it.
"""

from __future__ import annotations

import re

import pytest
from conftest import Project
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_page
from docverify.site import anatomy, scaffold

PAGE = "articulos/nuevo.md"
# How YAML reads a text cut by its unquoted «: », as the message says it.
MAP = "un mapa clave: valor (sin comillas, YAML corta el texto en su «: »)"
# (the line as the scaffold writes it, as it is written wrong, the name the message gives, how
# YAML reads it, what the page would show)
WRITTEN = {
    "title": (
        'title: "Un artículo nuevo"',
        "title: [Un artículo, nuevo]",
        "el título",
        "una lista",
        "[Un artículo, nuevo]",
    ),
    "description": (
        'description: "Una frase que dice qué resuelve este artículo y para quién."',
        "description: [Una frase, otra]",
        "la frase inicial",
        "una lista",
        "[Una frase, otra]",
    ),
    "approach": (
        'approach: "Cómo aborda el artículo el tema, en una línea."',
        "approach: 42",
        "la línea de enfoque",
        "un número",
        "42",
    ),
    "goals": (
        '  - "Primer objetivo: qué sabrá hacer el lector al terminar"',
        "  - Primer objetivo: qué sabrá hacer el lector al terminar",
        "el elemento 1 de «Qué aprenderás»",
        MAP,
        "Primer objetivo: qué sabrá hacer el lector al terminar",
    ),
    "prerequisites": (
        '  - "Python básico"',
        "  - [Python, básico]",
        "el elemento 1 de «Antes de empezar»",
        "una lista",
        "[Python, básico]",
    ),
    "takeaways": (
        '  - "Primera conclusión clave."',
        "  - Forma, tipo y dispositivo: viajan con cada tensor",
        "el elemento 1 de «Conclusiones clave»",
        MAP,
        "Forma, tipo y dispositivo: viajan con cada tensor",
    ),
    "question": (
        '  - question: "¿Primera pregunta frecuente?"',
        "  - question: true",
        "«question» de la pregunta frecuente 1",
        "un valor true/false",
        "true",
    ),
    "answer": (
        '    answer: "Respuesta breve."',
        "    answer: {No: basta la CPU}",
        "«answer» de la pregunta frecuente 1",
        MAP,
        "{No: basta la CPU}",
    ),
    "source title": (
        '  - title: "Título de la fuente consultada"',
        "  - title: 2026",
        "«title» de la fuente 1",
        "un número",
        "2026",
    ),
    "reference": (
        '    reference: "PyTorch / ruta/del/archivo.py"',
        "    reference: 3.5",
        "«reference» de la fuente 1",
        "un número",
        "3.5",
    ),
    "editorial_goals": (
        'takeaways:\n  - "Primera conclusión clave."',
        'takeaways:\n  - "Primera conclusión clave."\neditorial_goals:\n  - Leer: un grafo',
        "el elemento 1 de «Al terminar sabrás» (editorial)",
        MAP,
        "Leer: un grafo",
    ),
    "editorial_prerequisites": (
        'takeaways:\n  - "Primera conclusión clave."',
        'takeaways:\n  - "Primera conclusión clave."\neditorial_prerequisites:\n  - [a, b]',
        "el elemento 1 de «Necesitas antes» (editorial)",
        "una lista",
        "[a, b]",
    ),
    "editorial_description": (
        'takeaways:\n  - "Primera conclusión clave."',
        'takeaways:\n  - "Primera conclusión clave."\neditorial_description: [Dice, dos cosas]',
        "la descripción para buscadores (editorial)",
        "una lista",
        "[Dice, dos cosas]",
    ),
    "date": (
        'approach: "Cómo aborda el artículo el tema, en una línea."',
        "approach: 2026-01-01",
        "la línea de enfoque",
        "una fecha",
        "2026-01-01",
    ),
    "other type": (
        'title: "Un artículo nuevo"',
        "title: !!binary aGVsbG8=",
        "el título",
        "otro tipo",
        "!!binary aGVsbG8=",
    ),
}


def _scaffold() -> str:
    return scaffold.page_text("nuevo", "Un artículo nuevo", "2026-01-01")


def _found(project: Project, text: str) -> list[tuple[Kind, int, str, str]]:
    page = read_page(project.config, project.page(PAGE, text))
    return [(f.kind, f.line, f.message, f.fix) for f in anatomy.check(project.config, page)]


def test_the_scaffold_is_well_typed(project: Project) -> None:
    assert [f for f in _found(project, _scaffold()) if f[0] is Kind.WRONG_TYPE] == []


@pytest.mark.parametrize("part", sorted(WRITTEN))
def test_a_part_that_is_not_a_text_is_named_at_its_line(project: Project, part: str) -> None:
    good, bad, name, read_as, shown = WRITTEN[part]
    text = _scaffold()
    assert good in text, part
    broken = text.replace(good, bad, 1)
    line = broken.split("\n").index(bad.split("\n")[-1]) + 1
    page = read_page(project.config, project.page(PAGE, broken))
    wrong = [f for f in anatomy.check(project.config, page) if f.kind is Kind.WRONG_TYPE]
    assert [(f.path, f.line) for f in wrong] == [(f"docs/{PAGE}", line)], wrong
    message, fix = wrong[0].message, wrong[0].fix
    assert message == (
        f"{name} debe ser un texto, y YAML lo lee como {read_as}: la página mostraría "
        f"«{shown}» tal como lo lee Python."
    )
    assert fix == f'ponlo entre comillas: "{shown}".'
    # Quoting what was written, as the fix says, makes the part a text again.
    quoted = fix.split("ponlo entre comillas: ", 1)[1].rstrip(".")
    last = bad.split("\n")[-1]
    fixed = broken.replace(last, last.replace(quoted[1:-1], quoted), 1)
    assert [f for f in _found(project, fixed) if f[0] is Kind.WRONG_TYPE] == [], quoted


@pytest.mark.parametrize("empty", ["", " ~", " null"])
@pytest.mark.parametrize("part", sorted(WRITTEN))
def test_an_empty_part_is_no_wrong_type(project: Project, part: str, empty: str) -> None:
    """A part left empty (nothing, `~` or `null`: YAML's null) is a missing part, said by the
    anatomy check; it is no wrong type, whose fix would tell the author to write `""`."""
    good = WRITTEN[part][0]
    if part == "editorial_description":  # a text, not a list: added, empty, after them
        emptied = good + f"\n{part}:{empty}"
    elif part.startswith("editorial_"):  # not in the scaffold: added, empty, after the takeaways
        emptied = good + f"\n{part}:\n  -{empty}"
    else:  # the line with its quoted text cut off: «title:», «  -», «  - question:»
        prefix = re.fullmatch(r'(.*?[:-]) ".*"', good)
        assert prefix is not None, good
        emptied = prefix.group(1) + empty
    text = _scaffold()
    assert good in text, part
    found = _found(project, text.replace(good, emptied, 1))
    assert [f for f in found if f[0] is Kind.WRONG_TYPE] == [], found
    assert not any('""' in fix for _, _, _, fix in found), found


def test_a_quote_in_the_text_is_escaped_in_the_fix(project: Project) -> None:
    """The fix is the text between double quotes: a double quote of the text is escaped there,
    and the line written as the fix says is a text again."""
    good = '  - "Primera conclusión clave."'
    bad = '  - El "grafo": registro de operaciones'
    broken = _scaffold().replace(good, bad, 1)
    [(_, _, message, fix)] = [f for f in _found(project, broken) if f[0] is Kind.WRONG_TYPE]
    assert r"«El \"grafo\": registro de operaciones»" in message, message
    assert fix == r'ponlo entre comillas: "El \"grafo\": registro de operaciones".', fix
    fixed = broken.replace(bad, r'  - "El \"grafo\": registro de operaciones"', 1)
    assert [f for f in _found(project, fixed) if f[0] is Kind.WRONG_TYPE] == []


def test_a_part_the_page_does_not_show_is_not_judged(project: Project) -> None:
    """Only the shown parts are texts: a list of mappings under another key, with a number for
    its «title», is no wrong type (the sources' «title» would be)."""
    good = 'takeaways:\n  - "Primera conclusión clave."'
    extra = good + "\nrelated:\n  - title: 2026\n    reference: 3.5"
    found = _found(project, _scaffold().replace(good, extra, 1))
    assert [f for f in found if f[0] is Kind.WRONG_TYPE] == [], found
