"""The weekly link check: the addresses it checks, lychee's configuration and the issue's text.

lychee needs the network, which the build and the tests never have: these tests read the job's
configuration and turn a real lychee report of a fixture site (tests/fixtures/lychee/, its
README says how it was made) into the notice, with .ci/links.py itself.
"""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from docverify.core import config as config_mod
from docverify.parsing.pages import read_site
from docverify.sources.model import read_sources
from support import github_script as gs
from support import workflow_rules as rules

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / ".ci" / "links.py"
FIXTURE = ROOT / "tests" / "fixtures" / "lychee"
CONFIG = ROOT / ".github" / "lychee.toml"
WORKFLOWS = ROOT / ".github" / "workflows"
CI_DOC = ROOT / "docs-dev" / "ci.md"
MARKER = "<!-- docverify-enlaces -->"
PAGE = "docs/articulos/uno.md"

sys.path.insert(0, str(SCRIPT.parent))
import links  # noqa: E402


def weekly_jobs() -> dict[str, Any]:
    return rules.load((WORKFLOWS / "weekly.yml").read_text(encoding="utf-8"))["jobs"]


def report() -> dict[str, Any]:
    return json.loads((FIXTURE / "lychee.json").read_text(encoding="utf-8"))


def fixture_notice(lychee: dict[str, Any] | None = None) -> dict[str, Any]:
    places = links.inventory(FIXTURE)
    return links.notice(lychee or report(), places, list(places))


# --- what is checked ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "found"),
    [
        ('    url: "https://a.org/x/__init__.py"', ["https://a.org/x/__init__.py"]),
        ("ver [esto](https://a.org/b_(c)).", ["https://a.org/b_(c)"]),
        ("(https://a.org/x), y <https://b.org/y>.", ["https://a.org/x", "https://b.org/y"]),
        ("«https://a.org/z» y `https://c.org/?q=1`;", ["https://a.org/z", "https://c.org/?q=1"]),
        ("sin enlaces: http y https:// nada", []),
    ],
)
def test_addresses_end_where_the_text_ends_them(line: str, found: list[str]) -> None:
    assert links.addresses(line) == found


def test_the_inventory_names_every_place_of_every_address() -> None:
    """Front-matter sources, a link inside an admonition (lychee reading the Markdown misses it),
    a bare address and an autolink: each with every page:line that writes it."""
    assert links.inventory(FIXTURE) == {
        "http://127.0.0.1:8765/bien/fuente.html": [f"{PAGE}:6", "docs/index.md:3"],
        "http://127.0.0.1:8765/movida/fuente.html": [f"{PAGE}:10", f"{PAGE}:20"],
        "http://127.0.0.1:8765/desaparecida": [f"{PAGE}:18"],
        "http://127.0.0.1:8766/apagado": [f"{PAGE}:21"],
    }


def test_every_source_of_the_site_is_checked() -> None:
    """Whatever the pages cite today: each source's url, at the line of its `url:` key, and every
    Markdown link to the outside."""
    places = links.inventory(ROOT)
    cfg = config_mod.load(ROOT)
    sources = [s for page in read_site(cfg) for s in read_sources(cfg, page)[0] if s.url]
    assert sources, "ninguna fuente con url: la prueba no vería nada"
    for source in sources:
        where = f"{cfg.rel(cfg.docs_dir / source.page)}:{source.key_lines['url']}"
        assert where in places.get(str(source.url), []), (source.url, where)
    for page in sorted((ROOT / "docs").rglob("*.md")):
        for url in re.findall(r"\]\((https?://[^)\s]+)\)", page.read_text(encoding="utf-8")):
            assert url in places, (page, url)


def test_the_inventory_files_are_what_lychee_reads(tmp_path: Path) -> None:
    count = links.write_inventory(tmp_path / "enlaces", FIXTURE)
    listed = (tmp_path / "enlaces" / "enlaces.txt").read_text(encoding="utf-8").splitlines()
    assert len(listed) == count == 4
    places = json.loads((tmp_path / "enlaces" / "enlaces.json").read_text(encoding="utf-8"))
    assert list(places) == listed


# --- the issue from lychee's report --------------------------------------------------------------


def test_each_broken_link_is_named_with_its_page_and_line() -> None:
    notice = fixture_notice()
    assert notice["format"] == 1 and notice["count"] == 3
    body = notice["body"]
    for place in (f"{PAGE}:10", f"{PAGE}:20", f"{PAGE}:18", f"{PAGE}:21"):
        assert f"| `{place}` |" in body, place
    assert "/bien/" not in body and "docs/index.md" not in body
    assert "404 Not Found" in body and "Connection refused" in body
    assert notice["title"] == "Enlaces rotos: 3 en 1 página"


def test_without_spans_the_link_is_found_by_its_address() -> None:
    """lychee before 0.24 wrote no span; the address alone still finds its places."""
    old = copy.deepcopy(report())
    for entries in old["error_map"].values():
        for entry in entries:
            entry.pop("span")
    assert fixture_notice(old)["body"] == fixture_notice()["body"]


def test_a_clean_report_closes_the_issue() -> None:
    clean = {**report(), "error_map": {}, "timeout_map": {}}
    notice = fixture_notice(clean)
    assert notice["count"] == 0 and notice["closing"]


