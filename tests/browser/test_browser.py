"""The built site in a real browser (Debian's Chromium): privacy, accessibility, search, layout.

The site is the session's build (conftest `built`): MkDocs's, or with `--generador=zensical` the
same sources built by `docverify zensical build` (its CI job, docs-dev/zensical.md). Where the two
themes differ (the search dialog, the notebook page), each test says what it looks for on each.
"""

from __future__ import annotations

import contextlib
import importlib.util
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from conftest import NEW_SLUG, ROOT, Built, docverify, site_build
from docverify.core import config as config_mod
from docverify.core.files import write_atomic
from docverify.output import highlight, notebook_css
from docverify.parsing.pages import Page, read_site
from docverify.site import anatomy, navigation, scaffold
from docverify.verifying import recordings
from support import browser as bs

# Each pytest-xdist worker that runs tests of this module starts its own browser and server;
# the page audit is split into shards so that both workers share it.
pytestmark = pytest.mark.slow
SHARDS = 4

# The article that `docverify new` added to the session's build (conftest): the tests that look
# at one article look at it, so they hold whatever the site's own articles say.
ARTICLE = f"articulos/{NEW_SLUG}/"
NOTEBOOK = f"cuadernos/{NEW_SLUG}/"
# Where mkdocs-jupyter keeps the stylesheet it inlines in every notebook page.
MKDOCS_JUPYTER_ASSETS = (
    Path(str(importlib.util.find_spec("mkdocs_jupyter").origin)).parent  # type: ignore[union-attr]
    / "templates"
    / "mkdocs_html"
    / "assets"
)
GPU_ENV = {"torch": "2.13.0+cu130", "python": "3.11.7", "device": "NVIDIA H200"}
GPU_OUTPUT = "CUDA disponible: True\nGPU: NVIDIA H200"


def articles(root: Path) -> list[Page]:
    return [p for p in read_site(config_mod.load(root)) if anatomy.is_article(p)]


def article_url(page: Page) -> str:
    return page.rel.removesuffix(".md") + "/"


