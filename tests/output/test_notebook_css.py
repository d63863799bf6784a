"""output/notebook_css.py: JupyterLab's stylesheet cut to the rules that can match the page.

The premise (the page draws alike with the whole sheet) is checked in a browser on the built site
(tests/browser); these tests check the reading of the sheet and what is kept, on sheets written
here and on the sheet mkdocs-jupyter really inlines.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from docverify.output import notebook_css

# Enough rules under .jupyter-wrapper for `prune` to take the sheet for JupyterLab's.
FILLER = "".join(f".jupyter-wrapper .x{n}{{margin:{n}px}}" for n in range(100))
SHEET = (
    '@charset "UTF-8";'
    ".jupyter-wrapper .jp-Cell{padding:0}"
    ".jupyter-wrapper .jp-Toolbar,.jupyter-wrapper .jp-Cell>p{color:red}"
    '.jupyter-wrapper .jp-Cell:not(.jp-mod-gone) a[href$=".ipynb"]{color:blue}'
    '.jupyter-wrapper .jp-Dialog:after{content:"} .jp-Cell{"}'
    "/* .jp-Cell { */.jupyter-wrapper .bp3-menu{display:none}"
    "@media (max-width: 760px){.jupyter-wrapper .jp-Cell{margin:0}.jupyter-wrapper .lm-Menu{x:1}}"
    "@media print{.jupyter-wrapper .jp-Toolbar{display:none}}"
    "@keyframes jp-spin{0%{opacity:0}to{opacity:1}}"
    ".jupyter-wrapper :root{--jp-icon: url(data:x)}"
    ".jupyter-wrapper .widget-label,.jupyter-wrapper .md-typeset{font-size:1em}" + FILLER + "\n"
)


def page(css: str, classes: str = "jupyter-wrapper jp-Cell") -> str:
    return f'<style type="text/css">{css}</style><div class="{classes}"><p>texto</p></div>'


def kept(css: str, classes: str = "jupyter-wrapper jp-Cell") -> str:
    out = notebook_css.prune(page(css, classes))
    return out.split(">", 1)[1].split("</style>", 1)[0]


def test_only_selectors_that_need_an_absent_jupyterlab_class_go() -> None:
    out = kept(SHEET)
    assert out.startswith('@charset "UTF-8";.jupyter-wrapper .jp-Cell{padding:0}')
    assert ".jupyter-wrapper .jp-Cell>p{color:red}" in out  # kept from its selector list
    assert ".jp-Toolbar" not in out and ".lm-Menu" not in out and "bp3-menu" not in out
    assert ":not(.jp-mod-gone)" in out  # a class it must not have is not needed
    assert "jp-Dialog" not in out  # the braces inside its string did not cut it short
    assert "@media (max-width: 760px){.jupyter-wrapper .jp-Cell{margin:0}}" in out
    assert "@media print" not in out  # left with no rule
    assert "@keyframes jp-spin{0%{opacity:0}to{opacity:1}}" in out  # other at-rules stay
    assert ":root" not in out  # the root element is never below .jupyter-wrapper
    assert ".widget-label,.jupyter-wrapper .md-typeset{font-size:1em}" in out  # not JupyterLab's
    assert out.endswith(FILLER + "\n")


def test_every_class_present_keeps_the_sheet_as_written() -> None:
    every = "jupyter-wrapper jp-Cell jp-Toolbar jp-Dialog bp3-menu lm-Menu"
    expected = SHEET.replace(".jupyter-wrapper :root{--jp-icon: url(data:x)}", "")
    assert kept(SHEET, every) == expected


@pytest.mark.parametrize(
    "broken",
    [
        ".jupyter-wrapper .jp-Toolbar{color:red",
        ".jupyter-wrapper .jp-Toolbar{content:'}",
        "/* .jupyter-wrapper .jp-Toolbar{}",
    ],
)
def test_a_sheet_it_cannot_read_is_left_whole(broken: str) -> None:
    assert kept(FILLER + broken) == FILLER + broken


def test_other_stylesheets_are_untouched() -> None:
    css = ".jupyter-wrapper .jp-Toolbar{color:red}.highlight-ipynb .o{font-weight:bold}"
    assert notebook_css.prune(page(css)) == page(css)


def test_mkdocs_jupyters_sheet_is_read_to_the_end() -> None:
    """The sheet mkdocs-jupyter inlines: every rule read (with every class present, nothing but
    the selectors that never match goes), and a notebook's cells keep a fraction of it."""
    spec = importlib.util.find_spec("mkdocs_jupyter")
    assert spec is not None and spec.origin is not None
    assets = Path(spec.origin).parent / "templates" / "mkdocs_html" / "assets"
    css = (assets / "index.css").read_text(encoding="utf-8")
    statements = notebook_css._parse(css)
    needed = {c for kind, first, _ in statements if kind == "rule" for _, n in first for c in n}
    needed -= notebook_css.NEVER
    every = notebook_css._render(statements, needed)
    assert every.count("{") == css.count("{") - css.count(".jupyter-wrapper :root{")
    cells = "jupyter-wrapper jp-Cell jp-CodeCell jp-InputArea jp-InputPrompt jp-OutputArea"
    assert len(kept(css, cells)) < len(css) / 5


def _filler(n: int) -> str:
    return "".join(f".jupyter-wrapper .x{i}{{margin:{i}px}}" for i in range(n))


