"""Shared helpers live once, in docverify.core: CI, runner labels, dates, defaults, commands."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
import subprocess
import sys
from pathlib import Path

import pytest
from docverify.core import config as config_mod
from docverify.core import settings
from docverify.core.dates import day_count, parse_date, spanish_date, spanish_date_of
from docverify.core.files import write_atomic
from docverify.sources import freshness

ENGINE = Path(config_mod.__file__).resolve().parent.parent


# Reads CI itself until the integrator merges the rewrite of verify.py (a hotspot of this wave).
@pytest.mark.parametrize(
    ("value", "expected"),
    [("true", True), (" TRUE ", True), ("True", True), ("false", False), ("1", False), ("", False)],
)
def test_in_ci_reads_ci_true_in_any_case(
    value: str, expected: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CI", value)
    assert config_mod.in_ci() is expected
    monkeypatch.delenv("CI")
    assert config_mod.in_ci() is False


def test_only_core_reads_the_ci_variable() -> None:
    readers = {
        path.relative_to(ENGINE).as_posix()
        for path in ENGINE.rglob("*.py")
        if re.search(r"""\.get\(\s*["']CI["']|\[["']CI["']\]""", path.read_text())
    }
    assert readers == {"core/config.py"}


def test_every_runner_has_one_label() -> None:
    assert set(config_mod.LABEL) == set(config_mod.RUNNERS)
    assert len(set(config_mod.LABEL.values())) == len(config_mod.RUNNERS)


def test_spanish_dates_round_trip_through_iso() -> None:
    day = dt.date(2026, 9, 23)
    assert spanish_date(day) == "23 de septiembre de 2026"
    assert spanish_date_of(day.isoformat()) == spanish_date(parse_date(day.isoformat()))
    for bad in (None, "", "2026-9-23", "2026-02-30", "ayer"):
        assert spanish_date_of(bad) == "fecha desconocida"
        with pytest.raises(ValueError):
            parse_date(bad)


def test_write_atomic_replaces_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b.txt"
    write_atomic(target, "uno\n")
    write_atomic(target, "dos\n")
    assert target.read_text(encoding="utf-8") == "dos\n"
    assert [p.name for p in target.parent.iterdir()] == ["b.txt"]


def test_sources_policy_defaults_are_the_policy_fields() -> None:
    default = freshness.Policy()
    assert {
        f.name: getattr(default, f.name) for f in dataclasses.fields(default)
    } == freshness.DEFAULTS


def test_an_empty_docverify_table_gives_the_config_defaults(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.docverify]\n", encoding="utf-8")
    cfg = config_mod.load(tmp_path)
    plain = config_mod.Config(
        root=cfg.root,
        docs_dir=cfg.root / settings.DEFAULTS["docs_dir"],
        snippets_dir=cfg.root / settings.DEFAULTS["snippets_dir"],
        lines={"": 1},
    )
    assert cfg == plain


def test_every_subcommand_is_registered_by_a_module_of_its_own() -> None:
    """`python -m docverify.cli.main` sees the same commands as `docverify`, and main defines
    none itself: each comes from a module of docverify/cli/ through @command."""
    from docverify.cli import main as cli  # noqa: PLC0415

    cli.build_parser()
    assert {"check", "record", "prune", "bench", "lint", "new", "sources"} <= set(cli.COMMANDS)
    for name, (_, _, handler) in cli.COMMANDS.items():
        assert handler.__module__ not in ("docverify.cli.main", "__main__"), name
    done = subprocess.run(
        [sys.executable, "-m", "docverify.cli.main", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    listed = re.search(r"\{([\w,-]+)\}", done.stdout)
    assert listed, done.stdout
    # The same order whatever this process imported first (another test may have imported a
    # command's module before main did: `docverify --help` must not depend on it).
    shown = [name for name, _ in cli.ordered_commands()]
    assert listed.group(1).split(",") == shown
    assert cli.COMMANDS[shown[0]][2].__module__ == f"docverify.cli.{cli.FIRST}"


def test_help_lists_commands_by_module_whatever_was_imported_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Registration order is import order; the help's order is the modules' (FIRST first)."""
    from docverify.cli import main as cli  # noqa: PLC0415

    cli.build_parser()
    reversed_registry = dict(reversed(list(cli.COMMANDS.items())))
    monkeypatch.setattr(cli, "COMMANDS", reversed_registry)
    names = [name for name, _ in cli.ordered_commands()]
    modules = [cli.COMMANDS[n][2].__module__ for n in names]
    assert modules[0] == f"docverify.cli.{cli.FIRST}"
    rest = [m for m in modules if m != modules[0]]
    assert rest == sorted(rest)


def test_a_count_of_days_is_singular_for_one_only() -> None:
    """«hace 1 día», never «hace 1 días»; 0 and many are plural, as a reader says them."""
    assert [day_count(n) for n in (0, 1, 2, 180)] == ["0 días", "1 día", "2 días", "180 días"]
