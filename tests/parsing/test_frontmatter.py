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
    with pytest.raises(frontmatter.FrontMatterError, match="debe ser un mapa") as info:
        frontmatter.split("---\n- una\n- lista\n---\n")
    assert info.value.line == 2


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
