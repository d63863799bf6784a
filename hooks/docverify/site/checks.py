"""Checks that need no execution: each article's structure and sources, and the whole site's.

`per_page` makes the checks of each page (anatomy, sources); `site_wide` the ones that only every
page together can tell (navigation, unused snippets, reserved page names, orphan recordings).
The build (docverify/build.py), `docverify lint` (site/lint.py) and `docverify check` call the
same functions, so they can never disagree about a page or about the site.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from docverify.core.config import Config, today
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing import origin
from docverify.parsing.pages import Page
from docverify.site import (
    anatomy,
    build_words,
    glossary,
    glossary_lint,
    navigation,
    notebook_names,
    usage,
)
from docverify.site.usage import orphans
from docverify.sources import freshness


@dataclass(frozen=True)
class PageChecks:
    """What the site-wide checks found: each article's missing or malformed parts, the
    sources' freshness, and every finding in page order."""

    anatomy: dict[str, list[Finding]]
    fresh: freshness.Freshness
    findings: list[Finding]
    glossary: glossary.Glossary | None = None  # the site's glossary, when it has a data file


def per_page(config: Config, pages: list[Page], day: dt.date | None = None) -> PageChecks:
    """Structure, source and glossary findings for every page (block findings come from verify).

    Sources are judged on `day` (default: today, injectable with SOURCE_DATE_EPOCH): dates,
    review-by, drift of fingerprinted sources and the policy itself. The glossary's data file
    is read once here, and the build generates its page from what was read.
    """
    # An article's notebook runs its blocks in one namespace (notebook_names.py).
    parts = {
        p.rel: anatomy.check(config, p) + notebook_names.check(config, p)
        for p in pages
        if anatomy.is_article(p)
    }
    fresh = freshness.evaluate(config, pages, day or today())
    terms, malformed = glossary.load(config)
    findings = [f for p in pages for f in parts.get(p.rel, [])] + fresh.findings
    findings += malformed + glossary_lint.check(config, pages, terms)
    findings += build_words.check(config, pages, terms)
    findings += [f for p in pages for f in origin.problems(config.rel(p.path), p)]
    return PageChecks(parts, fresh, findings, terms)


def site_wide(config: Config, pages: list[Page], nav: navigation.Nav | None) -> list[Finding]:
    """What only every page of the site together can tell: pages missing from the navigation
    (when there is one) or named by it and absent, snippets no page includes, pages that take a
    name the build reserves, and recordings whose block is gone. `pages` is every page."""
    return (
        navigation.check(config, nav, pages)
        + usage.unused(config, pages)
        + reserved(config, pages)
        + orphans(config, pages)
    )


# What each generated page is, for the author whose page takes its name.
_GENERATED_NAMES = {
    navigation.REPORT_URI: "del informe de verificación, que se genera al construir",
    navigation.GLOSSARY_URI: (
        f"del glosario, que se genera al construir a partir de docs/{navigation.GLOSSARY_DATA}"
    ),
}


def reserved(config: Config, pages: list[Page]) -> list[Finding]:
    """A page of the author's that has the name of a page the build generates."""
    return [
        Finding(
            Kind.RESERVED_PAGE,
            f"docs/{page.rel} es el nombre {_GENERATED_NAMES[page.rel]}: esta página no se "
            "publicaría.",
            config.rel(page.path),
            1,
            "renombra la página (y su entrada del nav)"
            + (
                f"; los términos van en docs/{navigation.GLOSSARY_DATA}."
                if page.rel == navigation.GLOSSARY_URI
                else "."
            ),
        )
        for page in pages
        if page.rel in navigation.GENERATED
    ]


def articles(pages: list[Page], nav: navigation.Nav | None = None) -> list[Page]:
    """The articles among `pages`, in the navigation's order when there is one."""
    found = [p for p in pages if anatomy.is_article(p)]
    return found if nav is None else navigation.in_order(found, nav)
