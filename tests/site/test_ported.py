"""What the engine keeps for authors who port a tutorial, proven on the session's built site.

The site ships no ported tutorial. The session's site adds one written by us in that style
(conftest.add_ported, tests/fixtures/portado), so that every check of the built site (each block
shows its recording, the notebooks run in Jupyter, search, the browser audit) runs on such a page
too. These tests make sure each ability is really there, on a real page, and check what only
such a page shows. They look for the abilities, not for the fixture by name.
"""

from __future__ import annotations

import ast
import json
import re

import pytest
import yaml
from bs4 import BeautifulSoup, Tag
from conftest import Built
from docverify.core import config as config_mod
from docverify.core import volatile
from docverify.core.policies import AS_WRITTEN
from docverify.parsing import frontmatter, origin
from docverify.parsing.pages import Block, Page, page_stem, read_site
from docverify.running import last_value
from docverify.site import anatomy, glossary, glossary_lint
from docverify.verifying import recordings

pytestmark = pytest.mark.slow

LONG_LOOP = 20  # lines printed by one block: a loop of prints, as tutorials have


def _article_blocks(built: Built) -> list[tuple[Page, Block]]:
    cfg = config_mod.load(built.root)
    return [(p, b) for p in read_site(cfg) if anatomy.is_article(p) for b in p.blocks]


def _recorded(built: Built, block: Block) -> str:
    recording = recordings.of_block(config_mod.load(built.root), block).get("cpu")
    assert recording is not None, block.key
    return recording.body


def _article(built: Built, page: Page) -> Tag:
    raw = (built.site / page_stem(page.rel) / "index.html").read_text(encoding="utf-8")
    article = BeautifulSoup(raw, "html.parser").find("article")
    assert article is not None, page.rel
    return article


def _cell(built: Built, page: Page, block: Block) -> dict:
    stem = page_stem(page.rel).split("/", 1)[-1]
    path = built.site / "cuadernos" / stem / f"{stem}.ipynb"
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return next(c for c in notebook["cells"] if c.get("id") == block.id)


def _tab_indented(built: Built, block: Block) -> bool:
    if block.snippet is None:
        return False
    raw = (config_mod.load(built.root).snippets_dir / block.snippet).read_text(encoding="utf-8")
    return bool(re.search(r"^\t", raw, re.MULTILINE))


def _shows_value(block: Block) -> bool:
    """Whether the block ends in a bare expression whose value Jupyter would show."""
    return block.last_value == "show" and (
        last_value.shown_expression(ast.parse(block.code), block.code) is not None
    )


def _hides_value(block: Block) -> bool:
    """A block that ends in a bare expression hidden by `;`."""
    tree = ast.parse(block.code)
    return (
        block.last_value == "show"
        and bool(tree.body)
        and isinstance(tree.body[-1], ast.Expr)
        and not _shows_value(block)
    )


def _placeholders(text: str) -> list[str]:
    return [r.placeholder for r in volatile.RULES if r.placeholder in text]


def test_the_built_site_has_each_ability_of_a_ported_tutorial(built: Built) -> None:
    """Count what was collected: each ability is on at least one article of the built site,
    so the site-wide checks do not pass for lack of such a page."""
    blocks = _article_blocks(built)
    sessions = [b.session for _, b in blocks if b.session]
    found = {
        "celda sangrada con tabuladores": [b for _, b in blocks if _tab_indented(built, b)],
        "valor cambiante (dirección)": [b for _, b in blocks if _placeholders(_recorded(built, b))],
        "expresión suelta que muestra su valor": [b for _, b in blocks if _shows_value(b)],
        "expresión suelta oculta con «;»": [b for _, b in blocks if _hides_value(b)],
        "device_policy as-written": [b for _, b in blocks if b.device_policy == AS_WRITTEN],
        "sesión compartida por varias celdas": [s for s in set(sessions) if sessions.count(s) > 1],
        f"bucle que imprime {LONG_LOOP} líneas o más": [
            b for _, b in blocks if len(_recorded(built, b).splitlines()) >= LONG_LOOP
        ],
        "código citado con origin: y comentarios que el glosario evitaría": [
            b for p, b in blocks if origin.quoted(p, b) and _avoided_in_comments(built, p, b)
        ],
        "bloque propio (own) en una página con origin:": [
            b for p, b in blocks if origin.read(p) and not origin.quoted(p, b)
        ],
    }
    missing = [ability for ability, where in found.items() if not where]
    assert not missing, f"el sitio construido no tiene ningún artículo con: {missing}"


