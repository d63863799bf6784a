"""Whether a block's bare last expression shows its value, as Jupyter decides it.

IPython shows the value of a cell's last statement when it is an expression (not an assignment,
not a `for`), unless the cell's last token is `;`, and shows nothing when the value is None.
The child runs that statement with `eval` and writes `repr(value)` after what the block printed.
Pure and torch-free: the verifying process and the tests may import it.
"""

from __future__ import annotations

import ast
import contextlib
import io
import tokenize

_SKIPPED = {
    tokenize.NEWLINE,
    tokenize.NL,
    tokenize.COMMENT,
    tokenize.INDENT,
    tokenize.DEDENT,
    tokenize.ENDMARKER,
}


def ends_with_semicolon(source: str) -> bool:
    """True when the last significant token of `source` is `;` (comments and blanks ignored)."""
    last = None
    with contextlib.suppress(tokenize.TokenError, SyntaxError):
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type not in _SKIPPED:
                last = token
    return last is not None and last.type == tokenize.OP and last.string == ";"


def shown_expression(tree: ast.Module, source: str) -> ast.Expr | None:
    """The statement whose value a Jupyter cell would show, or None."""
    if not tree.body or not isinstance(tree.body[-1], ast.Expr):
        return None
    return None if ends_with_semicolon(source) else tree.body[-1]


def shown(value: object) -> str:
    """What the value adds to the output: its repr and a newline; nothing for None."""
    return "" if value is None else f"{value!r}\n"
