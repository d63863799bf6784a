"""The keys of [tool.docverify]: what each accepts, its default, and where it is written.

`tomllib` gives values but no lines, so the lines come from the table's text (`key_lines`). A
key the engine does not know, or a value of the wrong kind, is a finding that names the key, the
file and its line, in Spanish; the default stands in for it, so a build can still show every
other problem (and fails on this one).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from docverify.core import hashing, policies
from docverify.core.findings import Finding
from docverify.core.kinds import Kind


@dataclass(frozen=True)
class Setting:
    default: Any
    expects: str  # what a valid value is, in Spanish, for the message
    accept: Callable[[Any], bool]


def _number(minimum: float) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, int | float) and not isinstance(v, bool) and v >= minimum


def _integer(minimum: int, maximum: int | None = None) -> Callable[[Any], bool]:
    def accept(v: Any) -> bool:
        ok = isinstance(v, int) and not isinstance(v, bool) and v >= minimum
        return ok and (maximum is None or v <= maximum)

    return accept


def _folder(v: Any) -> bool:
    return isinstance(v, str) and bool(v.strip()) and not v.startswith("/")


SETTINGS: dict[str, Setting] = {
    "docs_dir": Setting("docs", "una carpeta relativa al proyecto, entre comillas", _folder),
    "snippets_dir": Setting(
        "snippets", "una carpeta relativa al proyecto, entre comillas", _folder
    ),
    "timeout": Setting(
        60.0, "un número de segundos mayor que 0", lambda v: _number(0)(v) and v > 0
    ),
    "output_limit": Setting(100 * 1024, "un número entero de caracteres mayor que 0", _integer(1)),
    "rtol": Setting(1e-5, "un número ≥ 0", _number(0)),
    "atol": Setting(1e-8, "un número ≥ 0", _number(0)),
    # numpy.random.seed accepts 0 … 2**32 - 1, and every block is seeded with it.
    "seed": Setting(0, "un número entero entre 0 y 4294967295", _integer(0, 2**32 - 1)),
    # PYTHONHASHSEED of every process that runs blocks (core/hashing.py): 0 … 2**32 - 1 too.
    "hash_seed": Setting(0, "un número entero entre 0 y 4294967295", _integer(0, hashing.MAXIMUM)),
    **{
        name: Setting(
            policies.DEFAULTS[name],
            " o ".join(f"«{v}»" for v in choices),
            lambda v, choices=choices: v in choices,
        )
        for name, choices in policies.CHOICES.items()
    },
    # A table of its own, [tool.docverify.sources]: its keys are judged by sources/freshness.py.
    "sources": Setting({}, "una tabla [tool.docverify.sources]", lambda v: isinstance(v, dict)),
}
DEFAULTS: dict[str, Any] = {name: s.default for name, s in SETTINGS.items()}

_HEADER = re.compile(r"^\s*\[\s*(?P<name>[^\[\]]+?)\s*\]\s*(?:#.*)?$")
_KEY = re.compile(r"""^\s*(?P<key>[A-Za-z0-9_.\-"' ]+?)\s*=""")


def key_lines(text: str, table: str) -> dict[str, int]:
    """The 1-based line of each key of `table` and of its sub-tables in TOML `text`.

    Keys of a sub-table are named `sub.key`; a table's own header line is named by its dotted
    name relative to `table` ("" for the table itself). Array-of-tables and multi-line values are
    not followed: a key inside one is not a key of `table`.
    """
    found: dict[str, int] = {}
    current: str | None = None
    for number, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("[["):
            current = None
            continue
        if header := _HEADER.match(line):
            name = _unquote(header.group("name"))
            if name == table or name.startswith(table + "."):
                current = name[len(table) + 1 :]  # "" for the table itself
                found.setdefault(current, number)
            else:
                current = None
            continue
        if current is not None and (key := _KEY.match(line)):
            name = _unquote(key.group("key"))
            found.setdefault(f"{current}.{name}" if current else name, number)
    return found


def _unquote(dotted: str) -> str:
    return ".".join(part.strip().strip("\"'") for part in dotted.split("."))


def read(
    table: Mapping[str, Any], lines: Mapping[str, int], where: str
) -> tuple[dict[str, Any], list[Finding]]:
    """The value of every setting (the default where `table` has none or a wrong one) and a
    finding for each unknown key or wrong value, located at its line in `where`."""
    values = dict(DEFAULTS)
    findings: list[Finding] = []
    for key, value in table.items():
        line = lines.get(key) or lines.get("", 1)
        setting = SETTINGS.get(key)
        if setting is None:
            close = difflib.get_close_matches(key, SETTINGS, n=1)
            hint = f"¿querías decir «{close[0]}»? " if close else ""
            findings.append(
                Finding(
                    Kind.CONFIG,
                    f"[tool.docverify]: clave desconocida «{key}»; el motor la ignoraría.",
                    where,
                    line,
                    f"{hint}Corrígela o quítala; las claves válidas son: {', '.join(SETTINGS)}.",
                )
            )
            continue
        if not setting.accept(value):
            findings.append(
                Finding(
                    Kind.CONFIG,
                    f"[tool.docverify] {key} = {_toml(value)} no es válido: debe ser "
                    f"{setting.expects}. Mientras tanto se usa el valor por defecto, "
                    f"{_toml(setting.default)}.",
                    where,
                    line,
                    f"escribe {key} = {_toml(setting.default)} (o el valor que quieras, "
                    f"{setting.expects}).",
                )
            )
            continue
        values[key] = float(value) if isinstance(setting.default, float) else value
    return values, findings


def _toml(value: Any) -> str:
    """A value as it is written in pyproject.toml."""
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{…}"
    return repr(value)
