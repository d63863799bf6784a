"""The recording a verdict calls for: proposed in one place, written in one place.

Every command that writes a recording first has the judge (judge.py) decide the block's
verdict, whatever the output came from: `docverify record` (a run here), `docverify accept` and
`docverify review` (a report's entries), and the canary (what adopting its report would
change). `propose` turns that verdict into the recording it calls for: its path, its whole text
(header included) and the diff against what is there; `write` is the one place a recording file
is written, and `remove` the one place one is deleted (`docverify prune --yes`: a recording whose
block is gone). Commands show proposals, ask about them, or write them: they decide nothing.

Policy. A block whose verdict has an error that recording cannot fix (`failures`: it failed,
an expectation does not hold, its graph cannot be drawn) gets nothing. An output that matches
its baseline (maybe the cpu recording, under the device rule) gets nothing either, except on
cpu when the recording's header does not record the run's device marks: then that header line
alone changes. Any other output gets the runner's own recording: the output merged with the
old one (compare.merge keeps each recorded line that still matches, [..] markers included),
under a header that says where and when it was observed. Its diff is against the recording the
block is compared with today (its own, or the cpu one under the device rule), or against
nothing when there is none.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from docverify.core import device_marks, device_rule
from docverify.core.config import Config
from docverify.core.files import write_atomic
from docverify.core.findings import Finding, errors
from docverify.core.kinds import Kind
from docverify.core.status import Status
from docverify.parsing.pages import Block
from docverify.verifying import compare, recordings
from docverify.verifying.outcome import Verdict, tolerance
from docverify.verifying.recordings import Recording

# A verdict's errors that recording fixes: they never stop a block from being recorded.
RECORDED = (
    Kind.MISSING_RECORDING,
    Kind.DIVERGENCE,
    Kind.VOLATILE_DIVERGENCE,
    Kind.DEVICE_MARKS,
)


@dataclass(frozen=True)
class Header:
    """What a written recording's header says of where its output was observed."""

    env: Mapping[str, str]  # torch, python, device
    date: str  # ISO date of the run
    origin: str = ""  # how it got here when not recorded here (accept: which report)
    run: str = ""  # the CI run that observed it


@dataclass(frozen=True)
class Proposal:
    """One recording file a verdict calls for."""

    key: str  # the block's
    path: Path
    text: str  # the file's whole new text, header included
    diff: str  # against what is there (see the policy)
    output: str | None  # the new body; None when only the header's device marks line changes


def failures(verdict: Verdict) -> list[Finding]:
    """The verdict's errors that recording cannot fix: nothing of its block is written."""
    return [f for f in errors(verdict.findings) if f.kind not in RECORDED]


def propose(
    config: Config,
    block: Block,
    verdict: Verdict,
    recs: Mapping[str, Recording],
    header: Header,
) -> Proposal | None:
    """The recording `verdict` calls for (`recs`: the block's recordings, as judged), or None:
    nothing observed, an error recording cannot fix, or a baseline that holds."""
    runner, result = verdict.runner, verdict.result
    if result is None or failures(verdict):
        return None
    own = recs.get(runner)
    marks = device_marks.kept(
        runner, device_marks.ordered(result.get(device_marks.RESULT_KEY) or ())
    )
    if verdict.status == Status.OK:
        if own is None or runner != device_marks.RUNNER or own.marks == marks:
            return None
        before, after = recordings.with_marks(own, marks)  # that line alone
        label = config.rel(own.path)
        diff = compare.diff(before, after, f"{label} (cabecera actual)", f"{label} (observada)")
        return Proposal(block.key, own.path, after, diff, None)
    body = compare.merge(own.body if own else None, result["output"], tolerance(config, block))
    path = recordings.path_for(config, block, runner)
    provenance = {"origin": header.origin, "run": header.run}
    text = recordings.render(block, runner, dict(header.env), header.date, body, provenance, marks)
    source = verdict.reference.runner  # the judge's baseline: this runner's, or its fallback's
    baseline = recs.get(source) if source else None
    if baseline is None:
        before, label = "", f"{config.rel(path)} (no existe)"
    else:
        rule = f", con la {device_rule.NAME}" if source != runner else ""
        before, label = baseline.body, f"{config.rel(baseline.path)} (referencia actual{rule})"
    diff = compare.diff(before, body, label, f"{config.rel(path)} (observada en {runner})")
    return Proposal(block.key, path, text, diff, body)


def write(proposals: Iterable[Proposal]) -> list[Path]:
    """Write each proposed recording (the one place a recording file is written); the paths."""
    written = []
    for proposal in proposals:
        write_atomic(proposal.path, proposal.text)
        written.append(proposal.path)
    return written


def remove(paths: Iterable[Path]) -> list[Path]:
    """Delete the recordings at `paths`, whose blocks are gone (site/usage.py `orphans` finds
    them; the one place a recording file is deleted); the paths."""
    removed = []
    for path in paths:
        path.unlink()
        removed.append(path)
    return removed
