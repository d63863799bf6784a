"""What a block's panel says about a runner this build did not run it on, and only what is known.

In order of evidence: the runner's observation from its report for this same code (CI's
publishing build has the gpu job's report), else its recording (with its date and device, never
a ✓: no run of this build observed it), else «aún sin ejecutar»: with what its run will be
compared with (the cpu output, under the device rule) or, for a block whose device marks ask
for its own GPU recording, that it needs one and why. Everything here is read from the runner's
verdict (verifying/judge.py): the words are this module's, the decisions are the judge's.
"""

from __future__ import annotations

from dataclasses import dataclass

from docverify.core.config import LABEL
from docverify.core.dates import spanish_date_of
from docverify.core.policies import DEFAULT_CUDA, DEVICE_LABEL
from docverify.core.status import Status
from docverify.output import coverage_text
from docverify.parsing.pages import Block
from docverify.verifying.outcome import Agreement, Provenance, Verdict

_SAME_BUT_DEVICE = ", misma salida salvo el argumento device='cuda:N'"


@dataclass(frozen=True)
class OtherView:
    runner: str
    mark: str  # for the panel title: "GPU ✓", "GPU: aún sin ejecutar"…
    text: str | None  # the output to show; None when this runner has none of its own
    torch: str | None
    when: str  # provenance when shown in its own panel (or tab)
    same: bool = False  # the first panel already shows this output
    same_when: str = ""  # provenance when shown with the first panel
    note: str = ""  # what is known when there is no output of its own


def reported(seen: Provenance) -> str:
    """Provenance of an output read from a report, never observed by this build."""
    where = (
        "en la ejecución de CI de este commit"
        if seen.run_url
        else "según una comprobación local (docverify check)"
    )
    split = f" ({seen.shards} partes)" if seen.shards and seen.shards != "1" else ""
    return f"observada el {spanish_date_of(seen.date)} en {seen.device}, {where}{split}"


def other(block: Block, verdict: Verdict) -> OtherView:
    """The view of `verdict.runner` for `block` beside the panel's first output."""
    runner, label = verdict.runner, LABEL[verdict.runner]
    same = verdict.agreement in (Agreement.SAME, Agreement.SAME_BUT_DEVICE)
    also = ", misma salida" if verdict.agreement == Agreement.SAME else _SAME_BUT_DEVICE
    if verdict.provenance is not None:  # observed by its report
        when = reported(verdict.provenance)
        ok = verdict.status == Status.OK
        return OtherView(
            runner,
            f"{label} ✓" if ok else f"{label} ✗ ({verdict.status.label})",
            verdict.text,
            verdict.provenance.torch,
            when,
            same=same,
            same_when=when + also,
        )
    recording = verdict.recording
    if recording is not None:
        when = (
            f"salida del {spanish_date_of(recording.header.get('date'))} en "
            f"{recording.header.get('device', '?')}, {coverage_text.RECORDED}"
        )
        return OtherView(
            runner,
            f"{label}: {coverage_text.RECORDED}",
            verdict.text,
            recording.header.get("torch"),
            when,
            same=same,
            same_when=when + also,
        )
    # Neither observed for this version nor recorded: never a ✓, only «pendiente» and, for a
    # block whose device marks ask for it, that its output there will be its own; a GPU device
    # policy other than the default, folded. What that means and why is said once, on the page
    # that explains the verification; each block's reasons are in the report's table.
    own = f", {coverage_text.NEEDS_OWN}" if verdict.reference.needs_own else ""
    policy = (
        f"{label}: {DEVICE_LABEL[block.device_policy]}"
        if runner == "gpu" and block.device_policy != DEFAULT_CUDA
        else ""
    )
    return OtherView(runner, f"{label}: {coverage_text.NOT_RUN}{own}", None, None, "", note=policy)
