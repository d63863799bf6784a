"""What a block's panel says about a runner this build did not run it on, and only what is known.

In order of evidence: the runner's observation from its check report for this same code (CI's
publishing build has the gpu job's report), else its recording (with its date and device, never
a ✓: no run of this build observed it), else «aún sin ejecutar»: with what its run will be
compared (the cpu output, under the device rule) or, for a block whose device marks ask for its
own GPU recording, that it needs one and why.
"""

from __future__ import annotations

from dataclasses import dataclass

from docverify.core import device_marks
from docverify.core.config import LABEL
from docverify.core.dates import spanish_date_of
from docverify.core.policies import DEFAULT_CUDA, DEVICE_LABEL
from docverify.core.status import Status
from docverify.output import coverage
from docverify.verifying import baselines, compare
from docverify.verifying.outcome import Outcome

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


def reported(date: str, device: str, run_url: str, shards: str = "") -> str:
    """Provenance of an output read from a check report, never observed by this build."""
    where = (
        "en la ejecución de CI de este commit"
        if run_url
        else "según un informe local de docverify check"
    )
    split = f" ({shards} partes)" if shards and shards != "1" else ""
    return f"observada el {spanish_date_of(date)} en {device}, {where}{split}"


def other(
    outcome: Outcome,
    runner: str,
    first_runner: str | None,
    first_text: str | None,
    tol: compare.Tolerance,
) -> OtherView:
    """The view of `runner` for `outcome`, given the first panel (runner, text) if any."""
    label = LABEL[runner]
    peer = outcome.peers.get(runner)
    if peer is not None:
        when = reported(peer.date, peer.device, peer.run_url)
        ok = peer.status == Status.OK
        same = (
            first_text is not None
            and first_runner != runner
            and _device_free(peer.output, runner) == _device_free(first_text, runner)
        )
        exact = first_text is not None and compare.normalise(peer.output) == first_text
        return OtherView(
            runner,
            f"{label} ✓" if ok else f"{label} ✗ ({peer.status.label})",
            peer.output,
            peer.torch,
            when,
            same=same,
            same_when=when + (", misma salida" if exact else _SAME_BUT_DEVICE),
        )
    recording = outcome.recordings.get(runner)
    if recording is not None:
        when = (
            f"grabada el {spanish_date_of(recording.header.get('date'))} en "
            f"{recording.header.get('device', '?')}; no observada en esta construcción"
        )
        same = first_text is not None and compare.matches(
            _device_free(recording.body, runner), _device_free(first_text, runner), tol
        )
        exact = first_text is not None and compare.matches(recording.body, first_text, tol)
        return OtherView(
            runner,
            f"{label}: {coverage.RECORDED}",
            compare.normalise(recording.body),
            recording.header.get("torch"),
            when,
            same=same,
            same_when=when + (", misma salida" if exact else _SAME_BUT_DEVICE),
        )
    return not_run(outcome, runner)


def not_run(outcome: Outcome, runner: str) -> OtherView:
    """The view of a runner that has neither observed the block for this version nor recorded
    it: never a ✓, and what its run will be compared with, in words a learner understands."""
    label, block = LABEL[runner], outcome.block
    policy = (
        f" ({DEVICE_LABEL[block.device_policy]})"
        if runner == "gpu" and block.device_policy != DEFAULT_CUDA
        else ""
    )
    mark = f"{label}: {coverage.NOT_RUN}{policy}"
    if reasons := baselines.needs_own(block, runner, outcome.recordings):
        why = device_marks.text(reasons)
        return OtherView(
            runner,
            f"{mark} · {coverage.NEEDS_OWN} ({why})",
            None,
            None,
            "",
            note=(
                f"{label} · {coverage.NOT_RUN}: este bloque {why}, así que en una GPU puede "
                f"imprimir otra cosa que en {LABEL[baselines.FALLBACK[runner]]}; su salida de "
                f"{label} tendrá que grabarse aparte"
            ),
        )
    source = baselines.source_runner(block, runner, outcome.recordings)
    if source is not None and source != runner:
        return OtherView(
            runner,
            mark,
            None,
            None,
            "",
            note=(
                f"{label} · {coverage.NOT_RUN}: cuando un runner {label} lo ejecute, su salida "
                f"tendrá que coincidir con la de {LABEL[source]}, salvo el argumento "
                "device='cuda:N'"
            ),
        )
    return OtherView(runner, mark, None, None, "")


def _device_free(text: str, runner: str) -> str:
    """On gpu, `text` as the device rule compares it (suffixes joined, device dropped)."""
    text = compare.normalise(text)
    return baselines.device_view(text).text if runner == "gpu" else text
