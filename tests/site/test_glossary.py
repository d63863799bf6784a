"""The glossary: its data file's format, and the lint of the prose against it.

What the lint must know (the issue's minimum) is written in support.glossary as an author writes
docs/glosario.yml; these tests put it in throwaway projects, so they hold whatever the site's
own glossary and articles say.
"""

from __future__ import annotations

import textwrap

import pytest
from conftest import ROOT, Project, docverify
from docverify import build
from docverify.core import config as config_mod
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_site
from docverify.site import anatomy, checks, glossary, navigation
from support.glossary import GLOSSARY

PAGE = """\
---
title: "Página"
description: "Frase inicial."
takeaways:
  - {takeaway}
---

## Cuerpo

{body}

```python exec="on" id="uno"
--8<-- "pagina/uno.py"
```
"""


def _lint(
    project: Project,
    body: str,
    *,
    takeaway: str = "Una conclusión.",
    code: str = "print(1)\n",
    seed: str | None = None,
    data: str = GLOSSARY,
) -> list[Finding]:
    """The glossary's findings for one page with `body` (and its block's `code`)."""
    project.page("glosario.yml", data)
    page = PAGE.format(body=body, takeaway=takeaway)
    if seed is not None:
        (project.root / "semilla.txt").write_text(seed, encoding="utf-8")
        page = page.replace("description:", 'seed: "semilla.txt"\ndescription:')
    project.page("pagina.md", page)
    project.snippet("pagina/uno.py", code)
    cfg = project.config
    return checks.per_page(cfg, read_site(cfg)).findings


def _kinds(found: list[Finding]) -> list[tuple[Kind, int]]:
    return [(f.kind, f.line) for f in found]


# --- the data file ----------------------------------------------------------------------------


def test_the_format_loads_every_term(project: Project) -> None:
    project.page("glosario.yml", GLOSSARY)
    terms, found = glossary.load(project.config)
    assert found == [] and terms is not None
    by_name = {t.term: t for t in terms.terms}
    assert list(by_name) == ["grafo", "retropropagación", "hoja", "backward", "grad_fn"]
    assert by_name["grafo"].avoid == ("gráfico computacional",)
    assert by_name["retropropagación"].anchor == "retropropagacion"
    assert by_name["grad_fn"].anchor == "grad-fn" and by_name["grad_fn"].code
    assert not by_name["hoja"].code and by_name["hoja"].avoid == ()


def test_other_senses_are_optional_phrases(project: Project) -> None:
    """`other_senses` lists the phrases where a term's word means something else (the links
    skip them: tests/output/test_glossary_links.py); without it, none."""
    project.page("glosario.yml", f'terms:\n{ENTRY}    other_senses: ["de grafo en grafo"]\n')
    terms, found = glossary.load(project.config)
    assert found == [] and terms is not None
    assert [t.other_senses for t in terms.terms] == [("de grafo en grafo",)]
    project.page("glosario.yml", f"terms:\n{ENTRY}")
    terms, _ = glossary.load(project.config)
    assert terms is not None and terms.terms[0].other_senses == ()


def test_no_data_file_no_glossary(project: Project) -> None:
    assert glossary.load(project.config) == (None, [])


ENTRY = '  - term: grafo\n    english: graph\n    definition: "Uno."\n    avoid: []\n'


@pytest.mark.parametrize(
    ("data", "words", "line"),
    [
        ("terms: [\n", "YAML no válido", 2),
        ("- term: grafo\n", "lista «terms:»", 1),
        ("terms:\n  - grafo\n", "cada término es un mapa", 2),
        (f"terms:\n{ENTRY}    color: rojo\n", "claves desconocidas: color", 2),
        ("terms:\n  - term: grafo\n    english: graph\n    avoid: []\n", "definition", 2),
        (
            'terms:\n  - term: grafo\n    english: graph\n    definition: "a\n\n      b"\n'
            "    avoid: []\n",
            "una línea",
            4,
        ),
        (
            'terms:\n  - term: grafo\n    english: graph\n    definition: "a"\n    avoid: x\n',
            "lista de expresiones",
            5,
        ),
        (f"terms:\n{ENTRY}    code: sí\n", "true o false", 6),
        (f"terms:\n{ENTRY}    other_senses: de forma\n", "«other_senses» del término", 6),
        (f'terms:\n{ENTRY}    other_senses: ["", "x"]\n', "lista de expresiones", 6),
        (f"terms:\n{ENTRY}{ENTRY}", "repite «grafo»", 6),
        (
            f"terms:\n{ENTRY}" + ENTRY.replace("grafo", "nodo").replace("[]", '["Grafo"]'),
            "forma del término «grafo»",
            6,
        ),
    ],
)
def test_each_malformed_entry_is_named_with_its_line(
    project: Project, data: str, words: str, line: int
) -> None:
    project.page("glosario.yml", data)
    terms, found = glossary.load(project.config)
    assert [(f.kind, f.line, f.path) for f in found] == [
        (Kind.MALFORMED_GLOSSARY, line, "docs/glosario.yml")
    ], found
    assert words in found[0].message
    assert terms is not None and all(t.term == "grafo" for t in terms.terms)  # the rest is kept


