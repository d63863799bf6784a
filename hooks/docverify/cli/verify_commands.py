"""`docverify check`, `record` and `prune`: verify blocks, record their outputs, list orphans."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from docverify.cli.commands import (
    command,
    configuration,
    print_findings,
    runner_args,
    select_pages,
)
from docverify.core import config, request
from docverify.core.findings import errors
from docverify.core.status import Status
from docverify.core.text import counted
from docverify.parsing.pages import read_site


def _check_args(parser: argparse.ArgumentParser) -> None:
    runner_args(parser)
    parser.add_argument(
        "--shard",
        metavar="I/N",
        help="verifica solo la parte I de N (reparto por duraciones anteriores)",
    )
    parser.add_argument(
        "--durations",
        metavar="JSON",
        help="archivo de duraciones (por defecto .cache/docverify/durations.json)",
    )
    parser.add_argument(
        "--report",
        metavar="CARPETA",
        help="escribe report.json, findings.txt y los diffs de divergencias",
    )
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help=(
            "ejecuta todos los bloques sin leer .cache/docverify (sí renueva sus entradas; "
            "con CI=true, ni la lee ni la escribe)"
        ),
    )


@command("check", "verifica los bloques sin construir el sitio", _check_args)
def _check(args: argparse.Namespace) -> int:
    from docverify import build  # noqa: PLC0415
    from docverify.report import report_folder  # noqa: PLC0415
    from docverify.report.report_json import Sharded  # noqa: PLC0415

    # clash: `executor`, the Executor this function makes
    from docverify.running import executor as executor_mod  # noqa: PLC0415
    from docverify.verifying import shards, summary  # noqa: PLC0415

    cfg = config.load()
    shard = shards.parse(args.shard) if args.shard else None
    pages, whole = select_pages(cfg, args.paths)
    executor = executor_mod.shared(args.workers)
    # The build's own pipeline (build.py), asked for blocks only: no report, nothing rendered.
    asked = request.from_env(runner=args.runner, no_cache=args.no_cache, site=False)
    route = build.prepare(cfg, asked, executor)
    runner, cache = route.runner, route.cache
    durations = shards.durations_path(cfg, args.durations)
    part: Sharded | None = None
    every = pages
    if shard is not None:
        pages, split = shards.select(every, runner, shard, shards.load_durations(durations, runner))
        part = Sharded(str(shard), split.digest, split.basis, [list(p) for p in split.shards])
    # The checks of the pages and of the whole site: once, unsharded or by shard 1.
    checked = every if shard is None or shard.index == 1 else None
    verification = build.check(cfg, pages, asked, route, executor, checked=checked, whole=whole)
    measured = shards.page_durations(verification.outcomes)
    if shard is None:  # shards only read the file, so that all of them compute the same plan
        shards.save_durations(durations, runner, measured)
    if args.report:
        report_folder.write(
            Path(args.report),
            verification,
            config=cfg,
            every=every,
            shard=part,
            durations=measured,
        )
    print_findings(verification.findings)
    if args.report and any(
        o.status in (Status.DIVERGE, Status.MISSING) for o in verification.outcomes.values()
    ):
        print(f"Si las salidas nuevas son correctas, adóptalas: docverify accept {args.report}")
    bad = errors(verification.findings)
    where = f" · parte {shard} (plan {part.plan}, por {part.basis})" if part else ""
    line = summary.line(verification, cache.hits if cache is not None and cache.read else None)
    print(f"docverify check: {line}{where} · {counted(len(bad), 'error', 'errores')}")
    return 1 if bad else 0


@command("record", "graba las salidas que cambiaron (nunca con CI=true)", runner_args)
def _record(args: argparse.Namespace) -> int:
    # clash: `executor`, the Executor this function makes
    from docverify.running import executor as executor_mod  # noqa: PLC0415
    from docverify.verifying.record import record  # noqa: PLC0415

    cfg = configuration("record")
    if config.in_ci():
        print(
            "docverify record: se niega a grabar con CI=true; graba en local y revisa el diff.",
            file=sys.stderr,
        )
        return 2
    pages, _ = select_pages(cfg, args.paths)
    executor = executor_mod.shared(args.workers)
    runner = executor.resolve_runner(request.asked_runner(args.runner))
    recorded = record(cfg, pages, runner, executor)
    for label, diff in recorded.written:
        # A new recording of a block that prints nothing has no diff: say so, no empty section.
        print(f"grabada: {label}\n{diff}\n" if diff else f"grabada: {label} (sin salida)\n")
    print_findings(recorded.findings)
    refused = errors(recorded.findings)
    print(
        f"docverify record: runner {runner} · "
        f"{counted(len(recorded.written), 'grabación escrita', 'grabaciones escritas')} · "
        f"{recorded.unchanged} sin cambios · "
        f"{counted(len(refused), 'bloque rechazado', 'bloques rechazados')} · "
        f"{counted(recorded.run_twice, 'página ejecutada', 'páginas ejecutadas')} dos veces (lo "
        "nuevo se comprueba en otro proceso)"
    )
    return 1 if refused else 0


def _prune_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--yes", action="store_true", help="borra de verdad (sin esto, solo lista)")


@command("prune", "lista (o borra con --yes) las grabaciones sin bloque", _prune_args)
def _prune(args: argparse.Namespace) -> int:
    from docverify.site.usage import orphans  # noqa: PLC0415
    from docverify.verifying import proposal  # noqa: PLC0415

    cfg = configuration("prune")
    pages = read_site(cfg)
    found = orphans(cfg, pages)
    for finding in found:
        if args.yes:
            proposal.remove([cfg.root / finding.path])
            print(f"borrada: {finding.path}")
        else:
            print(f"huérfana: {finding.path} (usa --yes para borrarla)")
    print(f"docverify prune: {counted(len(found), 'grabación huérfana', 'grabaciones huérfanas')}")
    return 0
