"""One test per executed block of the real site, on the current runner (DOCVERIFY_RUNNER)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT
from docverify.core import config as config_mod
from docverify.parsing.pages import read_site
from docverify.running.executor import Executor
from docverify.site import checks as site
from docverify.verifying.verify import Report, verify

CONFIG = config_mod.load(ROOT)
PAGES = read_site(CONFIG)
RUNNER = config_mod.runner_from_env()
if RUNNER == "auto":
    RUNNER = Executor(1).resolve_runner("auto")
BLOCKS = [b for p in PAGES for b in p.blocks if b.runs_on(RUNNER)]


@pytest.fixture(scope="module")
def report(executor: Executor) -> Report:
    return verify(CONFIG, PAGES, RUNNER, executor)


@pytest.mark.parametrize("key", [b.key for b in BLOCKS])
def test_block(report: Report, key: str) -> None:
    outcome = report.outcomes[key]
    assert not outcome.findings, "\n\n".join(f.format() for f in outcome.findings)
    assert outcome.status == "ok"


def test_site_has_no_findings(report: Report) -> None:
    findings = site.check(CONFIG, PAGES) + report.findings
    assert not findings, "\n\n".join(f.format() for f in findings)


def test_collector_found_the_blocks() -> None:
    # A collector that finds nothing must fail, not pass: the two articles have 14 blocks.
    assert len(BLOCKS) >= 14
    assert {p.rel for p in PAGES if p.blocks} >= {
        "articulos/primer-ejercicio.md",
        "articulos/arquitectura-autograd.md",
    }


@pytest.mark.slow
def test_pytest_verifies_as_many_blocks_as_the_build_executes(built_site: Path) -> None:
    executed = json.loads((built_site / "verificacion.json").read_text(encoding="utf-8"))
    assert executed["runner"] == RUNNER
    assert sorted(executed["executed"]) == sorted(b.key for b in BLOCKS)


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