# --- the lint ---------------------------------------------------------------------------------


def test_an_avoided_phrase_in_prose_names_the_form_to_use(project: Project) -> None:
    found = _lint(project, "Autograd recorre el\nGráfico Computacional de la pérdida.")
    [finding] = found
    assert (finding.kind, finding.path, finding.line) == (
        Kind.AVOIDED_PHRASE,
        "docs/pagina.md",
        11,  # the line where the phrase starts
    )
    assert "«Gráfico Computacional»" in finding.message and "«grafo»" in finding.message
    assert "«grafo»" in finding.fix and "docs/glosario.yml" in finding.fix


@pytest.mark.parametrize(
    "body",
    [
        "Los gráficos computacionales de dos pérdidas.",  # plural, every word
        "## El grafico computacional",  # a heading, without the accent
        '!!! note "El gráfico computacional"\n\n    Texto.',  # an admonition's title
        "| Qué | Dónde |\n|---|---|\n| el gráfico computacional | aquí |",  # a table cell
        "- Primero, retropropagar la pérdida.",  # another term's avoided phrase
        "Lo llamamos «gráfico computacional de la pérdida».",  # quoted with more: a use
        "Lo llamamos «el gráfico computacional».",
    ],
)
def test_avoided_phrases_wherever_a_reader_reads_them(project: Project, body: str) -> None:
    assert [f.kind for f in _lint(project, body)] == [Kind.AVOIDED_PHRASE]


@pytest.mark.parametrize(
    "body",
    [
        "El gráfico de la pérdida baja en cada época.",  # «gráfico» alone is a chart
        "La semilla dice «gráfico computacional»; aquí escribimos grafo.",  # a mention
        "Nunca `gráfico computacional` en código.",  # inline code
        "```text\ngráfico computacional\n```",  # a fenced block
        "Ver [la API](https://pytorch.org/docs/backward).",  # a link's target
        "<!-- gráfico computacional -->",  # a comment
        "Los grafos computacionalmente costosos.",  # not whole words
        "Llama a `backward`, a `y.backward()` o a `x.grad_fn`.",  # code words as code
        "La entrada torch.autograd.backward normaliza.",  # a dotted name is code already
    ],
)
def test_what_is_not_a_use(project: Project, body: str) -> None:
    assert _lint(project, body) == []


def test_a_code_word_bare_in_prose(project: Project) -> None:
    found = _lint(project, "Después del backward, mira su grad_fn.\n\nBackward() otra vez.")
    assert _kinds(found) == [
        (Kind.CODE_ONLY_WORD, 10),
        (Kind.CODE_ONLY_WORD, 10),
        (Kind.CODE_ONLY_WORD, 12),
    ]
    assert "«backward»" in found[0].message and "`backward`" in found[0].fix
    assert "«grad_fn»" in found[1].message


def test_front_matter_prose_and_code_comments(project: Project) -> None:
    code = "x = 1\n# el gráfico computacional de x\n# llama a backward: es código aquí\nprint(x)\n"
    found = _lint(project, "Texto.", takeaway="La propagación inversa recorre el grafo.", code=code)
    assert [(f.kind, f.path, f.line) for f in found] == [
        (Kind.AVOIDED_PHRASE, "docs/pagina.md", 5),
        (Kind.AVOIDED_PHRASE, "snippets/pagina/uno.py", 2),
    ]
    assert "un comentario del código" in found[1].message


def _front_key(key: str, text: str) -> str:
    """`key` of an article's front matter holding `text`, as the scaffold writes it."""
    if key == "faq":
        return f'faq:\n  - question: "¿{text}?"\n    answer: "{text}"\n'
    if key in ("title", "description", "approach"):
        return f'{key}: "{text}"\n'
    return f'{key}:\n  - "{text}"\n'


