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
from docverify.sources import fingerprint as fp_mod
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


# Exact findings and statuses (mutation tests) ----------------------------------------------------

GUIDE = "docs/guia.md"
FIX = f'docverify sources --reverify "{REF}"'
LABEL = f"«{REF}» («{TITLE}»)"


def _policy_of(project: Project, settings: str) -> tuple[freshness.Policy, list, list[str]]:
    """freshness.policy of `project` with `settings` in [tool.docverify.sources], and the
    lines of its pyproject.toml (to find each setting's line)."""
    pyproject = project.root / "pyproject.toml"
    text = pyproject.read_text() + "\n[tool.docverify.sources]\n" + settings
    pyproject.write_text(text, encoding="utf-8")
    pol, found = freshness.policy(project.config)
    return pol, found, text.splitlines()


def test_each_bad_policy_setting_is_reported_on_its_line_and_falls_back(
    project: Project,
) -> None:
    settings = (
        'max_age = 10\nmax_age_days = true\nwarn_days = -1\ndrift = "ignore"\nsnapshots_dir = ""\n'
    )
    pol, found, lines = _policy_of(project, settings)
    assert pol == freshness.Policy(180, 30, "error", "fingerprints")
    where = "[tool.docverify.sources]"
    expected = [
        (
            "max_age = 10",
            f"clave desconocida «max_age» en {where}.",
            "usa solo max_age_days, warn_days, drift, snapshots_dir.",
        ),
        (
            "max_age_days = true",
            f"max_age_days = True en {where} debe ser un entero ≥ 0.",
            "escribe max_age_days = 180.",
        ),
        (
            "warn_days = -1",
            f"warn_days = -1 en {where} debe ser un entero ≥ 0.",
            "escribe warn_days = 30.",
        ),
        (
            'drift = "ignore"',
            f'drift = \'ignore\' en {where}: usa "error" o "report".',
            'escribe drift = "error" (falla) o drift = "report" (informa).',
        ),
        (
            'snapshots_dir = ""',
            "snapshots_dir debe ser una carpeta relativa al proyecto.",
            'escribe snapshots_dir = "fingerprints".',
        ),
    ]
    assert [(f.kind, f.path, f.line, f.message, f.fix, f.level) for f in found] == [
        (Kind.SOURCES_POLICY, "pyproject.toml", lines.index(s) + 1, m, fix, Level.ERROR)
        for s, m, fix in expected
    ]


def test_policy_takes_zero_and_rejects_text_for_a_count(project: Project) -> None:
    pol, found, _ = _policy_of(project, 'max_age_days = "x"\nwarn_days = 0\ndrift = "report"\n')
    assert pol == freshness.Policy(180, 0, "report", "fingerprints")
    assert [f.message.split(" = ")[0] for f in found] == ["max_age_days"]


def _status(project: Project, today: dt.date) -> freshness.SourceStatus:
    cfg = project.config
    [status] = freshness.evaluate(cfg, read_site(cfg), today).statuses
    return status


def _line_of(page: Path, start: str) -> int:
    lines = page.read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if line.strip().startswith(start))


def test_review_days_at_the_maximum_pass_and_over_it_say_how_to_fix(project: Project) -> None:
    source_page(project, QUOTED, "\n    review_days: 180")
    assert not judge(project, VERIFIED)
    page = source_page(project, QUOTED, "\n    owner: ana\n    review_days: 181")
    [finding] = _status(project, VERIFIED).findings
    assert (finding.kind, finding.line, finding.fix) == (
        Kind.MALFORMED_SOURCE,
        _line_of(page, "review_days:"),
        "escribe review_days: 180 o menos.",
    )


def test_future_and_soon_statuses_and_their_findings(project: Project) -> None:
    page = source_page(project, QUOTED)
    future = _status(project, VERIFIED - dt.timedelta(days=1))
    [finding] = future.findings
    assert future.status == "future"
    assert (finding.path, finding.line, finding.fix) == (
        GUIDE,
        _line_of(page, "verified:"),
        "escribe la fecha en que de verdad comprobaste la fuente.",
    )
    soon = _status(project, VERIFIED + dt.timedelta(days=151))
    [finding] = soon.findings
    due = (VERIFIED + dt.timedelta(days=180)).isoformat()
    assert soon.status == "soon" and finding.level is Level.INFO
    assert finding.message == (
        f"fuente {LABEL}: verificada el {VERIFIED.isoformat()}, hace 151 días; revísala a más "
        f"tardar el {due} (faltan 29 días)."
    )
    assert finding.fix == f"comprueba la fuente y ejecuta {FIX}."


