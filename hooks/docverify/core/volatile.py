"""Volatile values: what changes from run to run and never carries meaning in documentation.

ONE list, applied the same way wherever an output is compared (check, record, the page's CPU/GPU
panels, the notebook test): both sides are rewritten with a readable placeholder before they
are compared, and `record` writes the placeholder into the recording. Each rule is narrow on
purpose (it must never hide a number the article is about), is documented in the author guide,
and can be turned off for one block with `literal="name,…"` (or `literal="all"`).
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    name: str  # what an author writes in literal="…"
    pattern: re.Pattern[str]
    replacement: str  # re.sub template; leaves `placeholder` where the value was
    placeholder: str  # what the recording keeps, readable by a reviewer
    example: str  # one observed text the rule rewrites (documented and tested)


def _temp_roots() -> str:
    roots = {"/tmp", "/var/tmp", tempfile.gettempdir().rstrip("/")}
    alternatives = sorted((re.escape(r) for r in roots if r), key=len, reverse=True)
    alternatives.append(r"/var/folders/[\w-]+/[\w-]+/T")  # macOS (and its /private twin)
    return "|".join(alternatives)


RULES: tuple[Rule, ...] = (
    # An object's address in its repr: <AddBackward0 object at 0x7f2c…>, <function f at 0x…>.
    Rule(
        "address",
        re.compile(r"(?<=\bat )0x[0-9a-fA-F]{4,16}\b"),
        "[dirección]",
        "[dirección]",
        "<AddBackward0 object at 0x7f2c1a3b9e50>",
    ),
    # A temporary folder and the random name made in it (each block runs in one):
    # /tmp/docverify-k2j3x9_a/datos.pt → [ruta temporal]/datos.pt. The rest of the path stays.
    Rule(
        "temp-path",
        re.compile(rf"(?<![\w./-])(?:/private)?(?:{_temp_roots()})/[^/\s'\"<>,;:)\]}}]+"),
        "[ruta temporal]",
        "[ruta temporal]",
        "/tmp/docverify-k2j3x9_a/datos.pt",
    ),
    # A process id printed with its label: pid=4242, PID: 4242, ppid 17; and in the warning
    # Python writes for a Popen dropped while its process runs: «subprocess 4242 is still
    # running» (that exact form, nothing broader).
    Rule(
        "pid",
        re.compile(
            r"(?i)\b(p?pid)(\s*[=:]\s*|\s+)\d+\b|(?<=\bsubprocess )\d+(?= is still running\b)"
        ),
        r"\1\2[pid]",
        "[pid]",
        "pid=4242",
    ),
    # A measured duration: a number WITH decimals followed by a time unit (0.0123 s, 12.5 ms,
    # 3.2 µs). Whole numbers (timeout=5 s) are not durations measured by the block: kept.
    Rule(
        "elapsed",
        re.compile(
            r"(?<![\w.])\d+\.\d+(?:[eE][-+]?\d+)?"
            r"(?=\s?(?:s|ms|us|µs|μs|ns|sec|secs|seconds|segundos|min)\b)"
        ),
        "[duración]",
        "[duración]",
        "tardó 0.0123 s",
    ),
)
NAMES: tuple[str, ...] = tuple(rule.name for rule in RULES)
ALL = "all"  # literal="all": no rule applies to the block


def unknown(names: str) -> list[str]:
    """The names in a literal="…" option that are not rules (nor «all»)."""
    return [n for n in split(names) if n not in (*NAMES, ALL)]


def split(names: str) -> list[str]:
    return [n.strip() for n in re.split(r"[,\s]+", names) if n.strip()]


def active(literal: str | None) -> tuple[str, ...]:
    """The rules that apply to a block whose literal="…" option is `literal`."""
    off = set(split(literal)) if literal else set()
    return () if ALL in off else tuple(n for n in NAMES if n not in off)


def apply(text: str, names: tuple[str, ...] = NAMES) -> str:
    """`text` with every value a rule in `names` covers replaced by that rule's placeholder."""
    for rule in RULES:
        if rule.name in names:
            text = rule.pattern.sub(rule.replacement, text)
    return text


# Tokens that change between runs but that no rule covers: hexadecimal numbers and integers of
# ten digits or more (id(), data_ptr()); a count of parameters rarely has ten. Used only to word
# a hint, never to compare.
_LOOKS_VOLATILE = re.compile(r"^(?:0x[0-9a-fA-F]+|\d{10,})$")
_TOKEN = re.compile(r"0x[0-9a-fA-F]+|\d+(?:\.\d+)?|\w+|\s+|.")


def volatile_only(expected: str, observed: str) -> bool:
    """Do two lines differ only in tokens that look volatile (addresses, long ids)?"""
    a, b = _TOKEN.findall(expected), _TOKEN.findall(observed)
    if a == b:
        return False
    try:
        return all(
            x == y or (_LOOKS_VOLATILE.match(x) and _LOOKS_VOLATILE.match(y))
            for x, y in zip(a, b, strict=True)
        )
    except ValueError:  # not as many tokens: they differ in more than a value
        return False


def marked(expected: str, observed: str) -> str:
    """`expected` with each volatile-looking token that differs from `observed` as [..]; for
    two lines `volatile_only` accepts (as many tokens: ValueError otherwise)."""
    a, b = _TOKEN.findall(expected), _TOKEN.findall(observed)
    return "".join("[..]" if x != y else x for x, y in zip(a, b, strict=True))
