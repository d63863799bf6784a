"""site.meta_keys: a front-matter key of an article that nothing reads is a located finding.

Each case takes the article `docverify new` writes (it passes every check) and misspells or adds
one key. The keys that must be accepted are read from the author guide, not from the module.
"""

from __future__ import annotations

import re

import pytest
from conftest import ROOT, Project
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_page
from docverify.site import anatomy, scaffold

GUIDE = (ROOT / "docs" / "guia-autores.md").read_text(encoding="utf-8")
# The guide's table «Las partes de un artículo»: one row per key, «| `goals` | … |».
_PARTS = GUIDE.split("### Las partes de un artículo", 1)[1].split("\n## ", 1)[0]
TABLE_KEYS = re.findall(r"^\| `(\w+)` \|", _PARTS, re.MULTILINE)
# Keys the guide documents in its other sections, each written there as «key:».
OTHER_KEYS = {
    "seed": '(`seed: "',
    "origin": " origin:\n     repository:",
    "data_files": "\ndata_files:\n",
    "last_value": "`last_value: show`",
    "device_policy": "`device_policy: as-written`",
}
VALUES = {"data_files": "[]", "origin": "null", "seed": "null"}  # values no other check judges


def _scaffold() -> str:
    return scaffold.page_text("nuevo", "Un artículo nuevo", "2026-01-01")


def _found(project: Project, text: str, name: str = "articulos/nuevo.md") -> list[tuple]:
    page = read_page(project.config, project.page(name, text))
    return [
        (f.line, f.message, f.fix)
        for f in anatomy.check(project.config, page)
        if f.kind is Kind.UNKNOWN_META_KEY
    ]


def test_the_guide_names_the_keys_this_test_accepts() -> None:
    assert "goals" in TABLE_KEYS and "editorial_description" in TABLE_KEYS, TABLE_KEYS
    assert [k for k, written in OTHER_KEYS.items() if written not in GUIDE] == []


def test_every_key_the_guide_documents_is_read(project: Project) -> None:
    text = _scaffold()
    present = re.findall(r"^(\w+):", text.split("\n---\n", 1)[0], re.MULTILINE)
    extra = [k for k in [*TABLE_KEYS, *OTHER_KEYS] if k not in present]
    added = "".join(f"{key}: {VALUES.get(key, 'show')}\n" for key in extra)
    found = _found(project, text.replace("\n---\n", f"\n{added}---\n", 1))
    assert found == []


@pytest.mark.parametrize(
    ("written", "meant"),
    [("goal", "goals"), ("last_valu", "last_value"), ("data_file", "data_files")],
)
def test_a_misspelt_key_is_named_at_its_line_with_the_key_meant(
    project: Project, written: str, meant: str
) -> None:
    text = _scaffold().replace("\napproach:", f"\n{written}: x\napproach:", 1)
    line = text.split("\n").index(f"{written}: x") + 1
    assert _found(project, text) == [
        (
            line,
            f"clave «{written}» desconocida en el front matter: ni la construcción ni el tema "
            f"la leen; ¿querías decir «{meant}»?",
            f"escribe «{meant}:» en lugar de «{written}:».",
        )
    ]


def test_a_key_like_none_says_to_remove_it(project: Project) -> None:
    text = _scaffold().replace("\napproach:", "\nrevisor: Ana\napproach:", 1)
    [(_, message, fix)] = _found(project, text)
    assert message.endswith("la leen."), message
    # the section of the guide that lists the keys, by its heading as the guide writes it
    (section,) = re.findall(r"^### (Las partes de un artículo)$", GUIDE, re.M)
    assert fix == f"quita «revisor:» o usa una clave de la guía de autores ({section}).", fix


def test_a_page_that_is_no_article_is_not_judged(project: Project) -> None:
    assert _found(project, "---\nrevisor: Ana\n---\n\n# Otra\n", "otra.md") == []
