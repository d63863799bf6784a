"""One test per executed block of the real site, on the current runner (DOCVERIFY_RUNNER)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, Built
from docverify.core import config as config_mod
from docverify.core import request
from docverify.core.config import in_ci
from docverify.core.findings import errors
from docverify.parsing.pages import read_site
from docverify.running.executor import Executor
from docverify.site import checks as site
from docverify.verifying.cache import Cache
from docverify.verifying.outcome import Verification
from docverify.verifying.verify import verify
from support import clock
from support import site as support_site

CONFIG = config_mod.load(ROOT)
PAGES = read_site(CONFIG)
RUNNER = request.asked_runner()
if RUNNER == "auto":
    RUNNER = Executor(1).resolve_runner("auto")
BLOCKS = [b for p in PAGES for b in p.blocks if b.runs_on(RUNNER)]
# On the cpu runner the report judges what the session's build stored (`report`): cheap
# enough for each pytest-xdist worker to make its own, and saying that the module uses that
# build puts it after the tests that need no site (conftest's order) instead of waiting for
# the build at the start of the run. On another runner, and in CI (which keeps no cache: each
# worker would run every block again), it verifies every block: one worker runs the module.
ONE_WORKER = RUNNER != "cpu" or in_ci()
pytestmark = [pytest.mark.xdist_group("blocks")] if ONE_WORKER else []
if RUNNER == "cpu":
    pytestmark.append(pytest.mark.usefixtures("built"))


@pytest.fixture(scope="module")
def report(executor: Executor, request: pytest.FixtureRequest) -> Verification:
    """Every block's verdict on this runner. On the cpu runner the session's strict build (conftest
    `built`, of a copy of this site) has just run every block with DOCVERIFY_CACHE=0, which stores
    what each page printed in that copy's cache: the verdicts here judge those outputs again, and
    a page the cache lacks (CI=true keeps none) runs again. On another runner every block runs."""
    if RUNNER != "cpu":
        return verify(CONFIG, PAGES, RUNNER, executor)
    built: Built = request.getfixturevalue("built")
    config = config_mod.load(built.root)
    ours = {p.rel for p in PAGES}
    pages = [p for p in read_site(config) if p.rel in ours]
    assert [p.rel for p in pages] == [p.rel for p in PAGES]
    cache = Cache.for_config(config)
    verified = verify(config, pages, RUNNER, executor, cache=cache)
    if not in_ci():  # the build kept a cache: nothing ran twice
        assert cache.hits == len(BLOCKS) and not cache.misses, (cache.hits, cache.misses)
    return verified


@pytest.mark.parametrize("key", [b.key for b in BLOCKS])
def test_block(report: Verification, key: str) -> None:
    outcome = report.outcomes[key]
    assert not outcome.findings, "\n\n".join(f.format() for f in outcome.findings)
    assert outcome.status == "ok"


def test_site_has_no_errors(report: Verification) -> None:
    """Judged on the pinned day (support.clock): a source due for review soon is INFO, never an
    error here; the build and CI judge the real day."""
    day = clock.site_day(ROOT)
    whole = site.per_page(CONFIG, PAGES, day).findings + site.site_wide(CONFIG, PAGES, None)
    findings = errors(whole + report.findings)
    assert not findings, "\n\n".join(f.format() for f in findings)


def test_collector_found_the_blocks() -> None:
    """A collector that finds nothing must fail, not pass: every executed fence of docs/ is
    one collected block."""
    every = [b for p in PAGES for b in p.blocks]
    assert len(every) == support_site.executed_fences(ROOT) > 0
    assert {p.rel for p in PAGES if p.blocks} == {
        p.relative_to(CONFIG.docs_dir).as_posix()
        for p in CONFIG.docs_dir.rglob("*.md")
        if support_site.executed_fences_in(p)
    }


@pytest.mark.slow
def test_pytest_verifies_as_many_blocks_as_the_build_executes(built: Built) -> None:
    """The build executes exactly the blocks this collector finds (on the built copy)."""
    executed = json.loads((built.site / "verificacion.json").read_text(encoding="utf-8"))
    pages = read_site(config_mod.load(built.root))
    assert executed["runner"] == RUNNER
    assert sorted(executed["executed"]) == sorted(
        b.key for p in pages for b in p.blocks if b.runs_on(RUNNER)
    )


def test_markdown_docs_skips_executed_blocks_and_runs_the_rest(tmp_path: Path) -> None:
    page = tmp_path / "pagina.md"
    page.write_text(
        '```python exec="on" id="x"\nraise SystemExit("no debe correr")\n```\n\n'
        "```python\nassert 1 + 1 == 2\n```\n\n```python\nassert 1 + 1 == 3\n```\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "docverify.integrations.pytest_plugin",
            "--markdown-docs",
            "-o",
            "addopts=",
            "-o",
            "filterwarnings=",
            str(page),
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert "1 failed, 1 passed" in result.stdout, result.stdout + result.stderr
