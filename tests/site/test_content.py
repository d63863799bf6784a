"""Content a learner can trust, checked on the built site for every article that exists.

Every article: seed placeholders only inside their collapsed original note; expected errors
read as expected; each notebook carries every part of its article. Every article that
reproduces a seed (its title is a seed's title): seed text stays word for word and everything
else is marked as an editorial addition; each goal section shows an observed output; it draws
a verified autograd graph, ends with exercises whose collapsed solutions ran and verified, and
links the other seed articles. An article that reproduces no seed (one written from scratch)
is not held to the seed rules, so adding one never breaks these tests.
"""

from __future__ import annotations

import json
import re
from copy import copy as clone
from dataclasses import replace
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, Tag
from conftest import ROOT, Built
from docverify.core import config as config_mod
from docverify.output import curve_picture as drawing
from docverify.parsing.pages import Page, page_stem, read_site
from docverify.site import anatomy
from docverify.verifying import curve, graph, recordings
from support.reading import parsed_article

SEEDS = Path(__file__).parent / "semillas"
# What the engine generates around an article (outputs, legend, notebook box, source dates) and
# what is marked as editorial or as the seed's original: not prose to compare with the seed.
NOT_PROSE = {
    "editorial",
    "semilla",
    "dv-editorial",
    "dv-output",
    "dv-legend",
    "dv-notebook",
    "dv-verified-line",
    "dv-sources",
    "dv-graph",
    "highlight",
    "headerlink",
}
PROSE = ("p", "li", "td", "th", "h1", "h2", "h3", "summary")


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("¶", "")).strip()


def _articles() -> list[Page]:
    return [p for p in read_site(config_mod.load(ROOT)) if anatomy.is_article(p)]


def _soup(site: Path, page: Page) -> Tag:
    raw = (site / page_stem(page.rel) / "index.html").read_text(encoding="utf-8")
    article = parsed_article(raw)
    assert article is not None, page.rel
    return article


def _seed_of(page: Page) -> str | None:
    """The seed whose second line is the article's title, as one normalised string; None when
    the article reproduces no seed."""
    for path in sorted(SEEDS.glob("*.txt")):
        lines = path.read_text(encoding="utf-8").splitlines()
        if len(lines) > 1 and lines[1].strip() == page.meta["title"]:
            return _norm(" ".join(lines))
    return None


def _seed(page: Page) -> str:
    seed = _seed_of(page)
    assert seed is not None, f"{page.rel}: ninguna semilla de {SEEDS} tiene este título"
    return seed


def seed_articles(pages: list[Page]) -> list[Page]:
    """The articles among `pages` that reproduce a seed."""
    return [p for p in pages if _seed_of(p) is not None]


def _classes(element: Tag) -> set[str]:
    found: set[str] = set()
    for node in [element, *element.parents]:
        if isinstance(node, Tag):
            found.update(node.get("class") or [])
    return found


def unmarked(article: Tag, seed: str) -> list[str]:
    """Prose of the article that is neither seed text nor inside an editorial mark."""
    found = []
    for element in article.find_all(PROSE):
        if _classes(element) & NOT_PROSE:
            continue
        for link in element.find_all("a", class_="headerlink"):
            link.extract()
        text = _norm(element.get_text(" "))
        # get_text(" ") puts a space between an inline tag and the punctuation after it: the
        # seed's «después de backward;» marked up as code reads «después de backward ;». A link
        # the build adds (the glossary's, at a term's first use) splits a text node too: the
        # text read without separators is the seed's («hojas,» not «hojas ,»).
        joined = _norm(element.get_text())
        variants = (text, re.sub(r" ([.,;:])", r"\1", text), joined)
        if text and not any(v in seed for v in variants):
            found.append(text)
    return found


def _outside_seed_notes(root: Tag) -> str:
    """Text of `root` without the collapsed notes that keep a seed's original."""
    copy = clone(root)
    for details in copy.find_all("details"):
        summary = details.find("summary")
        title = summary.get_text().strip() if summary else ""
        if title.startswith("Texto original") and not details.has_attr("open"):
            details.decompose()
    return copy.get_text(" ")


def _line(panel: Tag) -> str:
    """The line under a panel's output: its mark, where and when it ran."""
    line = panel.select_one(".dv-check > summary, p.dv-check")
    return _norm(line.get_text()) if line is not None else ""


def _verified(panel: Tag) -> bool:
    text = _line(panel)
    return "✓" in text and "✗" not in text and bool(panel.find("samp"))


@pytest.fixture(scope="module")
def articles() -> list[Page]:
    found = _articles()
    assert found, "no hay artículos en docs/articulos/"
    return found