@pytest.fixture(scope="module")
def playwright_browser() -> Iterator[Any]:
    """Headless Chromium for the module; skipped outside CI when Debian's chromium is missing."""
    reason = bs.chromium_missing_reason()
    if reason:
        if bs.in_ci():
            pytest.fail(f"CI=true y {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - only when Chromium exists

    with sync_playwright() as playwright:
        browser = bs.launch(playwright)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def axe() -> Path:
    """axe-core, installed (tests/node): `bs.serve` answers it to the pages, `bs.run_axe`."""
    return bs.axe_script()


@pytest.fixture(scope="module")
def site_url(built_site: Path) -> Iterator[str]:
    with bs.serve(built_site) as base:
        yield base


@pytest.fixture(scope="module")
def tabs_site(tmp_path_factory: pytest.TempPathFactory, small: Path, generator: str) -> Path:
    """A copy of the one-article site (conftest `small`) where the new article's block has a GPU
    recording with another output (written here, as a fixture; never committed), built: its
    page shows runner tabs."""
    root = Path(shutil.copytree(small, tmp_path_factory.mktemp("tabs") / "src"))
    cfg = config_mod.load(root)
    page = next(p for p in read_site(cfg) if f"{p.rel.removesuffix('.md')}/" == ARTICLE)
    block = next(b for b in page.blocks if b.runs_on("gpu"))
    recording = recordings.render(block, "gpu", GPU_ENV, "2026-01-01", GPU_OUTPUT)
    write_atomic(recordings.path_for(cfg, block, "gpu"), recording)
    result, site = site_build(generator, root, root.parent)
    assert result.returncode == 0, result.stderr
    return site


@pytest.fixture(scope="module")
def tabs_site_url(tabs_site: Path) -> Iterator[str]:
    with bs.serve(tabs_site) as base:
        yield base


def _pages(built_site: Path) -> list[str]:
    pages = bs.site_pages(built_site)
    assert {"", "404.html", ARTICLE} <= set(pages), pages
    assert any(p.startswith("cuadernos/") for p in pages), "no hay páginas de cuadernos"
    return pages


TWO_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
NARROW_WIDTHS = """() => ({
    page: document.documentElement.scrollWidth, view: window.innerWidth,
    others: [...document.querySelectorAll("body *")].filter(e =>
        e.scrollWidth > e.clientWidth + 1 &&
        ["auto", "scroll"].includes(getComputedStyle(e).overflowX) &&
        e.checkVisibility({opacityProperty: true, visibilityProperty: true}) &&
        !e.closest("pre, .highlight, .highlight-ipynb, .dv-graph-scroll"))
      .map(e => e.tagName.toLowerCase() + "." + [...e.classList].join(".")),
})"""


PALETTE = "[data-md-component=palette]"
# The document as the palette toggle may leave it: without the toggle, the body's colour
# attributes (data-md-color-*) and the color-scheme meta tag (which tells the browser the
# scheme of its own controls), what must not change between the two schemes.
STRUCTURE = """(palette) => {
    const copy = document.documentElement.cloneNode(true);
    copy.querySelector(palette)?.remove();
    copy.querySelector("meta[name=color-scheme]")?.remove();
    const colours = ["scheme", "primary", "accent", "media", "switching"]
        .map(n => `data-md-color-${n}`);  // -switching: set while the theme swaps colours
    for (const name of colours) copy.querySelector("body").removeAttribute(name);
    return copy.outerHTML;
}"""


def first_change(before: str, after: str) -> str:
    """Where two serialised documents first differ: a few words of each."""
    shorter = min(len(before), len(after))
    at = next((i for i in range(shorter) if before[i] != after[i]), shorter)
    start = max(0, at - 60)
    return f"antes «…{before[start : at + 60]}…», después «…{after[start : at + 60]}…»"


def dark(page: Any) -> list[dict[str, Any]]:
    """axe-core after the palette toggle: the toggle changes the page's colours and which of
    its own labels shows, nothing else (docs/stylesheets/docverify.css, Material's palette).
    So every rule that looks at colours runs on the whole page, and every rule on the toggle;
    the others saw that same document in the light scheme, as the audit checks (STRUCTURE)."""
    return bs.run_axe(page, rules=bs.COLOUR_RULES) + bs.run_axe(page, within=PALETTE)


def both_schemes(page: Any, where: str) -> list[str]:
    """The page opens in the light scheme and passes axe-core; the palette toggle then leaves
    it in the dark scheme, changing nothing but colours, and it passes axe-core again (`dark`).
    One line per problem.

    When the document changed between the two looks, it may have changed on its own (Material's
    search finishing its start-up after the load): once more from the light scheme, the page as
    it is now, with axe-core in it again. A change the toggle makes, it makes again; one it made
    only the first time has had the light pass and gets the dark one."""
    problems = []
    shown = page.get_attribute("body", "data-md-color-scheme")
    if shown != "default":
        problems.append(f"{where}: la página abrió con el esquema {shown!r}, no «default»")
    toggle = f"{PALETTE} label:not([hidden])"
    light = bs.run_axe(page)
    before = page.evaluate(STRUCTURE, PALETTE)
    page.click(toggle)
    if (after := page.evaluate(STRUCTURE, PALETTE)) != before:
        page.click(toggle)
        light = bs.run_axe(page)
        before = page.evaluate(STRUCTURE, PALETTE)
        page.click(toggle)
        after = page.evaluate(STRUCTURE, PALETTE)
    if light:
        problems.append(f"{where}: axe-core (light):\n{bs.describe_violations(light)}")
    shown = page.get_attribute("body", "data-md-color-scheme")
    if shown != "slate":
        problems.append(f"{where}: el conmutador dejó el esquema {shown!r}, no «slate»")
    if after != before:
        problems.append(
            f"{where}: el conmutador de esquema cambió algo más que los colores "
            f"({first_change(before, after)}): la auditoría del esquema oscuro (dark) ya no basta"
        )
    if violations := dark(page):
        problems.append(f"{where}: axe-core (dark):\n{bs.describe_violations(violations)}")
    return problems


@contextlib.contextmanager
def auditor(browser: Any, site: Path) -> Iterator[Callable[[str], list[str]]]:
    """Everything checked on every page of the built `site`, from one load: the document's
    language, axe-core in the light scheme and, after the palette toggle, in the dark one, the
    layout at 375 px, then console errors and requests to other hosts, from the load to the end
    of the page's audit. Yields `audit(url)`, one line per problem.

    The pages audited share one browser context, as a reader moving between pages: starting a
    renderer for every page cost more than the audit itself, and the browser's cache keeps what
    the pages share (the theme's scripts and styles, axe-core) compiled. Each page starts from
    nothing the previous one left: its own request and console logs, the desktop viewport, and
    empty storage, so the light scheme that a reader who never toggled sees (every request is
    logged, even one served from the cache). The site's search index is served in full once
    (`bs.serve`, search_index_once): indexing the whole site again on every page would cost a
    second each (the search itself: test_search_in_spanish_finds_each_article_by_its_title)."""
    with bs.serve(site, search_index_once=True) as base:
        context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="light")
        log = bs.RequestLog(context)
        page = context.new_page()
        errors: list[str] = []
        page.on(
            "console",
            lambda message: errors.append(message.text) if message.type == "error" else None,
        )

        def audit(url: str) -> list[str]:
            where = url or "/"
            problems: list[str] = []
            if page.url.startswith(base):
                page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
            page.set_viewport_size({"width": 1280, "height": 900})
            log.urls.clear()
            errors.clear()
            page.goto(base + url, wait_until="load")
            lang = page.evaluate("() => document.documentElement.lang")
            if lang != "es":
                problems.append(f"{where}: lang={lang!r}, se esperaba «es»")
            problems += both_schemes(page, where)
            page.set_viewport_size({"width": 375, "height": 812})
            # Two frames: whatever the page does on a resize has run before it is measured.
            page.evaluate(TWO_FRAMES)
            widths = page.evaluate(NARROW_WIDTHS)
            if widths["page"] > widths["view"]:
                problems.append(
                    f"{where}: la página mide {widths['page']} px de ancho en una pantalla de "
                    f"{widths['view']} px"
                )
            if widths["others"]:
                problems.append(
                    f"{where}: a 375 px se desplazan en horizontal elementos que no son código: "
                    f"{widths['others'][:5]}"
                )
            # What the page asked for since it started loading, late requests included (the
            # search scripts, the favicon, whatever a script fetches while the page is read).
            log.settle(page)
            if len(log.urls) < 3:
                problems.append(f"{where}: el registro de peticiones no vio CSS ni JS")
            if foreign := log.foreign(base):
                problems.append(f"{where}: peticiones a otros hosts: {foreign}")
            if errors:
                problems.append(f"{where}: errores en la consola: {errors}")
            if problems:
                path = bs.screenshot(page, f"auditoria-{url or 'inicio'}")
                problems.append(f"{where}: captura de pantalla en {path}")
            return problems

        try:
            yield audit
        finally:
            context.close()


def page_problems(browser: Any, site: Path, url: str) -> list[str]:
    """The audit of one page of the built `site` (see `auditor`)."""
    with auditor(browser, site) as audit:
        return audit(url)


@pytest.fixture(scope="module")
def site_audit(
    playwright_browser: Any, built_site: Path, axe: Path
) -> Iterator[Callable[[str], list[str]]]:
    """The audit of the built site's pages (`auditor`), one per worker: the shards a worker
    runs share its server, browser context and cache, and the site's search index is indexed
    in full once per worker, not once per shard."""
    with auditor(playwright_browser, built_site) as audit:
        yield audit