def test_a_hundred_rules_under_the_wrapper_make_jupyterlabs_sheet() -> None:
    gone = ".jupyter-wrapper .jp-Toolbar{color:red}"
    assert kept(_filler(99) + gone) == _filler(99)  # 100 times .jupyter-wrapper: cut
    assert kept(_filler(98) + gone) == _filler(98) + gone  # 99: someone else's, untouched


@pytest.mark.parametrize(
    ("rule", "stays"),
    [
        # A class inside a comment, an attribute test or a functional pseudo-class is not needed.
        (".jupyter-wrapper /* .jp-Gone */ .jp-Cell{a:1}", True),
        ('.jupyter-wrapper [data-x=".jp-Gone"] .jp-Cell{a:1}', True),
        (".jupyter-wrapper :is(.jp-Gone:not(.jp-Other)) .jp-Cell{a:1}", True),
        (".jupyter-wrapper .jp-Cell:is(.jp-Gone) .jp-Gone{a:1}", False),  # after it, needed
        (".jupyter-wrapper .jp-A\\:hover{a:1}", True),  # an escape: kept, not guessed
        (":root .jp-Cell{a:1}", True),  # the root first: it may match
        (".jupyter-wrapper .jp-Cell{background:url(a/b.png);width:calc(2px/2)}", True),
        (".jupyter-wrapper .jp-Cell{content:'a/*b'}", True),
        ("@media print{ }", False),  # left empty
        (".jp-Toolbar{a:1}", False),  # its first character counts too
        (".jupyter-wrapper .jp-Cell/* fin */{a:1}", True),
        (".jupyter-wrapper :not(.jp-GoneX .jp-Y) .jp-Cell{a:1}", True),
        ('.jupyter-wrapper [data-X=".jp-Y"] .jp-Cell{a:1}', True),
        (".jupyter-wrapper .jp-Cell:not(.jp-A).jp-Gone{a:1}", False),
        ('.jupyter-wrapper .jp-Cell[data-x="1"]{a:1}', True),
        (".jupyter-wrapper .jp-Cell[data-x] p{a:1}", True),
        (".jupyter-wrapper .jp-Cell{font-family:Xanh Mono}", True),
        (".jupyter-wrapper .jp-Cell{content:/* c */'}'}", True),
        ('.jupyter-wrapper .jp-Cell{content:"x"/"}"}', True),
        ("/**/.jupyter-wrapper .jp-Cell{a:1}", True),
        ("/* a *//* b */.jupyter-wrapper .jp-Cell{a:1}", True),
    ],
)
def test_which_rules_stay(rule: str, stays: bool) -> None:
    gone = ".jupyter-wrapper .jp-Toolbar{a:1}"  # a sheet read to its end loses it
    assert kept(FILLER + rule + gone) == FILLER + (rule if stays else "")


def test_a_selector_list_splits_only_at_its_own_commas() -> None:
    rule = (
        '.jupyter-wrapper :is(.jp-A, .jp-B) .jp-Cell, .jupyter-wrapper [title="a,.jp-C"] p,'
        ".jupyter-wrapper .jp-Toolbar{a:1}"
    )
    assert kept(FILLER + rule) == FILLER + rule.replace(",.jupyter-wrapper .jp-Toolbar", "")
    for first in (
        ".jupyter-wrapper .jp-Cell.X",  # a letter is neither a quote nor a bracket
        '.jupyter-wrapper [title="a)b"] .jp-Cell',  # a bracket inside a string is text
        ".jupyter-wrapper :is(:not(.jp-A), .jp-B) .jp-Cell",  # nested: its comma is inside
    ):
        rule = f"{first}, .jupyter-wrapper .jp-Toolbar{{a:1}}"
        assert kept(FILLER + rule) == FILLER + first + "{a:1}"
    listed = ".jupyter-wrapper .jp-Cell, :root{a:1}"  # `:root` alone in the list: it may match
    assert kept(FILLER + listed) == FILLER + listed


@pytest.mark.parametrize("content", ['"\\"}"', '"\\\\"', "'a\\'b'"])
def test_a_string_with_an_escape_ends_where_it_ends(content: str) -> None:
    rules = (
        f".jupyter-wrapper .jp-Toolbar:after{{content:{content}}}.jupyter-wrapper .jp-Cell{{a:1}}"
    )
    assert kept(FILLER + rules) == FILLER + ".jupyter-wrapper .jp-Cell{a:1}"


def test_text_after_the_last_rule_that_is_not_a_rule_leaves_the_sheet_whole() -> None:
    broken = FILLER + ".jupyter-wrapper .jp-Toolbar"
    assert kept(broken) == broken


def test_a_rule_stays_when_the_page_has_exactly_the_classes_it_needs() -> None:
    rule = ".jupyter-wrapper .jp-Cell.jp-mod-x{a:1}"
    assert kept(FILLER + rule, "jp-Cell jp-mod-x") == FILLER + rule


def test_a_comment_after_the_last_rule_is_kept_and_the_sheet_still_cut() -> None:
    """A sheet that ends with a comment (a source map's, a licence's) is read: the bug left
    such a sheet whole, as if it were broken."""
    sheet = FILLER + ".jupyter-wrapper .jp-Toolbar{a:1}/*# sourceMappingURL=x.css.map */\n"
    assert kept(sheet) == FILLER + "/*# sourceMappingURL=x.css.map */\n"


def test_a_comment_goes_with_the_rule_it_opens() -> None:
    sheet = "/* a */.jupyter-wrapper .jp-Toolbar{a:1}/* b */.jupyter-wrapper .jp-Cell{b:2}"
    assert kept(FILLER + sheet) == FILLER + "/* b */.jupyter-wrapper .jp-Cell{b:2}"