def test_every_front_matter_part_a_reader_reads_is_checked(project: Project) -> None:
    """Each part of an article's front matter that the build renders as prose (site.anatomy's
    parts, the sources aside: they cite others' titles) is linted, at the line of the phrase."""
    project.page("glosario.yml", GLOSSARY)
    parts = [key for key in anatomy.META_PARTS if key != "sources"]
    for key in parts:
        values = {k: f"Texto de {k}." for k in parts} | {key: "Recorre el gráfico computacional."}
        text = "---\n" + "".join(_front_key(k, v) for k, v in values.items()) + "---\n\nTexto.\n"
        project.page("articulos/a.md", text)
        cfg = project.config
        found = checks.per_page(cfg, read_site(cfg)).findings
        lines = [f.line for f in found if f.kind is Kind.AVOIDED_PHRASE]
        assert lines == [n for n, line in enumerate(text.split("\n"), 1) if "gráfico" in line], (
            key,
            found,
        )


SEED = textwrap.dedent("""\
    Título de la semilla
    Desde una pérdida escalar, la propagación inversa recorre
    esas dependencias hasta el backward de cada hoja.
    - Gestionar el gráfico computacional
""")


def test_seed_text_is_never_flagged(project: Project) -> None:
    """Paragraphs and items that are the seed's word for word pass; what is added around them,
    even in the same page, is checked."""
    body = (
        "Desde una pérdida *escalar*, la propagación inversa\nrecorre esas dependencias hasta "
        "el backward de cada hoja.\n\n- Gestionar el gráfico computacional\n\n"
        "Nuestra frase: la propagación inversa."
    )
    found = _lint(project, body, seed=SEED)
    assert _kinds(found) == [(Kind.AVOIDED_PHRASE, 16)]  # `seed:` is line 3
    # The mutation it catches: the same page without its seed is flagged everywhere.
    unseeded = _lint(project, body)
    assert len(unseeded) == 4


def test_a_table_row_is_the_seeds_only_when_every_cell_is(project: Project) -> None:
    """A row whose cells are all the seed's passes; a row that adds a cell of its own beside a
    seed cell is new text, and is checked."""
    header = "| Paso | Nota |\n|---|---|\n"
    seeded = "| Gestionar el gráfico computacional | Título de la semilla |"
    assert _lint(project, header + seeded, seed=SEED) == []
    mixed = "| Gestionar el gráfico computacional | nuestra propagación inversa |"
    found = _lint(project, header + mixed, seed=SEED)
    assert [f.kind for f in found] == [Kind.AVOIDED_PHRASE, Kind.AVOIDED_PHRASE], found
    assert "«propagación inversa»" in found[1].message


def test_a_seed_that_is_not_a_file(project: Project) -> None:
    project.page("glosario.yml", GLOSSARY)
    project.page("pagina.md", '---\ntitle: "P"\nseed: "falta.txt"\n---\n\nTexto.\n')
    [finding] = checks.per_page(project.config, read_site(project.config)).findings
    assert (finding.kind, finding.line) == (Kind.MISSING_SEED, 3)


def test_lint_fails_on_an_avoided_phrase_added_to_an_article(site_copy) -> None:  # type: ignore[no-untyped-def]
    """The issue's acceptance, on a copy of the real site with its own glossary: «gráfico
    computacional» added to an article fails `docverify lint`, naming «grafo» and the line."""
    root = site_copy()
    cfg = config_mod.load(root)
    terms, found = glossary.load(cfg)
    assert found == [] and terms is not None
    entry = next(t for t in terms.terms if "gráfico computacional" in t.avoid)
    assert entry.term == "grafo"
    article = next(p for p in read_site(cfg) if p.rel.startswith("articulos/"))
    lines = article.path.read_text(encoding="utf-8").split("\n")
    line = len(lines) + 2
    lines += ["", "Esta frase nombra el gráfico computacional de la pérdida.", ""]
    article.path.write_text("\n".join(lines), encoding="utf-8")
    done = docverify(root, "lint", str(article.path))
    assert done.returncode == 1
    where = f"{cfg.rel(article.path)}:{line}: [{Kind.AVOIDED_PHRASE.label}]"
    assert where in done.stderr and "«grafo»" in done.stderr, done.stderr
    # The same copy without that line lints clean: the site's own text follows its glossary.
    assert [f for f in build.lint(cfg) if f.kind is Kind.AVOIDED_PHRASE] != []
    lines = lines[:-3]
    article.path.write_text("\n".join(lines), encoding="utf-8")
    assert [f for f in build.lint(cfg) if f.kind in _GLOSSARY_KINDS] == []


