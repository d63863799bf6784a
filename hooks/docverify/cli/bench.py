# The `docverify bench` subcommand: build-speed benchmark (logic in docverify.bench.measure).
"""`docverify bench`: measure P1, P2 and P3 on this machine and print one machine-readable line."""

from __future__ import annotations

import argparse
import sys

from docverify.cli.main import command
from docverify.core import config as config_mod


def _bench_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="repeticiones de cada medida; se informa la mediana (por defecto 3)",
    )
    parser.add_argument(
        "--pages",
        type=int,
        default=200,
        help="páginas del corpus sintético de P2 (por defecto 200)",
    )
    parser.add_argument(
        "--blocks",
        type=int,
        default=10,
        help="bloques por página del corpus sintético (por defecto 10)",
    )
    parser.add_argument(
        "--runner",
        choices=["cpu", "gpu"],
        default="cpu",
        help="runner de P1 y P3; P2 corre siempre en cpu (por defecto cpu)",
    )


@command("bench", "mide P1, P2 y P3 (velocidad del build) e imprime sus razones", _bench_args)
def _bench(args: argparse.Namespace) -> int:
    from docverify.bench import measure as bench  # noqa: PLC0415

    if args.repeat < 1 or args.pages < 1 or args.blocks < 1:
        print("docverify bench: --repeat, --pages y --blocks deben ser ≥ 1.", file=sys.stderr)
        return 2
    root = config_mod.find_root()
    try:
        line = bench.run(
            bench.Bench(
                root=root,
                repeat=args.repeat,
                pages=args.pages,
                blocks=args.blocks,
                runner=args.runner,
            ),
            out=lambda text: print(text, flush=True),
        )
    except RuntimeError as exc:
        print(f"docverify bench: {exc}", file=sys.stderr)
        return 1
    print(line, flush=True)
    return 0
