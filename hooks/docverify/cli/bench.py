# The `docverify bench` subcommand: build-speed benchmark (logic in docverify.bench.measure).
"""`docverify bench`: measure P1, P2 and P3 on this machine and print one machine-readable line."""

from __future__ import annotations

import argparse
import sys

from docverify.bench.common import Bench
from docverify.cli.commands import command
from docverify.core import config as config_mod


def _bench_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--repeat",
        type=int,
        default=Bench.repeat,
        help=f"repeticiones de cada medida; se informa la mediana (por defecto {Bench.repeat})",
    )
    parser.add_argument(
        "--pages",
        type=int,
        default=Bench.pages,
        help=f"páginas del corpus sintético de P2 (por defecto {Bench.pages})",
    )
    parser.add_argument(
        "--blocks",
        type=int,
        default=Bench.blocks,
        help=f"bloques por página del corpus sintético (por defecto {Bench.blocks})",
    )
    parser.add_argument(
        "--runner",
        choices=config_mod.RUNNERS,
        default=Bench.runner,
        help=f"runner de P1 y P3; P2 corre siempre en cpu (por defecto {Bench.runner})",
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="prueba de humo: cada paso una vez, con las cuentas mínimas; comprueba que todo "
        "funciona, sus cifras no sirven para juzgar los objetivos",
    )


@command("bench", "mide P1, P2 y P3 (velocidad del build) e imprime sus razones", _bench_args)
def _bench(args: argparse.Namespace) -> int:
    from docverify.bench import measure  # noqa: PLC0415

    if args.repeat < 1 or args.pages < 1 or args.blocks < 1:
        print("docverify bench: --repeat, --pages y --blocks deben ser ≥ 1.", file=sys.stderr)
        return 2
    root = config_mod.find_root()
    try:
        line = measure.run(
            Bench(
                root=root,
                repeat=args.repeat,
                pages=args.pages,
                blocks=args.blocks,
                runner=args.runner,
                smoke=args.smoke,
            ),
            out=lambda text: print(text, flush=True),
        )
    except RuntimeError as exc:
        print(f"docverify bench: {exc}", file=sys.stderr)
        return 1
    print(line, flush=True)
    return 0
