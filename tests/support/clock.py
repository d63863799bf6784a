"""The day the tests pin, read from the sources' own dates: never the real clock.

A test that reads the real site judges its sources on `site_day()`: the day given by
SOURCE_DATE_EPOCH when it is set (so the suite can be run as of any day), else the latest
`verified` date of the site's sources (every source is then fresh, whatever day the suite runs).
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from docverify.core import config as config_mod
from docverify.parsing.pages import read_site
from docverify.sources.model import Source, read_sources

# A day for a site without sources; any fixed day would do.
NO_SOURCES_DAY = dt.date(2026, 1, 1)


def epoch(day: dt.date) -> str:
    """SOURCE_DATE_EPOCH for noon (UTC) of `day`."""
    return str(int(dt.datetime(day.year, day.month, day.day, 12, tzinfo=dt.UTC).timestamp()))


def sources(root: Path) -> list[Source]:
    """Every well-formed source cited by the pages of the project at `root`."""
    cfg = config_mod.load(root)
    return [s for page in read_site(cfg) for s in read_sources(cfg, page)[0]]


def latest_verified(root: Path) -> dt.date:
    dates = [s.verified for s in sources(root)]
    return max(dates) if dates else NO_SOURCES_DAY


def site_day(root: Path) -> dt.date:
    """SOURCE_DATE_EPOCH's day if set, else the latest `verified` date of the site's sources."""
    if os.environ.get("SOURCE_DATE_EPOCH"):
        return config_mod.today()
    return latest_verified(root)
