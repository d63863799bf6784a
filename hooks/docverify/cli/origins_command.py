"""`docverify origins --drift`: what changed upstream in the code the pages quote (origin:)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from docverify.cli.commands import command, configuration
from docverify.core.files import write_atomic
from docverify.parsing import origin
from docverify.parsing.pages import read_site


def _args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--drift",
        action="store_true",
        required=True,
        help="compara el archivo de cada origin: en su commit con la rama principal de su "
        "repositorio (git fetch: necesita red)",
    )
    parser.add_argument(
        "--issue",
        metavar="JSON",
        help="escribe el aviso de weekly.yml (formato 1: count, title, body, closing)",
    )


@command("origins", "compara el código citado (origin:) con su repositorio de origen", _args)
def _origins(args: argparse.Namespace) -> int:
    from docverify.sources import origins  # noqa: PLC0415

    cfg = configuration("origins")
    pages = [p for p in read_site(cfg) if origin.KEY in p.meta]
    try:
        drifts = origins.compare(cfg, pages)
    except origins.FetchError as exc:
        print(f"docverify origins: no se compara nada: {exc}", file=sys.stderr)
        return 1
    for drift in drifts:
        names = ", ".join(block_id for block_id, _ in drift.blocks) or "ninguno"
        what = "ya no existe" if drift.gone else "cambió"  # as the notice says it
        print(
            f"{drift.page}: {drift.found.path} {what} en {drift.found.repository} "
            f"({drift.found.commit[:12]} → {drift.head[:12]}); bloques afectados: {names}"
        )
    if args.issue:
        text = json.dumps(origins.notice(drifts, len(pages)), ensure_ascii=False)
        write_atomic(Path(args.issue), text + "\n")
    print(
        f"docverify origins: {origins.page_count(len(pages))} con origin: · {len(drifts)} con "
        "cambios en su repositorio"
    )
    return 0
