"""The `docverify` command: every module of `docverify/cli/` registers its subcommands."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from docverify import cli
from docverify.cli.commands import COMMANDS

# The everyday commands first in `docverify --help`, then the others by module name.
FIRST = "verify"
DESCRIPTION = "Verifica, graba y revisa los bloques de código de la documentación."


def build_parser() -> argparse.ArgumentParser:
    _load_commands()
    parser = argparse.ArgumentParser(prog="docverify", description=DESCRIPTION)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (help_text, setup, handler) in COMMANDS.items():
        child = sub.add_parser(name, help=help_text, description=help_text)
        setup(child)
        child.set_defaults(handler=handler)
    return parser


def _load_commands() -> None:
    """Import every module of `docverify/cli/`: each registers its subcommands with @command."""
    names = sorted(
        (m.name for m in pkgutil.iter_modules(cli.__path__)), key=lambda n: (n != FIRST, n)
    )
    for name in names:
        importlib.import_module(f"docverify.cli.{name}")


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.handler(args))
    except (ValueError, FileNotFoundError, PermissionError) as exc:
        print(f"docverify: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
