# The `docverify bench` subcommand: build-speed benchmark (logic in docverify.bench.measure).
"""`docverify bench`: measure P1, P2 and P3 on this machine and print one machine-readable line."""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from docverify.bench.common import Bench
from docverify.cli.commands import command
from docverify.core import config


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
        choices=config.RUNNERS,
        default=Bench.runner,
        help=f"runner de P1 y P3; P2 corre siempre en cpu (por defecto {Bench.runner})",
    )
    parser.add_argument(
        "--shards",
        metavar="N,N…",
        help="mide solo el reparto: la verificación del corpus sintético entera frente a cada "
        "parte de --shard I/N para cada N (p. ej. 1,2,4), combina los informes y construye "
        "desde ellos",
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
    root = config.find_root()
    if args.shards is not None:
        return _shards(args, root)
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


def _shards(args: argparse.Namespace, root: Path) -> int:
    """`docverify bench --shards N,N…`: the shards measurement alone (bench/sharding.py)."""
    from docverify.bench import sharding  # noqa: PLC0415

    try:
        counts = sorted({int(n) for n in args.shards.split(",") if n.strip()})
    except ValueError:
        counts = []  # pragma: no mutate; equivalent: None fails «not counts» below as [] does
    if not counts or counts[0] < 1:
        print(
            "docverify bench: --shards espera números ≥ 1 separados por comas (1,2,4).",
            file=sys.stderr,
        )
        return 2
    bench = Bench(
        root=root,
        repeat=args.repeat,
        pages=args.pages,
        blocks=args.blocks,
        smoke=args.smoke,
    )
    try:
        line = sharding.run(bench, counts, out=lambda text: print(text, flush=True))
    except RuntimeError as exc:
        print(f"docverify bench: {exc}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(bench.work, ignore_errors=True)
    print(line, flush=True)
    return 0