@pytest.fixture(scope="module")
def seeded(articles: list[Page]) -> list[Page]:
    """The seed articles; none at all fails, so no seed test passes on an empty list."""
    found = seed_articles(articles)
    assert found, f"ningún artículo reproduce una semilla de {SEEDS}"
    return found


def test_seed_articles_are_those_whose_title_is_a_seed_title() -> None:
    """Each seed names an article that exists, and only such articles are seed articles."""
    titles = {
        lines[1].strip()
        for path in sorted(SEEDS.glob("*.txt"))
        if len(lines := path.read_text(encoding="utf-8").splitlines()) > 1
    }
    assert titles, f"ninguna semilla en {SEEDS}"
    pages = _articles()
    found = seed_articles(pages)
    assert {p.meta["title"] for p in found} == titles
    # The mutation it catches: an article whose title is no seed's counts as a seed article.
    renamed = [replace(p, meta={**p.meta, "title": f"{p.meta['title']} (copia)"}) for p in found]
    assert seed_articles(renamed) == []


@pytest.mark.slow
def test_every_addition_is_marked_editorial(built_site: Path, seeded: list[Page]) -> None:
    for page in seeded:
        article, seed = _soup(built_site, page), _seed(page)
        assert article.select(".editorial"), f"{page.rel}: ningún añadido editorial"
        assert unmarked(article, seed) == [], f"{page.rel}: texto añadido sin marcar"
        # The mutation it catches: an editorial box that loses its mark.
        mutated = BeautifulSoup(str(article), "html.parser")
        for box in mutated.select(".editorial"):
            box["class"] = [c for c in box["class"] if c != "editorial"]
        assert unmarked(mutated, seed), f"{page.rel}: la comprobación no ve un añadido sin marca"


@pytest.mark.slow
def test_no_placeholder_outside_its_collapsed_note(built_site: Path) -> None:
    stems = [page_stem(p.rel) for p in _articles()]
    pages = [built_site / s / "index.html" for s in stems]
    pages += [built_site / "cuadernos" / s.split("/", 1)[-1] / "index.html" for s in stems]
    assert pages
    for path in pages:
        html = path.read_text(encoding="utf-8")
        body = parsed_article(html) or BeautifulSoup(html, "html.parser").body
        if body is None:
            continue
        text = _outside_seed_notes(body)
        shown = [p for p in anatomy.PLACEHOLDERS if p in text]
        assert not shown, f"{path.relative_to(built_site)}: texto de plantilla visible: {shown}"
    # The mutation it catches: the original note shown open.
    article = _soup(built_site, _articles()[0])
    opened = BeautifulSoup(str(article), "html.parser")
    for details in opened.find_all("details"):
        details["open"] = ""
    if any(p in article.get_text() for p in anatomy.PLACEHOLDERS):
        assert any(p in _outside_seed_notes(opened) for p in anatomy.PLACEHOLDERS)


def _sections(article: Tag) -> dict[str, list[Tag]]:
    """Each H2's text and the elements up to the next H2."""
    sections: dict[str, list[Tag]] = {}
    current: list[Tag] | None = None
    for element in article.find_all(True, recursive=False):
        if element.name == "h2":
            for link in element.find_all("a", class_="headerlink"):
                link.extract()
            current = sections.setdefault(_norm(element.get_text()), [])
        elif current is not None:
            current.append(element)
    return sections


@pytest.mark.slow
def test_each_goal_section_shows_an_observed_output(built_site: Path, seeded: list[Page]) -> None:
    """«Observar la acumulación» and every other section named in the goals."""
    for page in seeded:
        sections = _sections(_soup(built_site, page))
        for goal in page.meta["goals"]:
            assert goal in sections, f"{page.rel}: no hay sección «{goal}»"
            panels = [p for e in sections[goal] for p in e.select(".dv-output")]
            assert any(_verified(p) for p in panels), f"{page.rel}: «{goal}» sin salida observada"


@pytest.mark.slow
def test_each_article_draws_a_verified_graph(built_site: Path, seeded: list[Page]) -> None:
    for page in seeded:
        figures = _soup(built_site, page).select("figure.dv-graph")
        assert figures, f"{page.rel}: ningún grafo dibujado"
        for figure in figures:
            svg = figure.find("svg")
            assert svg is not None and svg.get("role") == "img", page.rel
            assert svg.find("title").get_text().strip(), f"{page.rel}: grafo sin <title>"
            assert svg.find("desc").get_text().strip(), f"{page.rel}: grafo sin <desc>"
            assert not figure.find("script"), page.rel
            panel = figure.find_previous(class_="dv-output")
            assert panel is not None and _verified(panel), f"{page.rel}: grafo sin salida ✓"
            drawn = graph.parse(panel.find("samp").get_text())
            labels = [t.get_text() for t in svg.find_all("text")]
            assert labels == list(drawn.labels), f"{page.rel}: el dibujo no es la salida"


