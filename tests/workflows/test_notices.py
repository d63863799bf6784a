"""The notices of weekly.yml: one issue each, opened, updated and closed from its job's JSON.

The sources notice is driven end to end with a clock in the warning window: a real
`docverify sources --due` on a small project whose day SOURCE_DATE_EPOCH pins (never the real
clock) writes the JSON that the `notices` job's own script, run by node, turns into the issue.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import Project
from docverify.cli import main as cli
from docverify.core import config as config_mod
from docverify.sources import freshness
from support import github_script as gs
from support import workflow_rules as rules
from support.clock import epoch
from support.sources import QUOTED, VERIFIED, source_page

WORKFLOWS = Path(__file__).resolve().parents[2] / ".github" / "workflows"
SOURCES_MARKER = "<!-- docverify-fuentes -->"


def weekly_notices() -> tuple[str, dict[str, str]]:
    jobs = rules.load((WORKFLOWS / "weekly.yml").read_text(encoding="utf-8"))["jobs"]
    return gs.script_of(jobs["notices"])


def notices_env(**specs: str) -> dict[str, str]:
    """The step's env as GitHub gives it: NOTICES as written, each notice's job output given."""
    _, env = weekly_notices()
    given = {k: "" for k, v in env.items() if "${{" in v}
    return {**given, "NOTICES": env["NOTICES"], **specs}


def file_notices(open_issues: list[dict[str, Any]] | None = None, **specs: str) -> list[dict]:
    script, _ = weekly_notices()
    code, err, calls = gs.run(script, notices_env(**specs), open_issues)
    assert code == 0, err
    return calls


def due_json(project: Project, monkeypatch: pytest.MonkeyPatch, days_before: int) -> str:
    """What the freshness job's due step writes to its output, `days_before` the review-by date
    of the project's one source."""
    source_page(project, QUOTED)
    pol, _ = freshness.policy(config_mod.load(project.root))
    today = VERIFIED + dt.timedelta(days=pol.max_age_days - days_before)
    monkeypatch.chdir(project.root)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch(today))
    out = project.root / "due.json"
    assert cli.main(["sources", "--due", str(out)]) == 0
    return out.read_text(encoding="utf-8").strip()


def window(project: Project) -> int:
    return freshness.policy(config_mod.load(project.root))[0].warn_days


def test_a_source_in_its_window_opens_one_issue(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = due_json(project, monkeypatch, window(project))
    [call] = file_notices(SOURCES=spec)
    issue = call["create"]
    data = json.loads(spec)
    assert issue["title"] == data["title"] and issue["labels"] == ["fuentes-por-revisar"]
    assert issue["body"].startswith(SOURCES_MARKER)
    row = data["sources"][0]
    assert f"`{row['page']}:{row['line']}`" in issue["body"] and row["command"] in issue["body"]
    assert gs.RUN_URL in issue["body"]


def test_the_open_issue_is_updated_never_another_opened(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = due_json(project, monkeypatch, 1)
    person = {"number": 2, "title": "x", "user": {"login": "ana"}, "body": SOURCES_MARKER}
    calls = file_notices(
        [person, gs.mine(7, SOURCES_MARKER), gs.mine(9, SOURCES_MARKER)], SOURCES=spec
    )
    assert [next(iter(c)) for c in calls] == ["update", "comment"]  # the title changed
    assert {c[next(iter(c))]["issue_number"] for c in calls} == {7}
    same = file_notices([gs.mine(7, SOURCES_MARKER, json.loads(spec)["title"])], SOURCES=spec)
    assert [next(iter(c)) for c in same] == ["update"]


@pytest.mark.parametrize("open_one", [True, False], ids=["abierta", "ninguna"])
def test_no_source_left_closes_the_issue(
    project: Project, monkeypatch: pytest.MonkeyPatch, open_one: bool
) -> None:
    spec = due_json(project, monkeypatch, window(project) + 1)
    assert json.loads(spec)["count"] == 0
    calls = file_notices([gs.mine(7, SOURCES_MARKER)] if open_one else [], SOURCES=spec)
    if not open_one:
        assert calls == []
        return
    comment, update = calls
    assert comment["comment"]["body"].startswith(json.loads(spec)["closing"])
    assert update["update"] == {
        "owner": "duena",
        "repo": "curso",
        "issue_number": 7,
        "state": "closed",
        "state_reason": "completed",
    }


def test_a_notice_its_job_did_not_write_leaves_the_issue_as_it_is() -> None:
    assert file_notices([gs.mine(7, SOURCES_MARKER)], SOURCES="") == []


def test_an_unknown_format_fails_the_job() -> None:
    script, _ = weekly_notices()
    bad = json.dumps({"format": 2, "count": 1, "title": "t", "body": "b", "closing": "c"})
    code, err, _ = gs.run(script, notices_env(SOURCES=bad))
    assert code != 0 and "formato 2" in err
