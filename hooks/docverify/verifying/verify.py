"""Verification here: run the blocks of some pages on a runner, and judge each output.

The blocks run in page processes (running/), with the local cache when given (cache.py); the
judge (judge.py) decides each block's verdict, as it does for the outputs of a report.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable

from docverify.core.config import Config, today
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing.pages import Page
from docverify.running.executor import Executor, PageJob
from docverify.running.protocol import BlockResult
from docverify.running.specs import spec
from docverify.verifying import judge
from docverify.verifying.cache import Cache
from docverify.verifying.outcome import Observation, Verification, provenance


def execute(
    config: Config, pages: list[Page], runner: str, executor: Executor, cache: Cache | None = None
) -> tuple[dict[str, BlockResult], dict[str, str]]:
    """Run every block of `pages` that runs on `runner`; return results and the environment.

    With a cache, pages whose key is unchanged are not run; the others run whole, and each one
    whose blocks all ran without failure is stored (see cache.py).
    """
    env: dict[str, str] = {}
    jobs = [
        PageJob(page.rel, runner, [spec(config, b) for b in page.blocks if b.runs_on(runner)])
        for page in pages
    ]
    cached: dict[str, BlockResult] = {}
    if cache is not None:
        todo = []
        for job in (j for j in jobs if j.blocks):
            hit = cache.load(job)
            if hit is None:
                todo.append(job)
            else:
                cached.update(hit[0])
                env.update(hit[1])
        jobs = todo
    results = executor.run(jobs, on_env=env.update)
    if cache is not None:
        raises = {b.key: b.options.get("raises") for page in pages for b in page.blocks}
        for job in jobs:
            cache.store(job, results, env, raises)
    return {**cached, **results}, env


def verify(
    config: Config,
    pages: list[Page],
    runner: str,
    executor: Executor,
    *,
    run: Callable[..., tuple[dict[str, BlockResult], dict[str, str]]] = execute,
    cache: Cache | None = None,
    execute_blocks: bool = True,
    day: dt.date | None = None,
) -> Verification:
    """Run, compare with the recordings of `runner`, and collect every finding of the run.

    Findings and outcomes follow page order, then block order, whatever order pages finish in.
    With `execute_blocks=False` nothing runs and an error says so: a build with execution off
    can be measured (docverify bench) but never passes as verified, not even with `-q --strict`
    (MkDocs does not count warnings under -q).
    """
    day = day or today()
    if cache is not None:
        run = functools.partial(run, cache=cache)
    results, env = run(config, pages, runner, executor) if execute_blocks else ({}, {})
    findings = [f for page in pages for f in page.findings]
    if not execute_blocks:
        findings.append(
            Finding(
                Kind.EXECUTION_DISABLED,
                "DOCVERIFY_EXECUTE=0: ningún bloque se ejecutó ni se "
                "verificó; las salidas mostradas son las grabadas.",
                "DOCVERIFY_EXECUTE",
                1,
                "quita DOCVERIFY_EXECUTE=0 (solo sirve para medir con docverify bench).",
            )
        )
    if not execute_blocks:
        return unrun(config, pages, runner, findings)

    observed = {
        block.key: Observation(result, provenance(runner, env, result, day) if result else None)
        for page in pages
        for block in page.blocks
        for result in [results.get(block.key)]
    }
    return judge.verification(config, pages, runner, observed, env=env, findings=findings)


def unrun(
    config: Config, pages: list[Page], runner: str, findings: list[Finding] | None = None
) -> Verification:
    """A verification that runs nothing: every block not run, with what its recordings say."""
    return judge.verification(config, pages, runner, None, findings=findings or ())
