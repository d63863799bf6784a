"""Baselines: which recording a block's output is compared with on each runner (the one place).

Policy. A block checked on runner R compares with `<id>.R.txt` when it exists. On runner gpu,
a block that also runs on cpu and has no `<id>.gpu.txt` compares with `<id>.cpu.txt` under the
device rule: the `device='cuda:N'` argument of a tensor repr (`tensor(...)`, also inside
`Parameter containing:`) is dropped from the observed output before comparing. Nothing else is
masked: `cuda:0` printed on its own, `device(type='cuda', index=0)`, a GPU name or
`torch.cuda.is_available()` still diverge, and such a block gets its own `<id>.gpu.txt`. So does
one whose repr torch wraps differently once the device argument makes a line too long: the rule
drops the argument, it does not re-flow the lines after it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from docverify.core.config import Config
from docverify.parsing.pages import Block
from docverify.verifying import compare, recordings
from docverify.verifying.recordings import Recording

# The runner whose recording stands in when a runner has none of its own.
FALLBACK = {"gpu": "cpu"}
DEVICE_RULE = "regla de dispositivo"
DEVICE_RULE_TEXT = (
    "en GPU se quita el argumento device='cuda:N' de los repr de tensores y parámetros "
    "antes de comparar; nada más se enmascara"
)
# `tensor(` as a repr, not as code (`torch.tensor(` or `my_tensor(` are not reprs).
_TENSOR_OPEN = re.compile(r"(?<![\w.])tensor\(")
_DEVICE_ARG = re.compile(r",\s*device='cuda:\d+'(?=\s*[,)])")
_OPENERS = {"(": ")", "[": "]", "{": "}"}


@dataclass(frozen=True)
class Baseline:
    """The recording that `runner`'s output is compared with, if any."""

    runner: str
    recording: Recording | None

    @property
    def source(self) -> str | None:
        """The runner the recording was made on (None when there is no baseline)."""
        return self.recording.runner if self.recording else None

    @property
    def device_rule(self) -> bool:
        return self.source is not None and self.source != self.runner

    def comparable(self, observed: str) -> str:
        """The observed output as it is compared: the device rule applied when it applies."""
        return drop_device(observed) if self.device_rule else observed

    def matches(self, observed: str, tol: compare.Tolerance) -> bool:
        return self.recording is not None and compare.matches(
            self.recording.body, self.comparable(observed), tol
        )


def source_runner(block: Block, runner: str, available: set[str]) -> str | None:
    """Which runner's recording `runner` compares with, given the runners that have one."""
    if runner in available:
        return runner
    fallback = FALLBACK.get(runner)
    if fallback and block.runs_on(fallback) and fallback in available:
        return fallback
    return None


def choose(block: Block, recs: dict[str, Recording], runner: str) -> Baseline:
    """The baseline of `block` on `runner` among its loaded recordings."""
    source = source_runner(block, runner, set(recs))
    return Baseline(runner, recs[source] if source else None)


def expected_runner(block: Block, runner: str) -> str:
    """The runner whose recording `runner` needs when there is none: its fallback if it runs."""
    fallback = FALLBACK.get(runner)
    return fallback if fallback and block.runs_on(fallback) else runner


def describe(
    config: Config, block: Block, runner: str, recs: dict[str, Recording] | None = None
) -> str:
    """In Spanish, which recording `runner` compares `block` with (for lint and the report).

    `recs`: the block's recordings already loaded (Outcome.recordings, every runner's); without
    them the ones that matter are read from disk.
    """
    if recs is None:
        recs = {
            r: rec
            for r in (runner, FALLBACK.get(runner))
            if r and (rec := recordings.load(config, block, r))
        }
    source = source_runner(block, runner, set(recs))
    if source is None:
        wanted = recordings.path_for(config, block, expected_runner(block, runner)).name
        return f"sin grabación (falta {wanted})"
    name = recordings.path_for(config, block, source).name
    return name if source == runner else f"{name} con la {DEVICE_RULE}"


def drop_device(text: str) -> str:
    """`text` without the `device='cuda:N'` argument of every tensor repr in it.

    Only an argument directly inside `tensor(...)` (at its own bracket depth) is dropped, with
    the comma and the spaces or line break before it; `cuda:0` anywhere else stays.
    """
    out: list[str] = []
    stack: list[str] = []  # open brackets; "t" for the parenthesis of a tensor repr
    i = 0
    while i < len(text):
        if match := _TENSOR_OPEN.match(text, i):
            out.append(match.group())
            stack.append("t")
            i = match.end()
            continue
        char = text[i]
        if stack and stack[-1] == "t" and (device := _DEVICE_ARG.match(text, i)):
            i = device.end()
            continue
        if stack:
            if char in _OPENERS:
                stack.append(char)
            elif char in _OPENERS.values():
                stack.pop()
        out.append(char)
        i += 1
    return "".join(out)
