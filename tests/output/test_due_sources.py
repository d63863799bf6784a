"""`docverify sources --due FILE`: the sources in their warning window, for the weekly issue.

Every scenario pins the day with SOURCE_DATE_EPOCH, counted from the source's own verification
date under the project's policy: never the real clock. The document's whole text is checked
in-process on statuses written here (`output.due_sources.document`).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from conftest import Project
from docverify.cli import main as cli
from docverify.core import config as config_mod
from docverify.output import due_sources
from docverify.sources import freshness
from docverify.sources.model import Source
from support.clock import epoch
from support.sources import QUOTED, REF, TITLE, VERIFIED, source_page

URL = "https://example.org/fuente"


def due(project: Project, monkeypatch: pytest.MonkeyPatch, today: dt.date) -> dict:
    """Run `docverify sources --due` on `today`; its JSON (the command must exit 0)."""
    monkeypatch.chdir(project.root)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch(today))
    out = project.root / "salida" / "due.json"
    assert cli.main(["sources", "--due", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.count("\n") == 1, "una sola línea: CI la pasa como salida de un paso"
    return json.loads(text)


def window(project: Project) -> tuple[dt.date, int]:
    """The source's review-by date and the warning window, from the project's own policy."""
    pol, _ = freshness.policy(config_mod.load(project.root))
    return VERIFIED + dt.timedelta(days=pol.max_age_days), pol.warn_days


def test_a_source_enters_the_issue_on_the_first_day_of_its_window(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = source_page(project, QUOTED, f'\n    url: "{URL}"')
    review_by, warn = window(project)
    before = due(project, monkeypatch, review_by - dt.timedelta(days=warn + 1))
    assert before["count"] == 0 and before["sources"] == []
    assert str(warn) in before["closing"]
    inside = due(project, monkeypatch, review_by - dt.timedelta(days=warn))
    assert inside["format"] == 1 and inside["count"] == 1
    [row] = inside["sources"]
    line = next(n for n, text in enumerate(page.read_text().splitlines(), 1) if "verified:" in text)
    assert row == {
        "page": "docs/guia.md",
        "line": line,
        "reference": REF,
        "title": TITLE,
        "url": URL,
        "verified": VERIFIED.isoformat(),
        "review_by": review_by.isoformat(),
        "days_left": warn,
        "command": f'docverify sources --reverify "{REF}"',
    }
    body = inside["body"]
    assert f"`docs/guia.md:{line}`" in body and row["command"] in body and URL in body
    assert f"faltan {warn} días" in body
    assert "1 fuente" in inside["title"]


def test_a_stale_source_stays_in_the_issue_and_the_command_still_exits_0(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past its date the source fails every build; the issue keeps it until it is re-verified."""
    source_page(project, QUOTED)
    review_by, _ = window(project)
    found = due(project, monkeypatch, review_by + dt.timedelta(days=3))
    assert found["count"] == 1 and found["sources"][0]["days_left"] == -3
    assert "**caducada** hace 3 días" in found["body"]
    assert "](" not in found["body"]  # no url: the source is named without a link
    assert cli.main(["sources"]) == 1  # judging them is the plain command's job


