"""Tabs in code: the engine runs what MkDocs shows, and says when that differs from the file.

Python-Markdown expands every tab of a page to the next multiple of 4 columns before any fenced
block is read (its NormalizeWhitespace step runs after pymdownx.snippets has inserted the
snippets). So the code a reader sees, copies and gets in the notebook is the expanded one, and
that is the code the engine runs: `check`, `record` and the build always agree.

Expansion is harmless for indentation (valid Python 3 never depends on the tab size) but not
inside a string: "a<TAB>b" becomes "a   b", so the page would show, and run, other code than
the snippet file. That case cannot be reconciled and is reported (lint, check, build).
"""

from __future__ import annotations

import ast
import contextlib
import io
import tokenize
from pathlib import Path

from docverify.core.config import Config
from docverify.core.findings import Finding
from docverify.core.kinds import Kind

TAB_LENGTH = 4  # Python-Markdown's tab_length; MkDocs does not change it
# The tokens that hold a string's text: Python 3.12+ gives an f-string's literal parts apart
# (FSTRING_MIDDLE); 3.11 gives the whole f-string as one STRING.
STRING_TOKENS = frozenset({tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)})


def expand(lines: list[str], column: int = 0) -> list[str]:
    """Each line as Markdown leaves it, for a block whose code starts at `column`."""
    pad = " " * column  # a line without tabs comes back as it was
    return [(pad + line).expandtabs(TAB_LENGTH)[column:] for line in lines]


def changed_meaning(raw: str, expanded: str) -> int | None:
    """The 1-based line of `raw` where expanding tabs changes what the code means, or None.

    None too when `raw` itself does not parse: running it reports that error.
    """
    if "\t" not in raw or raw == expanded:
        return None
    try:
        before = ast.dump(ast.parse(raw))
    except SyntaxError:
        return None
    with contextlib.suppress(SyntaxError):  # expanded code that does not parse: changed
        if ast.dump(ast.parse(expanded)) == before:
            return None
    return _tab_in_string(raw) or raw[: raw.index("\t")].count("\n") + 1  # else the first tab


def _tab_in_string(code: str) -> int | None:
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            if token.type in STRING_TOKENS and "\t" in token.string:
                return token.start[0] + token.string[: token.string.index("\t")].count("\n")
    except (tokenize.TokenError, SyntaxError):
        return None
    return None


def as_markdown_shows(
    config: Config, findings: list[Finding], raw: str, origin: Path, origin_line: int, column: int
) -> str:
    """The block's code with tabs expanded as MkDocs shows it (see tabs.py); a finding when
    that expansion changes what the code means, appended to `findings`."""
    if "\t" not in raw:  # nothing to expand: the code is the file's
        return raw
    code = "\n".join(expand(raw.split("\n"), column))
    line = changed_meaning(raw, code)
    if line is not None:
        findings.append(
            Finding(
                Kind.TAB_IN_CODE,
                "MkDocs convierte cada tabulador en espacios y aquí eso cambia lo que hace el "
                "código (un tabulador dentro de una cadena, o una sangría que depende del ancho "
                "del tabulador): la página mostraría y ejecutaría otro código que el archivo.",
                config.rel(origin),
                origin_line + line - 1,
                "escribe el tabulador de la cadena como \\t y sangra con espacios (para sangrar, "
                "los tabuladores valen si no se mezclan con espacios).",
            )
        )
    return code
