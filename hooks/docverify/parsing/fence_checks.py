# The options of an executed fence, checked before its block is read (parsing/pages.py).
"""What is wrong with an executed fence's language and options: a finding at its opening line.

A fence that is not Python, or has no valid id, cannot become a block: `stops` says so and
the page reads no code for it. Every other problem is reported and the block is still read.
"""

from __future__ import annotations

import difflib
import re

from docverify.core import policies, volatile
from docverify.core.config import RUNNERS
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing.options import LAYOUTS, MDEXEC_OPTIONS, OUR_OPTIONS, PYTHON

Where = tuple[str, int]  # (page, line of the opening fence)
ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
# Without these the fence is no block: nothing more is read of it.
_FATAL = (Kind.UNVERIFIED_LANGUAGE, Kind.MISSING_ID, Kind.INVALID_ID)


def stops(found: list[Finding]) -> bool:
    """Whether the fence cannot become a block (a finding of _FATAL among `found`)."""
    return any(f.kind in _FATAL for f in found)


def _problem(kind: Kind, message: str, fix: str, at: Where) -> Finding:
    """One problem of the fence, at its opening line."""
    return Finding(kind, message, at[0], at[1], fix)


def problems(language: str, options: dict[str, str], where: str, line: int) -> list[Finding]:
    """Every problem of an executed fence with this language and these options, opened at
    `line` of the page `where`."""
    at = (where, line)
    if language not in PYTHON:
        return [
            _problem(
                Kind.UNVERIFIED_LANGUAGE,
                f'bloque con exec="on" en «{language or "(sin lenguaje)"}»: solo se verifica '
                "Python, y ningún bloque puede ejecutarse sin verificarse.",
                'usa ```python exec="on" id="…"``` o quita exec="on".',
                at,
            )
        ]
    found = _unknown(options, at)
    block_id = options.get("id")
    if not block_id:
        return [
            *found,
            _problem(
                Kind.MISSING_ID,
                "bloque ejecutado sin id: la grabación no tendría nombre estable.",
                'añade id="nombre-del-bloque" a la línea de apertura del bloque.',
                at,
            ),
        ]
    if not ID.match(block_id):
        return [
            *found,
            _problem(
                Kind.INVALID_ID,
                f"id «{block_id}» no válido: usa minúsculas, cifras y guiones.",
                'renombra el id, por ejemplo id="acumulacion-hojas".',
                at,
            ),
        ]
    return found + _values(options, at) + _runner(block_id, options, at)


def _unknown(options: dict[str, str], at: Where) -> list[Finding]:
    """Options nothing reads, named with their block and, for a misspelt one, the one meant."""
    valid = sorted(MDEXEC_OPTIONS | OUR_OPTIONS)
    unknown = sorted(set(options) - set(valid))
    if not unknown:
        return []
    block = f"el bloque «{options['id']}»" if ID.match(options.get("id", "")) else "un bloque"
    some = "una opción desconocida" if len(unknown) == 1 else "opciones desconocidas"
    names = ", ".join(f"«{name}»" for name in unknown)
    meant = [
        f"«{close[0]}» en lugar de «{name}»"
        for name in unknown
        if (close := difflib.get_close_matches(name, valid, n=1, cutoff=0.6))
    ]
    fix = "quítala o usa una opción de la guía de autores («Opciones de un bloque»)."
    return [
        _problem(
            Kind.UNKNOWN_OPTION,
            f"{block} tiene {some}: {names}. Las que se leen: {', '.join(valid)}.",
            f"escribe {'; '.join(meant)}." if meant else fix,
            at,
        )
    ]


def _values(options: dict[str, str], at: Where) -> list[Finding]:
    """The options whose value must be a number, a layout, a policy or volatile rules."""
    found: list[Finding] = []
    for name in ("timeout", "rtol", "atol"):
        if name in options:
            try:
                if float(options[name]) < 0:
                    raise ValueError
            except ValueError:
                found.append(
                    _problem(
                        Kind.INVALID_OPTION,
                        f'{name}="{options[name]}" no es un número ≥ 0.',
                        f'escribe {name}="2" o quita la opción.',
                        at,
                    )
                )
    if "source" in options and options["source"] not in LAYOUTS:
        found.append(
            _problem(
                Kind.INVALID_OPTION,
                f'source="{options["source"]}" no es una disposición del código y su salida.',
                f'usa source="{LAYOUTS[0]}" (por defecto) o uno de: {", ".join(LAYOUTS[1:])}.',
                at,
            )
        )
    for name in policies.CHOICES:
        if name in options and (message := policies.problem(name, options[name])):
            fix = f'escribe {name}="{policies.CHOICES[name][-1]}".'
            found.append(_problem(Kind.INVALID_OPTION, message, fix, at))
    if wrong := volatile.unknown(options.get("literal", "")):
        found.append(
            _problem(
                Kind.INVALID_OPTION,
                f'literal="{options["literal"]}": {", ".join(wrong)} no es una regla de valores '
                "cambiantes.",
                f'usa literal="{",".join(volatile.NAMES)}" (las que quieras) o literal="all".',
                at,
            )
        )
    return found


def _runner(block_id: str, options: dict[str, str], at: Where) -> list[Finding]:
    """runner="…" names a runner and comes with its reason."""
    only = options.get("runner")
    if only is None:
        return []
    if only not in RUNNERS:
        return [
            _problem(
                Kind.INVALID_OPTION,
                f'runner="{only}" no existe: usa cpu o gpu.',
                'escribe runner="cpu" o runner="gpu" junto a reason="…".',
                at,
            )
        ]
    if not options.get("reason"):
        return [
            _problem(
                Kind.MISSING_REASON,
                f"el bloque «{block_id}» es solo {only} sin motivo.",
                'añade reason="por qué solo corre en ese runner".',
                at,
            )
        ]
    return []