def test_on_its_review_day_a_source_is_due_not_stale(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The review-by date is the last good day: on it, «faltan 0 días» and builds still pass;
    the day after, «caducada hace 1 día» and `docverify sources` fails."""
    source_page(project, QUOTED)
    review_by, _ = window(project)
    on_the_day = due(project, monkeypatch, review_by)
    assert on_the_day["sources"][0]["days_left"] == 0
    assert "| faltan 0 días |" in on_the_day["body"], on_the_day["body"]
    assert "**caducada**" not in on_the_day["body"]
    assert cli.main(["sources"]) == 0  # not stale yet: the judge agrees
    day_after = due(project, monkeypatch, review_by + dt.timedelta(days=1))
    assert day_after["sources"][0]["days_left"] == -1
    assert "| **caducada** hace 1 día |" in day_after["body"], day_after["body"]
    assert "faltan" not in day_after["body"]
    assert cli.main(["sources"]) == 1


def test_the_soonest_source_comes_first(project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    later = (VERIFIED + dt.timedelta(days=5)).isoformat()
    source_page(project, f'"{later}"', name="b.md")
    source_page(project, QUOTED, name="a.md")
    review_by, _ = window(project)
    found = due(project, monkeypatch, review_by)
    assert [row["page"] for row in found["sources"]] == ["docs/a.md", "docs/b.md"]
    assert found["sources"][0]["days_left"] == 0
    assert "la primera, a más tardar el" in found["title"]


def test_a_source_dated_in_the_future_is_not_due(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    source_page(project, QUOTED)
    assert due(project, monkeypatch, VERIFIED - dt.timedelta(days=1))["count"] == 0


def test_the_file_is_written_where_asked(
    project: Project, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    source_page(project, QUOTED)
    monkeypatch.chdir(project.root)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch(VERIFIED))
    out = tmp_path / "a" / "b" / "due.json"
    assert cli.main(["sources", "--due", str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["count"] == 0


# --- The whole document, in-process -----------------------------------------------------------

INTRO = (
    "Hoy, {today}, estas fuentes están a 10 días o menos de su fecha de revisión, o ya la "
    "pasaron. El día siguiente a esa fecha, toda construcción falla (`[fuente-caducada]`) y el "
    "sitio deja de publicarse. Para cada una: comprueba que la fuente sigue diciendo lo que cita "
    "la página, ejecuta en local la orden de su fila (actualiza `verified:` y, si la tiene, la "
    "huella) y sube el commit. Esta incidencia se actualiza cada semana y se cierra sola cuando "
    "no queda ninguna."
)
TODAY = dt.date(2026, 3, 10)


def _status(page: str, review_by: dt.date, **source: object) -> freshness.SourceStatus:
    values = {"line": 3, "title": "T", "reference": "R", "verified": dt.date(2026, 1, 1)}
    values.update(source)
    return freshness.SourceStatus(
        Source(page=page, **values),  # type: ignore[arg-type]
        age_days=(TODAY - values["verified"]).days,  # type: ignore[operator]
        review_by=review_by,
        status="soon",
    )


def _document(tmp_path: Path, *statuses: freshness.SourceStatus) -> dict:
    cfg = config_mod.Config(root=tmp_path, docs_dir=tmp_path / "docs", snippets_dir=tmp_path)
    pol = freshness.Policy(max_age_days=100, warn_days=10)
    return due_sources.document(cfg, freshness.Freshness(pol, TODAY, list(statuses), []))


def test_the_document_whole_with_a_link_an_escaped_name_and_a_stale_source(
    tmp_path: Path,
) -> None:
    """Two sources, the later first in the input: every key, the title's plural, the table with
    its escaped names, the link only where there is a url, and the line of `verified:` where the
    page says it (else the source's own line)."""
    later = _status(
        "a.md",
        dt.date(2026, 3, 15),
        line=4,
        title="Entrada [beta]",
        reference="torch/__init__.py",
        url="https://example.org/x",
        key_lines={"verified": 7},
    )
    stale = _status("b.md", dt.date(2026, 3, 7), line=9, title="Notas", reference="Libro *1*")
    doc = _document(tmp_path, later, stale)
    rows = doc.pop("sources")
    body = doc.pop("body")
    assert doc == {
        "format": 1,
        "today": "2026-03-10",
        "warn_days": 10,
        "max_age_days": 100,
        "count": 2,
        "title": "Fuentes por revisar: 2 fuentes (la primera, a más tardar el 7 de marzo de 2026)",
        "closing": "Ninguna fuente está a 10 días o menos de su fecha de revisión (hoy, 10 de "
        "marzo de 2026): nada que revisar.",
    }
    assert [(r["page"], r["line"], r["days_left"]) for r in rows] == [
        ("docs/b.md", 9, -3),
        ("docs/a.md", 7, 5),
    ]
    assert body.split("\n") == [
        INTRO.format(today="10 de marzo de 2026"),
        "",
        "| Página | Fuente | Revisar a más tardar | Plazo | Orden |",
        "|---|---|---|---|---|",
        "| `docs/b.md:9` | Libro \\*1\\* — Notas | 7 de marzo de 2026 | **caducada** hace 3 días "
        '| `docverify sources --reverify "Libro *1*"` |',
        "| `docs/a.md:7` | [torch/\\_\\_init\\_\\_.py — Entrada \\[beta\\]](https://example.org/x) "
        "| 15 de marzo de 2026 | faltan 5 días "
        '| `docverify sources --reverify "torch/__init__.py"` |',
    ]


def test_one_source_is_named_in_the_singular_and_none_says_so(tmp_path: Path) -> None:
    one = _document(tmp_path, _status("a.md", dt.date(2026, 3, 20)))
    assert (
        one["title"]
        == "Fuentes por revisar: 1 fuente (la primera, a más tardar el 20 de marzo de 2026)"
    )
    none = _document(tmp_path, _status("a.md", dt.date(2026, 3, 21)))
    assert none["count"] == 0 and none["sources"] == []
    assert none["title"] == "Fuentes por revisar: ninguna"
