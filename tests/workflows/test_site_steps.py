"""The scripts of `site` that decide what is published, run with a stand-in for `gh`.

Each step's `run:` is taken from docs.yml and executed as GitHub does (`bash -e`), with a `gh` that
answers what GitHub Pages or the commits API would: the script, not a copy of it, is what is tested.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from support import workflow_rules as rules

WORKFLOWS = Path(__file__).resolve().parents[2] / ".github" / "workflows"
SHA = "a" * 40


def step(step_id: str) -> dict:
    jobs = rules.load((WORKFLOWS / "docs.yml").read_text(encoding="utf-8"))["jobs"]
    found = [s for s in jobs["site"]["steps"] if s.get("id") == step_id]
    assert len(found) == 1, step_id
    return found[0]


def run_step(tmp_path: Path, step_id: str, gh: str) -> tuple[int, str, str]:
    """Run the step with `gh` replaced by a script whose body is `gh`."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "gh").write_text(f"#!/bin/sh\n{gh}\n", encoding="utf-8")
    (bin_dir / "gh").chmod(0o755)
    output = tmp_path / "output"
    output.touch()
    env = {
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "GITHUB_OUTPUT": str(output),
        "REPOSITORY": "duena/curso",
        "SHA": SHA,
        "GH_TOKEN": "sin-token",
    }
    done = subprocess.run(
        [shutil.which("bash") or "/bin/bash", "-e", "-c", str(step(step_id)["run"])],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=30,
    )
    return done.returncode, done.stdout + done.stderr, output.read_text(encoding="utf-8")


def test_the_published_address_comes_from_pages(tmp_path: Path) -> None:
    code, log, output = run_step(tmp_path, "pages", "echo https://duena.github.io/curso/")
    assert code == 0, log
    assert output == "url=https://duena.github.io/curso/\n"


@pytest.mark.parametrize(
    "gh",
    [
        "echo",  # Pages answers with no address
        'echo ""',
        "echo null",
        "echo 'gh: Not Found (HTTP 404)' >&2; exit 1",  # Pages is not enabled
    ],
    ids=["vacia", "cadena-vacia", "null", "sin-pages"],
)
def test_no_site_is_built_for_publishing_without_an_address(tmp_path: Path, gh: str) -> None:
    code, log, output = run_step(tmp_path, "pages", gh)
    assert code == 1
    assert "::error title=Sin dirección de GitHub Pages::" in log, log
    assert "Settings → Pages" in log and "127.0.0.1" in log
    assert output == ""


def test_the_pages_step_runs_where_the_site_is_published() -> None:
    """The step that fails without an address runs on every push to main, before each build."""
    jobs = rules.load((WORKFLOWS / "docs.yml").read_text(encoding="utf-8"))["jobs"]
    steps = jobs["site"]["steps"]
    pages = next(i for i, s in enumerate(steps) if s.get("id") == "pages")
    assert rules.split_top(rules.expression(steps[pages]["if"]), "&&") == [
        "github.event_name == 'push'",
        "github.ref == 'refs/heads/main'",
    ]
    builds = [i for i, s in enumerate(steps) if "mkdocs build" in str(s.get("run", ""))]
    assert builds and all(i > pages for i in builds)


@pytest.mark.parametrize(("head", "publish"), [(SHA, "true"), ("b" * 40, "false")])
def test_only_the_head_of_main_is_published(tmp_path: Path, head: str, publish: str) -> None:
    code, log, output = run_step(tmp_path, "head", f"echo {head}")
    assert code == 0, log
    assert output == f"publish={publish}\n"
    assert ("::notice title=No se publica este commit::" in log) is (publish == "false")


def test_a_failed_head_lookup_publishes_nothing(tmp_path: Path) -> None:
    code, _, output = run_step(tmp_path, "head", "exit 1")
    assert code != 0
    assert "publish=true" not in output
