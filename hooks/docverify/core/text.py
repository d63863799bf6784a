"""Text as the engine compares and shows it: one normal form for every output and recording; and
a count said in Spanish."""

from __future__ import annotations


def counted(count: int, one: str, many: str) -> str:
    """«1 grabación escrita», «0 grabaciones escritas», «3 …»: `one` only for exactly one."""
    return f"{count} {one if count == 1 else many}"


def normalise(text: str) -> str:
    """Unify newlines, drop trailing spaces on each line and trailing blank lines."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)
