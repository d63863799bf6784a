"""Baselines: which recording a block's output is compared with on each runner (the one place).

Policy. A block checked on runner R compares with `<id>.R.txt` when it exists. On runner gpu,
a block that also runs on cpu and has no `<id>.gpu.txt` compares with `<id>.cpu.txt` under the
device rule. On both sides, the suffixes of a tensor repr that torch moved to their own line
(`,` + line break + indentation + `device=`, `dtype=`, `grad_fn=`, `requires_grad=`, `size=`,
`nnz=`, `layout=` or `tangent=`, directly inside `tensor(...)`) are joined back to the line
before them; then the `device='cuda:N'` argument of each tensor repr (also inside `Parameter
containing:`) is dropped from the observed output. On a GPU torch writes `device='cuda:0'` as
the first suffix and wraps the suffixes by line width, so a repr the CPU printed on one line can
take two there (and a wrapped one wrap elsewhere): joining makes the layout of the suffixes
irrelevant, whatever `torch.set_printoptions(linewidth=…)` a block chose. Nothing else is
masked: `cuda:0` printed on its own, `device(type='cuda', index=0)`, a GPU name or
`torch.cuda.is_available()` still diverge, and such a block gets its own `<id>.gpu.txt`. Diffs
and hints number lines as in the original texts (`View.starts`).

A block whose cpu recording carries device marks (core/device_marks.py: it draws random
numbers, asks about the accelerator or shows a device) has no fallback: without its own
`<id>.gpu.txt` the gpu runner has nothing to compare it with (a missing recording, "record
me"), except when its marks let it match the cpu output (only `random`, under
`device_policy="as-written"`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from docverify.core import device_marks, device_rule
from docverify.core.config import Config
from docverify.core.text import normalise
from docverify.parsing.pages import Block
from docverify.verifying import compare, recordings
from docverify.verifying.outcome import Reference
from docverify.verifying.recordings import Recording

# The runner whose recording stands in when a runner has none of its own.
FALLBACK = {"gpu": "cpu"}
# `tensor(` as a repr, not as code (`torch.tensor(` or `my_tensor(` are not reprs).
_TENSOR_OPEN = re.compile(r"(?<![\w.])tensor\(")
_DEVICE_ARG = re.compile(r",\s*device='cuda:\d+'(?=\s*[,)])")
# A suffix torch moved to its own line (torch/_tensor_str.py, _add_suffixes): ",\n" + indent.
SUFFIXES = ("device", "dtype", "grad_fn", "requires_grad", "size", "nnz", "layout", "tangent")
_WRAPPED_SUFFIX = re.compile(rf",\n +(?=(?:{'|'.join(SUFFIXES)})=)")
_OPENERS = {"(": ")", "[": "]", "{": "}"}


@dataclass(frozen=True)
class View:
    """A text as the device rule compares it, with where each of its lines starts in the
    original: `starts[i]` is the 0-based line of the original text where line i begins, and
    `starts[-1]` (one more than the lines) the original's line count."""

    text: str
    starts: tuple[int, ...]

    @classmethod
    def of(cls, text: str) -> View:
        """The text unchanged: every line is its own."""
        count = text.count("\n") + 1
        return cls(text, tuple(range(count + 1)))

    def original(self, index: int) -> int:
        """The original line of this view's line `index` (past the end: the line count)."""
        return self.starts[min(max(index, 0), len(self.starts) - 1)]


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

    def expected(self) -> View:
        """The recording as it is compared: suffixes joined when the device rule applies."""
        body = normalise(self.recording.body if self.recording else "")
        return join_suffixes(body) if self.device_rule else View.of(body)

    def comparable(self, observed: str) -> View:
        """The observed output as it is compared: the device rule applied when it applies."""
        observed = normalise(observed)
        return device_view(observed) if self.device_rule else View.of(observed)

    def matches(self, observed: str, tol: compare.Tolerance) -> bool:
        """Does `observed` match the recording (as compared: see `expected`, `comparable`)?"""
        if self.recording is None:
            return False
        if not self.device_rule:  # both texts as they are: no view to number lines by
            return compare.matches(self.recording.body, observed, tol)
        return compare.matches(self.expected().text, self.comparable(observed).text, tol)


