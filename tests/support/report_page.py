"""The verification page («Informe de verificación») as a build makes it, without building a site.

What the build renders (output/render.py) from its result, made here from its parts for the
tests that look at the page alone: the sources judged on a given day, the articles in the order
of the project's navigation.
"""

from __future__ import annotations

import datetime as dt

from docverify.core.config import Config
from docverify.output import verification_page
from docverify.parsing.pages import Page
from docverify.site import navigation
from docverify.sources.freshness import evaluate
from docverify.verifying.outcome import Verification


def markdown(
    config: Config, pages: list[Page], verification: Verification | None, today: dt.date
) -> str:
    """The verification page for `pages` on `today`, with this build's block results when given
    (its articles in the order of the project's navigation)."""
    fresh = evaluate(config, pages, today)
    return verification_page.render(
        config, pages, verification, fresh, nav=navigation.of_project(config)
    )