@pytest.mark.parametrize("shard", range(SHARDS))
def test_every_page_passes_the_browser_audit(
    site_audit: Callable[[str], list[str]], built_site: Path, shard: int
) -> None:
    """Each built page (this shard's share of them, in file order): nothing requested from
    another host, no console error, lang="es", no axe-core violation in the light and the dark
    scheme, and at 375 px only code scrolls sideways."""
    problems = []
    for url in _pages(built_site)[shard::SHARDS]:
        problems += site_audit(url)
    assert not problems, "Auditoría del navegador:\n" + "\n".join(problems)


# A site larger than the real one: conftest `small` and twice as many articles as the real site
# has, made and recorded as an author makes them (`docverify new`, `docverify record`). Two by two
# they share a title (two ports of one tutorial), every third nests its headings (a «###» under a
# «##») and has two blocks more (one only for the CPU, one with the code's own devices); the
# navigation lists them in the reverse of their names' order.
NESTED = "### Una prueba más\n\nUn apartado dentro de la idea principal.\n\n"
MORE_BLOCKS = (
    '```python exec="on" id="solo-cpu" runner="cpu" reason="Solo muestra la CPU."\n'
    "print(2 + 2)  # Expectativa: 4\n```\n\n"
    '```python exec="on" id="propios" device_policy="as-written"\n'
    "import torch\nprint(torch.ones(2).sum())  # Expectativa: 2\n```\n\n"
)
COMMON_TITLE = "Un artículo de prueba"
COMMON_TITLE_SLUG = "articulo-de-prueba"
# Material's search completes each word typed («un» finds «unidades»): this title shares only that
# with COMMON_TITLE, whose «prueba» is common (NESTED's heading), so it ranked above COMMON_TITLE
# when «artículo» was typed without its accent and weighed as a word of the text.
RIVAL_TITLE = "Unidades de medida"


# The two tests of `large_site` run on one pytest-xdist worker, which builds it once (~14 s: two
# dozen articles recorded and built); split, each worker built it.
LARGE_SITE = pytest.mark.xdist_group("large-site")


@pytest.fixture(scope="module")
def large_site(
    tmp_path_factory: pytest.TempPathFactory, small: Path, generator: str
) -> tuple[Path, Path]:
    """Its sources and its built site."""
    root = Path(shutil.copytree(small, tmp_path_factory.mktemp("grande") / "src"))
    count = 2 * len(articles(ROOT))
    for n in range(count):
        slug = f"grande-{count - n:02d}"
        done = docverify(root, "new", slug, f"Un tutorial portado, parte {n // 2 + 1}")
        assert done.returncode == 0, done.stdout + done.stderr
        if n % 3 == 0:
            path = root / "docs" / anatomy.ARTICLES_DIR / f"{slug}.md"
            text = path.read_text(encoding="utf-8")
            first, rest = text.split(f"\n## {anatomy.BODY_SECTIONS[0]}", 1)
            path.write_text(
                f"{first}\n{NESTED}{MORE_BLOCKS}## {anatomy.BODY_SECTIONS[0]}{rest}", "utf-8"
            )
    # An article whose title's distinctive word has an accent, and another whose title shares
    # only the beginning of a word of it (`test_search_finds_a_title_typed_without_its_accents`).
    for slug, title in ((COMMON_TITLE_SLUG, COMMON_TITLE), ("unidades", RIVAL_TITLE)):
        done = docverify(root, "new", slug, title)
        assert done.returncode == 0, done.stdout + done.stderr
    done = docverify(root, "record", "--runner", "cpu")
    assert done.returncode == 0, done.stdout + done.stderr
    result, site = site_build(generator, root, root.parent)
    assert result.returncode == 0, result.stderr
    return root, site


@LARGE_SITE
@pytest.mark.usefixtures("axe")
def test_the_report_of_a_larger_site_passes_the_audit(
    playwright_browser: Any, large_site: tuple[Path, Path]
) -> None:
    """The verification page of a site with more articles than the real one (`large_site`),
    some with the same title, some with nested headings: the whole audit (axe-core in both
    schemes, 375 px, nothing from other hosts), also of the home page that lists them all, and
    its pages in the navigation's order."""
    root, site = large_site
    nav = navigation.of_project(config_mod.load(root))
    assert nav is not None
    listed = [entry.target.removesuffix(".md") for entry in nav.entries]
    report = (site / "verificacion" / "index.html").read_text(encoding="utf-8")
    shown = re.findall(r'<h2 id="[^"]*"><a href="\.\./([^"]+)/"', report)
    assert len([rel for rel in shown if rel.startswith(anatomy.ARTICLES_DIR)]) > len(
        articles(ROOT)
    ), shown
    assert shown == sorted(shown, key=listed.index)
    with auditor(playwright_browser, site) as audit:
        assert audit("verificacion/") + audit("") == []