def _avoided_in_comments(built: Built, page: Page, block: Block) -> bool:
    """Would the glossary lint flag a comment of `block` if its page had no origin:?"""
    cfg = config_mod.load(built.root)
    terms, _ = glossary.load(cfg)
    bare = Page(page.path, page.rel, frontmatter.LineDict(), "", page.body_line, [block])
    bare.meta.key_lines = {}
    return bool(terms) and bool(glossary_lint.check(cfg, [bare], terms))


def test_a_page_with_origin_shows_its_credit_linked_to_the_file_and_license(
    built: Built,
) -> None:
    """The credit is generated, never written by hand: each page with origin: shows it, with
    the file at its commit and the license linked, and its notebook names the commit too. What
    is expected is what the author wrote, read from the page's file with PyYAML, and the links
    GitHub and SPDX give (not parsing/origin.py, the code under test)."""
    pages = {p.rel: p for p, _ in _article_blocks(built) if "origin:" in p.front}
    assert pages, "el sitio construido no tiene ninguna página con origin:"
    for page in pages.values():
        front = page.path.read_text(encoding="utf-8").split("---\n", 2)[1]
        written = {key: str(value) for key, value in yaml.safe_load(front)["origin"].items()}
        file_link = written.get("url") or (
            f"https://github.com/{written['repository']}/blob/{written['commit']}/{written['path']}"
        )
        license_link = f"https://spdx.org/licenses/{written['license']}.html"
        [credit] = _article(built, page).select(".dv-origen")
        links = {a["href"] for a in credit.find_all("a")}
        assert {file_link, license_link} <= links, (page.rel, links)
        text = credit.get_text(" ", strip=True)
        short = written["commit"][:12]
        assert written["path"] in text and short in text and written["license"] in text, text
        stem = page_stem(page.rel).split("/", 1)[-1]
        notebook = (built.site / "cuadernos" / stem / f"{stem}.ipynb").read_text(encoding="utf-8")
        assert short in json.loads(notebook)["cells"][0]["source"], page.rel


def test_a_tab_indented_cell_shows_and_runs_the_same_code(built: Built) -> None:
    """The page shows the code that ran: tabs expanded as MkDocs expands them, none left."""
    tabbed = [(p, b) for p, b in _article_blocks(built) if _tab_indented(built, b)]
    assert tabbed
    for page, block in tabbed:
        assert "\t" not in block.code, block.key
        shown = [code.get_text() for code in _article(built, page).select(".highlight code")]
        assert block.code.rstrip("\n") in [s.rstrip("\n") for s in shown], block.key
        assert _cell(built, page, block)["source"] == block.code.rstrip("\n"), block.key


def test_a_volatile_value_is_recorded_as_a_marker_and_shown_as_observed(built: Built) -> None:
    """The recording keeps the marker; the page and the notebook show this build's value."""
    volatile_blocks = [
        (p, b) for p, b in _article_blocks(built) if _placeholders(_recorded(built, b))
    ]
    assert volatile_blocks
    for page, block in volatile_blocks:
        outputs = " ".join(s.get_text() for s in _article(built, page).select(".dv-output samp"))
        stream = "".join(
            o["text"] if isinstance(o["text"], str) else "".join(o["text"])
            for o in _cell(built, page, block)["outputs"]
            if o["output_type"] == "stream"
        )
        for shown in (outputs, stream):
            assert not _placeholders(shown), block.key
            assert re.search(r" at 0x[0-9a-f]+>", shown), block.key


def test_a_bare_last_expression_is_the_notebooks_execute_result(built: Built) -> None:
    """Its value closes the recording and is the cell's execute_result, as in Jupyter; a value
    hidden by `;` is neither."""
    blocks = _article_blocks(built)
    showing = [(p, b) for p, b in blocks if _shows_value(b)]
    hiding = [(p, b) for p, b in blocks if _hides_value(b)]
    assert showing and hiding
    for page, block in showing:
        outputs = _cell(built, page, block)["outputs"]
        assert outputs and outputs[-1]["output_type"] == "execute_result", block.key
        value = outputs[-1]["data"]["text/plain"]
        value = value if isinstance(value, str) else "".join(value)
        assert _recorded(built, block).rstrip("\n").endswith(value), block.key
    for page, block in hiding:
        outputs = _cell(built, page, block)["outputs"]
        assert all(o["output_type"] != "execute_result" for o in outputs), block.key
