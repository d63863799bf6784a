"""Site-wide checks that need no execution: structure, sources, navigation, unused snippets.

One function, `judge`, makes them all; the build (site/build.py) and the lint (site/lint.py)
both call it, so they can never disagree about a page.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from docverify.core.config import Config, today
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.output import report_page
from docverify.parsing.pages import Page
from docverify.site import anatomy, navigation, usage
from docverify.sources import freshness


@dataclass(frozen=True)
class Judged:
    """What the site-wide checks found: each article's missing or malformed parts, the
    sources' freshness, and every finding in page order."""

    anatomy: dict[str, list[Finding]]
    fresh: freshness.Freshness
    findings: list[Finding]


def judge(
    config: Config,
    pages: list[Page],
    day: dt.date | None = None,
    *,
    nav: navigation.Nav | None = None,
    whole_site: bool = True,
) -> Judged:
    """Structure and source findings for every page (block findings come from verify).

    Sources are judged on `day` (default: today, injectable with SOURCE_DATE_EPOCH): dates,
    review-by, drift of fingerprinted sources and the policy itself.
    With `whole_site`, `pages` is every page, so the navigation (when given), the unused
    snippets and the page names the build reserves can be judged too.
    """
    parts = {p.rel: anatomy.check(config, p) for p in pages if anatomy.is_article(p)}
    fresh = freshness.evaluate(config, pages, day or today())
    findings = [f for p in pages for f in parts.get(p.rel, [])] + fresh.findings
    if whole_site:
        findings += navigation.check(config, nav, pages)
        findings += usage.unused(config, pages)
        findings += reserved(config, pages)
    return Judged(parts, fresh, findings)


def check(
    config: Config,
    pages: list[Page],
    day: dt.date | None = None,
    *,
    nav: navigation.Nav | None = None,
    whole_site: bool = True,
) -> list[Finding]:
    """The findings of `judge`."""
    return judge(config, pages, day, nav=nav, whole_site=whole_site).findings


def reserved(config: Config, pages: list[Page]) -> list[Finding]:
    """A page of the author's that has the report page's name, which the build generates."""
    return [
        Finding(
            Kind.RESERVED_PAGE,
            f"docs/{report_page.URI} es el nombre del informe de verificación, que se genera "
            "al construir: esta página no se publicaría.",
            config.rel(page.path),
            1,
            "renombra la página (y su entrada del nav).",
        )
        for page in pages
        if page.rel == report_page.URI
    ]


def articles(pages: list[Page], nav: navigation.Nav | None = None) -> list[Page]:
    """The articles among `pages`, in the navigation's order when there is one."""
    found = [p for p in pages if anatomy.is_article(p)]
    if nav is None:
        return found
    order = {entry.target: index for index, entry in enumerate(nav.entries)}
    return sorted(found, key=lambda p: (order.get(p.rel, len(order)), p.rel))
