"""`docverify lint [PATHS]`: the structure checks of the build, without running any block."""

from __future__ import annotations

import argparse

from docverify.cli.commands import command, print_findings
from docverify.core import config as config_mod
from docverify.core.findings import errors
from docverify.parsing.pages import read_site
from docverify.site import lint


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
    cfg = config_mod.load()
    pages = read_site(cfg)  # always the whole site: navigation and unused files need every page
    findings = lint.run(cfg, pages)
    if args.paths:
        findings = lint.select(cfg, findings, args.paths, pages)
    print_findings(findings)
    bad = errors(findings)
    scope = f"{len(args.paths)} rutas" if args.paths else f"{len(pages)} páginas"
    print(f"docverify lint: {scope} · {len(bad)} errores")
    return 1 if bad else 0