@pytest.mark.usefixtures("axe")
def test_tabs_page_is_accessible_and_keyboard_reaches_everything(
    playwright_browser: Any, tabs_site: Path, tabs_site_url: str
) -> None:
    """Search, the CPU/GPU tabs and the notebook download are reached with Tab alone."""
    url = ARTICLE
    problems = page_problems(playwright_browser, tabs_site, url)
    assert not problems, "\n".join(problems)
    page = playwright_browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(tabs_site_url + url, wait_until="load")
        labels = page.locator(".dv-output .tabbed-labels label").all_inner_texts()
        if labels != ["CPU", "GPU"]:
            bs.fail(page, "pestanas", f"se esperaban pestañas CPU y GPU, hay {labels}")
        reached = set()
        for _ in range(150):
            page.keyboard.press("Tab")
            reached.add(
                page.evaluate("""() => {
                const e = document.activeElement;
                if (e.matches(".md-search__input, .md-search__button")) return "búsqueda";
                if (e.closest(".dv-output .tabbed-set")) return "pestañas";
                if (e.matches("a[download][href$='.ipynb']")) return "descarga";
                return "";
            }""")
            )
            if {"búsqueda", "pestañas", "descarga"} <= reached:
                break
        missing = {"búsqueda", "pestañas", "descarga"} - reached
        if missing:
            bs.fail(page, "teclado", f"el teclado (Tab) no llega a: {sorted(missing)}")
        # From the keyboard, the GPU tab shows the GPU output.
        page.focus(".dv-output .tabbed-set input")
        page.keyboard.press("ArrowRight")
        shown = page.locator(".dv-output .tabbed-block:visible").inner_text()
        if "GPU: NVIDIA H200" not in shown:
            bs.fail(page, "pestana-gpu", f"la flecha derecha no muestra la salida GPU: {shown!r}")
        # Enter on the focused download link downloads the notebook.
        with page.expect_download() as download:
            page.focus("a[download][href$='.ipynb']")
            page.keyboard.press("Enter")
        assert download.value.suggested_filename == f"{NEW_SLUG}.ipynb"
    finally:
        page.close()


def test_search_in_spanish_finds_each_article_by_its_title(
    playwright_browser: Any, built: Built, site_url: str
) -> None:
    """Each article's title, typed as written and without accents, finds it first."""
    queries = {
        query: article_url(page)
        for page in articles(built.root)
        for query in {str(page.meta["title"]), bs.unaccented(str(page.meta["title"]))}
    }
    assert queries
    page = playwright_browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(site_url, wait_until="load")
        for query, article in sorted(queries.items()):
            href = urlsplit(SEARCH[built.generator](page, query) or "").path
            if href != urlsplit(site_url + article).path:
                bs.fail(
                    page,
                    "busqueda",
                    f"«{query}»: el primer resultado es {href}, se esperaba {article}",
                )
    finally:
        page.close()


@LARGE_SITE
def test_search_finds_a_title_typed_without_its_accents(
    playwright_browser: Any, large_site: tuple[Path, Path], generator: str
) -> None:
    """«Un artículo de prueba» typed without its accent finds that article first, as typed with
    it, not «Unidades de medida»: a title's unaccented words weigh what its words do."""
    root, site = large_site
    page = playwright_browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        with bs.serve(site) as base:
            page.goto(base, wait_until="load")
            for query in (COMMON_TITLE, bs.unaccented(COMMON_TITLE)):
                href = urlsplit(SEARCH[generator](page, query) or "").path
                expected = urlsplit(f"{base}{anatomy.ARTICLES_DIR}{COMMON_TITLE_SLUG}/").path
                assert href == expected, (query, href, root)
    finally:
        page.close()


