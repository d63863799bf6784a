"""`docverify reports merge`: the reports of a run's shards, merged into the whole run's report."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from docverify.cli.commands import command
from docverify.core.text import counted


def _args(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACCIÓN")
    merge = actions.add_parser(
        "merge",
        help="combina los informes de las partes (--shard I/N) de una ejecución en uno",
        description="Combina los informes de docverify check --shard I/N --report de todas las "
        "partes de una ejecución en el informe que habría escrito una sola ejecución sin "
        "repartir: mismas salidas observadas, misma tabla de estados y hallazgos en el orden "
        "de las páginas. Se niega, sin escribir nada, si son de otro runner, otro reparto, "
        "otro código u otra ejecución, si se solapan o si falta alguna parte.",
    )
    merge.add_argument(
        "folders",
        nargs="+",
        metavar="CARPETA",
        help="carpetas de docverify check --report (o una carpeta con varias debajo, como "
        "quedan los artefactos docverify-<runner>-* de CI al descargarlos)",
    )
    merge.add_argument(
        "--out",
        required=True,
        metavar="CARPETA",
        help="dónde escribir report.json, findings.txt y diffs/ del informe combinado",
    )


@command("reports", "trabaja con los informes de docverify check --report (merge)", _args)
def _reports(args: argparse.Namespace) -> int:
    from docverify.report import (  # noqa: PLC0415
        merge,
        report_folder,
        report_json,
    )

    out = Path(args.out)
    try:
        merged = merge.load([Path(f) for f in args.folders])
    except report_json.ReportError as exc:
        print(f"docverify reports merge: no se escribe nada.\n{exc}", file=sys.stderr)
        return 2
    if any(out.resolve() == source.parent.resolve() for source in merged.sources):
        print(
            f"docverify reports merge: no se escribe nada: {out} es la carpeta de una de las "
            "partes y se sobrescribiría. Cómo arreglarlo: elige otra carpeta con --out.",
            file=sys.stderr,
        )
        return 2
    report_folder.write_merged(out, merged)
    parts = f"{len(merged.sources)} partes" if merged.shards else "1 informe sin repartir"
    print(
        f"docverify reports merge: {parts} → {report_json.path_in(out)} · runner "
        f"{merged.runner} · {counted(len(merged.pages), 'página', 'páginas')} · "
        f"{counted(len(merged.observations), 'salida observada', 'salidas observadas')} · "
        f"{counted(merged.errors, 'error', 'errores')}"
    )
    return 0
