"""Comparison of observed output with a recording: normalisation, [..] placeholders, tolerance.

Everything that loosens a comparison is written where a reviewer sees it: placeholders in the
recording, rtol/atol in pyproject.toml or in the block's options, and the one list of volatile
values (volatile.py, documented in the author guide, each rule off per block with literal="…").
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from docverify.core import volatile
from docverify.core.text import normalise
from docverify.running.protocol import BlockResult

PLACEHOLDER = "[..]"
_NUMBER = r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|nan|inf)"
_TOKENS = re.compile(rf"(?P<ph>{re.escape(PLACEHOLDER)})|(?P<num>{_NUMBER})")
_NUMBER_RE = re.compile(_NUMBER)


@dataclass(frozen=True)
class Tolerance:
    """What a comparison tolerates: numbers within rtol/atol, and the volatile values of
    the rules in `volatile` (all of them unless the block turns some off)."""

    rtol: float
    atol: float
    volatile: tuple[str, ...] = volatile.NAMES


def _pattern(expected: str) -> re.Pattern[str]:
    """`expected` as a regular expression: a group for each of its numbers, in order."""
    parts, pos = [], 0
    for match in _TOKENS.finditer(expected):
        parts.append(re.escape(expected[pos : match.start()]))
        parts.append(".*?" if match.group("ph") else f"({_NUMBER})")
        pos = match.end()
    parts.append(re.escape(expected[pos:]))
    return re.compile("".join(parts))


def _close(expected: str, observed: str, tol: Tolerance) -> bool:
    """Two numbers as _NUMBER matches them (so float() takes both): equal text, both nan, or
    within tol (isclose is never true for a nan)."""
    if expected == observed:
        return True
    a, b = float(expected), float(observed)
    if math.isnan(a) and math.isnan(b):
        return True
    return math.isclose(a, b, rel_tol=tol.rtol, abs_tol=tol.atol)


def line_matches(expected: str, observed: str, tol: Tolerance) -> bool:
    """Does one observed line satisfy one recorded line (placeholders, numbers within tol)?"""
    if expected == observed:
        return True
    match = _pattern(expected).fullmatch(observed)
    if not match:
        return False
    wanted = [m.group("num") for m in _TOKENS.finditer(expected) if m.group("num")]
    return all(_close(w, g, tol) for w, g in zip(wanted, match.groups(), strict=True))


def comparable(text: str, tol: Tolerance) -> str:
    """`text` as every comparison sees it: normalised, volatile values as their placeholder."""
    return volatile.apply(normalise(text), tol.volatile)


def matches(recorded: str, observed: str, tol: Tolerance) -> bool:
    expected_lines = comparable(recorded, tol).split("\n")
    observed_lines = comparable(observed, tol).split("\n")
    if len(expected_lines) != len(observed_lines):
        return False
    return all(line_matches(e, o, tol) for e, o in zip(expected_lines, observed_lines, strict=True))


def diff(
    recorded: str,
    observed: str,
    recorded_label: str,
    observed_label: str,
    starts: tuple[Sequence[int], Sequence[int]] | None = None,
) -> str:
    """A unified diff. `starts`: for each side, where each of its lines starts in an original
    text (with one more entry, the original's line count; see baselines.View), so that the
    hunk headers number the original's lines when the compared texts joined some of them."""
    before = normalise(recorded).split("\n") if recorded else []
    after = normalise(observed).split("\n") if observed else []
    if starts is None:
        lines = difflib.unified_diff(
            before, after, fromfile=recorded_label, tofile=observed_label, lineterm=""
        )
        return "\n".join(lines)
    a_starts = list(starts[0]) if before else [0]
    b_starts = list(starts[1]) if after else [0]
    groups = list(difflib.SequenceMatcher(None, before, after).get_grouped_opcodes(3))
    if not groups:
        return ""
    out = [f"--- {recorded_label}", f"+++ {observed_label}"]
    for group in groups:
        a_range = _range(a_starts, group[0][1], group[-1][2])
        b_range = _range(b_starts, group[0][3], group[-1][4])
        out.append(f"@@ -{a_range} +{b_range} @@")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out += [f" {line}" for line in before[i1:i2]]
                continue
            out += [f"-{line}" for line in before[i1:i2]]
            out += [f"+{line}" for line in after[j1:j2]]
    return "\n".join(out)


def _range(starts: Sequence[int], first: int, last: int) -> str:
    """A hunk's range as difflib writes it, in original lines: lines first..last-1 of the view."""
    begin, end = starts[min(first, len(starts) - 1)], starts[min(last, len(starts) - 1)]
    length = end - begin
    if length == 1:
        return f"{begin + 1}"
    if length == 0:
        return f"{begin},0"
    return f"{begin + 1},{length}"


def merge(recorded: str | None, observed: str, tol: Tolerance) -> str:
    """What `record` writes: the observed output, keeping each recorded line that still matches.

    So a placeholder an author wrote survives re-recording while its line still matches, and
    a volatile value is written as its rule's placeholder.
    """
    new_lines = comparable(observed, tol).split("\n")
    if recorded is None:
        return "\n".join(new_lines)
    old_lines = comparable(recorded, tol).split("\n")
    if matches(recorded, observed, tol):
        return "\n".join(old_lines)
    merged: list[str] = []
    matcher = difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False)
    for _tag, i1, i2, j1, j2 in matcher.get_opcodes():
        # Line by line where the two sides have as many lines ("equal" and most "replace"):
        # an "equal" line matches itself, the same text either way.
        if i2 - i1 == j2 - j1:
            merged.extend(
                o if line_matches(o, n, tol) else n
                for o, n in zip(old_lines[i1:i2], new_lines[j1:j2], strict=True)
            )
        else:
            merged.extend(new_lines[j1:j2])
    return "\n".join(merged)


# Tensor metadata in a repr is not part of its value: `tensor(6., device='cuda:0')` is 6.
_TENSOR_META = re.compile(
    r",\s*(?:device|dtype|grad_fn|requires_grad|layout)=(?:'[^']*'|<[^>]*>|[\w.:]+)"
)


def expectation_holds(expected: str, observed: str | None, tol: Tolerance) -> bool:
    """`# Expectativa: 12` holds for `tensor(12.)`: same numbers in order, else same text."""
    if observed is None:
        return False
    wanted = _NUMBER_RE.findall(expected)
    if wanted:
        got = _NUMBER_RE.findall(_TENSOR_META.sub("", observed))
        return len(got) == len(wanted) and all(
            _close(w, g, tol) for w, g in zip(wanted, got, strict=True)
        )
    return expected.strip() in observed


def declared_exception(raises: str | None, result: BlockResult) -> bool:
    """Is the block's exception the one its raises="Type: message start" option declares?"""
    if not raises or not result["exception"]:
        return False
    name, _, prefix = raises.partition(":")
    return name.strip() in result.get("exception_type", []) and result.get(
        "exception_message", ""
    ).startswith(prefix.strip())
