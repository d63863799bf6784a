# How each output a block's panel shows relates to the first one: the same, or not.
"""The agreement of a block's outputs (decided here, shown by output/panel.py): the same
characters, the same but for the device (the device rule, baselines.py), or different."""

from __future__ import annotations

from docverify.core.config import Config
from docverify.core.text import normalise
from docverify.verifying import baselines, compare
from docverify.verifying.outcome import Agreement, Outcome, Verdict, tolerance


def agreed(config: Config, made: Outcome) -> dict[str, Agreement | None]:
    """By runner, the agreement of each output `made`'s panel shows with the first one it shows
    (the build runner's observed output, else the first other runner's output or recording):
    None for the first one and for a runner with nothing to show; a runner the panel does not
    show is absent. judge.py puts them in the outcome's verdicts."""
    tol = tolerance(config, made.block)
    first: tuple[str, str] | None = None
    found: dict[str, Agreement | None] = {}
    shown = ([made.verdict] if made.status.ran else []) + made.others()
    for verdict in shown:
        found[verdict.runner] = None
        text = verdict.observed if verdict is made.verdict and made.status.ran else verdict.text
        if text is None:
            continue
        if first is None:
            first = (verdict.runner, text)
            continue
        found[verdict.runner] = _agreement(verdict, text, first, tol)
    return found


def _agreement(
    verdict: Verdict, text: str, first: tuple[str, str], tol: compare.Tolerance
) -> Agreement:
    runner, (first_runner, first_text) = verdict.runner, first
    if verdict.result is not None:  # observed: the same characters, or all but the device
        same = first_runner != runner and _device_free(text, runner) == _device_free(
            first_text, runner
        )
        exact = text == first_text
    else:  # a recording: as a comparison with it reads (placeholders, tolerance)
        assert verdict.recording is not None
        body = verdict.recording.body
        same = compare.matches(_device_free(body, runner), _device_free(first_text, runner), tol)
        exact = compare.matches(body, first_text, tol)
    if not same:
        return Agreement.DIFFERENT
    return Agreement.SAME if exact else Agreement.SAME_BUT_DEVICE


def _device_free(text: str, runner: str) -> str:
    """On gpu, `text` as the device rule compares it (suffixes joined, device dropped)."""
    text = normalise(text)
    return baselines.device_view(text).text if runner == "gpu" else text
