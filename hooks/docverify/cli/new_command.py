"""`docverify new <slug> "<título>"`: scaffold an article that builds once its block is recorded."""

from __future__ import annotations

import argparse
import sys

from docverify.cli.commands import command, configuration
from docverify.site import lint, scaffold


def _args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("slug", help="nombre del archivo, p. ej. tensores-basicos")
    parser.add_argument("title", help="título del artículo, entre comillas")


@command(
    "new", "crea un artículo con todas sus partes, su primer bloque y su entrada en el nav", _args
)
def _new(args: argparse.Namespace) -> int:
    cfg = configuration("new")
    try:
        article = scaffold.new_article(cfg, args.slug, args.title, cfg.root / lint.MKDOCS_FILE)
    except scaffold.ScaffoldError as exc:
        print(f"docverify new: {exc}", file=sys.stderr)
        return 2
    scaffold.apply(article)
    page = cfg.rel(article.page)
    print(
        f"creado: {page}\ncreado: {cfg.rel(article.snippet)}\n"
        f"añadido al nav: {cfg.rel(article.mkdocs_file)} (sección «{scaffold.NAV_SECTION}»)\n\n"
        "Siguientes pasos:\n"
        f"  1. Escribe el artículo y sus bloques: {page}\n"
        f"  2. Graba las salidas y revisa el diff: docverify record --runner cpu {page}\n"
        f"  3. Revisa la estructura: docverify lint {page}\n"
        "  4. Previsualiza: mkdocs serve"
    )
    return 0
