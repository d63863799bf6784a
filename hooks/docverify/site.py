"""Site-wide checks that need no execution: article structure and sources."""

from __future__ import annotations

import datetime as dt

from docverify import anatomy, freshness
from docverify.config import Config, today
from docverify.findings import Finding
from docverify.pages import Page


def check(config: Config, pages: list[Page], day: dt.date | None = None) -> list[Finding]:
    """Structure and source findings for every page (block findings come from verify).

    Sources are judged on `day` (default: today, injectable with SOURCE_DATE_EPOCH): dates,
    review-by, drift of fingerprinted sources and the policy itself.
    """
    findings: list[Finding] = []
    for page in pages:
        findings.extend(anatomy.check(config, page))
    findings.extend(freshness.evaluate(config, pages, day or today()).findings)
    return findings


def articles(pages: list[Page]) -> list[Page]:
    return [p for p in pages if anatomy.is_article(p)]