def marks(recs: Mapping[str, Recording]) -> tuple[str, ...]:
    """The block's device marks, as its cpu recording's header records them."""
    cpu = recs.get("cpu")
    return cpu.marks if cpu is not None else ()


def reference(
    config: Config, block: Block, runner: str, recs: Mapping[str, Recording]
) -> Reference:
    """Which of `block`'s recordings (`recs`, every runner's) `runner` compares it with, and
    what it needs without one: its own, or its fallback's when the block runs there and the
    device marks of its cpu recording let it match there (the policy above)."""
    fallback = FALLBACK.get(runner)
    falls_back = fallback is not None and block.runs_on(fallback)
    found = marks(recs)
    # The marks that stop it matching its fallback's output (none: it can, or there is none).
    needs_own = (
        found if falls_back and not device_marks.can_match_cpu(found, block.device_policy) else ()
    )
    needed = fallback if fallback is not None and falls_back and not needs_own else runner
    source = runner if runner in recs else (needed if needed in recs else None)
    if source is None:
        wanted = recordings.path_for(config, block, needed).name
        described = f"sin grabación (falta {wanted})"
        if needs_own:
            described = (
                f"sin grabación (falta {wanted}: {device_marks.text(needs_own)}, así que no se "
                "compara con la de CPU)"
            )
    else:
        name = recordings.path_for(config, block, source).name
        described = name if source == runner else f"{name} con la {device_rule.NAME}"
    return Reference(source, described, needed, fallback, needs_own)


def choose(runner: str, reference: Reference, recs: Mapping[str, Recording]) -> Baseline:
    """The baseline `reference` names for `runner` among the block's recordings."""
    return Baseline(runner, recs[reference.runner] if reference.runner else None)


def describe(
    config: Config, block: Block, runner: str, recs: Mapping[str, Recording] | None = None
) -> str:
    """In Spanish, which recording `runner` compares `block` with (for lint and the report).

    `recs`: the block's recordings already loaded (Outcome.recordings, every runner's); without
    them they are read from disk.
    """
    recs = recordings.of_block(config, block) if recs is None else recs
    return reference(config, block, runner, recs).described


def join_suffixes(text: str) -> View:
    """`text` with each tensor repr's wrapped suffixes joined to the line before them."""
    return rewrite(text, join=True, drop=False)


def device_view(text: str) -> View:
    """`text` as the device rule sees an observed output: suffixes joined, device dropped."""
    return rewrite(text, join=True, drop=True)


def rewrite(text: str, *, join: bool, drop: bool) -> View:
    """One pass over `text`, tracking brackets so that only a repr's own arguments change:
    with `join`, each tensor repr's wrapped suffixes joined to the line before them; with
    `drop`, its `device='cuda:N'` argument dropped, with the comma and the spaces or line
    break before it (only directly inside `tensor(...)`: `cuda:0` anywhere else stays)."""
    out: list[str] = []
    starts = [0]
    line = 0  # the original line at position i
    stack: list[str] = []  # open brackets; "t" for the parenthesis of a tensor repr
    i = 0
    while i < len(text):
        if match := _TENSOR_OPEN.match(text, i):
            out.append(match.group())
            stack.append("t")
            i = match.end()
            continue
        char = text[i]
        in_repr = bool(stack) and stack[-1] == "t"
        # The device first: its comma, with the line break before it when torch wrapped it.
        if in_repr and drop and (device := _DEVICE_ARG.match(text, i)):
            line += device.group().count("\n")
            i = device.end()
            continue
        if in_repr and join and (wrapped := _WRAPPED_SUFFIX.match(text, i)):
            out.append(", ")
            line += 1
            i = wrapped.end()
            continue
        if stack:
            if char in _OPENERS:
                stack.append(char)  # pragma: no mutate; equivalent: only a "t" entry is read back
            elif char in _OPENERS.values():
                stack.pop()
        out.append(char)
        if char == "\n":
            line += 1
            starts.append(line)
        i += 1
    starts.append(line + 1)
    return View("".join(out), tuple(starts))
