"""parsing.frontmatter: the YAML at the top of a page, with the page line of every key and item.

Every finding about a page's front matter (a missing part, a malformed FAQ entry, a stale
source) is located with these lines, so each is checked against where the text really is.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from docverify.parsing import frontmatter

PAGE = """\
---
title: "Una página"
verified: 2026-09-23
faq:
  - question: "¿Una?"
    answer: "Sí."
  - question: "¿Otra?"
    answer: "No."
---

# Cuerpo
"""


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.split("\n"), 1) if needle in line)


def test_keys_items_and_the_body_have_their_page_lines() -> None:
    meta, body, body_line = frontmatter.split(PAGE)
    assert meta.key_lines == {k: line_of(PAGE, f"{k}:") for k in ("title", "verified", "faq")}
    first, second = meta["faq"]
    assert (first.line, second.line) == (line_of(PAGE, "¿Una?"), line_of(PAGE, "¿Otra?"))
    assert second.key_lines["answer"] == line_of(PAGE, "No.")
    assert body == PAGE.split("---\n", 2)[2] and PAGE.split("\n")[body_line - 1] == ""
    assert meta["verified"] == "2026-09-23"  # a string: the engine, not YAML, judges dates
    assert frontmatter.source(PAGE) == PAGE.split("---\n")[1]


def test_three_dots_close_it_too() -> None:
    """YAML's end-of-document marker closes a front matter as «---» does."""
    meta, body, body_line = frontmatter.split(PAGE.replace("---\n\n#", "...\n\n#"))
    assert meta["title"] == "Una página" and body == "\n# Cuerpo\n"
    assert body_line == line_of(PAGE, "# Cuerpo") - 1


def test_an_empty_front_matter_is_an_empty_mapping() -> None:
    meta, body, body_line = frontmatter.split("---\n---\n# Cuerpo\n")
    assert meta == {} and meta.key_lines == {}
    assert (body, body_line) == ("# Cuerpo\n", 3)


def test_a_mistake_names_its_page_line() -> None:
    text = '---\ntitle: "Una"\nclave: : mal\n---\n\n# Cuerpo\n'
    with pytest.raises(frontmatter.FrontMatterError) as info:
        frontmatter.split(text)
    assert info.value.line == line_of(text, "clave"), info.value
    with pytest.raises(frontmatter.FrontMatterError) as info:
        frontmatter.split("---\n- una\n- lista\n---\n")
    assert (str(info.value), info.value.line) == (
        "El front matter debe ser un mapa clave: valor.",
        2,
    )


@pytest.mark.parametrize("key", ["[a, b]", "{a: 1}", "? - a\n"])
def test_a_list_or_a_mapping_as_a_key_is_a_located_mistake(key: str) -> None:
    """YAML allows them, a Python dict does not: the author reads where, not a traceback."""
    text = f"---\ntitle: Una\n{key}: 1\n---\n"
    with pytest.raises(frontmatter.FrontMatterError, match="found unhashable key") as info:
        frontmatter.split(text)
    assert info.value.line == 3, info.value


def test_an_unhashable_key_is_worded_as_pyyaml_words_it() -> None:
    """The mapping where it happened, then the key: PyYAML's own wording for the same error
    (lines counted from the front matter's first, as in every YAML error it words)."""
    with pytest.raises(frontmatter.FrontMatterError) as info:
        frontmatter.split("---\ntitle: Una\n[a, b]: 1\n---\n")
    assert str(info.value) == (
        "YAML no válido en el front matter: while constructing a mapping\n"
        '  in "<unicode string>", line 1, column 1:\n'
        "    title: Una\n"
        "    ^\n"
        "found unhashable key\n"
        '  in "<unicode string>", line 2, column 1:\n'
        "    [a, b]: 1\n"
        "    ^"
    )


@pytest.mark.parametrize("where", ["x: &a [*a]", "? &a [*a]\n: 1", "x: [1, &a [*a]]"])
def test_a_list_that_contains_itself_is_a_mistake_where_it_is(where: str) -> None:
    """Each key and value is built whole as it is read: a recursive list is refused, as key
    or as value, at its own line (built later, it would be [[...]], which no page can show)."""
    text = f"---\ntitle: Una\n{where}\n---\n"
    with pytest.raises(frontmatter.FrontMatterError, match="recursive node") as info:
        frontmatter.split(text)
    assert info.value.line == 3, info.value


def test_a_mistake_without_a_place_points_at_the_front_matter() -> None:
    """A character YAML refuses is reported by the reader, which gives no line: the front
    matter's first line stands for it."""
    with pytest.raises(frontmatter.FrontMatterError, match="unacceptable character") as info:
        frontmatter.split("---\ntitle: Una\nautor: a\x07b\n---\n")
    assert info.value.line == 1


def test_the_source_of_a_page_without_yaml_is_empty() -> None:
    assert frontmatter.source("# Cuerpo\n---\nx: 1\n---\n") == ""
    assert frontmatter.source("---\n---\n# Cuerpo\n") == ""
    assert frontmatter.source("---\nx: 1\n...\n") == "x: 1\n"


@pytest.mark.parametrize("front", ["", "- una\n- lista\n", "x: [uno\n", "solo texto\n"])
def test_no_node_tree_unless_the_yaml_is_a_mapping(front: str) -> None:
    assert frontmatter.node_tree(front) is None


def test_the_node_tree_keeps_the_line_of_each_value() -> None:
    root = frontmatter.node_tree("title: Una\nfaq:\n  - question: x\n")
    assert isinstance(root, yaml.MappingNode)
    (title_key, title), (faq_key, faq) = root.value
    assert (title_key.value, title.value, title.start_mark.line) == ("title", "Una", 0)
    assert (faq_key.value, faq.start_mark.line) == ("faq", 2)


def test_a_mistake_is_quoted_with_a_caret_under_it() -> None:
    """Pages are read by libyaml's parser, whose messages quote nothing; the error an author
    reads is PyYAML's own, which shows the line and points at the problem."""
    text = '---\ntitle: "Una"\nclave: [uno\notra: dos\n---\n'
    with pytest.raises(frontmatter.FrontMatterError) as info:
        frontmatter.split(text)
    assert "otra: dos" in str(info.value) and "^" in str(info.value), info.value
    with pytest.raises(yaml.YAMLError, match=r"\^"):
        frontmatter.compose("clave: [uno\notra: dos\n")


def test_both_parsers_read_every_page_alike() -> None:
    """The fast parser reads each front matter of the site as PyYAML's own does: the same
    values, at the same lines."""
    from docverify.core import config as config_mod  # noqa: PLC0415
    from docverify.parsing.pages import read_site  # noqa: PLC0415

    cfg = config_mod.load(Path(__file__).resolve().parents[2])
    fronts = [frontmatter.source(p.path.read_text(encoding="utf-8")) for p in read_site(cfg)]
    assert [f for f in fronts if f.strip()]

    def lines(value: object) -> object:
        if isinstance(value, frontmatter.LineDict):
            return (value.line, value.key_lines, {k: lines(v) for k, v in value.items()})
        if isinstance(value, list):
            return [lines(v) for v in value]
        return value

    for front in fronts:
        fast = frontmatter._read(front, frontmatter._Loader)
        own = frontmatter._read(front, frontmatter._WordingLoader)
        assert lines(fast) == lines(own)
        assert yaml.serialize(frontmatter.compose(front)) == yaml.serialize(
            yaml.compose(front, Loader=yaml.SafeLoader)
        )