def _first_result(page: Any, query: str, box: str, result: str, none_shown: str) -> str | None:
    """Type `query` in the search box `box` (emptied first, and the previous results gone:
    `none_shown` is true) and return the link of the first result (`result`)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: PLC0415

    page.locator(box).fill("")
    page.wait_for_function(none_shown, timeout=10_000)
    page.locator(box).fill(query)
    # A key released (End): Material searches on keyup, whatever the title's last character is.
    page.locator(box).press("End")
    first = page.locator(result).first
    try:
        first.wait_for(timeout=10_000)
    except PlaywrightTimeout:
        bs.fail(page, "busqueda", f"«{query}»: la búsqueda no dio resultados")
    return first.get_attribute("href")


def _search_material(page: Any, query: str) -> str | None:
    page.click(".md-search__input")
    none_shown = "() => !document.querySelector('.md-search-result__item')"
    return _first_result(
        page, query, ".md-search__input", ".md-search-result__item > a", none_shown
    )


def _search_zensical(page: Any, query: str) -> str | None:
    """Zensical's dialog lives in a shadow root (Playwright's locators reach into it); its
    results are the options of a listbox."""
    box = "input[aria-controls]"
    if not page.locator(box).is_visible():  # the header's button, or its icon on a phone
        page.locator(".md-search__button, label.md-header__button[for=__search]").locator(
            "visible=true"
        ).first.click()
        page.locator(box).wait_for(state="visible")
    return _first_result(page, query, box, "a[role=option]", ZENSICAL_NO_RESULTS)


ZENSICAL_NO_RESULTS = """() => {
    const host = [...document.querySelectorAll("*")].find(e => e.shadowRoot);
    return !host || !host.shadowRoot.querySelector("a[role=option]");
}"""
SEARCH = {"mkdocs": _search_material, "zensical": _search_zensical}


@pytest.mark.usefixtures("axe")
def test_zensical_search_dialog_is_spanish_and_accessible_with_results(
    playwright_browser: Any, built: Built, site_url: str
) -> None:
    """Zensical's search dialog (patched at build: docverify/zensical/patches.py) at 375 px:
    its texts in Spanish, a word typed without its accent finds the accented one, and axe-core
    finds nothing with the results open, in the light and the dark scheme."""
    if built.generator != "zensical":
        pytest.skip("el diálogo de búsqueda de Zensical (--generador=zensical)")
    title = str(articles(built.root)[0].meta["title"])
    word = next(w for w in re.findall(r"\w+", title) if bs.unaccented(w) != w.lower())
    page = playwright_browser.new_page(viewport={"width": 375, "height": 812})
    problems = []
    try:
        page.goto(site_url, wait_until="networkidle")
        for scheme in ("light", "dark"):
            if scheme == "dark":
                page.keyboard.press("Escape")
                page.locator("input[aria-controls]").wait_for(state="hidden")
                page.click("[data-md-component=palette] label:not([hidden])")
            href = _search_zensical(page, bs.unaccented(word))
            if not href:
                problems.append(f"«{bs.unaccented(word)}» no encontró «{word}»")
            shown = page.evaluate(ZENSICAL_DIALOG_TEXT)
            for english in ("Search", "results?", "Filters", "Tags"):
                if re.search(rf"\b{english}\b", shown):
                    problems.append(f"el diálogo está en inglés («{english}»): {shown[:300]!r}")
            if violations := bs.run_axe(page):
                problems.append(f"axe-core ({scheme}):\n{bs.describe_violations(violations)}")
        if problems:
            bs.fail(page, "busqueda-zensical", "\n".join(problems))
    finally:
        page.close()


ZENSICAL_DIALOG_TEXT = """() => {
    // The dialog's own words: its labels, its status line and its headings (not the results).
    const root = [...document.querySelectorAll("*")].find(e => e.shadowRoot).shadowRoot;
    const labels = [...root.querySelectorAll("[aria-label], [placeholder], [title]")].map(e =>
        [e.getAttribute("aria-label"), e.getAttribute("placeholder"), e.getAttribute("title")]
            .filter(Boolean).join(" "));
    const texts = [...root.querySelectorAll("[role=status], h3, h4")].map(e => e.textContent);
    return [...labels, ...texts].join(" | ");
}"""


def test_light_dark_toggle(playwright_browser: Any, site_url: str) -> None:
    page = playwright_browser.new_page()
    try:
        page.goto(site_url + ARTICLE, wait_until="load")
        scheme = page.get_attribute("body", "data-md-color-scheme")
        page.click("[data-md-component=palette] label:not([hidden])")
        toggled = page.get_attribute("body", "data-md-color-scheme")
        if {scheme, toggled} != {"default", "slate"}:
            bs.fail(page, "modo-oscuro", f"el conmutador pasó de {scheme} a {toggled}")
        background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
        page.reload(wait_until="load")
        assert page.get_attribute("body", "data-md-color-scheme") == toggled, "no se recuerda"
        page.click("[data-md-component=palette] label:not([hidden])")
        assert page.get_attribute("body", "data-md-color-scheme") == scheme
        assert page.evaluate("() => getComputedStyle(document.body).backgroundColor") != background
    finally:
        page.close()


# For each class: a span of it put into the page's first highlighted code, against a span
# without a class there, which is drawn as the code's own text.
_DRAWN_LIKE_CODE = """([where, classes]) => {
    const code = document.querySelector(where);
    const looks = c => {
        const span = document.createElement("span");
        if (c) span.className = c;
        span.textContent = "x";
        code.append(span);
        const s = getComputedStyle(span);
        const seen = [s.color, s.backgroundColor, s.fontWeight, s.fontStyle,
                      s.textDecorationLine, s.fontFamily].join(" ");
        span.remove();
        return seen;
    };
    const text = looks("");
    return classes.flatMap(c => looks(c) === text ? [] : [`.${c}: ${looks(c)} ≠ ${text}`]);
}"""


@pytest.mark.parametrize(
    ("url", "where", "classes"),
    [
        (ARTICLE, ".highlight code", highlight.PLAIN),
        (NOTEBOOK, ".highlight-ipynb pre", highlight.NOTEBOOK_PLAIN),
    ],
    ids=["articulo", "cuaderno"],
)
def test_unwrapped_tokens_look_like_the_code(
    playwright_browser: Any,
    site_url: str,
    generator: str,
    url: str,
    where: str,
    classes: tuple[str, ...],
) -> None:
    """The premise of output/highlight.py, with the real cascade of the built site's theme and
    stylesheets, in both schemes: a token whose span the build drops (a name, an operator,
    punctuation…) would be drawn exactly as the code's own text, so dropping it changes nothing.
    On an article, and on a notebook page, whose code has its own colours (mkdocs-jupyter's)."""
    if url == NOTEBOOK and generator != "mkdocs":
        pytest.skip("la página del cuaderno de Zensical es Markdown del sitio: la del artículo")
    page = playwright_browser.new_page(color_scheme="light")
    try:
        page.goto(site_url + url, wait_until="load")
        assert page.locator(where).count() > 0, f"{url}: no hay código ({where})"
        for scheme in ("default", "slate"):
            if page.get_attribute("body", "data-md-color-scheme") != scheme:
                page.click("[data-md-component=palette] label:not([hidden])")
            differ = page.evaluate(_DRAWN_LIKE_CODE, [where, list(classes)])
            assert differ == [], f"{url}, esquema {scheme}: {differ}"
    finally:
        page.close()


# Every computed style of every element of the cells, with the stylesheet the page has, then
# with JupyterLab's whole sheet in place of the cut one: the first differences, or a problem.
_WHOLE_SHEET_CHANGES = """(css) => {
    const cut = [...document.querySelectorAll("style")]
        .filter(s => s.textContent.includes(".jupyter-wrapper .jp-Cell"));
    if (cut.length !== 1) return [`${cut.length} hojas de JupyterLab en la página, no 1`];
    const elements = [...document.querySelectorAll(".jupyter-wrapper, .jupyter-wrapper *")];
    if (elements.length === 0) return ["no hay celdas"];
    const styles = () => elements.map(e => {
        const s = getComputedStyle(e);
        return [...s].map(p => [p, s.getPropertyValue(p)]);
    });
    const kept = styles();
    cut[0].textContent = css;
    const whole = styles();
    const changes = [];
    elements.forEach((e, i) => {
        const other = new Map(whole[i]);
        for (const [p, v] of kept[i]) {
            if (other.get(p) !== v && changes.length < 5) {
                changes.push(`<${e.tagName.toLowerCase()} class="${e.className}"> ${p}: ` +
                             `«${v}» con lo que se conserva, «${other.get(p)}» con la hoja entera`);
            }
        }
        if (kept[i].length !== whole[i].length && changes.length < 5) {
            changes.push(`<${e.tagName.toLowerCase()}>: otras propiedades`);
        }
    });
    return changes;
}"""


def test_a_notebook_page_draws_alike_with_the_whole_jupyterlab_sheet(
    playwright_browser: Any, built_site: Path, site_url: str, generator: str
) -> None:
    """The premise of output/notebook_css.py: every element of the cells has the same computed
    style with the rules the build kept as with JupyterLab's whole stylesheet (mkdocs-jupyter's,
    put back in its place). On the notebook page that uses the most classes of JupyterLab's
    (the one most rules could match; each page costs seconds of CPU), in the light scheme: a
    rule the build drops needs a class no element has, in either scheme, and the palette toggle
    changes nothing but colour attributes (the audit's STRUCTURE check)."""
    if generator != "mkdocs":
        pytest.skip("solo mkdocs-jupyter incluye la hoja de JupyterLab")
    whole = (MKDOCS_JUPYTER_ASSETS / "index.css").read_text(encoding="utf-8")

    def classes(url: str) -> int:
        html = (built_site / url / "index.html").read_text(encoding="utf-8")
        found = {c for value in re.findall(r'class="([^"]*)"', html) for c in value.split()}
        return len({c for c in found if c.startswith(notebook_css.PREFIXES)})

    notebooks = [u for u in _pages(built_site) if u.startswith("cuadernos/")]
    page = playwright_browser.new_page(color_scheme="light")
    try:
        url = max(notebooks, key=classes)
        page.goto(site_url + url, wait_until="load")
        changes = page.evaluate(_WHOLE_SHEET_CHANGES, whole)
        assert not changes, f"{url}:\n" + "\n".join(changes)
    finally:
        page.close()


def test_copy_button_copies_only_the_code(
    playwright_browser: Any, built: Built, site_url: str
) -> None:
    context = playwright_browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    try:
        page.goto(site_url + ARTICLE, wait_until="load")
        outputs = page.locator(".dv-output").count()
        assert outputs >= 1, "no hay paneles de salida"
        assert page.locator(".dv-output .md-code__button, .dv-output .md-clipboard").count() == 0, (
            "los paneles de salida no deben tener botón de copiar"
        )
        page.locator(".md-code__button[data-clipboard-target]").first.click()
        copied = page.evaluate("() => navigator.clipboard.readText()")
        snippet = f"snippets/articulos/{NEW_SLUG}/{scaffold.FIRST_SNIPPET}"
        code = (built.root / snippet).read_text(encoding="utf-8")
        if copied.strip() != code.strip():
            bs.fail(page, "copiar", f"el botón copió {copied!r}, se esperaba el código del bloque")
    finally:
        context.close()


def test_missing_page_is_the_spanish_404(playwright_browser: Any, site_url: str) -> None:
    page = playwright_browser.new_page()
    try:
        response = page.goto(site_url + "no-existe/")
        assert response is not None and response.status == 404
        text = page.inner_text("article")
        if (
            "página no encontrada" not in text
            or page.evaluate("() => document.documentElement.lang") != "es"
        ):
            bs.fail(page, "404", f"la página 404 no está en español: {text!r}")
    finally:
        page.close()


def test_notebook_page_offers_the_download(
    playwright_browser: Any, site_url: str, generator: str
) -> None:
    page = playwright_browser.new_page()
    try:
        page.goto(site_url + f"cuadernos/{NEW_SLUG}/", wait_until="load")
        with page.expect_download() as download:
            page.click("a[download]")
        path = Path(download.value.path())
        assert path.read_text(encoding="utf-8").lstrip().startswith("{"), "no es un .ipynb"
        # mkdocs-jupyter draws Jupyter's cells; the Zensical page, the site's own code blocks.
        cells = ".jp-CodeCell" if generator == "mkdocs" else ".highlight"
        assert page.locator(cells).count() >= 1
    finally:
        page.close()


@pytest.mark.usefixtures("axe")
def test_checks_fail_on_a_broken_site(
    playwright_browser: Any, built_site: Path, tmp_path: Path
) -> None:
    """A copy of the built home page broken in every way the audit looks for: each is caught."""
    site = Path(shutil.copytree(built_site, tmp_path / "roto"))
    home = site / "index.html"
    html = home.read_text(encoding="utf-8")
    font = '<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Roboto">'
    wide = '<div style="overflow-x:auto"><div style="width:2000px">ancho</div></div>'
    wider = '<div style="position:absolute;left:0;width:2000px">más ancho que la página</div>'
    noisy = "<script>console.error('roto a propósito')</script>"
    # Text that only the dark scheme shows unreadable, and a page that changes more than its
    # colours when the scheme changes (the dark pass checks colours only: `dark`).
    dim = '<style>[data-md-color-scheme="slate"] .roto-oscuro { color: #2a2a2a; }</style>'
    dimmed = '<p class="roto-oscuro">se lee mal en el esquema oscuro</p>'
    restless = (
        "<script>new MutationObserver(() => document.body.append(document.createElement('hr')))"
        ".observe(document.body, {attributeFilter: ['data-md-color-scheme']})</script>"
    )
    # A request to another host long after the page loaded: on the reader's first click (the
    # audit's is on the palette toggle).
    late = (
        "<script>document.addEventListener('click', () => fetch('https://tarde.invalid/')"
        ".catch(() => {}), {once: true})</script>"
    )
    assert "</head>" in html and "</article>" in html and '<html lang="es"' in html
    html = html.replace('<html lang="es"', '<html lang="en"', 1)
    html = html.replace("</head>", f"{font}{noisy}{dim}</head>", 1)
    html = html.replace(
        "</article>",
        f'<img src="assets/images/favicon.png">{wide}{dimmed}</article>{wider}{restless}{late}',
        1,
    )
    home.write_text(html, encoding="utf-8")
    problems = "\n".join(page_problems(playwright_browser, site, ""))
    for caught in (
        "fonts.googleapis.com",
        "lang='en'",
        "image-alt",
        "errores en la consola",
        "elementos que no son código",
        "de ancho en una pantalla de 375 px",
        "cambió algo más que los colores",
    ):
        assert caught in problems, (caught, problems)
    foreign = next(line for line in problems.splitlines() if "peticiones a otros hosts" in line)
    assert "tarde.invalid" in foreign, problems  # asked for after the load, while audited
    assert "axe-core (light)" in problems and "axe-core (dark)" in problems, problems
    dark_found = problems.split("axe-core (dark)", 1)[1].split("\n/")[0]
    assert "color-contrast" in dark_found and "roto-oscuro" in dark_found, problems


@pytest.mark.usefixtures("axe")
def test_a_change_the_page_makes_once_on_its_own_is_audited_not_blamed_on_the_toggle(
    playwright_browser: Any, built_site: Path, tmp_path: Path
) -> None:
    """A copy of the home page that changes once by itself after the first look (here, on the
    reader's first click: the audit's palette toggle), as Material's search does when its
    start-up ends after the load: the toggle is not blamed, and what appeared gets the light
    pass of axe-core (an image without alt text)."""
    site = Path(shutil.copytree(built_site, tmp_path / "una-vez"))
    home = site / "index.html"
    once = (
        "<script>document.addEventListener('click', () => document.querySelector('article')"
        ".append(Object.assign(document.createElement('img'), {id: 'tardia', src: "
        "'assets/images/favicon.png'})), {once: true})</script>"
    )
    html = home.read_text(encoding="utf-8")
    assert "</body>" in html
    home.write_text(html.replace("</body>", f"{once}</body>", 1), encoding="utf-8")
    problems = "\n".join(page_problems(playwright_browser, site, ""))
    assert "cambió algo más que los colores" not in problems, problems
    light = problems.split("axe-core (light)", 1)[-1].split("\n/")[0]
    assert "image-alt" in light and "#tardia" in light, problems


def test_site_metadata(built: Built) -> None:
    """site_url, a sitemap with every page, and each article's description from its data (a
    seed article's `editorial_description` where it has one)."""
    import yaml  # noqa: PLC0415

    site_url = "http://127.0.0.1:8000/"
    sitemap = (built.site / "sitemap.xml").read_text(encoding="utf-8")
    pages = articles(built.root)
    notebooks = [f"cuadernos/{Path(p.rel).stem}/" for p in pages]
    for url in ("", *map(article_url, pages), *notebooks):
        assert f"<loc>{site_url}{url}</loc>" in sitemap, f"{url} falta en sitemap.xml"
    for page in pages:
        article = article_url(page)
        source = page.path.read_text(encoding="utf-8")
        meta = yaml.safe_load(source.split("---")[1])
        html = (built.site / article / "index.html").read_text(encoding="utf-8")
        described = re.search(r'<meta name="description" content="([^"]*)">', html)
        # A seed article's own description for search results; its lead stays the seed's.
        wanted = meta.get("editorial_description") or meta["description"]
        assert described and described.group(1) == wanted, article
        assert f'<link rel="canonical" href="{site_url}{article}">' in html


# The contrast of an element's text against the first opaque background behind it (WCAG 2's
# ratio of relative luminances), in the page's current scheme.
_CONTRAST = """(e) => {
    const rgb = c => c.match(/[\\d.]+/g).map(Number);
    const lum = ([r, g, b]) => {
        const f = v => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    let back = e, bg = [0, 0, 0, 0];
    while (back && (bg.length > 3 && bg[3] === 0)) {
        bg = rgb(getComputedStyle(back).backgroundColor);
        if (bg.length === 3) bg.push(1);
        back = back.parentElement;
    }
    const fg = rgb(getComputedStyle(e).color);
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
}"""


def _panel_page(built: Built) -> str:
    """An article whose panels fold something under their line (expectations, say)."""
    built_site = built.site
    for page in articles(built.root):
        url = article_url(page)
        if 'details class="dv-check"' in (built_site / url / "index.html").read_text("utf-8"):
            return url
    pytest.fail("ningún artículo pliega nada bajo la línea de una salida")


def test_a_panel_line_reads_in_both_schemes_and_opens_from_the_keyboard(
    playwright_browser: Any, built: Built, site_url: str
) -> None:
    """The line under each output is readable (contrast ≥ 4.5:1) in the light and the dark
    scheme; what it folds is reached with Tab and opened with Enter, like any <details>."""
    url = _panel_page(built)
    page = playwright_browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto(site_url + url, wait_until="load")
        for scheme in ("default", "slate"):
            if page.get_attribute("body", "data-md-color-scheme") != scheme:
                page.click("[data-md-component=palette] label:not([hidden])")
            lines = page.locator(".dv-output .dv-check > summary, .dv-output p.dv-check")
            assert lines.count() > 0, url
            low = [
                ratio
                for n in range(lines.count())
                if (ratio := lines.nth(n).evaluate(_CONTRAST)) < 4.5
            ]
            if low:
                bs.fail(page, f"contraste-{scheme}", f"{url}: la línea se lee mal: {low[:5]}")
        summary = page.locator("details.dv-check > summary").first
        # Focus whatever can be focused just before it, then Tab once.
        page.evaluate(
            """(s) => {
            const all = [...document.querySelectorAll('a[href], button, input, summary, *')]
                .filter(e => e.tabIndex >= 0 && !e.disabled && e.checkVisibility());
            all[all.indexOf(s) - 1].focus();
        }""",
            summary.element_handle(),
        )
        page.keyboard.press("Tab")
        if not summary.evaluate("(s) => document.activeElement === s"):
            bs.fail(page, "pliegue-foco", f"{url}: Tab no llega a la línea plegada")
        page.keyboard.press("Enter")
        opened = summary.evaluate("(s) => s.parentElement.open")
        items = page.locator("details.dv-check").first.locator("li").first
        if not (opened and items.is_visible()):
            bs.fail(page, "pliegue-abrir", f"{url}: Enter no despliega lo plegado")
    finally:
        page.close()


# Where the line under each output of the page sits, in CSS px: from the panel's text edge
# (inside its coloured border and its padding) to the line's, and from the output's bottom to
# the line's top; the line is a <p> or, when it folds something, a <details>'s <summary>.
_PANEL_LINES = """() => [...document.querySelectorAll(".dv-output")].flatMap(panel => {
    const line = panel.querySelector(":scope > .dv-check > summary, :scope > p.dv-check");
    const output = panel.querySelector(":scope > pre");
    if (!line || !output || !line.checkVisibility()) return [];
    const s = getComputedStyle(panel);
    const edge = panel.getBoundingClientRect().left + parseFloat(s.borderLeftWidth) +
        parseFloat(s.paddingLeft);
    const box = line.getBoundingClientRect();
    return [{kind: line.tagName.toLowerCase(), text: line.textContent.trim().slice(0, 40),
             left: box.left - edge, gap: box.top - output.getBoundingClientRect().bottom}];
})"""


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 900)])
def test_every_panel_line_starts_at_the_panels_text_and_under_its_output(
    playwright_browser: Any, built: Built, site_url: str, width: int, height: int
) -> None:
    """The line under every output of every article, the one that folds something (a <summary>)
    as the one that does not (a <p>): its text starts where the panel's does, not against the
    coloured edge (Material gives a summary -0.6rem at each side), and it follows the output
    closely (Material gives a details inside an admonition 1em above)."""
    page = playwright_browser.new_page(viewport={"width": width, "height": height})
    problems, kinds = [], set()
    try:
        for article in articles(built.root):
            url = article_url(article)
            page.goto(site_url + url, wait_until="load")
            for line in page.evaluate(_PANEL_LINES):
                kinds.add(line["kind"])
                if abs(line["left"]) > 1 or not 0 <= line["gap"] <= 4:
                    problems.append(
                        f"{url} <{line['kind']}> «{line['text']}…»: a {line['left']:.0f} px del "
                        f"borde del texto del panel, {line['gap']:.0f} px bajo la salida"
                    )
        assert kinds == {"p", "summary"}, kinds
        if problems:
            bs.fail(page, f"linea-panel-{width}", "\n".join(problems[:10]))
    finally:
        page.close()


