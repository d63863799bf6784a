"""`docverify zensical build|serve`: the site built with Zensical from the same sources."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from docverify.cli.commands import command


def _args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "action",
        choices=["build", "serve"],
        help="build: verifica y construye una vez; serve: sirve y reconstruye con cada cambio",
    )
    parser.add_argument(
        "--dir",
        type=Path,
        metavar="CARPETA",
        help="carpeta del árbol generado y del sitio (por defecto build/zensical; el sitio, "
        "en su subcarpeta site/)",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="build: un aviso de Zensical (un enlace o un ancla que no existe) es un error",
    )
    parser.add_argument(
        "--dev-addr",
        default="127.0.0.1:8000",
        metavar="IP:PUERTO",
        help="serve: dirección donde servir (por defecto 127.0.0.1:8000)",
    )


@command(
    "zensical",
    "verifica y construye (o sirve) el sitio con Zensical, desde las mismas fuentes",
    _args,
)
def _zensical(args: argparse.Namespace) -> int:
    # clash: `executor`, the Executor this function makes
    from docverify.running import executor as executor_mod  # noqa: PLC0415
    from docverify.zensical import adapter, patches, zensical_config  # noqa: PLC0415

    root = Path.cwd()
    out = (args.dir or root / adapter.DEFAULT_DIR).resolve()
    executor = executor_mod.shared()
    try:
        if args.action == "build":
            return adapter.build(root, out, executor, strict=args.strict)
        return adapter.serve(root, out, executor, args.dev_addr)
    except (zensical_config.ConfigError, patches.PatchError) as exc:
        print(f"docverify zensical: {exc}", file=sys.stderr)
        return 2