_GLOSSARY_KINDS = {Kind.AVOIDED_PHRASE, Kind.CODE_ONLY_WORD, Kind.MALFORMED_GLOSSARY}


def test_the_site_glossary_knows_its_terms() -> None:
    """The real data file is valid and knows what the issue asks for that the site's articles
    already follow (a computation graph is a «grafo», one term for backpropagation, «hoja»)."""
    terms, found = glossary.load(config_mod.load(ROOT))
    assert found == [] and terms is not None
    by_term = {t.term: t for t in terms.terms}
    assert "gráfico computacional" in by_term["grafo"].avoid
    assert "backpropagation" in by_term["retropropagación"].english
    assert "leaf" in by_term["hoja"].english
    assert by_term["backward"].code and by_term["grad_fn"].code


def test_the_glossary_page_name_is_reserved_and_needs_its_data(project: Project) -> None:
    """An author's docs/glosario.md would never be published (the build generates that page);
    a navigation entry for it without the data file points at nothing."""
    project.page("glosario.md", "# Mi glosario\n")
    (project.root / "mkdocs.yml").write_text("site_name: x\nnav:\n  - glosario.md\n", "utf-8")
    cfg = project.config
    found = checks.site_wide(cfg, read_site(cfg), navigation.of_project(cfg))
    assert _kinds(found) == [(Kind.DANGLING_NAV_ENTRY, 3), (Kind.RESERVED_PAGE, 1)]
    assert "docs/glosario.yml" in found[0].message and "docs/glosario.yml" in found[1].fix
    project.page("glosario.yml", GLOSSARY)
    (project.root / "docs/glosario.md").unlink()
    assert checks.site_wide(cfg, read_site(cfg), navigation.of_project(cfg)) == []


ACCENTS_AND_PLURALS = (
    GLOSSARY
    + """\
  - term: gradiente
    english: gradient
    definition: "Las derivadas de un resultado respecto de un tensor."
    avoid: ["gradient"]
  - term: época
    english: epoch
    definition: "Una pasada completa por los datos."
    avoid: ["epoch", "epoca"]
"""
)


def test_a_term_is_never_the_phrase_another_entry_avoids(project: Project) -> None:
    """«gradientes» is the term «gradiente» in plural, though the avoided «gradient» plus a
    plural ending spells it too; «epoca» differs from the term «época» only in its accent, so
    the two are told apart by it (and the data file is coherent)."""
    body = "Los gradientes de cada época.\n\nEl gradient de cada epoca."
    found = _lint(project, body, data=ACCENTS_AND_PLURALS)
    assert [(f.kind, f.message.split("»")[0]) for f in found] == [
        (Kind.AVOIDED_PHRASE, "«gradient"),
        (Kind.AVOIDED_PHRASE, "«epoca"),
    ], found
    assert all(f.line == found[0].line for f in found)  # both in the second paragraph


def test_folding_keeps_every_character_in_place() -> None:
    """fold and lower give one character for each (findings point into the text by offset),
    and an ASCII text, which they take in one step, comes out as character by character."""
    from docverify.parsing import prose  # noqa: PLC0415

    texts = [t.text for p in read_site(config_mod.load(ROOT)) for t in prose.body(p)]
    texts += ["Época, GRÁFICO y ñandú: ﬁn", "plain ASCII, Tensor.grad"]
    for text in texts:
        for change, one in ((glossary.fold, glossary._folded), (glossary.lower, glossary._lowered)):
            assert change(text) == "".join(map(one, text))
            assert len(change(text)) == len(text)
    assert glossary.fold("Época GRÁFICO ñandú") == "epoca grafico nandu"


# --- each finding whole, each rule on its own (site/glossary_lint.py) ---------------------------


