"""Highlighted code with fewer elements: the same characters, the same colours, fewer spans."""

from __future__ import annotations

import html
import re
from pathlib import Path

import markdown
import material
import pytest
from docverify.output import highlight

ROOT = Path(__file__).resolve().parents[2]
CODE = re.compile(r"<code\b[^>]*>(.*?)</code>", re.DOTALL)
SPAN = re.compile(r'<span class="([\w-]+)">')
PLAIN_SPAN = re.compile(r'<span class="(?:%s)">' % "|".join(highlight.PLAIN))
PYTHON = '''\
import torch
from torch import nn

x = torch.ones(2, 3, requires_grad=True)  # un comentario
y = (x * 2).sum()
y.backward()
print(f"{x.grad=}", nn.Linear(3, 1).weight.shape)
'''


def rendered(code: str) -> str:
    """`code` as the site's Markdown renders a Python fence (Pygments through pymdownx)."""
    source = f"Texto con `x`.\n\n```python\n{code}```\n"
    return markdown.markdown(source, extensions=["pymdownx.highlight", "pymdownx.superfences"])


def code_text(page: str) -> list[str]:
    """What a reader reads and copies from each `<code>`: its characters, tags aside."""
    return [html.unescape(re.sub(r"<[^>]+>", "", c)) for c in CODE.findall(page)]


def test_lighten_keeps_every_character_and_every_coloured_token() -> None:
    before = rendered(PYTHON)
    after = highlight.lighten(before)
    assert PLAIN_SPAN.search(before), "Pygments no envolvió nombres: la prueba no prueba nada"
    assert PLAIN_SPAN.search(after) is None, after
    assert code_text(after) == code_text(before)
    coloured = sorted(c for c in SPAN.findall(before) if c not in highlight.PLAIN)
    assert sorted(SPAN.findall(after)) == coloured
    assert len(after) < len(before)


def test_lighten_touches_nothing_outside_code() -> None:
    prose = '<p>Un <span class="n">nombre</span> y <span class="w"> </span>en prosa.</p>'
    assert highlight.lighten(prose) == prose
    page = prose + highlight.lighten(rendered(PYTHON))
    assert highlight.lighten(page) == page  # a second pass changes nothing


def _theme_css() -> dict[str, str]:
    """The stylesheets a built page loads, by theme: the theme's own and the site's extra_css."""
    extra = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "docs").rglob("*.css"))
    themes = {"material": Path(material.__file__).parent}
    try:
        import zensical
    except ImportError:  # the optional generator (README, «Zensical»)
        pass
    else:
        themes["zensical"] = Path(zensical.__file__).parent
    return {
        name: "".join(p.read_text(encoding="utf-8") for p in sorted(root.rglob("*.css"))) + extra
        for name, root in themes.items()
    }


@pytest.mark.parametrize("theme", sorted(_theme_css()))
def test_the_themes_draw_a_plain_token_as_the_code_text(theme: str) -> None:
    """The premise of `lighten`, read from the installed theme: if a theme starts colouring
    names or whitespace, unwrapping them would change the page, and this fails."""
    css = _theme_css()[theme]
    assert ".highlight .n" in css, "no se encontró la hoja de estilos del tema"
    assert highlight.theme_keeps_plain(css) == []


@pytest.mark.parametrize(
    "rule",
    [
        ".highlight .n{color:#c00}",
        ".highlight .kc,.highlight .n{color:var(--md-code-hl-name-color);font-weight:700}",
        "[data-md-color-scheme=slate]{--md-code-hl-name-color:#f0f}",
        ".md-typeset .highlight .w{background:red}",
        "@media print{.highlight .n{color:#000}}",
    ],
)
def test_a_theme_that_colours_a_plain_token_is_caught(rule: str) -> None:
    css = _theme_css()["material"]
    assert highlight.theme_keeps_plain(css + rule) != []


def test_the_built_pages_code_has_no_plain_spans(built_site: Path) -> None:
    """Every Markdown page of the session's built site: its highlighted code went through
    `lighten` (notebook pages are mkdocs-jupyter's, with their own highlighting)."""
    blocks = 0
    for page in built_site.rglob("index.html"):
        text = page.read_text(encoding="utf-8")
        for block in re.findall(r'<div class="highlight"><pre>.*?</pre>', text, re.DOTALL):
            blocks += 1
            assert PLAIN_SPAN.search(block) is None, f"{page}: {block[:300]}"
    assert blocks > 0
