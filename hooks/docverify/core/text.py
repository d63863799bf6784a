"""Text as the engine compares and shows it: one normal form for every output and recording."""

from __future__ import annotations


def normalise(text: str) -> str:
    """Unify newlines, drop trailing spaces on each line and trailing blank lines."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)
