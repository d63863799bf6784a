"""What a block's panel says about a runner this build did not run it on, and only what is known.

In order of evidence: the runner's observation from its check report for this same code (CI's
publishing build has the gpu job's report), else its recording (with its date and device, never
a ✓: no run of this build observed it), else the baseline it compares with (the cpu output,
under the device rule), else nothing yet.
"""

from __future__ import annotations

from dataclasses import dataclass

from docverify.core.config import LABEL
from docverify.core.dates import spanish_date_of
from docverify.core.status import Status
from docverify.verifying import baselines, compare
from docverify.verifying.outcome import Outcome

_SAME_BUT_DEVICE = ", misma salida salvo el argumento device='cuda:N'"


@dataclass(frozen=True)
class OtherView:
    runner: str
    mark: str  # for the panel title: "GPU ✓", "GPU: grabada", "GPU: compara con CPU"…
    text: str | None  # the output to show; None when this runner has none of its own
    torch: str | None
    when: str  # provenance when shown in its own panel (or tab)
    same: bool = False  # the first panel already shows this output
    same_when: str = ""  # provenance when shown with the first panel
    note: str = ""  # what is known when there is no output of its own


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
        where = (
            "en la ejecución de CI de este commit"
            if peer.run_url
            else "según un informe local de docverify check"
        )
        when = f"observada el {spanish_date_of(peer.date)} en {peer.device}, {where}"
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
            f"{label}: grabada",
            compare.normalise(recording.body),
            recording.header.get("torch"),
            when,
            same=same,
            same_when=when + (", misma salida" if exact else _SAME_BUT_DEVICE),
        )
    source = baselines.source_runner(outcome.block, runner, outcome.recordings)
    if source is not None and source != runner:
        return OtherView(
            runner,
            f"{label}: compara con {LABEL[source]}",
            None,
            None,
            "",
            note=(
                f"{label} · sin grabación propia: el runner {label} compara este bloque con la "
                f"salida de {LABEL[source]} ({baselines.DEVICE_RULE}); esta construcción no tiene "
                f"su observación"
            ),
        )
    return OtherView(runner, f"{label}: pendiente", None, None, "")


def _device_free(text: str, runner: str) -> str:
    """On gpu, `text` as the device rule compares it (suffixes joined, device dropped)."""
    text = compare.normalise(text)
    return baselines.device_view(text).text if runner == "gpu" else text