def test_a_timeout_is_a_broken_link() -> None:
    late = copy.deepcopy(report())
    late["timeout_map"] = {"enlaces.txt": late.pop("error_map")["enlaces.txt"][:1]}
    late["error_map"] = {}
    assert fixture_notice(late)["count"] == 1


def run_issue(folder: Path, tmp_path: Path) -> tuple[int, str, str]:
    output = tmp_path / "output"
    output.touch()
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "issue", str(folder)],
        env={"GITHUB_OUTPUT": str(output), "PATH": ""},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    return done.returncode, done.stdout + done.stderr, output.read_text(encoding="utf-8")


def test_the_step_writes_the_notice_as_one_output_line(tmp_path: Path) -> None:
    folder = tmp_path / "enlaces"
    links.write_inventory(folder, FIXTURE)
    (folder / "lychee.json").write_text(json.dumps(report()), encoding="utf-8")
    code, log, output = run_issue(folder, tmp_path)
    assert code == 0, log
    assert output.count("\n") == 1 and output.startswith("issue=")
    assert json.loads(output.removeprefix("issue=")) == fixture_notice()
    (folder / "lychee.json").unlink()
    code, log, _ = run_issue(folder, tmp_path)
    assert code == 1 and "::error title=Sin informe de lychee::" in log


def test_the_notices_job_files_the_links_issue() -> None:
    script, env = gs.script_of(weekly_jobs()["notices"])
    given = {k: "" for k, v in env.items() if "${{" in v}
    spec = json.dumps(fixture_notice())
    code, err, calls = gs.run(script, {**given, "NOTICES": env["NOTICES"], "LINKS": spec})
    assert code == 0, err
    [call] = calls
    assert call["create"]["labels"] == ["enlaces-rotos"]
    assert call["create"]["body"].startswith(MARKER) and f"`{PAGE}:21`" in call["create"]["body"]


# --- the job and lychee's configuration -------------------------------------------------------


def link_jobs() -> dict[str, tuple[str, dict[str, Any]]]:
    """Every job of every workflow that runs lychee."""
    found = {}
    for path in sorted(WORKFLOWS.glob("*.yml")):
        for name, job in rules.load(path.read_text(encoding="utf-8"))["jobs"].items():
            if rules.steps_using(job, "lycheeverse/lychee-action") or any(
                "lychee" in run for run in rules.runs(job)
            ):
                found[f"{path.name}:{name}"] = (name, job)
    return found


def test_one_weekly_job_checks_the_links_with_lychee() -> None:
    assert list(link_jobs()) == ["weekly.yml:links"]
    job = weekly_jobs()["links"]
    assert job["permissions"] == {"contents": "read"}
    [step] = rules.steps_using(job, "lycheeverse/lychee-action")
    given = step["with"]
    folder = "enlaces"
    assert given["args"].split() == ["--config", ".github/lychee.toml", f"{folder}/enlaces.txt"]
    assert given["format"] == "json" and given["output"] == f"{folder}/lychee.json"
    assert given["fail"] is False  # a broken link is a notice, not a failed job
    version = re.search(r"lychee (\d+\.\d+\.\d+)", (FIXTURE / "README.md").read_text())
    assert version and given["lycheeVersion"] == f"v{version.group(1)}"
    runs = rules.runs(job)
    assert f"python3 .ci/links.py inventory {folder}" in runs
    assert f"python3 .ci/links.py issue {folder}" in runs
    assert job["outputs"]["links-issue"] == "${{ steps.issue.outputs.issue }}"


def test_lychee_never_runs_in_the_build_or_the_tests() -> None:
    """No network there: lychee is named only by the weekly job and its own configuration."""
    places = [
        ROOT / "tasks.py",
        ROOT / "pyproject.toml",
        ROOT / "mkdocs.yml",
        ROOT / ".ci" / "run",
        *sorted((ROOT / "hooks").rglob("*.py")),
    ]
    assert not [str(p) for p in places if "lychee" in p.read_text(encoding="utf-8").lower()]


def excluded_hosts(text: str) -> list[tuple[str, str]]:
    """(pattern, reason) for each `exclude` entry of lychee's configuration; the reason is the
    comment on the line above it, empty when there is none."""
    block = text.split("exclude = [", 1)[1].split("\n]", 1)[0]
    found, reason = [], ""
    for raw in block.splitlines():
        line = raw.strip()
        if line.startswith("#"):
            reason = line.lstrip("# ")
        elif line:
            found.append((line.rstrip(",").strip("'\""), reason))
            reason = ""
    return found


def test_every_excluded_host_says_why_and_is_documented() -> None:
    text = CONFIG.read_text(encoding="utf-8")
    config = tomllib.loads(text)
    assert config["max_retries"] >= 1 and config["retry_wait_time"] >= 1
    hosts = excluded_hosts(text)
    assert [p for p, _ in hosts] == config["exclude"]
    assert all(reason for _, reason in hosts), hosts
    doc = CI_DOC.read_text(encoding="utf-8")
    for pattern, _ in hosts:
        host = re.sub(r"[^a-z.]", "", pattern.split(")?", 1)[-1].split("/", 1)[0]).strip(".")
        assert f"`{host}`" in doc, host


def test_the_reason_check_catches_a_bare_exclusion() -> None:
    text = CONFIG.read_text(encoding="utf-8").replace(
        "exclude = [\n", "exclude = [\n  '^https://sin-motivo\\.org/',\n"
    )
    assert ("^https://sin-motivo\\.org/", "") in excluded_hosts(text)
