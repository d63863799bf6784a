"""Writing executed blocks into a test project and verifying it."""

from __future__ import annotations

from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.core.policies import DEFAULT_CUDA
from docverify.parsing.pages import read_site
from docverify.running.executor import Executor
from docverify.running.protocol import BlockResult, BlockSpec
from docverify.verifying.outcome import Verification
from docverify.verifying.verify import verify


def block(code: str, block_id: str, extra: str = "") -> str:
    """An executed Python fence with id `block_id` and more options in `extra`."""
    return f'```python exec="on" id="{block_id}"{extra}\n{code.strip()}\n```\n'


def run(project, executor: Executor, runner: str = "cpu") -> Verification:
    """Verify every page of `project` (a conftest.Project) on `runner`."""
    return verify(project.config, read_site(project.config), runner, executor)


def kinds(findings: list[Finding]) -> list[Kind]:
    return [f.kind for f in findings]


def spec(code: str, **changes: object) -> BlockSpec:
    """What the engine sends a page process for one block of `code` (`changes` replace its
    defaults: session, seed…)."""
    made: BlockSpec = {
        "key": "p/b",
        "code": code,
        "filename": "b.py",
        "first_line": 1,
        "session": None,
        "timeout": 60.0,
        "output_limit": 10_000,
        "seed": 0,
        "hash_seed": 0,
        "device_policy": DEFAULT_CUDA,
        "show_last_value": True,
    }
    return {**made, **changes}  # type: ignore[typeddict-item]


def run_here(code: str, show_last_value: bool = True) -> BlockResult:
    """Run `code` as one block in this process (no fork, a fresh namespace), as a child does."""
    from docverify.running import child  # noqa: PLC0415 - imports torch

    return child.run_block(spec(code, show_last_value=show_last_value), {})
