"""The report of a verification run: what `docverify check --report` and `canary --report` keep.

A failed CI run is read later, from an artifact. Its report keeps the run's findings, each with
where an unsharded run puts it, the verdict of every block, and what each block printed with its
code's digests (digests.py) and the run's provenance, so that `docverify accept` can adopt it,
a build can show it, and the reports of a run's shards can be merged (merge.py). Its format is
report_json.py's; report_folder.py lays out its folder.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from docverify.core import device_marks
from docverify.core.config import Config, today
from docverify.core.findings import errors
from docverify.parsing.pages import Page
from docverify.report import digests, report_json
from docverify.report.report_json import Canary, Entry, Noted, Report, Sharded
from docverify.verifying.outcome import Outcome, Verification


def run_url(environ: Mapping[str, str] | None = None) -> str:
    """The CI run's URL from GitHub's variables, or "" outside GitHub Actions."""
    env = os.environ if environ is None else environ
    parts = [env.get(n, "").strip() for n in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY")]
    run_id = env.get("GITHUB_RUN_ID", "").strip()
    if not all(parts) or not run_id:
        return ""
    return f"{parts[0].rstrip('/')}/{parts[1]}/actions/runs/{run_id}"


def report(
    folder: Path,
    verification: Verification,
    *,
    config: Config,
    every: list[Page] | None = None,
    shard: Sharded | None = None,
    durations: dict[str, float] | None = None,
    canary: Canary | None = None,
) -> Report:
    """The report of `verification`, to be written in `folder`. `every` is every page the run
    was asked for (a shard verifies some of them; by default, the verification's pages)."""
    every = verification.pages if every is None else every
    noted = [
        Noted(finding, part, page)
        for finding, (part, page) in zip(
            verification.findings, parts(verification, config), strict=True
        )
    ]
    return Report(
        path=report_json.path_in(folder),
        runner=verification.runner,
        env=dict(verification.env),
        date=today().isoformat(),
        run_url=run_url(),
        observations=entries(
            config, verification.pages, verification.runner, verification.outcomes
        ),
        pages=tuple(p.rel for p in verification.pages),
        blocks={key: o.status for key, o in sorted(verification.outcomes.items())},
        errors=len(errors(verification.findings)),
        findings=tuple(noted),
        all_pages=[p.rel for p in every],
        site_sha256=digests.site_digest(config, every, verification.runner),
        shard=shard,
        durations=durations,
        canary=canary,
    )


def entries(
    config: Config, pages: list[Page], runner: str, outcomes: Mapping[str, Outcome]
) -> dict[str, Entry]:
    """The `observations` of a report: every block that ran and printed something, with the
    digests of its code and options and its result (without its output: the entry's own)."""
    table: dict[str, Entry] = {}
    for page in pages:
        options = digests.setup_digests(config, page, runner)
        for key, (own, inputs) in digests.block_digests(page, runner).items():
            outcome = outcomes.get(key)
            if outcome is None or outcome.observed is None:
                continue
            result = outcome.result or {}
            marks = result.get(report_json.MARKS) if runner == device_marks.RUNNER else None
            table[key] = Entry(
                key=key,
                status=outcome.status,
                output=outcome.observed,
                code_sha256=own,
                inputs_sha256=inputs,
                error=str(result.get("error") or result.get("exception") or ""),
                spec_sha256=options[key],
                result=kept(outcome),
                device_dependent=device_marks.ordered(marks or ()),
            )
    return table


def kept(outcome: Outcome) -> dict[str, object]:
    """What an entry keeps of a block's result: as observed, with each expectation as the
    judge decided it (whether it held), never the cache's date (report_json.NOT_KEPT)."""
    result = outcome.result or {}
    kept: dict[str, object] = {k: v for k, v in result.items() if k not in report_json.NOT_KEPT}
    if "expectations" in kept:
        kept["expectations"] = [dict(e) for e in outcome.expectations]
    return kept


def parts(verification: Verification, config: Config) -> list[tuple[str, str | None]]:
    """(part, page) of each finding of `verification`, in order: `head` for the configuration's
    (every shard reports them), `page` and `block` for those of a page, `tail` for the rest
    (the whole site's, which only shard 1 reports). Merged shards keep this order (merge.py)."""
    head = {id(f) for f in config.findings}
    pages = {id(f): p.rel for p in verification.pages for f in p.findings}
    blocks = {id(f): o.block.page for o in verification.outcomes.values() for f in o.findings}
    found: list[tuple[str, str | None]] = []
    for finding in verification.findings:
        if id(finding) in head:
            found.append(("head", None))
        elif id(finding) in pages:
            found.append(("page", pages[id(finding)]))
        elif id(finding) in blocks:
            found.append(("block", blocks[id(finding)]))
        else:
            found.append(("tail", None))
    return found
