# What the child reads from a block's text and traceback after running it.
"""A block's expectations (`# Expectativa: X` comments paired with what their statement printed)
and its exception as the page shows it: `Type: message`, and the block's own frames only."""

from __future__ import annotations

import contextlib
import io
import re
import tokenize
import traceback

from docverify.running.protocol import Expectation

_EXPECT = re.compile(r"#\s*Expectativa:\s*(?P<value>.+?)\s*$")


def exception_line(exc: BaseException) -> str:
    """`Type: message` as Python shows it: the whole message, which may take several lines
    (load_state_dict lists one mismatch per line), and the notes after it; a SyntaxError's
    file, code and caret lines, indented before its `Type: message`, left out."""
    parts = traceback.format_exception_only(exc)  # the type is the value's (Python ≥ 3.10)
    first = next(i for i, part in enumerate(parts) if not part.startswith(" "))
    return "".join(parts[first:])


def raising_line(exc: BaseException, filename: str) -> int:
    """The line of the block's innermost frame in the traceback (0 when none is the block's)."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == filename]
    return frames[-1].lineno or 0 if frames else 0


def block_traceback(exc: BaseException, filename: str, source: list[str]) -> str:
    """The block's own frames as `file:line: code`, without the engine's frames."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == filename]
    lines = [
        f"  {f.filename}:{f.lineno}: {source[f.lineno - 1].strip()}"
        for f in frames
        if f.lineno and f.lineno <= len(source)
    ]
    return "\n".join([*lines, exception_line(exc).rstrip("\n")])


def expectations(
    source: str, spans: list[tuple[int, int, int, int]], output: str
) -> list[Expectation]:
    """Pair each `# Expectativa: X` comment with what its top-level statement printed."""
    found = []
    with contextlib.suppress(tokenize.TokenError, SyntaxError):
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT and (match := _EXPECT.search(token.string)):
                found.append((token.start[0], match.group("value")))
    result: list[Expectation] = []
    for line, expected in found:
        span = next((s for s in spans if s[0] <= line <= s[1]), None)
        observed = output[span[2] : span[3]].strip() if span else None
        result.append({"line": line, "expected": expected, "observed": observed})
    return result