@pytest.mark.slow
def test_every_curve_is_drawn_from_its_recording(built: Built) -> None:
    """Under each `curve=` block of any page, the chart's line is the recording's numbers, drawn
    by the engine (change the recording and the picture changes)."""
    cfg = config_mod.load(built.root)
    pages = [p for p in read_site(cfg) if any(b.options.get(curve.OPTION) for b in p.blocks)]
    for page in pages:
        figures = _soup(built.site, page).select("figure.dv-curve")
        blocks = [b for b in page.blocks if b.options.get(curve.OPTION)]
        assert len(figures) == len(blocks), f"{page.rel}: {len(figures)} curvas, {len(blocks)}"
        for block, figure in zip(blocks, figures, strict=True):
            body = recordings.of_block(cfg, block).get("cpu").body.strip()
            svg = drawing.svg(curve.parse(body), "", "")
            expected = re.search(r'class="dv-curve-line"[^>]* points="([^"]*)"', svg).group(1)
            assert figure.select_one("polyline.dv-curve-line")["points"] == expected, block.key


@pytest.mark.slow
def test_every_recorded_loss_curve_goes_down(built: Built) -> None:
    """A curve whose values are a loss («pérdida», as its output names them) ends lower than it
    starts in its recording: the training it shows learns (a loop that diverges fails here)."""
    cfg = config_mod.load(built.root)
    for page in read_site(cfg):
        for block in (b for b in page.blocks if b.options.get(curve.OPTION)):
            drawn = curve.parse(recordings.of_block(cfg, block).get("cpu").body)
            if "pérdida" not in drawn.y_label.lower():
                continue
            first, last = drawn.points[0][1], drawn.points[-1][1]
            assert last < first, f"{block.key}: la pérdida pasa de {first} a {last}"


@pytest.mark.slow
def test_every_article_that_calls_backward_draws_its_graph(
    built: Built, articles: list[Page]
) -> None:
    """Each of the site's articles whose code runs the retropropagation shows a verified graph
    of it (the ported-style fixture the tests add keeps a tutorial's code as it is: not ours)."""
    for page in articles:
        if any(".backward(" in b.code for b in page.blocks):
            assert any(b.options.get(graph.OPTION) for b in page.blocks), page.rel
            assert _soup(built.site, page).select("figure.dv-graph"), page.rel


@pytest.mark.slow
def test_each_article_has_an_exercise_with_a_verified_solution(
    built_site: Path, seeded: list[Page]
) -> None:
    for page in seeded:
        solutions = [
            d
            for d in _soup(built_site, page).find_all("details")
            if d.find("summary") and d.find("summary").get_text().strip() == "Solución"
        ]
        good = [
            d
            for d in solutions
            if not d.has_attr("open")
            and any(_verified(p) and "torch" in _line(p) for p in d.select(".dv-output"))
        ]
        assert good, f"{page.rel}: ningún ejercicio con solución plegada, ejecutada y verificada"


@pytest.mark.slow
def test_notebooks_hold_every_article_part(built_site: Path, articles: list[Page]) -> None:
    for page in articles:
        stem = page_stem(page.rel).split("/", 1)[-1]
        path = built_site / "cuadernos" / stem / f"{stem}.ipynb"
        notebook = json.loads(path.read_text(encoding="utf-8"))
        html_page = built_site / "cuadernos" / stem / "index.html"
        shown = parsed_article(html_page.read_text(encoding="utf-8"))
        assert shown is not None, html_page
        text = _norm(shown.get_text(" "))
        # get_text(" ") also puts a space between inline code and the punctuation after it.
        text += " " + re.sub(r" ([.,;:])", r"\1", text)
        meta = page.meta
        parts = [meta["title"], meta["description"], meta["approach"]]
        parts += [*meta["goals"], *meta["prerequisites"], *meta["takeaways"]]
        parts += [str(item[k]) for item in meta["faq"] for k in ("question", "answer")]
        parts += [str(source["reference"]) for source in meta["sources"]]
        # A heading's inline code (`DataLoader`) reads as its text once rendered.
        parts += [
            re.sub(r"\s*\{[^}]*\}$", "", title).replace("`", "")
            for title, _ in anatomy.headings(page)
        ]
        missing = [part for part in parts if _norm(str(part)) not in text]
        assert not missing, f"{path.name}: faltan partes del artículo: {missing}"
        assert "raises-exception" not in text, f"{path.name}: etiqueta de celda visible"
        assert not re.search(r"In\s*\[\s*\]", text), f"{path.name}: celdas sin número"
        code = [c for c in notebook["cells"] if c["cell_type"] == "code"]
        assert all(isinstance(c["execution_count"], int) for c in code if c["outputs"])


