"""Writing executed blocks into a test project and verifying it."""

from __future__ import annotations

from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_site
from docverify.running.executor import Executor
from docverify.verifying.outcome import Report
from docverify.verifying.verify import verify


def block(code: str, block_id: str, extra: str = "") -> str:
    """An executed Python fence with id `block_id` and more options in `extra`."""
    return f'```python exec="on" id="{block_id}"{extra}\n{code.strip()}\n```\n'


def run(project, executor: Executor, runner: str = "cpu") -> Report:
    """Verify every page of `project` (a conftest.Project) on `runner`."""
    return verify(project.config, read_site(project.config), runner, executor)


def kinds(findings: list[Finding]) -> list[Kind]:
    return [f.kind for f in findings]