def test_due_includes_a_source_verified_today_inside_its_window(project: Project) -> None:
    _policy_of(project, "max_age_days = 10\nwarn_days = 20\n")
    source_page(project, QUOTED)
    cfg = project.config
    fresh = freshness.evaluate(cfg, read_site(cfg), VERIFIED)
    assert [s.age_days for s in freshness.due(fresh)] == [0]


def test_footer_note_says_the_review_by_date_in_spanish(project: Project) -> None:
    source_page(project, '"2026-01-05"')
    status = _status(project, dt.date(2026, 1, 6))
    assert freshness.footer_note(status) == "revisar a más tardar el 4 de julio de 2026"


def _fake(kind: str, target: str, sha: str, version: str = "1.0") -> str:
    version_line = f'      version: "{version}"\n' if version else ""
    return (
        f"\n    fingerprint:\n      package: dvfake\n{version_line}"
        f'      {kind}: {target}\n      sha256: "{sha}"'
    )


HELPER = "dvfake.core.helper"


def _helper_sha() -> str:
    return fp_mod.digest(fp_mod.object_source(fp_mod.package_dir("dvfake"), HELPER))


def test_a_fingerprint_without_version_is_incomplete(project: Project, fake_package: Path) -> None:
    page = source_page(project, QUOTED, _fake("object", HELPER, _helper_sha(), version=""))
    [finding] = _status(project, VERIFIED).findings
    assert (finding.kind, finding.line, finding.message, finding.fix) == (
        Kind.INCOMPLETE_FINGERPRINT,
        _line_of(page, "fingerprint:"),
        f"fuente {LABEL}: la huella de {HELPER} no tiene version y sha256.",
        f"calcúlalos con {FIX}.",
    )


def test_a_changed_source_is_drift_with_both_fingerprints(
    project: Project, fake_package: Path
) -> None:
    page = source_page(project, QUOTED, _fake("object", HELPER, "a" * 64))
    status = _status(project, VERIFIED)
    now = _helper_sha()
    assert status.status == "drift" and status.installed is not None
    assert status.installed.sha256 == now
    assert status.drift_note == (
        f"{HELPER}: dvfake 1.0 → 1.0 instalado; huella {'a' * 12}… → {now[:12]}…"
    )
    [finding] = status.findings
    assert (finding.kind, finding.line, finding.level) == (
        Kind.CHANGED_SOURCE,
        _line_of(page, "object:"),
        Level.ERROR,
    )
    assert finding.message == (
        f"fuente {LABEL}: el código de {HELPER} cambió desde que se verificó (dvfake 1.0 → 1.0 "
        f"instalado; huella {'a' * 12}… → {now[:12]}…)."
    )
    assert finding.fix == f"revisa el cambio con {FIX} y corrige el artículo si hace falta."
    # A stale source stays stale: drift does not hide it.
    assert _status(project, VERIFIED + dt.timedelta(days=181)).status == "stale"


def test_a_new_version_with_the_same_source_is_information(
    project: Project, fake_package: Path
) -> None:
    page = source_page(project, QUOTED, _fake("object", HELPER, _helper_sha(), version="0.9"))
    [finding] = _status(project, VERIFIED).findings
    assert (finding.kind, finding.line, finding.level) == (
        Kind.SAME_FINGERPRINT,
        _line_of(page, "object:"),
        Level.INFO,
    )
    assert finding.message == (
        f"fuente {LABEL}: dvfake 1.0 instalado (verificada con 0.9), pero {HELPER} no cambió."
    )
    assert finding.fix == f"si quieres, actualiza la versión con {FIX}."


def test_an_uncheckable_fingerprint_is_drift_with_its_reason(project: Project) -> None:
    page = source_page(
        project,
        QUOTED,
        "\n    fingerprint:\n      package: dvnotinstalled\n"
        f'      version: "1"\n      file: dvnotinstalled/a.py\n      sha256: "{"0" * 64}"',
    )
    status = _status(project, VERIFIED)
    [finding] = status.findings
    assert status.status == "drift" and "no está instalado" in status.drift_note
    assert status.drift_note in finding.message
    assert (finding.kind, finding.line, finding.fix) == (
        Kind.CHANGED_SOURCE,
        _line_of(page, "file:"),
        f"instala dvnotinstalled o revisa la fuente con {FIX}.",
    )
    assert finding.level is Level.ERROR
    assert _status(project, VERIFIED + dt.timedelta(days=181)).status == "stale"
    _policy_of(project, 'drift = "report"\n')
    assert [f.level for f in _status(project, VERIFIED).findings] == [Level.INFO]
