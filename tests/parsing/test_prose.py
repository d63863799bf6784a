"""parsing/prose.py: the text a reader reads on a page, cut into pieces, each with its lines.

Every expected value here is worked out by hand from the page written in the test (the line
numbers counted on it, the masked text as blanks of the same length).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Project
from docverify.parsing import prose
from docverify.parsing.pages import Page, read_site


def _page(project: Project, text: str) -> Page:
    project.page("a.md", text)
    (page,) = read_site(project.config)
    return page


def blanks(text: str) -> str:
    """As many spaces as `text` has characters."""
    return " " * len(text)


@pytest.mark.parametrize(
    ("raw", "masked"),
    [
        ("usa `x = 1` ya", "usa " + blanks("`x = 1`") + " ya"),
        ("``a`b`` y", blanks("``a`b``") + " y"),  # a backtick inside a longer span
        ("`a\nb` y", "  \n   y"),  # the line break stays
        ("a <!-- b\nc --> d", "a " + blanks("<!-- b") + "\n" + blanks("c -->") + " d"),
        ("ver <https://x.org/a> y", "ver " + blanks("<https://x.org/a>") + " y"),
        (
            "un <span class='a'>texto</span>",
            "un " + blanks("<span class='a'>") + "texto" + blanks("</span>"),
        ),
        ("[guía](guia.md) ya", "[guía]" + blanks("(guia.md)") + " ya"),
        ('[guía](guia.md "Guía") ya', "[guía]" + blanks('(guia.md "Guía")') + " ya"),
        ("[guía][ref] ya", "[guía]" + blanks("[ref]") + " ya"),
        ("[ref]: https://x.org", blanks("[ref]: https://x.org")),
        ("Título { .dv-x }", "Título" + blanks(" { .dv-x }")),
        ("sin marcas", "sin marcas"),
    ],
)
def test_mask_blanks_what_is_no_prose_and_keeps_each_offset(raw: str, masked: str) -> None:
    assert prose.mask(raw) == masked


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        ("Lee **la** [guía](guia.md){ .x }  y\n`torch.ones`<br>ya", "Lee la guía y torch.ones ya"),
        ("un <b>glosario</b>.", "un glosario ."),  # a tag leaves a space where it was
        ("[guía][ref]", "guía"),
        ("ver <https://x.org> ya", "ver ya"),
        ("<!-- nada -->", ""),
        ("  a\t\n b  ", "a b"),
        ("*cursiva* y ***fuerte***", "cursiva y fuerte"),
    ],
)
def test_plain_is_what_a_reader_reads(raw: str, said: str) -> None:
    assert prose.plain(raw) == said


def test_line_at_maps_an_offset_to_its_file_line() -> None:
    text = prose.Text(Path("a.md"), (3, 4, 7), "\nab\ncd", "", ())
    # Offset 0 is the first line (empty); 1 and 2 the second («ab»); from 4 on, the third.
    assert [text.line_at(offset) for offset in (0, 1, 2, 3, 4, 5, 99)] == [3, 4, 4, 4, 7, 7, 7]
    # A front matter string over several lines has the line of its key only: past its first
    # line, still that one.
    folded = prose.Text(Path("a.md"), (5,), "a\nb\nc", "", ())
    assert [folded.line_at(offset) for offset in (0, 2, 4)] == [5, 5, 5]


PAGE = """\
---
title: "Prueba"
---
# Título {#inicio}
Un párrafo que sigue
en otra línea con `código`.

- uno **dos**
- tres
1. cuatro
2) cinco

> una cita

| a | `b` |
|---|---|
 | c | d |

!!! note "Xilófono"
    Dentro del aviso.

