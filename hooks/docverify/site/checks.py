"""Site-wide checks that need no execution: structure, sources, navigation, unused snippets."""

from __future__ import annotations

import datetime as dt

from docverify.core.config import Config, today
from docverify.core.findings import Finding
from docverify.parsing.pages import Page
from docverify.site import anatomy, navigation, usage
from docverify.sources import freshness


def check(
    config: Config,
    pages: list[Page],
    day: dt.date | None = None,
    *,
    nav: navigation.Nav | None = None,
    whole_site: bool = True,
) -> list[Finding]:
    """Structure and source findings for every page (block findings come from verify).

    Sources are judged on `day` (default: today, injectable with SOURCE_DATE_EPOCH): dates,
    review-by, drift of fingerprinted sources and the policy itself.
    With `whole_site`, `pages` is every page, so the navigation (when given) and the unused
    snippets can be judged too.
    """
    findings: list[Finding] = []
    for page in pages:
        findings.extend(anatomy.check(config, page))
    findings.extend(freshness.evaluate(config, pages, day or today()).findings)
    if whole_site:
        findings.extend(navigation.check(config, nav, pages))
        findings.extend(usage.unused(config, pages))
    return findings


def articles(pages: list[Page]) -> list[Page]:
    return [p for p in pages if anatomy.is_article(p)]
