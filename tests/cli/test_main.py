"""`docverify` itself (cli/main.py): its help, the order of its commands and what a command's
expected mistake (a ValueError, a missing or unreadable file) becomes: one line, exit 2."""

from __future__ import annotations

import argparse
import pkgutil

import pytest
from docverify import cli as cli_package
from docverify.cli import main as cli
from docverify.cli.commands import COMMANDS


def _subcommands(parser: argparse.ArgumentParser) -> argparse._SubParsersAction:
    [sub] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return sub


def test_help_names_the_program_and_says_what_it_does(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: docverify ")
    assert "Verifica, graba y revisa los bloques de código de la documentación." in out


def test_a_command_is_required(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main([])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: docverify ") and "required: command" in err


def test_each_command_shows_its_help_text_in_the_list_and_on_its_own_page() -> None:
    parser = cli.build_parser()
    sub = _subcommands(parser)
    listed = {a.dest: a.help for a in sub._choices_actions}
    assert set(listed) == set(COMMANDS) == set(sub.choices)
    for name, (help_text, _, handler) in COMMANDS.items():
        assert listed[name] == help_text, name
        assert sub.choices[name].description == help_text, name
        assert sub.choices[name].get_default("handler") is handler, name
    assert parser.parse_args(["prune"]).command == "prune"


def test_the_everyday_commands_come_first_then_each_module_in_name_order() -> None:
    cli.build_parser()
    shown = [name for name, _ in cli.ordered_commands()]
    # verify_commands registers check, record and prune, in that order.
    assert shown[:3] == ["check", "record", "prune"]
    names = sorted(m.name for m in pkgutil.iter_modules(cli_package.__path__))
    modules = [COMMANDS[n][2].__module__.rpartition(".")[2] for n in shown[3:]]
    assert "verify_commands" not in modules
    assert modules == sorted(modules) and set(modules) <= set(names)


def test_a_command_from_outside_the_package_is_listed_last(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def handler(args: argparse.Namespace) -> int:
        return 0

    handler.__module__ = "otro.paquete"
    cli.build_parser()
    monkeypatch.setitem(COMMANDS, "ajeno", ("ajeno", lambda p: None, handler))
    shown = [name for name, _ in cli.ordered_commands()]
    assert shown[-1] == "ajeno" and shown[:3] == ["check", "record", "prune"]


@pytest.mark.parametrize(
    "error",
    [ValueError("valor malo"), FileNotFoundError("no está"), PermissionError("sin permiso")],
)
def test_an_expected_error_is_one_line_and_exit_2(
    error: Exception, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def handler(args: argparse.Namespace) -> int:
        raise error

    handler.__module__ = "docverify.cli.prueba"
    monkeypatch.setitem(COMMANDS, "falla", ("falla", lambda p: None, handler))
    assert cli.main(["falla"]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"docverify: {error}\n" and captured.out == ""


def test_any_other_error_is_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    def handler(args: argparse.Namespace) -> int:
        raise KeyError("inesperado")

    monkeypatch.setitem(COMMANDS, "rompe", ("rompe", lambda p: None, handler))
    with pytest.raises(KeyError):
        cli.main(["rompe"])


def test_the_exit_code_is_the_handler_s_as_an_int(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[argparse.Namespace] = []

    def setup(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--valor", type=int, default=0)

    def handler(args: argparse.Namespace) -> bool:
        seen.append(args)
        return args.valor > 0

    monkeypatch.setitem(COMMANDS, "eco", ("eco", setup, handler))
    result = cli.main(["eco", "--valor", "3"])
    assert result == 1 and type(result) is int
    assert cli.main(["eco"]) == 0
    assert [a.valor for a in seen] == [3, 0] and seen[0].command == "eco"
