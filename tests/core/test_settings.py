"""[tool.docverify]: each key's line in pyproject.toml, and a finding for each mistake."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy
from docverify.core import settings
from docverify.core.kinds import Kind

TEXT = """\
[project]
name = "x"
timeout = 3

[tool.docverify]
docs_dir = "docs"
timeout = 60  # seconds
"rtol" = 1e-5

[tool.docverify.sources]
max_age_days = 180

[[tool.docverify.extra]]
seed = 1

[tool.other]
seed = 2
"""


def test_key_lines_reads_the_table_and_its_sub_tables_only() -> None:
    lines = settings.key_lines(TEXT, "tool.docverify")
    assert lines == {
        "": 5,
        "docs_dir": 6,
        "timeout": 7,
        "rtol": 8,
        "sources": 10,
        "sources.max_age_days": 11,
    }


def test_an_unknown_key_names_the_closest_valid_one() -> None:
    values, (finding,) = settings.read({"timeot": 5}, {"timeot": 12}, "pyproject.toml")
    assert (finding.kind, finding.where) == (Kind.CONFIG, "pyproject.toml:12")
    assert "«timeot»" in finding.message and "«timeout»" in finding.fix
    assert values == settings.DEFAULTS


def test_a_bad_value_says_what_is_expected_and_keeps_the_default() -> None:
    raw = {"timeout": "sesenta", "seed": True, "output_limit": 0, "rtol": -1, "atol": 0}
    lines = {key: number for number, key in enumerate(raw, 20)}
    values, found = settings.read(raw, lines, "pyproject.toml")
    assert [f.line for f in found] == [20, 21, 22, 23]  # atol = 0 is valid
    assert 'timeout = "sesenta"' in found[0].message and "segundos" in found[0].message
    assert "seed = true" in found[1].message  # a TOML boolean is not a number
    assert values["timeout"] == 60.0 and values["atol"] == 0.0
    assert isinstance(values["timeout"], float)


def test_valid_values_are_taken_as_numbers_of_their_kind() -> None:
    values, found = settings.read({"timeout": 5, "rtol": 0, "seed": 7}, {}, "pyproject.toml")
    assert not found
    assert (values["timeout"], values["rtol"], values["seed"]) == (5.0, 0.0, 7)
    assert isinstance(values["timeout"], float) and isinstance(values["seed"], int)


def test_a_seed_is_accepted_exactly_when_numpy_accepts_it() -> None:
    """Every block seeds numpy's global generator with `seed`: a value numpy refuses would fail
    every block inside numpy, so the setting names it instead, at its line."""
    for seed in (0, 1, 2**32 - 1, 2**32, 2**63, -1):
        try:
            numpy.random.seed(seed)
            numpy_takes = True
        except ValueError:
            numpy_takes = False
        values, found = settings.read({"seed": seed}, {"seed": 9}, "pyproject.toml")
        assert (not found) == numpy_takes, seed
        assert values["seed"] == (seed if numpy_takes else settings.DEFAULTS["seed"])
        if found:
            assert (found[0].kind, found[0].line) == (Kind.CONFIG, 9) and "seed" in found[0].message
    numpy.random.seed(0)


def test_a_hash_seed_is_accepted_exactly_when_python_starts_with_it() -> None:
    """Every process that runs blocks starts with PYTHONHASHSEED=hash_seed: a value Python
    refuses would stop the fork server from starting, so the setting names it instead. A TOML
    boolean or a string is no number, whatever Python would make of its text."""
    for seed in (0, 1, 2**32 - 1, 2**32, -1):
        started = subprocess.run(
            [sys.executable, "-c", "pass"],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            check=False,
        )
        python_takes = started.returncode == 0
        values, found = settings.read({"hash_seed": seed}, {"hash_seed": 4}, "pyproject.toml")
        assert (not found) == python_takes, seed
        assert values["hash_seed"] == (seed if python_takes else settings.DEFAULTS["hash_seed"])
        if found:
            assert (found[0].kind, found[0].line) == (Kind.CONFIG, 4)
            assert f"hash_seed = {seed}" in found[0].message
    for wrong in (True, "0", 1.0):
        _, found = settings.read({"hash_seed": wrong}, {"hash_seed": 4}, "pyproject.toml")
        assert [f.line for f in found] == [4], wrong


def test_each_bound_is_where_the_message_says() -> None:
    """A timeout must be more than 0 s; a folder relative to the project. The values on either
    side of each bound, and a key without a line of its own named at its table's header."""
    cases = {  # key: (accepted, refused)
        "timeout": (0.5, 0),
        "docs_dir": ("docs/es", "/tmp/docs"),
        "snippets_dir": ("fragmentos", " "),
    }
    for key, (good, bad) in cases.items():
        values, found = settings.read({key: good}, {}, "pyproject.toml")
        assert not found and values[key] == good, key
        values, found = settings.read({key: bad}, {"": 5}, "pyproject.toml")
        assert [(f.kind, f.line) for f in found] == [(Kind.CONFIG, 5)], key
        assert f"{key} = " in found[0].message and values[key] == settings.DEFAULTS[key]


def test_the_checks_of_numbers_and_integers_at_their_bounds() -> None:
    """The factories themselves (SETTINGS calls them once, at import)."""
    between = settings._integer(1, 3)
    assert [v for v in (0, 1, 2, 3, 4, True, 1.0, "2") if between(v)] == [1, 2, 3]
    unbounded = settings._integer(0)
    assert unbounded(0) and unbounded(2**70) and not unbounded(-1) and not unbounded(False)
    number = settings._number(0)
    assert [v for v in (-0.1, 0, 0.0, 2.5, 7, True, "1") if number(v)] == [0, 0.0, 2.5, 7]


def test_a_wrong_value_is_reported_whole_and_the_next_keys_are_still_read() -> None:
    table = {"desconocida": 1, "timeout": False, "sources": "x", "rtol": 0.5}
    values, found = settings.read(table, {"timeout": 3, "": 1}, "pyproject.toml")
    assert values["rtol"] == 0.5 and values["timeout"] == 60.0 and values["sources"] == {}
    unknown, timeout, sources = found
    assert (unknown.path, unknown.line) == ("pyproject.toml", 1)
    assert unknown.fix == (
        f"Corrígela o quítala; las claves válidas son: {', '.join(settings.SETTINGS)}."
    )  # no close key: no «¿querías decir…?»
    assert (timeout.path, timeout.line, timeout.message, timeout.fix) == (
        "pyproject.toml",
        3,
        "[tool.docverify] timeout = false no es válido: debe ser un número de segundos mayor "
        "que 0. Mientras tanto se usa el valor por defecto, 60.0.",
        "escribe timeout = 60.0 (o el valor que quieras, un número de segundos mayor que 0).",
    )
    assert sources.message.endswith("el valor por defecto, {…}.") and sources.line == 1
    _, [true] = settings.read({"hash_seed": True}, {}, "pyproject.toml")
    assert "hash_seed = true no es válido" in true.message and true.line == 1  # no line at all


def test_key_lines_follow_quoted_and_spaced_names_and_skip_arrays_of_tables() -> None:
    text = (
        "XY = 0\n"  # before any table: no key of it
        '[ tool . "docverify" ]\n'
        "XY = 2\n"
        '"rtol" = 3\n'
        "  [[tool.docverify.lista]]\n"  # an indented array of tables: not followed
        "seed = 1\n"
        "[tool.docverify.sources]\n"
        "atol = 4\n"
    )
    assert settings.key_lines(text, "tool.docverify") == {
        "": 2,
        "XY": 3,
        "rtol": 4,
        "sources": 7,
        "sources.atol": 8,
    }