def test_each_finding_whole_at_the_line_where_its_words_start(project: Project) -> None:
    """Message, place and fix as an author reads them: in prose and in a code comment, the
    avoided phrase; a bare code word; in the order they come in the text, on the first line of
    a paragraph that goes on."""
    code = "x = 1\n# recorre el gráfico computacional\nprint(x)\n"
    found = _lint(project, "El backward recorre el Gráfico computacional.\nSigue.", code=code)
    assert [(f.kind, f.path, f.line, f.message, f.fix) for f in found] == [
        (
            Kind.CODE_ONLY_WORD,
            "docs/pagina.md",
            10,
            "«backward» suelto en la prosa: el sitio escribe esta palabra inglesa solo como "
            "código.",
            "escríbela como código, `backward`, o dilo en español (ver «backward» en "
            "docs/glosario.yml).",
        ),
        (
            Kind.AVOIDED_PHRASE,
            "docs/pagina.md",
            10,
            "«Gráfico computacional» en la prosa: el glosario la evita; la forma del sitio es "
            "«grafo» (computational graph).",
            "escribe «grafo» en lugar de «Gráfico computacional» (ver docs/glosario.yml).",
        ),
        (
            Kind.AVOIDED_PHRASE,
            "snippets/pagina/uno.py",
            2,
            "«gráfico computacional» en un comentario del código: el glosario la evita; la forma "
            "del sitio es «grafo» (computational graph).",
            "escribe «grafo» en lugar de «gráfico computacional» (ver docs/glosario.yml).",
        ),
    ]


def test_a_mention_does_not_hide_a_later_use_in_the_same_text(project: Project) -> None:
    body = "Lo llamamos «gráfico computacional» en la semilla; aquí, el gráfico computacional."
    assert _kinds(_lint(project, body)) == [(Kind.AVOIDED_PHRASE, 10)]


def test_a_glossary_of_code_words_only(project: Project) -> None:
    """No term avoids a phrase: prose without code words holds nothing, one with them is found."""
    only_code = "terms:\n  - term: backward" + GLOSSARY.split("  - term: backward", 1)[1]
    assert 'avoid: ["' not in only_code and "term: backward" in only_code
    assert _lint(project, "Texto sin nada.", data=only_code) == []
    assert _kinds(_lint(project, "Un backward.", data=only_code)) == [(Kind.CODE_ONLY_WORD, 10)]


def test_seed_text_across_a_removed_tag_is_still_the_seeds(project: Project) -> None:
    """A tag dropped from the prose leaves «inversa .»: the seed's «inversa.» is the same text."""
    seed = "Usa la propagación inversa.\n"
    assert _lint(project, "Usa la propagación inversa <br>.", seed=seed) == []
    assert len(_lint(project, "Usa la propagación inversa <br>.", seed="Otra cosa.\n")) == 1


def test_a_missing_seed_whole_on_every_page_without_a_glossary(project: Project) -> None:
    """No glossary: the seeds are still checked, on every page."""
    for name in ("a.md", "b.md"):
        project.page(name, '---\ntitle: "P"\nseed: "falta.txt"\n---\n\nTexto.\n')
    found = checks.per_page(project.config, read_site(project.config)).findings
    assert [(f.kind, f.path, f.line) for f in found] == [
        (Kind.MISSING_SEED, "docs/a.md", 3),
        (Kind.MISSING_SEED, "docs/b.md", 3),
    ]
    assert found[0].message == (
        "«seed: falta.txt» no es un archivo del proyecto: sin él, el texto de la semilla no se "
        "puede reconocer y el glosario lo trataría como texto nuevo."
    )
    assert found[0].fix == (
        "escribe en «seed:» la ruta del texto de la semilla desde la raíz del proyecto, o quita "
        "la clave si la página no reproduce ninguna semilla."
    )


def test_a_phrase_two_entries_avoid_is_found_once_for_each_in_the_glossarys_order(
    project: Project,
) -> None:
    """Two findings at the same place: sorted by place alone, they keep the glossary's order."""
    data = GLOSSARY.replace(
        "avoid: []\n  - term: backward", 'avoid: ["propagación inversa"]\n  - term: backward', 1
    )
    found = _lint(project, "La propagación inversa.", data=data)
    assert [(f.kind, f.line) for f in found] == [(Kind.AVOIDED_PHRASE, 10)] * 2
    assert ["«retropropagación»" in found[0].message, "«hoja»" in found[1].message] == [True] * 2


SYNTAX_FIX = "corrige la sintaxis (ver el formato en la guía de autores)."
SHAPE = (
    "el glosario debe ser un mapa con una lista «terms:» de términos.",
    "escribe «terms:» y debajo cada término como «- term: …» (ver la guía de autores).",
)
AVOID_LIST = ("«avoid» del término «grafo» debe ser una lista de expresiones.",)