# Each autograd graph of the page, every folded part opened: the size in CSS px at which its
# smallest label is drawn (its font size, scaled as the picture is), whether it scrolls sideways
# in its box, and whether Tab reaches that box.
_GRAPH_LABELS = """() => {
    document.querySelectorAll("details").forEach(d => { d.open = true; });
    return [...document.querySelectorAll("svg.dv-graph-svg")].map(s => {
        const box = s.parentElement;
        const fonts = [...s.querySelectorAll("text")]
            .map(t => parseFloat(getComputedStyle(t).fontSize));
        return {
            title: s.querySelector("title").textContent,
            px: Math.min(...fonts) * s.getBoundingClientRect().width / s.viewBox.baseVal.width,
            scrolls: box.scrollWidth > box.clientWidth,
            tab: box.tabIndex >= 0,
        };
    });
}"""
SMALLEST_LABEL_PX = 10


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 900)])
def test_every_graph_label_is_legible_on_a_phone_and_a_laptop(
    playwright_browser: Any, built: Built, site_url: str, width: int, height: int
) -> None:
    """Every autograd graph of every article, on a phone and on a laptop: no label drawn under
    10 px (scaled to the page's width, the widest graph's were 4 px on a phone and 8 px on a
    laptop); a graph wider than that scrolls sideways in its own box, which Tab reaches."""
    page = playwright_browser.new_page(viewport={"width": width, "height": height})
    problems, graphs = [], 0
    try:
        for article in articles(built.root):
            url = article_url(article)
            page.goto(site_url + url, wait_until="load")
            for drawn in page.evaluate(_GRAPH_LABELS):
                graphs += 1
                if drawn["px"] < SMALLEST_LABEL_PX - 0.05:
                    problems.append(f"{url} «{drawn['title']}»: etiquetas de {drawn['px']:.1f} px")
                if drawn["scrolls"] and not drawn["tab"]:
                    problems.append(f"{url} «{drawn['title']}»: se desplaza y Tab no llega")
        assert graphs > 0, "ningún artículo dibuja un grafo"
        if problems:
            bs.fail(page, f"grafos-{width}", "\n".join(problems))
    finally:
        page.close()


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_the_home_page_first_screen(
    playwright_browser: Any, site_url: str, width: int, height: int
) -> None:
    """What a new reader sees before scrolling, on a phone and on a laptop: the title, the
    promise with its link to how the site is verified, and the first article of the path; and
    nothing to scroll sideways."""
    page = playwright_browser.new_page(viewport={"width": width, "height": height})
    try:
        page.goto(site_url, wait_until="load")
        seen = page.evaluate("""() => {
            const links = [...document.querySelectorAll('article a[href]')];
            const first = s => links.find(a => a.getAttribute('href').includes(s));
            const bottom = e => e ? e.getBoundingClientRect().bottom : Infinity;
            return {
                title: bottom(document.querySelector('article h1')),
                promise: bottom(first('como-se-verifica')),
                article: bottom(first('articulos/')),
                screen: window.innerHeight,
                wide: document.documentElement.scrollWidth - window.innerWidth,
            };
        }""")
        shown = [k for k in ("title", "promise", "article") if seen[k] <= seen["screen"]]
        if shown != ["title", "promise", "article"] or seen["wide"] > 0:
            bs.fail(page, f"portada-{width}", f"primera pantalla a {width} px: {seen}")
    finally:
        page.close()
