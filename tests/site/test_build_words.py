"""site.build_words: no word of the build on a reader's page, at its line; elsewhere allowed.

Throwaway projects: the home page, an article (its body, a takeaway, a code comment), a page
that is neither (the verification or the guide, free to name the build), the glossary's
definitions, and an article's seed text, which is never flagged.
"""

from __future__ import annotations

from conftest import Project
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_site
from docverify.site import build_words, glossary
from support.glossary import GLOSSARY

PAGE = """\
---
title: "Página"
takeaways:
  - {takeaway}
---

## Cuerpo

{body}

```python exec="on" id="uno"
print(1)  # {comment}
```
"""


def _found(project: Project, rel: str, **parts: str) -> list[tuple[str, int, str]]:
    text = PAGE.format(**{"takeaway": "Bien.", "body": "Texto.", "comment": "uno", **parts})
    project.page(rel, text)
    cfg = project.config
    terms, _ = glossary.load(cfg)
    found = build_words.check(cfg, read_site(cfg), terms)
    assert all(f.kind is Kind.BUILD_WORD for f in found)
    return [(f.path, f.line, f.message) for f in found]


def test_each_place_a_reader_reads_is_flagged_at_its_line(project: Project) -> None:
    found = _found(project, "index.md", body="La salida grabada.")
    assert [(p, n) for p, n, _ in found] == [("docs/index.md", 9)], found
    assert "«grabada»" in found[0][2]
    found = _found(
        project, "articulos/a.md", takeaway="Un informe.", body="El runner.", comment="grabación"
    )
    assert sorted((p, n) for p, n, _ in found if p != "docs/index.md") == [
        ("docs/articulos/a.md", 4),
        ("docs/articulos/a.md", 9),
        ("docs/articulos/a.md", 12),
    ], found


def test_other_pages_may_name_the_build(project: Project) -> None:
    assert _found(project, "como-se-verifica.md", body="El runner y su grabación.") == []


def test_words_that_only_contain_one_are_not_flagged(project: Project) -> None:
    assert _found(project, "index.md", body="Informal, grabador, runnery.") == []
    # Nor one that ends with one: the word must start there too.
    assert _found(project, "index.md", body="Preinforme, regrabación, autograbado.") == []


# Every form of every build word, as a sentence would start with it, in capitals, or without
# its accent: the rule reads words, not their case.
FORMS = [
    "Runner",
    "Runners",
    "RUNNER",
    "Grabación",
    "Grabacion",
    "Grabaciones",
    "GRABACIÓN",
    "Grabada",
    "Grabado",
    "Grabadas",
    "Grabados",
    "Grabar",
    "Grabarse",
    "Grabarla",
    "Grabarlo",
    "Informe",
    "Informes",
    "INFORME",
]


def test_each_form_is_flagged_whatever_its_case(project: Project) -> None:
    body = " ".join(f"{word} aquí." for word in FORMS)
    found = _found(project, "index.md", body=body, takeaway="Informe final.")
    words = [(n, message.split("»", 1)[0].lstrip("«")) for _, n, message in found]
    assert words == [(4, "Informe")] + [(9, word) for word in FORMS], found
    found = _found(project, "articulos/a.md", takeaway="Grabada, sí.", comment="RUNNER")
    assert sorted((p, n) for p, n, _ in found if p != "docs/index.md") == [
        ("docs/articulos/a.md", 4),
        ("docs/articulos/a.md", 12),
    ], found


def test_a_glossary_definition_is_flagged(project: Project) -> None:
    project.page("glosario.yml", GLOSSARY.replace("Registro de las", "Registro grabado de las"))
    found = _found(project, "index.md")
    assert [(p, n) for p, n, _ in found] == [("docs/glosario.yml", 4)], found


def test_a_finding_says_why_and_what_to_write_instead(project: Project) -> None:
    project.page("index.md", PAGE.format(takeaway="Bien.", body="La salida grabada.", comment="a"))
    cfg = project.config
    [finding] = build_words.check(cfg, read_site(cfg), None)
    assert finding.message == (
        "«grabada» es una palabra de la verificación del sitio, no del lector: esta página (o el "
        "glosario) habla a quien aprende."
    )
    assert finding.fix == (
        "dilo con las palabras del lector (CPU o GPU, «la salida comprobada», «se comprueba»); "
        "lo que hace la verificación se explica una vez, en la página «Cómo se verifica»."
    )


def test_a_word_is_flagged_at_its_own_line_of_a_paragraph(project: Project) -> None:
    found = _found(project, "index.md", body="La salida grabada\nse lee\ny el informe\ntambién.")
    assert [(p, n) for p, n, _ in found] == [("docs/index.md", 9), ("docs/index.md", 11)], found


# The same first term, its definition written three other ways YAML allows: a quoted key, a
# flow mapping on one line, the text on the line after its key. A word of the definition is
# flagged at the line where the definition's text starts, whatever the next term writes.
DEFINITIONS = [
    (GLOSSARY.replace('    definition: "Registro de', '    "definition": "Registro grabado de'), 4),
    (
        GLOSSARY.replace(
            """  - term: grafo
    english: computational graph
    definition: "Registro de las operaciones que produjeron un tensor."
    avoid: ["gráfico computacional"]
""",
            """  - {term: grafo, english: graph, definition: "Grabado.", avoid: []}
""",
        ),
        2,
    ),
    (GLOSSARY.replace('    definition: "Registro de', '    definition:\n      "Grabado de'), 5),
]


def test_a_definition_is_flagged_where_its_text_starts(project: Project) -> None:
    for data, line in DEFINITIONS:
        project.page("glosario.yml", data)
        found = _found(project, "index.md")
        assert [(p, n) for p, n, _ in found] == [("docs/glosario.yml", line)], (data, found)


def test_seed_text_is_never_flagged(project: Project) -> None:
    (project.root / "semilla.txt").write_text("El informe del original.\n", encoding="utf-8")
    text = PAGE.format(takeaway="Bien.", body="El informe del original.", comment="uno")
    project.page("articulos/a.md", text.replace("takeaways:", 'seed: "semilla.txt"\ntakeaways:'))
    cfg = project.config
    assert build_words.check(cfg, read_site(cfg), None) == []