@pytest.mark.slow
def test_expected_errors_read_as_expected(built_site: Path, articles: list[Page]) -> None:
    """A block that must raise says «Error esperado ✓», never a bare «CPU ✓» over the error."""
    for page in articles:
        titles = [_line(p) for p in _soup(built_site, page).select(".dv-output")]
        raising = sum(1 for b in page.blocks if b.options.get("raises"))
        shown = sum(1 for t in titles if "CPU: Error esperado ✓" in t)
        assert shown == raising, f"{page.rel}: {shown} «Error esperado ✓» para {raising} bloques"


@pytest.mark.slow
def test_home_shows_the_path_in_navigation_order(built: Built) -> None:
    """The home page's cards are the reading path: numbered in the navigation's order, each
    with what its article assumes (its prerequisites) before what it teaches."""
    built_site = built.site
    soup = BeautifulSoup((built_site / "index.html").read_text(encoding="utf-8"), "html.parser")
    cards = soup.select("article .grid.cards > ul > li")
    listed = [card.find("a")["href"] for card in cards]
    nav = [
        a["href"] for a in soup.select("nav.md-nav--primary a.md-nav__link") if a["href"] in listed
    ]
    assert listed and listed == list(dict.fromkeys(nav)), (listed, nav)
    places = [_norm(card.find("strong").get_text()).split(" · ")[0] for card in cards]
    assert places == [f"{n} de {len(cards)}" for n in range(1, len(cards) + 1)], places
    meta = {
        f"{page_stem(p.rel)}/": p.meta
        for p in read_site(config_mod.load(built.root))
        if anatomy.is_article(p)
    }
    for card, href in zip(cards, listed, strict=True):
        text = _norm(card.get_text(" "))
        article = meta[href]
        # A seed article's card shows our lists for a learner, marked as ours, not its seed's.
        editorial = bool(article.get("editorial_prerequisites"))
        key = "editorial_prerequisites" if editorial else "prerequisites"
        # As read: without Markdown's code and emphasis marks, a link as its text.
        needs = [
            _norm(re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", str(n)).replace("`", "").replace("*", ""))
            for n in article.get(key) or []
        ]
        # get_text(" ") also puts a space between inline code and the punctuation after it.
        joined = re.sub(r" ([,;:])", r"\1", text)
        assert all(n in text or n in joined for n in needs), (href, needs, text)
        if needs:
            first = "Necesitas antes (añadido editorial)" if editorial else "Antes de empezar"
            then = "Al terminar sabrás" if article.get("editorial_goals") else "Qué aprenderás"
            assert text.index(first) < text.index(then), text
        assert re.search(r" · \d+ min ", text), f"{href}: sin tiempo de lectura"


@pytest.mark.slow
def test_home_reaches_the_articles_within_150_words(built: Built) -> None:
    """A new reader meets the first link to an article before the 151st word of the home
    page's text (code excluded)."""
    soup = BeautifulSoup((built.site / "index.html").read_text(encoding="utf-8"), "html.parser")
    assert words_before_first_article(soup.find("article")) <= 150
    # The mutation it catches: the home page's old opening, ~400 words before the cards.
    padded = BeautifulSoup(str(soup.find("article")), "html.parser")
    padded.find("h1").insert_after(padded.new_tag("p", string="palabra " * 151))
    assert words_before_first_article(padded) > 150


def words_before_first_article(article: Tag) -> int:
    """The words of `article`'s text, outside code, before its first link to an article."""
    copy = BeautifulSoup(str(article), "html.parser")
    for code in copy.find_all(["pre", "code"]):
        code.decompose()
    first = next(a for a in copy.find_all("a") if "articulos/" in a.get("href", ""))
    marker = "\u2063ENLACE\u2063"
    first.insert_before(marker)
    text = copy.get_text(" ").replace("¶", "")
    return len(text[: text.index(marker)].split())


@pytest.mark.slow
def test_articles_link_each_other_and_no_english_footer(
    built_site: Path, seeded: list[Page]
) -> None:
    """Each seed article links every other seed article."""
    for page in seeded:
        article = _soup(built_site, page)
        others = [page_stem(p.rel).split("/", 1)[-1] for p in seeded if p is not page]
        hrefs = [a.get("href", "") for a in article.find_all("a")]
        for other in others:
            assert any(other in h for h in hrefs), f"{page.rel}: no enlaza «{other}»"
    for path in built_site.rglob("*.html"):
        assert "Made with" not in path.read_text(encoding="utf-8"), path
