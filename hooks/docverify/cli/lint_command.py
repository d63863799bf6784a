"""`docverify lint [PATHS]`: the structure checks of the build, without running any block."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from docverify import build
from docverify.cli.commands import command, print_findings
from docverify.core import config, device_rule
from docverify.core.config import RUNNERS
from docverify.core.findings import errors
from docverify.core.text import counted
from docverify.parsing.pages import Block, Page, read_site
from docverify.site import lint
from docverify.verifying import baselines


def _args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="*",
        help="páginas, snippets o carpetas cuyos problemas mostrar (por defecto, todo el sitio)",
    )


@command(
    "lint",
    "revisa estructura, ids, grabaciones, fuentes, navegación y snippets sin ejecutar nada",
    _args,
)
def _lint(args: argparse.Namespace) -> int:
    cfg = config.load()
    pages = read_site(cfg)  # always the whole site: navigation and unused files need every page
    findings = build.lint(cfg, pages)
    if args.paths:
        findings = lint.select(cfg, findings, args.paths, pages)
    print_findings(findings)
    print_baselines(cfg, pages, args.paths)
    print_device_dependent(cfg, pages, args.paths)
    bad = errors(findings)
    scope = (
        counted(len(args.paths), "ruta", "rutas")
        if args.paths
        else counted(len(pages), "página", "páginas")
    )
    print(f"docverify lint: {scope} · {counted(len(bad), 'error', 'errores')}")
    return 1 if bad else 0


def _chooser(paths: list[str]) -> Callable[[Page, Block], bool]:
    """Is a block about PATHS (its page or its code in one of them; every block without)?"""
    roots = [Path(p).resolve() for p in paths]

    def chosen(page: Page, block: Block) -> bool:
        files = (page.path.resolve(), block.origin.resolve())
        return not roots or any(f == r or r in f.parents for f in files for r in roots)

    return chosen


def print_device_dependent(cfg: config.Config, pages: list[Page], paths: list[str]) -> None:
    """The blocks (of PATHS, or all) whose output on a GPU may not be their CPU output."""
    chosen = _chooser(paths)
    wanted = {b.key for p in pages for b in p.blocks if chosen(p, b)}
    if lines := lint.device_dependent(cfg, pages, wanted):
        print(
            "Bloques que dependen del dispositivo (según la cabecera de su grabación de CPU; "
            "ver «El runner de GPU» en la guía de autores):"
        )
        print("\n".join(lines))


def print_baselines(cfg: config.Config, pages: list[Page], paths: list[str]) -> None:
    """For each block (of PATHS, or all), which recording each of its runners compares with."""
    chosen = _chooser(paths)

    lines = [
        f"  {block.key}: "
        + " · ".join(
            f"{r} → {baselines.describe(cfg, block, r)}" for r in RUNNERS if block.runs_on(r)
        )
        for page in pages
        for block in page.blocks
        if chosen(page, block)
    ]
    if lines:
        print(f"Con qué grabación compara cada runner ({device_rule.NAME}: {device_rule.TEXT}):")
        print("\n".join(lines))
