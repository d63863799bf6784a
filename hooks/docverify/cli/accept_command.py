"""`docverify accept CARPETA`: adopt the outputs of a check report as recordings, after review."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from docverify.cli.commands import command, configuration
from docverify.core.config import Config
from docverify.core.text import counted
from docverify.parsing.pages import read_site
from docverify.report import accept, merge, report_json


def report_args(parser: argparse.ArgumentParser) -> None:
    """The report to adopt and the runner to write for: accept's and review's arguments."""
    parser.add_argument(
        "folder",
        metavar="CARPETA",
        help="la carpeta de docverify check --report, o una carpeta con los informes de todas "
        "las partes de una ejecución (p. ej. los artefactos docverify-gpu-* de CI, descargados "
        "con gh run download ID -p 'docverify-gpu-*' -D CARPETA)",
    )
    parser.add_argument(
        "--runner",
        choices=["cpu", "gpu"],
        help="runner cuyas grabaciones escribir (por defecto, el del informe; si no coincide, "
        "no se escribe nada)",
    )


def _args(parser: argparse.ArgumentParser) -> None:
    report_args(parser)
    parser.add_argument("--yes", action="store_true", help="escribe sin preguntar")


@command(
    "accept",
    "convierte en grabaciones las salidas de un informe de docverify check (nunca con CI=true)",
    _args,
)
def _accept(args: argparse.Namespace) -> int:
    cfg = configuration("accept")
    planned = plan_report(cfg, args, "accept", announce=True)
    if planned is None:
        return 2
    _, plan = planned
    for write in plan.writes:
        print(f"se escribirá: {cfg.rel(write.path)}\n{write.diff}\n")
    summary = (
        f"runner {plan.runner} · "
        f"{counted(len(plan.writes), 'grabación', 'grabaciones')} por escribir · "
        f"{counted(len(plan.unchanged), 'ya coincide', 'ya coinciden')} con su referencia"
    )
    if not plan.writes:
        print(f"docverify accept: {summary}; nada que escribir.")
        return 0
    if not args.yes and not _confirm(
        f"¿Escribir {counted(len(plan.writes), 'grabación', 'grabaciones')}? [s/N] "
    ):
        print("docverify accept: no se ha escrito nada.")
        return 1
    written = accept.apply(plan)
    for path in written:
        print(f"escrita: {cfg.rel(path)}")
    print(
        f"docverify accept: runner {plan.runner} · "
        f"{counted(len(written), 'grabación escrita', 'grabaciones escritas')} · "
        f"{counted(len(plan.unchanged), 'ya coincidía', 'ya coincidían')}. Revisa con git diff y "
        "confirma."
    )
    return 0


def plan_report(
    cfg: Config, args: argparse.Namespace, name: str, *, announce: bool = False
) -> tuple[report_json.Report, accept.Plan] | None:
    """The report of `args.folder` and the recordings adopting it would write (accept's and
    review's plan); None, said on stderr by `docverify NAME` with every refusal, when it cannot
    be read or the plan refuses. With `announce`, the report's line first, on stdout."""
    report = read_report(Path(args.folder), name)
    if report is None:
        return None
    if announce:
        print(f"docverify {name}: informe {report.path} · {describe(report)}")
    plan = accept.plan(cfg, read_site(cfg), report, args.runner)
    if plan.refusals:
        print(f"docverify {name}: no se escribe nada.\n", file=sys.stderr)
        for refusal in plan.refusals:
            print(refusal.format(), end="\n\n", file=sys.stderr)
        return None
    return report, plan


def read_report(folder: Path, name: str) -> report_json.Report | None:
    """One report (one shard's too: it adopts what that shard observed), or a folder holding
    the reports of all the shards of a run, merged first (report/merge.py); None, said on
    stderr by `docverify NAME`, when it cannot be read."""
    try:
        direct = not folder.is_dir() or report_json.path_in(folder).is_file()
        return report_json.read(folder) if direct else merge.load([folder])
    except report_json.ReportError as exc:
        print(f"docverify {name}: no se escribe nada.\n{exc}", file=sys.stderr)
        return None


def describe(report: report_json.Report) -> str:
    """One line for people: where and when a report's outputs were observed."""
    where = f"ejecución de CI {report.run_url}" if report.run_url else "ejecución local"
    if report.canary is not None:
        where = f"canario, {where}"
    return (
        f"runner {report.runner} · torch {report.env.get('torch', '?')} · "
        f"{report.env.get('device', '?')} · {report.date} · {where}"
    )


def _confirm(question: str) -> bool:
    try:
        answer = input(question)
    except EOFError:  # no terminal to ask: never write without a yes
        print()
        return False
    return answer.strip().lower() in ("s", "si", "sí", "y", "yes")
