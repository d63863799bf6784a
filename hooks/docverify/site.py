"""Site-wide checks that need no execution: article structure and sources."""

from __future__ import annotations

from docverify import anatomy, sources
from docverify.config import Config
from docverify.findings import Finding
from docverify.pages import Page


def check(config: Config, pages: list[Page]) -> list[Finding]:
    """Structure and source findings for every page (block findings come from verify)."""
    findings: list[Finding] = []
    for page in pages:
        findings.extend(anatomy.check(config, page))
        findings.extend(sources.read_sources(config, page)[1])
    return findings


def articles(pages: list[Page]) -> list[Page]:
    return [p for p in pages if anatomy.is_article(p)]
