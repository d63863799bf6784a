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
# (the line as the scaffold writes it, as it is written wrong, the name the message gives)
WRITTEN = {
    "title": ('title: "Un artículo nuevo"', "title: [Un artículo, nuevo]", "el título"),
    "description": (
        'description: "Una frase que dice qué resuelve este artículo y para quién."',
        "description: [Una frase, otra]",
        "la frase inicial",
    ),
    "approach": (
        'approach: "Cómo aborda el artículo el tema, en una línea."',
        "approach: 42",
        "la línea de enfoque",
    ),
    "goals": (
        '  - "Primer objetivo: qué sabrá hacer el lector al terminar"',
        "  - Primer objetivo: qué sabrá hacer el lector al terminar",
        "«Qué aprenderás»",
    ),
    "prerequisites": ('  - "Python básico"', "  - [Python, básico]", "«Antes de empezar»"),
    "takeaways": (
        '  - "Primera conclusión clave."',
        "  - Forma, tipo y dispositivo: viajan con cada tensor",
        "«Conclusiones clave»",
    ),
    "question": (
        '  - question: "¿Primera pregunta frecuente?"',
        "  - question: true",
        "«question» de la pregunta frecuente 1",
    ),
    "answer": (
        '    answer: "Respuesta breve."',
        "    answer: {No: basta la CPU}",
        "«answer» de la pregunta frecuente 1",
    ),
    "source title": (
        '  - title: "Título de la fuente consultada"',
        "  - title: 2026",
        "«title» de la fuente 1",
    ),
    "reference": (
        '    reference: "PyTorch / ruta/del/archivo.py"',
        "    reference: 3.5",
        "«reference» de la fuente 1",
    ),
    "editorial_goals": (
        'takeaways:\n  - "Primera conclusión clave."',
        'takeaways:\n  - "Primera conclusión clave."\neditorial_goals:\n  - Leer: un grafo',
        "«Al terminar sabrás» (editorial)",
    ),
    "editorial_prerequisites": (
        'takeaways:\n  - "Primera conclusión clave."',
        'takeaways:\n  - "Primera conclusión clave."\neditorial_prerequisites:\n  - [a, b]',
        "«Necesitas antes» (editorial)",
    ),
    "editorial_description": (
        'takeaways:\n  - "Primera conclusión clave."',
        'takeaways:\n  - "Primera conclusión clave."\neditorial_description: [Dice, dos cosas]',
        "la descripción para buscadores (editorial)",
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
    good, bad, name = WRITTEN[part]
    text = _scaffold()
    assert good in text, part
    broken = text.replace(good, bad, 1)
    line = broken.split("\n").index(bad.split("\n")[-1]) + 1
    wrong = [f for f in _found(project, broken) if f[0] is Kind.WRONG_TYPE]
    assert [(kind, at) for kind, at, _, _ in wrong] == [(Kind.WRONG_TYPE, line)], wrong
    _, _, message, fix = wrong[0]
    assert name in message and "ponlo entre comillas" in fix, (message, fix)
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
