"""Recording: run pages on a runner and write the recordings whose output changed, once a
second run in new processes printed the same (stability.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from docverify.core.config import Config, in_ci, today
from docverify.core.findings import Finding, Level
from docverify.core.kinds import Kind
from docverify.parsing.pages import Page
from docverify.running.executor import Executor
from docverify.running.protocol import BlockResult
from docverify.verifying import judge, proposal, stability
from docverify.verifying.outcome import Observation, Verification, tolerance
from docverify.verifying.proposal import Header, Proposal
from docverify.verifying.verify import execute


@dataclass
class Recorded:
    written: list[tuple[str, str]]  # (path, diff)
    unchanged: int
    findings: list[Finding]
    env: dict[str, str]
    run_twice: int = 0  # pages run a second time (stability.py) because they had outputs to write


@dataclass
class _PagePlan:
    """What recording one page would write: its blocks' proposals (verifying/proposal.py)."""

    page: Page
    proposals: list[Proposal] = field(default_factory=list)

    def outputs(self) -> list[Proposal]:
        """The proposals of a new or changed output, which the second run must match."""
        return [made for made in self.proposals if made.output is not None]


def record(
    config: Config,
    pages: list[Page],
    runner: str,
    executor: Executor,
    *,
    run: Callable[..., tuple[dict[str, BlockResult], dict[str, str]]] = execute,
) -> Recorded:
    """Write the recordings whose baseline no longer holds. Refuses under CI (a finding of kind
    `refused`, nothing run) and failed blocks.

    Plan, then apply: every page that would get a new or changed output runs a second time, in
    new page processes, and a page with a block whose two runs differ is refused whole
    (stability.py); only then is anything written. Pages with nothing to write run once.

    On gpu, a block whose output matches its cpu recording under the device rule gets no
    `.gpu.txt`: only the blocks that really differ are recorded (see baselines.py). `run`
    executes the blocks, as in verify.verify.
    """
    if in_ci():
        refused = Finding(
            Kind.REFUSED,
            "docverify record se niega a grabar con CI=true: las grabaciones se revisan y se "
            "confirman a mano.",
            "CI",
            0,
            "ejecútalo en local y confirma los cambios con git.",
        )
        return Recorded([], 0, [refused], {})
    results, env = run(config, pages, runner, executor)
    recorded = Recorded([], 0, [f for p in pages for f in p.findings], env)
    header = Header(env, today().isoformat())
    # Judged by the one loop (judge.py), the blocks that run on `runner`, without provenance.
    observed = {
        block.key: Observation(results.get(block.key))
        for page in pages
        for block in page.blocks
        if block.runs_on(runner)
    }
    judged = judge.verification(config, pages, runner, observed)
    plans = [_plan(config, page, judged, header, recorded) for page in pages]
    changed = [plan for plan in plans if plan.outputs()]
    if changed:
        again, _ = run(config, [plan.page for plan in changed], runner, executor)
        recorded.run_twice = len(changed)
        for plan in changed:
            if refusals := _unstable(config, runner, plan, results, again):
                recorded.findings.extend(refusals)
                plan.proposals.clear()
    for plan in plans:
        proposal.write(plan.proposals)
        recorded.written += [(config.rel(made.path), made.diff) for made in plan.proposals]
    return recorded


def _plan(
    config: Config, page: Page, judged: Verification, header: Header, recorded: Recorded
) -> _PagePlan:
    """What recording `page` would write from its blocks' verdicts; its findings and the
    blocks whose recording already holds go into `recorded` now."""
    plan = _PagePlan(page)
    for block in page.blocks:
        if (made := judged.outcomes.get(block.key)) is None:
            continue
        verdict = made.verdict
        # What is only reported (processes it left running) is shown, and blocks nothing.
        recorded.findings.extend(f for f in verdict.findings if f.level is not Level.ERROR)
        if failed := proposal.failures(verdict):
            recorded.findings.extend(failed)
        elif proposed := proposal.propose(config, block, verdict, made.recordings, header):
            plan.proposals.append(proposed)
        else:
            recorded.unchanged += 1
    return plan


def _unstable(
    config: Config,
    runner: str,
    plan: _PagePlan,
    first: dict[str, BlockResult],
    again: dict[str, BlockResult],
) -> list[Finding]:
    """The refusals of the page's new outputs that its second run did not print the same."""
    blocks = {block.key: block for block in plan.page.blocks}
    found = []
    for made in plan.outputs():
        block, body = blocks[made.key], made.output or ""
        second, tol = again.get(made.key), tolerance(config, block)
        if refusal := stability.unstable(config, block, runner, body, first[made.key], second, tol):
            found.append(refusal)
    return found
