"""sources.freshness: dates, the review-by boundary, the policy; the real sources on their dates."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from conftest import ROOT, Project
from docverify.core import config as config_mod
from docverify.core.findings import Level, errors
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_site
from docverify.site import checks as site
from docverify.sources import freshness
from support import clock
from support.clock import epoch
from support.sources import QUOTED, REF, TITLE, VERIFIED, expected_review_by, judge, source_page

# Dates ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("days", "stale"), [(0, False), (149, False), (180, False), (181, True), (400, True)]
)
def test_max_age_boundary(project: Project, days: int, stale: bool) -> None:
    source_page(project, QUOTED)
    found = errors(judge(project, VERIFIED + dt.timedelta(days=days)))
    assert [f.kind for f in found] == ([Kind.STALE_SOURCE] if stale else [])


def test_stale_source_names_page_source_date_age_and_review_by(project: Project) -> None:
    source_page(project, '"2020-01-01"')
    [finding] = errors(judge(project, dt.date(2026, 11, 29)))
    assert finding.kind == Kind.STALE_SOURCE
    assert finding.where == "docs/guia.md:6"  # the line of verified:
    age = (dt.date(2026, 11, 29) - dt.date(2020, 1, 1)).days
    for part in (REF, TITLE, "2020-01-01", f"hace {age} días", "a más tardar el 2020-06-29"):
        assert part in finding.message, finding.message
    assert "docverify sources --reverify" in finding.fix


def test_future_date_fails(project: Project) -> None:
    source_page(project, "2099-01-01")
    [finding] = errors(judge(project, dt.date(2026, 11, 29)))
    assert finding.kind == Kind.FUTURE_DATE
    assert REF in finding.message and "2099-01-01" in finding.message


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ('"2026-13-45"', "imposible"),
        ('"2026-02-30"', "imposible"),
        ('"2026-9-23"', "mal formada"),
        ("ayer", "mal formada"),
        (None, "falta la fecha"),
        ('""', "falta la fecha"),
    ],
)
def test_bad_dates_fail_naming_page_and_source(
    project: Project, raw: str | None, reason: str
) -> None:
    source_page(project, raw)
    [finding] = errors(judge(project, dt.date(2026, 11, 29)))
    assert finding.kind == Kind.INVALID_DATE
    assert finding.path == "docs/guia.md" and REF in finding.message
    assert reason in finding.message


def test_warning_window_is_info_and_does_not_fail(project: Project) -> None:
    source_page(project, QUOTED)
    findings = judge(project, VERIFIED + dt.timedelta(days=150))
    assert not errors(findings)
    [info] = findings
    assert info.kind == Kind.SOURCE_REVIEW_DUE and info.level is Level.INFO
    assert "faltan 30 días" in info.message
    assert not judge(project, VERIFIED + dt.timedelta(days=149))


def test_review_days_and_owner(project: Project) -> None:
    source_page(project, QUOTED, '\n    review_days: 90\n    owner: "@ana"')
    cfg = project.config
    fresh = freshness.evaluate(cfg, read_site(cfg), VERIFIED + dt.timedelta(days=91))
    [status] = fresh.statuses
    assert status.review_by == VERIFIED + dt.timedelta(days=90)
    assert status.status == "stale" and status.source.owner == "@ana"
    assert "máximo 90" in errors(fresh.findings)[0].message


def test_review_days_over_the_maximum_fails(project: Project) -> None:
    source_page(project, QUOTED, "\n    review_days: 365")
    [finding] = errors(judge(project, VERIFIED))
    assert "supera el máximo" in finding.message and finding.where == "docs/guia.md:7"


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ("\n    reviewer: ana", "claves desconocidas: reviewer"),
        ("\n    review_days: pronto", "review_days «pronto»"),
        ("\n    url: ftp://x", "no es una dirección http"),
    ],
)
def test_bad_optional_keys_fail(project: Project, extra: str, words: str) -> None:
    source_page(project, QUOTED, extra)
    found = errors(judge(project, VERIFIED))
    assert found and words in found[0].message, found


def test_policy_comes_from_pyproject(project: Project) -> None:
    pyproject = project.root / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text() + "\n[tool.docverify.sources]\nmax_age_days = 10\nwarn_days = 2\n",
        encoding="utf-8",
    )
    source_page(project, QUOTED)
    assert not judge(project, VERIFIED + dt.timedelta(days=7))
    assert judge(project, VERIFIED + dt.timedelta(days=8))[0].level is Level.INFO
    assert errors(judge(project, VERIFIED + dt.timedelta(days=11)))


def test_bad_policy_is_reported(project: Project) -> None:
    pyproject = project.root / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text() + '\n[tool.docverify.sources]\nmax_age = 10\ndrift = "ignore"\n',
        encoding="utf-8",
    )
    found = errors(judge(project, VERIFIED))
    assert {f.path for f in found} == {"pyproject.toml"}
    assert any("max_age" in f.message for f in found)
    assert any("drift" in f.message for f in found)


def test_today_comes_from_source_date_epoch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch(dt.date(2027, 3, 23)))
    assert config_mod.today() == dt.date(2027, 3, 23)


# Drift ---------------------------------------------------------------------------------------


# Re-verifying --------------------------------------------------------------------------------


# Readers: footer and verification page ---------------------------------------------------------


def test_real_sources_hold_until_their_review_date(tmp_path: Path) -> None:
    """On the earliest review-by date every source of the site passes; the day after, exactly
    the sources due that day fail (the boundary, on the real pages, without a build)."""
    cfg = config_mod.load(ROOT)
    pages = read_site(cfg)
    dates = [expected_review_by(cfg, s) for s in clock.sources(ROOT)]
    if not dates:
        pytest.skip("ninguna página cita fuentes")
    first = min(dates)
    assert not errors(site.per_page(cfg, pages, first).findings)
    stale = errors(site.per_page(cfg, pages, first + dt.timedelta(days=1)).findings)
    assert [f.kind for f in stale] == [Kind.STALE_SOURCE] * dates.count(first), stale


# Strict builds of a copy of the site ---------------------------------------------------------
