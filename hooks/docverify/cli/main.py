"""The `docverify` command: every module of `docverify/cli/` registers its subcommands."""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys

from docverify import cli
from docverify.cli.commands import COMMANDS

# The everyday commands first in `docverify --help`, then the others by module name.
FIRST = "verify_commands"
DESCRIPTION = "Verifica, graba y revisa los bloques de código de la documentación."


def build_parser() -> argparse.ArgumentParser:
    _load_commands()
    parser = argparse.ArgumentParser(prog="docverify", description=DESCRIPTION)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (help_text, setup, handler) in ordered_commands():
        child = sub.add_parser(name, help=help_text, description=help_text)
        setup(child)
        child.set_defaults(handler=handler)
    return parser


def _module_names() -> list[str]:
    """The modules of `docverify/cli/`, FIRST first, then by name."""
    names = (m.name for m in pkgutil.iter_modules(cli.__path__))
    return sorted(names, key=lambda n: (n != FIRST, n))


def _load_commands() -> None:
    """Import every module of `docverify/cli/`: each registers its subcommands with @command."""
    for name in _module_names():
        importlib.import_module(f"docverify.cli.{name}")


def ordered_commands() -> list[tuple[str, tuple]]:
    """The registered commands in `--help` order: by their module's place (FIRST, then by name),
    then as each module registers them; never in the order some other code imported them."""
    modules = [f"docverify.cli.{name}" for name in _module_names()]
    listed = list(COMMANDS.items())

    def place(item: tuple[str, tuple]) -> tuple[int, int]:
        module = item[1][2].__module__
        return (modules.index(module) if module in modules else len(modules), listed.index(item))

    return sorted(listed, key=place)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.handler(args))
    except (ValueError, FileNotFoundError, PermissionError) as exc:
        print(f"docverify: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # its reader stopped reading (`docverify lint | head`): no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nor at exit's flush
        return 1


if __name__ == "__main__":
    sys.exit(main())
