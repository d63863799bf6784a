"""What a block's panel says of a runner this build did not run it on (output/runner_view.py).

Verdicts are built by hand, as the judge would give them; every expected view is written out
here in full, in the Spanish a reader sees (a shown output is normalised: no final newline).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from docverify.core.policies import AS_WRITTEN, DEFAULT_CUDA
from docverify.core.status import Status
from docverify.output.runner_view import OtherView, other, reported
from docverify.parsing.pages import Block
from docverify.running.protocol import BlockResult
from docverify.verifying.outcome import Agreement, Provenance, Reference, SeenIn, Verdict
from docverify.verifying.recordings import Recording

SAME_BUT_DEVICE = ", misma salida salvo el argumento device='cuda:N'"
LOCAL = "según una comprobación local (docverify check)"
CI = "en la ejecución de CI de este commit"


def block(policy: str = DEFAULT_CUDA) -> Block:
    return Block("a.md", "b", "print(1)\n", Path("a.md"), 3, 2, device_policy=policy)


def seen(run_url: str = "", shards: str = "", date: str = "2026-03-02") -> Provenance:
    return Provenance("gpu", "2.13.0", "NVIDIA H100", date, SeenIn.REPORT, run_url, shards=shards)


def result(output: str) -> BlockResult:
    return BlockResult(
        output=output, error=None, exception=None, traceback="", expectations=[], duration=0.1
    )


def reference(needs_own: tuple[str, ...] = ()) -> Reference:
    return Reference("gpu", "a/b.gpu.txt", "gpu", fallback="cpu", needs_own=needs_own)


@pytest.mark.parametrize(
    ("provenance", "expected"),
    [
        (seen(), f"observada el 2 de marzo de 2026 en NVIDIA H100, {LOCAL}"),
        (seen(run_url="https://ci/7"), f"observada el 2 de marzo de 2026 en NVIDIA H100, {CI}"),
        (seen(shards="1"), f"observada el 2 de marzo de 2026 en NVIDIA H100, {LOCAL}"),
        (seen(shards="3"), f"observada el 2 de marzo de 2026 en NVIDIA H100, {LOCAL} (3 partes)"),
        (seen(date="2025-12-31"), f"observada el 31 de diciembre de 2025 en NVIDIA H100, {LOCAL}"),
    ],
)
def test_reported_says_when_where_and_from_which_run(provenance: Provenance, expected: str) -> None:
    assert reported(provenance) == expected


@pytest.mark.parametrize(
    ("agreement", "same", "also"),
    [
        (Agreement.SAME, True, ", misma salida"),
        (Agreement.SAME_BUT_DEVICE, True, SAME_BUT_DEVICE),
        (Agreement.DIFFERENT, False, SAME_BUT_DEVICE),
    ],
)
def test_an_output_observed_by_a_report(agreement: Agreement, same: bool, also: str) -> None:
    verdict = Verdict(
        "gpu",
        Status.OK,
        reference(),
        result=result("tensor([0., 1.])\n"),
        provenance=seen(run_url="https://ci/7"),
        agreement=agreement,
    )
    when = f"observada el 2 de marzo de 2026 en NVIDIA H100, {CI}"
    assert other(block(), verdict) == OtherView(
        "gpu", "GPU ✓", "tensor([0., 1.])", "2.13.0", when, same=same, same_when=when + also
    )


def test_a_report_that_diverges_shows_a_cross_with_its_status() -> None:
    verdict = Verdict(
        "gpu", Status.DIVERGE, reference(), result=result("2\n"), provenance=seen(), agreement=None
    )
    view = other(block(), verdict)
    assert view.mark == "GPU ✗ (no coincide con su grabación)"
    assert (view.runner, view.text, view.same) == ("gpu", "2", False)


def recording(header: dict[str, str]) -> Recording:
    return Recording(Path("snippets/a/b.gpu.txt"), "gpu", header, "grabado\n")


@pytest.mark.parametrize(
    ("agreement", "same", "also"),
    [
        (Agreement.SAME, True, ", misma salida"),
        (Agreement.SAME_BUT_DEVICE, True, SAME_BUT_DEVICE),
        (None, False, SAME_BUT_DEVICE),
    ],
)
def test_a_recorded_output_never_observed_here(agreement: Agreement, same: bool, also: str) -> None:
    header = {"date": "2026-01-05", "device": "NVIDIA A100", "torch": "2.12.0"}
    verdict = Verdict("gpu", Status.NOT_RUN, reference(), recording(header), agreement=agreement)
    when = "salida del 5 de enero de 2026 en NVIDIA A100, sin comprobar en esta versión"
    assert other(block(), verdict) == OtherView(
        "gpu",
        "GPU: sin comprobar en esta versión",
        "grabado",
        "2.12.0",
        when,
        same=same,
        same_when=when + also,
    )


def test_a_recording_without_device_date_or_torch_says_so() -> None:
    verdict = Verdict("cpu", Status.NOT_RUN, reference(), recording({}))
    assert other(block(), verdict) == OtherView(
        "cpu",
        "CPU: sin comprobar en esta versión",
        "grabado",
        None,
        "salida del fecha desconocida en ?, sin comprobar en esta versión",
        same=False,
        same_when=(
            "salida del fecha desconocida en ?, sin comprobar en esta versión" + SAME_BUT_DEVICE
        ),
    )


@pytest.mark.parametrize(
    ("runner", "policy", "needs_own", "mark", "note"),
    [
        ("gpu", DEFAULT_CUDA, (), "GPU: pendiente", ""),
        ("gpu", DEFAULT_CUDA, ("random",), "GPU: pendiente, con salida propia", ""),
        ("gpu", AS_WRITTEN, (), "GPU: pendiente", "GPU: dispositivos del código"),
        ("cpu", AS_WRITTEN, (), "CPU: pendiente", ""),
    ],
)
def test_neither_observed_nor_recorded_is_only_pending(
    runner: str, policy: str, needs_own: tuple[str, ...], mark: str, note: str
) -> None:
    verdict = Verdict(runner, Status.NOT_RUN, reference(needs_own))
    assert other(block(policy), verdict) == OtherView(runner, mark, None, None, "", note=note)