??? tip "Otro"
???+ tip
<!-- un comentario
de tres
líneas -->
Tras el comentario.
```python
# no es prosa
```
~~~~
```
dentro
~~~~
    ```
    sangrado
    ```
<!-- solo -->

Final.
"""

# (file lines, what a reader reads) of each piece of PAGE, counted on it by hand.
PIECES = [
    ((4,), ("Título",)),  # a heading is a piece of its own, even with text right below
    ((5, 6), ("Un párrafo que sigue en otra línea con código.",)),
    ((8,), ("uno dos",)),
    ((9,), ("tres",)),
    ((10,), ("cuatro",)),
    ((11,), ("cinco",)),
    ((13,), ("una cita",)),
    ((15,), ("a", "b")),  # a table row: one per cell
    ((16,), ("---", "---")),
    ((17,), ("c", "d")),  # indented, still a row
    ((19,), ("Xilófono",)),  # an admonition's title, without its quotes
    ((20,), ("Dentro del aviso.",)),
    ((22,), ("Otro",)),
    ((23,), ("",)),  # a header without a title
    ((27,), ("Tras el comentario.",)),  # the comment's three lines are no piece
    ((38,), ("",)),  # a comment on its own line: a piece with nothing to read
    ((40,), ("Final.",)),  # after three fences (``` in ~~~~, an indented one): prose again
]


def test_body_cuts_the_page_into_pieces_with_their_lines(project: Project) -> None:
    pieces = prose.body(_page(project, PAGE))
    assert [(p.lines, p.plain) for p in pieces] == PIECES
    lines = PAGE.split("\n")
    for piece in pieces:
        assert piece.raw == "\n".join(lines[n - 1] for n in piece.lines)
        assert len(piece.text) == len(piece.raw)  # same offsets
        assert piece.path == project.root / "docs/a.md" and not piece.comment


def test_body_blanks_markers_and_markup_in_text(project: Project) -> None:
    pieces = {p.lines: p for p in prose.body(_page(project, PAGE))}
    assert pieces[(4,)].text == "  Título" + blanks(" {#inicio}")
    assert (
        pieces[(5, 6)].text == "Un párrafo que sigue\nen otra línea con " + blanks("`código`") + "."
    )
    assert pieces[(8,)].text == "  uno **dos**"
    assert pieces[(11,)].text == "   cinco"
    assert pieces[(13,)].text == "  una cita"
    assert pieces[(19,)].text == blanks("!!! note") + ' "Xilófono"'
    assert pieces[(15,)].text == "| a | " + blanks("`b`") + " |"


def test_a_page_without_front_matter_starts_at_line_1(project: Project) -> None:
    pieces = prose.body(_page(project, "Hola.\n\nAdiós.\n"))
    assert [(p.lines, p.plain) for p in pieces] == [((1,), ("Hola.",)), ((3,), ("Adiós.",))]


FRONT = """\
---
title: "Título con `código`"
goals:
  - "Primero"
  - segundo: "anidado"
    numero: 3
  - ""
  - true
other: "no"
count: 5
---
Cuerpo.
"""


def test_front_matter_gives_the_strings_under_the_keys_with_their_lines(
    project: Project,
) -> None:
    page = _page(project, FRONT)
    found = prose.front_matter(page, ("title", "goals", "count"))
    path = project.root / "docs/a.md"
    assert found == [
        prose.Text(
            path,
            (2,),
            "Título con `código`",
            "Título con " + blanks("`código`"),
            ("Título con código",),
        ),
        prose.Text(path, (4,), "Primero", "Primero", ("Primero",)),
        prose.Text(path, (5,), "anidado", "anidado", ("anidado",)),
    ]
    assert prose.front_matter(page, ("other",))[0].lines == (9,)
    assert prose.front_matter(page, ("nada",)) == []
    assert prose.front_matter(_page(project, "Sin cabecera.\n"), ("title",)) == []


CODE_PAGE = """\
# T

```python exec="on" id="c"
x = 1  # uno `código`
s = "# no es un comentario"
# dos
```

```python exec="on" id="roto"
x = (
# tres
```
"""


def test_comments_of_a_block_with_their_lines(project: Project) -> None:
    page = _page(project, CODE_PAGE)
    good, broken = page.blocks
    path = project.root / "docs/a.md"
    assert prose.comments(good) == [
        prose.Text(
            path, (4,), "# uno `código`", "  uno " + blanks("`código`"), ("uno código",), True
        ),
        prose.Text(path, (6,), "# dos", "  dos", ("dos",), True),
    ]
    assert prose.comments(broken) == []  # its run reports the broken code
