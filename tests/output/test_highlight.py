"""Highlighted code with fewer elements: the same characters, fewer spans. That the unwrapped
tokens look like the code around them is checked in a browser (tests/browser)."""

from __future__ import annotations

import html
import re
from collections import Counter
from pathlib import Path

import markdown
from docverify.output import highlight

CODE = re.compile(r"<code\b[^>]*>(.*?)</code>", re.DOTALL)
SPAN = re.compile(r'<span class="([\w-]+)">')
PLAIN_SPAN = re.compile(r'<span class="(?:' + "|".join(highlight.PLAIN) + r')">')
PYTHON = """\
import torch
from torch import nn

x = torch.ones(2, 3, requires_grad=True)  # un comentario
y = (x * 2).sum()
y.backward()
print(f"{x.grad=}", nn.Linear(3, 1).weight.shape)
"""


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


# The tokens the module says are drawn in the code's own colour: names, None/True/False,
# operators, operator words, punctuation, whitespace. Written here, not read from the module.
DRAWN_AS_CODE = {"n", "kc", "o", "ow", "p", "w"}
MORE = (
    "def primero(xs):\n    for x in xs:\n        if x is not None and not x:\n"
    "            return x\n"
)


def test_only_the_tokens_drawn_as_code_lose_their_span() -> None:
    """Each of the six loses every span; every other token (keywords, strings, numbers,
    comments, builtins) keeps each of its spans, and so its colour."""
    before = Counter(SPAN.findall(rendered(PYTHON + MORE)))
    after = Counter(SPAN.findall(highlight.lighten(rendered(PYTHON + MORE))))
    assert set(before) >= DRAWN_AS_CODE | {"k", "kn", "mi", "s2", "c1", "nb"}, before
    assert after == Counter({c: n for c, n in before.items() if c not in DRAWN_AS_CODE})


def test_lighten_touches_nothing_between_two_code_elements() -> None:
    prose = '<p>Un <span class="n">nombre</span> y <span class="w"> </span>en prosa.</p>'
    code = rendered(PYTHON)
    assert prose in highlight.lighten(code + prose + code)


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


def test_a_notebook_cell_loses_names_whitespace_and_punctuation_only() -> None:
    """In a code cell of a notebook page (mkdocs-jupyter's `.highlight-ipynb`), names,
    whitespace and punctuation lose their spans; operators and None/True/False keep theirs (its
    sheet draws them in bold), and so does everything outside a cell."""
    spans = (
        '<span class="n">y</span><span class="w"> </span><span class="o">=</span>'
        '<span class="nb">len</span><span class="p">(</span><span class="kc">None</span>'
        '<span class="p">)</span>'
    )
    cell = f'<div class="highlight-ipynb hl-python">\n<pre><span></span>{spans}\n</pre></div>'
    outside = f"<p>{spans}</p><pre>{spans}</pre>"
    kept = 'y <span class="o">=</span><span class="nb">len</span>(<span class="kc">None</span>)'
    expected = f'<div class="highlight-ipynb hl-python">\n<pre><span></span>{kept}\n</pre></div>'
    assert highlight.lighten_notebook(outside + cell) == outside + expected
    assert highlight.lighten_notebook(outside) == outside
