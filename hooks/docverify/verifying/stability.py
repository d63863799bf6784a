"""Record's second run: an output that changes from one run to the next is never recorded.

`docverify record` runs each page that would get a new or changed recording a second time, in
a new page process (a fork of the same fork server: the same hash_seed, core/hashing.py), and
compares each output it would write with the second run's as `check` would compare it with the
recording: volatile rules, [..] markers and tolerance. A block whose two runs differ is refused
here, with the lines that changed and the likely causes read in its code; record.py then writes
nothing of its page. Whatever the cause (a set's order, os.urandom, the clock, threads), such a
recording would fail the next `check` as a divergence that looks like a real change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from docverify.core.config import Config
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing.pages import Block
from docverify.running.protocol import BlockResult
from docverify.verifying import compare, hints, recordings

_WORD = re.compile(r"[\w.+-]")  # a character of a word or a number
SHOWN_LINES = 3  # changed lines quoted in the message (the diff in its detail has them all)


@dataclass(frozen=True)
class Cause:
    """Something that makes a block print another thing in each process, and how it shows in
    code (`hint`); `text` says it to the author, in Spanish, with the usual cure."""

    name: str
    hint: re.Pattern[str]
    text: str


CAUSES: tuple[Cause, ...] = (
    Cause(
        "hash-order",
        # set(…), frozenset(…), hash(…), or a set literal of strings: {"a", "b"}
        re.compile(r"\b(?:set|frozenset|hash)\(|\{\s*(['\"])[^'\"]*\1\s*,"),
        "el orden de un set (o de un dict hecho con uno): el de las cadenas lo fija hash_seed, "
        "el de objetos que se hashean por su dirección no; recórrelo con sorted(...)",
    ),
    Cause(
        "os-random",
        re.compile(r"\bos\.urandom\b|\buuid\b|\bsecrets\b|\bSystemRandom\b|\brandom\.seed\(\)"),
        "bytes del sistema operativo (os.urandom, uuid, secrets), distintos en cada proceso; la "
        "semilla de [tool.docverify] solo fija random, numpy y torch",
    ),
    Cause(
        "clock",
        re.compile(r"\btime\b|\bdatetime\b|\bperf_counter\b|\bdate\.today\b"),
        "la hora o un tiempo medido (time, datetime)",
    ),
    Cause(
        "threads",
        re.compile(
            r"\bthreading\b|\bconcurrent\b|\bmultiprocessing\b|\bnum_workers\s*=\s*[1-9]"
            r"|\bset_num_threads\b|\basyncio\b"
        ),
        "hilos o procesos que terminan en otro orden (threading, concurrent.futures, "
        "num_workers=…), o sumas en paralelo que redondean distinto",
    ),
)


def likely_causes(code: str) -> list[Cause]:
    """The causes whose hint shows in `code`, or every cause when none does (the one at work
    may hide in a function the block calls)."""
    found = [cause for cause in CAUSES if cause.hint.search(code)]
    return found or list(CAUSES)


def changed_lines(
    body: str, second: BlockResult | None, tol: compare.Tolerance
) -> list[tuple[int, str, str]] | None:
    """The lines that differ, as (index, first, second), when the second run's output is
    compared with `body`, what record would write from the first, as check compares them:
    None when it matches. A second run that failed, or gave nothing, differs at its end."""
    observed = "" if second is None else second["output"]
    failed = second is None or second.get("error") is not None
    if not failed and compare.matches(body, observed, tol):
        return None
    before = compare.comparable(body, tol).split("\n")
    after = compare.comparable(observed, tol).split("\n")
    if failed:
        error = "" if second is None else str(second.get("error") or "").strip()
        after.append(f"(falló: {error.splitlines()[-1] if error else 'sin resultado'})")
    width = max(len(before), len(after))
    before += [""] * (width - len(before))
    after += [""] * (width - len(after))
    return [
        (index, a, b)
        for index, (a, b) in enumerate(zip(before, after, strict=True))
        if not compare.line_matches(a, b, tol)
    ]


def marked(first: str, second: str) -> str:
    """`first` with what differs from `second` as one [..]: what the author may write in the
    recording when the value is meant to change."""
    start = 0
    while start < min(len(first), len(second)) and first[start] == second[start]:
        start += 1
    end = 0
    while end < min(len(first), len(second)) - start and first[-1 - end] == second[-1 - end]:
        end += 1
    # Whole words and numbers only: «0.[..]» would be read as the number 0.
    while start and _WORD.match(first[start - 1]):
        start -= 1
    while end and _WORD.match(first[len(first) - end]):
        end -= 1
    return f"{first[:start]}{compare.PLACEHOLDER}{first[len(first) - end :]}"


def unstable(
    config: Config,
    block: Block,
    runner: str,
    body: str,
    first: BlockResult,
    second: BlockResult | None,
    tol: compare.Tolerance,
) -> Finding | None:
    """The refusal of a block whose second run does not match what record would write from the
    first (`body`), or None when it matches."""
    pairs = changed_lines(body, second, tol)
    if pairs is None:
        return None
    page = f"{config.rel(config.docs_dir / block.page)}:{block.fence_line}"
    target = config.rel(recordings.path_for(config, block, runner))
    shown = "; ".join(f"«{a}» → «{b}»" for _, a, b in pairs[:SHOWN_LINES])
    more = f" (y {len(pairs) - SHOWN_LINES} más)" if len(pairs) > SHOWN_LINES else ""
    causes = "; ".join(cause.text for cause in likely_causes(block.code))
    edits = "; ".join(f"«{marked(a, b)}»" for _, a, b in pairs[:SHOWN_LINES] if a and b)
    by_hand = (
        f"escribe {target} a mano con [..] donde cambia ({edits}), copiando la cabecera de otra "
        "grabación, y vuelve a ejecutar docverify record, que conserva el marcador; "
        if edits
        else ""
    )
    return Finding(
        Kind.UNSTABLE_OUTPUT,
        f"la salida de «{block.key}» en {runner} cambió entre dos ejecuciones seguidas, cada "
        f"una en un proceso nuevo (página {page}); líneas que cambiaron ({len(pairs)}): "
        f"{shown}{more}. "
        f"No se escribe ninguna grabación de esa página. Causas probables: {causes}.",
        config.rel(block.origin),
        hints.writer_line(first, pairs[0][0]) or block.origin_line,
        "si la salida no debía variar, corrige el código (ordena, fija lo que cambia); si debe "
        "variar, imprime algo que no varíe (len(...), una comparación) y compruébalo con una "
        f"expectativa (# Expectativa: …), o {by_hand}una regla de valores cambiantes ya cubre "
        "direcciones, rutas temporales, pids y tiempos medidos (literal=… las desactiva).",
        detail=compare.diff(
            compare.comparable(body, tol),
            compare.comparable("" if second is None else second["output"], tol),
            "primera ejecución",
            "segunda ejecución (proceso nuevo)",
        ),
    )
