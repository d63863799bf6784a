"""What every subcommand module uses: the registry (`@command`) and the shared helpers.

A subcommand is a function decorated with `@command(name, help, setup)` in a module of
`docverify/cli/`; `docverify.cli.main` imports every such module, so adding a command is adding
a module (or a function to one), never editing a list.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from docverify.core import config
from docverify.core.findings import Finding, Level, errors
from docverify.parsing.pages import Page, read_site

Command = Callable[[argparse.Namespace], int]
# Subcommands registered by name: (help text, argument setup, handler).
COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None], Command]] = {}


def command(
    name: str,
    help_text: str,
    setup: Callable[[argparse.ArgumentParser], None] = lambda p: None,
) -> Callable[[Command], Command]:
    def register(handler: Command) -> Command:
        COMMANDS[name] = (help_text, setup, handler)
        return handler

    return register


def configuration(command: str) -> config.Config:
    """The project's configuration, for a command that writes or decides on it: a mistake in
    [tool.docverify] is printed with its line and ends the command (exit 1) before it does
    anything. `check` and `lint` load it themselves and report those mistakes among the rest."""
    cfg = config.load()
    if bad := errors(list(cfg.findings)):
        print_findings(bad)
        print(
            f"docverify {command}: {cfg.pyproject} tiene {len(bad)} "
            f"error{'es' if len(bad) != 1 else ''} de configuración; corrígelos y repite.",
            file=sys.stderr,
        )
        raise SystemExit(1)
    return cfg


def select_pages(cfg: config.Config, paths: list[str]) -> tuple[list[Page], bool]:
    """The pages named by PATHS (files or folders), or every page; and whether that is all."""
    if not paths:
        return read_site(cfg), True
    chosen: list[Path] = []
    for raw in paths:
        path = Path(raw).resolve()
        if path.is_dir():
            chosen.extend(sorted(path.rglob("*.md")))
        elif path.is_file() and path.suffix == ".md":
            chosen.append(path)
        else:
            raise SystemExit(f"docverify: {raw}: no es una página .md ni una carpeta de docs/.")
    return read_site(cfg, sorted(set(chosen))), False


def print_findings(findings: list[Finding]) -> None:
    for finding in findings:
        stream = sys.stderr if finding.level is Level.ERROR else sys.stdout
        print(finding.format(), end="\n\n", file=stream)


def runner_args(parser: argparse.ArgumentParser, auto: str = "gpu si hay CUDA") -> None:
    """--runner, --workers and the pages, as check, record and canary take them (`auto`: what
    the runner `auto` picks, as the help says it)."""
    parser.add_argument(
        "--runner",
        choices=[*config.RUNNERS, "auto"],
        help=f"runner (por defecto DOCVERIFY_RUNNER o auto: {auto})",
    )
    parser.add_argument(
        "--workers",
        type=int,
        help="procesos en paralelo (por defecto, uno por núcleo)",
    )
    parser.add_argument("paths", nargs="*", help="páginas o carpetas (por defecto, todo docs/)")
