"""The site's own stylesheets are well formed: a stray brace makes browsers drop what follows."""

from __future__ import annotations

import re

import pytest
from conftest import ROOT

SHEETS = sorted((ROOT / "docs").rglob("*.css"))


def unbalanced(css: str) -> str | None:
    """Where the braces of `css` (comments and strings aside) stop matching, or None."""
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), css, flags=re.S)
    text = re.sub(r"\"[^\"\n]*\"|'[^'\n]*'", lambda m: " " * len(m.group(0)), text)
    depth = 0
    for number, line in enumerate(text.split("\n"), 1):
        for char in line:
            depth += {"{": 1, "}": -1}.get(char, 0)
            if depth < 0:
                return f"línea {number}: «}}» sin «{{»"
    return f"faltan {depth} «}}» al final" if depth else None


def test_there_are_stylesheets() -> None:
    assert SHEETS


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_brace_is_closed_once(sheet) -> None:
    problem = unbalanced(sheet.read_text(encoding="utf-8"))
    assert problem is None, f"{sheet.relative_to(ROOT)}: {problem}"


@pytest.mark.parametrize(
    ("css", "found"),
    [
        ("a { b: c; }\n}\n", "línea 2"),
        ("@media x {\n  a { b: c; }\n", "faltan 1"),
        ('/* { */ a::before { content: "}"; }\n', None),
    ],
)
def test_the_check_finds_a_stray_or_missing_brace(css: str, found: str | None) -> None:
    problem = unbalanced(css)
    assert (problem is None) if found is None else (found in str(problem))