@pytest.mark.parametrize(
    ("data", "line", "message", "fix"),
    [
        ("terms: grafo\n", 1, *SHAPE),
        ("- term: grafo\n", 1, *SHAPE),
        (
            "terms:\n  - grafo\n",
            2,
            "cada término es un mapa «term: …».",
            "escribe «- term: …» con sus claves.",
        ),
        (
            f"terms:\n{ENTRY}    color: rojo\n    año: 1\n",
            2,
            "el término «grafo» tiene claves desconocidas: año, color.",
            "usa solo term, english, definition, avoid, code, other_senses.",
        ),
        (
            "terms:\n  - english: graph\n    avoid: []\n",
            2,
            "al término «(línea 2)» le faltan term, definition.",
            "añade cada clave (avoid puede ser una lista vacía: avoid: []).",
        ),
        (
            'terms:\n  - term: 5\n    english: graph\n    definition: "a"\n    avoid: []\n',
            2,
            "«term» del término «(línea 2)» debe ser un texto de una línea.",
            'escribe term: "…" en una sola línea.',
        ),
        (
            'terms:\n  - term: grafo\n    english: graph\n    definition: "a"\n    avoid: [1]\n',
            5,
            *AVOID_LIST,
            'escribe avoid: ["expresión", …] o avoid: [].',
        ),
        (
            f"terms:\n{ENTRY}    other_senses: forma\n",
            6,
            "«other_senses» del término «grafo» debe ser una lista de expresiones.",
            'escribe other_senses: ["expresión", …] o other_senses: [].',
        ),
        (
            f"terms:\n{ENTRY}    code: 1\n",
            6,
            "«code» del término «grafo» debe ser true o false.",
            "escribe code: true (o quita la clave).",
        ),
        (
            f"terms:\n{ENTRY}{ENTRY}",
            6,
            "el término «grafo» repite «grafo» (línea 2).",
            "deja una sola entrada por término.",
        ),
        (
            f"terms:\n{ENTRY}" + ENTRY.replace("grafo", "nodo").replace("[]", '["Grafo"]'),
            6,
            "el término «nodo» evita «Grafo», que es la forma del término «grafo»: la prosa no "
            "podría usar ninguna de las dos.",
            "quita la expresión de «avoid» o la otra entrada.",
        ),
    ],
)
def test_each_malformed_entry_says_what_is_wrong_and_how_to_write_it(
    project: Project, data: str, line: int, message: str, fix: str
) -> None:
    project.page("glosario.yml", data)
    terms, found = glossary.load(project.config)
    assert [(f.line, f.message, f.fix) for f in found] == [(line, message, fix)], found
    assert terms is not None and terms.path == project.root / "docs/glosario.yml"


def test_invalid_yaml_says_where_and_how(project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    project.page("glosario.yml", "terms: [\n")
    terms, [finding] = glossary.load(project.config)
    assert (finding.line, finding.fix) == (2, SYNTAX_FIX)
    assert finding.message.startswith("YAML no válido: ")
    assert terms is not None and terms.path == project.root / "docs/glosario.yml"
    assert terms.terms == ()

    def unplaced(text: str) -> None:
        raise glossary.yaml.YAMLError("sin posición")

    monkeypatch.setattr(glossary.frontmatter, "compose", unplaced)
    _, [finding] = glossary.load(project.config)
    assert (finding.line, finding.message) == (1, "YAML no válido: sin posición")


def test_terms_is_found_among_other_keys_and_a_bad_entry_stops_only_itself(
    project: Project,
) -> None:
    nodo = ENTRY.replace("grafo", "nodo")
    project.page("glosario.yml", f"versión: 1\nterms:\n{ENTRY}{ENTRY}{nodo}")
    terms, found = glossary.load(project.config)
    assert [f.line for f in found] == [7]
    assert terms is not None and [t.term for t in terms.terms] == ["grafo", "nodo"]
    clash = ENTRY.replace("grafo", "arista").replace("[]", '["nodo"]')
    project.page("glosario.yml", f"terms:\n{nodo}{clash}{ENTRY}")
    terms, found = glossary.load(project.config)
    assert [f.line for f in found] == [6]
    assert terms is not None and [t.term for t in terms.terms] == ["nodo", "grafo"]
