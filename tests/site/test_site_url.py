"""The site built for a published address under a sub-path (a GitHub project site).

mkdocs.yml reads `site_url` from SITE_URL (docs.yml sets it from the Pages configuration); the
canonical links, the sitemap and the 404 page, which Pages serves at any depth, must follow it.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from conftest import ROOT, mkdocs_build

pytestmark = pytest.mark.slow

PUBLISHED = "https://example.org/curso/"
LOCAL_HOSTS = ("127.0.0.1", "localhost")
ATTRIBUTE = re.compile(r'\b(?:href|src)="([^"]*)"')


@pytest.fixture(scope="module")
def published_site(tmp_path_factory: pytest.TempPathFactory, small: Path) -> Path:
    """The one-article site (conftest `small`: the real configuration, templates and hooks)
    built for the published address."""
    site = tmp_path_factory.mktemp("publicado")
    result = mkdocs_build(small, site, env={"SITE_URL": PUBLISHED})
    assert result.returncode == 0, f"mkdocs build --strict falló:\n{result.stderr}"
    return site


def test_mkdocs_takes_site_url_from_the_environment() -> None:
    lines = [
        line
        for line in (ROOT / "mkdocs.yml").read_text(encoding="utf-8").splitlines()
        if line.startswith("site_url:")
    ]
    assert len(lines) == 1 and re.fullmatch(r"site_url: !ENV \[SITE_URL, .+\]", lines[0]), lines


def test_sitemap_and_canonical_links_use_the_published_address(published_site: Path) -> None:
    sitemap = (published_site / "sitemap.xml").read_text(encoding="utf-8")
    locations = re.findall(r"<loc>([^<]*)</loc>", sitemap)
    assert locations, "sitemap.xml no tiene ninguna dirección"
    assert all(loc.startswith(PUBLISHED) for loc in locations), locations
    canonical = {}
    for page in sorted(published_site.rglob("index.html")):
        match = re.search(r'<link rel="canonical" href="([^"]*)"', page.read_text("utf-8"))
        if match:
            canonical[page.relative_to(published_site).as_posix()] = match.group(1)
    assert canonical, "ninguna página tiene enlace canónico"
    for page, url in canonical.items():
        expected = PUBLISHED + page.removesuffix("index.html")
        assert url == expected, f"{page}: canónico {url}, se esperaba {expected}"
    assert {PUBLISHED + p.removesuffix("index.html") for p in canonical} <= set(locations)


def test_the_404_page_loads_its_assets_from_the_sub_path(published_site: Path) -> None:
    """Pages serves 404.html for any missing path: its links cannot be relative to the page."""
    html = (published_site / "404.html").read_text(encoding="utf-8")
    base = urlsplit(PUBLISHED).path
    links = [u for u in ATTRIBUTE.findall(html) if u and not u.startswith(("#", "data:"))]
    local = [u for u in links if not urlsplit(u).scheme]
    assert local, "la página 404 no enlaza nada del sitio"
    wrong = [u for u in local if not u.startswith(base)]
    assert not wrong, f"enlaces de 404.html fuera de {base}: {wrong}"
    for kind in (".css", ".js"):
        assert any(u.startswith(f"{base}assets/") and kind in u for u in local), (kind, local)
    home = re.search(r'<a href="([^"]*)">Volver al inicio</a>', html)
    assert home and home.group(1) == PUBLISHED, home and home.group(1)
    remote = [u for u in links if urlsplit(u).scheme and not u.startswith(PUBLISHED)]
    assert all(urlsplit(u).hostname not in LOCAL_HOSTS for u in remote), remote


def test_no_page_points_at_the_local_address(published_site: Path) -> None:
    """Pages, sitemap, search index and notebooks: every text file but third-party source maps."""
    checked, found = 0, []
    for path in sorted(published_site.rglob("*")):
        if not path.is_file() or path.suffix == ".map":
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        checked += 1
        found += [f"{path.relative_to(published_site)}: {h}" for h in LOCAL_HOSTS if h in text]
    assert checked > 10, checked
    assert not found, found
