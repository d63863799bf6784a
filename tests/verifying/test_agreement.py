"""verifying.agreement: how each output a block's panel shows relates to the first one shown.

The outcomes are built here, verdict by verdict; each expected agreement follows from the rule
in the module's docstring (same characters; the same but for the device argument, on gpu only;
different), written out by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Project
from docverify.core.status import Status
from docverify.parsing.pages import Block
from docverify.verifying.agreement import agreed
from docverify.verifying.outcome import Agreement, Outcome, Reference, Verdict
from docverify.verifying.recordings import Recording

PLAIN = "tensor([1., 2.])"
ON_GPU = "tensor([1., 2.], device='cuda:0')"
SAME, BUT_DEVICE, DIFFERENT = Agreement.SAME, Agreement.SAME_BUT_DEVICE, Agreement.DIFFERENT


def _verdict(
    runner: str, status: Status, output: str | None = None, recording: str | None = None
) -> Verdict:
    result = None if output is None else {"output": output + "\n"}
    rec = None if recording is None else Recording(Path(f"b.{runner}.txt"), runner, {}, recording)
    return Verdict(runner, status, Reference(None, "", runner), recording=rec, result=result)


def _agreements(project: Project, build: str, *verdicts: Verdict) -> dict[str, Agreement | None]:
    block = Block("a.md", "b", "print(1)", Path("a.md"), 1, 1)
    made = Outcome(block, build, {}, {v.runner: v for v in verdicts})
    return agreed(project.config, made)


@pytest.mark.parametrize(
    ("build", "first", "then", "expected"),
    [
        ("cpu", PLAIN, PLAIN, SAME),
        ("cpu", PLAIN, ON_GPU, BUT_DEVICE),  # gpu shows the device: the same but for it
        ("cpu", ON_GPU, PLAIN, BUT_DEVICE),  # either side may carry it
        ("cpu", PLAIN, "tensor([1., 3.])", DIFFERENT),
        ("gpu", ON_GPU, PLAIN, DIFFERENT),  # on cpu no device is dropped
        ("gpu", ON_GPU, ON_GPU, SAME),
    ],
)
def test_observed_outputs_agree_with_the_build_runners(
    project: Project, build: str, first: str, then: str, expected: Agreement
) -> None:
    other = "gpu" if build == "cpu" else "cpu"
    found = _agreements(
        project, build, _verdict(build, Status.OK, first), _verdict(other, Status.OK, then)
    )
    assert found == {build: None, other: expected}


@pytest.mark.parametrize(
    ("first", "recorded", "expected"),
    [
        (PLAIN, PLAIN, SAME),
        (PLAIN, ON_GPU, BUT_DEVICE),
        (ON_GPU, PLAIN, BUT_DEVICE),
        (PLAIN, "tensor([1., 3.])", DIFFERENT),
    ],
)
def test_a_recording_agrees_with_the_build_runners_output(
    project: Project, first: str, recorded: str, expected: Agreement
) -> None:
    """gpu did not run: its own recording is what the panel shows for it."""
    found = _agreements(
        project,
        "cpu",
        _verdict("cpu", Status.OK, first),
        _verdict("gpu", Status.NOT_RUN, recording=recorded),
    )
    assert found == {"cpu": None, "gpu": expected}


def test_a_build_that_did_not_run_the_block_starts_with_its_recording(project: Project) -> None:
    found = _agreements(
        project,
        "cpu",
        _verdict("cpu", Status.NOT_RUN, recording="1"),
        _verdict("gpu", Status.NOT_RUN, recording="1"),
    )
    assert found == {"cpu": None, "gpu": SAME}


def test_the_build_runners_recording_is_not_its_observed_output(project: Project) -> None:
    """A build verdict that ran but observed nothing shows nothing: the first output is gpu's."""
    found = _agreements(
        project,
        "cpu",
        _verdict("cpu", Status.ERROR, recording="2"),
        _verdict("gpu", Status.NOT_RUN, recording="1"),
    )
    assert found == {"cpu": None, "gpu": None}


def test_a_runner_with_nothing_to_show_is_skipped(project: Project) -> None:
    """The rule holds for any number of runners (a third one here): one without an output or
    a recording has no agreement, and the runners after it still agree with the first."""
    found = _agreements(
        project,
        "cpu",
        _verdict("cpu", Status.NOT_RUN),
        _verdict("gpu", Status.NOT_RUN, recording="1"),
        _verdict("tpu", Status.NOT_RUN, recording="1"),
    )
    assert found == {"cpu": None, "gpu": None, "tpu": SAME}
