"""The build result: each thing judged once per build, each error shown where it happens."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from docverify import build
from docverify.core.findings import errors
from docverify.core.kinds import Kind
from docverify.core.request import Request
from docverify.output import notebooks, render
from docverify.parsing.pages import read_site
from docverify.running.executor import Executor
from docverify.site import anatomy, navigation
from docverify.sources import freshness, model
from docverify.verifying import recordings
from support.mkdocs_site import DAY, Site

PAGE = "articulos/a.md"


def _result(site: Site, executor: Executor) -> build.BuildResult:
    cfg = site.config
    return build.run(cfg, read_site(cfg), Request(runner="cpu", day=DAY), executor)


def _broken(tmp_path: Path) -> Site:
    """The fixture article with a diverging block and a stale source."""
    site = Site(tmp_path / "site")
    site.edit(site.recording, "12", "13")
    site.edit(site.article, '"2026-05-01"', '"2020-01-01"')
    return site


def test_each_page_is_judged_once_per_build(
    tmp_path: Path, executor: Executor, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sources read, anatomy checked and recordings loaded once per page or block, whatever
    the build then renders (pages, footers, verification page, notebooks)."""
    site = _broken(tmp_path)
    calls: Counter[str] = Counter()

    def counting(module: object, name: str) -> None:
        original = getattr(module, name)

        def wrapper(*args: object, **kwargs: object) -> object:
            calls[name] += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, wrapper)

    for module in (model, freshness, notebooks):
        counting(module, "read_sources")
    counting(anatomy, "check")
    counting(recordings, "of_block")
    result = _result(site, executor)
    rendered = render.site(result)  # the verification page, the notebooks
    for rel in rendered.pages:
        rendered.page(rel, render.Links("x/"))
    blocks = sum(len(p.blocks) for p in result.pages.values())
    articles = len(result.articles())
    # Every runner's recordings of a block, read once (and only by of_block: test_owners.py).
    expected = {"read_sources": len(result.pages), "check": articles, "of_block": blocks}
    assert calls == expected, calls


def test_check_reports_what_the_build_reports(tmp_path: Path, executor: Executor) -> None:
    """`docverify check` (build.check) judges the pages with the build's own checks: on a site
    with a divergence and a stale source, the same findings as the build, in the same words;
    only the first shard of a sharded check reports the checks of the pages and the site."""
    site = _broken(tmp_path)
    cfg = site.config
    pages = read_site(cfg)
    request = Request(runner="cpu", day=DAY)
    plan = build.prepare(cfg, request, executor)
    built = build.run(cfg, pages, request, executor, nav=navigation.of_project(cfg))
    checked = build.check(cfg, pages, request, plan, executor, checked=pages, whole=True)
    assert Counter(f.kind for f in errors(checked.findings)) == {
        Kind.DIVERGENCE: 1,
        Kind.STALE_SOURCE: 1,
    }
    assert sorted(f.format() for f in checked.findings) == sorted(
        f.format() for f in built.findings
    )
    later_shard = build.check(cfg, pages, request, plan, executor)
    assert [f.kind for f in errors(later_shard.findings)] == [Kind.DIVERGENCE]


def test_every_error_of_a_page_is_linked_from_its_banner(
    tmp_path: Path, executor: Executor
) -> None:
    result = _result(_broken(tmp_path), executor)
    kinds = Counter(f.kind for f in result.errors)
    assert kinds == {Kind.DIVERGENCE: 1, Kind.STALE_SOURCE: 1}, kinds  # each counted once
    line = build.summary(result.errors)
    assert line.startswith("2 errores de verificación: "), line
    assert "divergencia (1)" in line and "fuente-caducada (1)" in line, line
    markdown = render.site(result).page(PAGE, render.Links("articulos/a/")).markdown
    banner = markdown[: markdown.index("</div>")]
    links = re.findall(r'href="#([^"]+)"', banner)
    assert len(links) == 2
    for anchor in links:
        assert markdown.count(f'id="{anchor}"') == 1, anchor  # each link lands on its box
    stale = markdown[markdown.index('id="dv-fuente-1"') :]
    assert "2020-01-01" in stale and "docverify sources --reverify" in stale


def test_a_clean_build_has_no_banner_and_no_box(tmp_path: Path, executor: Executor) -> None:
    site = Site(tmp_path / "site")
    result = _result(site, executor)
    assert not result.errors
    markdown = render.site(result).page(PAGE, render.Links("articulos/a/")).markdown
    assert "dv-banner" not in markdown and "dv-problem" not in markdown
    # The footer, from the same judged sources: a source up to date shows no review-by date.
    assert "Fuente verificada" in markdown and "revisar a más tardar el" not in markdown
