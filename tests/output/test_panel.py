"""output.panel: the verification line under an output folds what it has to add, and shows it
open when the reader must look (a failure, a missing recording), closed otherwise.

One throwaway page, run for real: four blocks with an expectation (so each line has something
to fold), whose recordings make one verify, one diverge, one lack its recording and one end
with the error it expects; and a fifth that verifies with nothing to fold.
"""

from __future__ import annotations

import re

import pytest
from conftest import Project
from docverify.output import panel
from docverify.parsing.pages import read_site
from docverify.running.executor import Executor
from docverify.verifying.record import record
from support.blocks import block, run

pytestmark = pytest.mark.usefixtures("local_author")

RAISES = ' raises="ValueError: mal"'


def _page(changed: str) -> str:
    return (
        block("print(1)  # Expectativa: 1", "bien")
        + block(f"print({changed})  # Expectativa: {changed}", "cambia")
        + block("print(3)  # Expectativa: 3", "nueva")
        + block('print(4)  # Expectativa: 4\nraise ValueError("mal")', "falla", RAISES)
        + block("print(5)", "sola")
    )


def _check_tags(project: Project, executor: Executor) -> dict[str, tuple[str, str]]:
    """Each block's panel kind and the opening tag of its verification line."""
    shown = {}
    for key, outcome in run(project, executor).outcomes.items():
        markdown = panel.render_outcome(outcome)
        kind = re.match(r"!!! (\w+) dv-output", markdown)
        tag = re.search(r'<(?:details|p) class="dv-check"[^>]*>', markdown)
        assert kind and tag, markdown
        shown[key.split("/")[1]] = (kind.group(1), tag.group())
    return shown


def test_the_line_opens_on_a_failure_and_a_missing_recording_only(
    project: Project, executor: Executor
) -> None:
    project.page("a.md", _page("2"))
    cfg = project.config
    assert len(record(cfg, read_site(cfg), "cpu", executor).written) == 5
    (cfg.snippets_dir / "a" / "nueva.cpu.txt").unlink()
    project.page("a.md", _page("20"))
    assert _check_tags(project, executor) == {
        "bien": ("success", '<details class="dv-check">'),
        "cambia": ("failure", '<details class="dv-check" open>'),
        "nueva": ("warning", '<details class="dv-check" open>'),
        "falla": ("example", '<details class="dv-check">'),
        "sola": ("success", '<p class="dv-check">'),
    }
