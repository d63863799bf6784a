"""The `docverify` command: check, record, prune (and the commands other modules register)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

from docverify.core import config as config_mod
from docverify.core.findings import Finding, Level, errors
from docverify.parsing.pages import Page, read_site

Command = Callable[[argparse.Namespace], int]
# Subcommands registered by name: (help text, argument setup, handler).
COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None], Command]] = {}


def command(
    name: str,
    help_text: str,
    setup: Callable[[argparse.ArgumentParser], None] = lambda p: None,
) -> Callable[[Command], Command]:
    def register(handler: Command) -> Command:
        COMMANDS[name] = (help_text, setup, handler)
        return handler

    return register


def select_pages(cfg: config_mod.Config, paths: list[str]) -> tuple[list[Page], bool]:
    """The pages named by PATHS (files or folders), or every page; and whether that is all."""
    if not paths:
        return read_site(cfg), True
    chosen: list[Path] = []
    for raw in paths:
        path = Path(raw).resolve()
        if path.is_dir():
            chosen.extend(sorted(path.rglob("*.md")))
        elif path.is_file() and path.suffix == ".md":
            chosen.append(path)
        else:
            raise SystemExit(f"docverify: {raw}: no es una página .md ni una carpeta de docs/.")
    return read_site(cfg, sorted(set(chosen))), False


def print_findings(findings: list[Finding]) -> None:
    for finding in findings:
        stream = sys.stderr if finding.level is Level.ERROR else sys.stdout
        print(finding.format(), end="\n\n", file=stream)


def _runner_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--runner",
        choices=["cpu", "gpu", "auto"],
        default=None,
        help="runner (por defecto DOCVERIFY_RUNNER o auto: gpu si hay CUDA)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="procesos en paralelo (por defecto, uno por núcleo)",
    )
    parser.add_argument("paths", nargs="*", help="páginas o carpetas (por defecto, todo docs/)")


def _check_args(parser: argparse.ArgumentParser) -> None:
    _runner_args(parser)
    parser.add_argument(
        "--shard",
        default=None,
        metavar="I/N",
        help="verifica solo la parte I de N (reparto por duraciones anteriores)",
    )
    parser.add_argument(
        "--durations",
        default=None,
        metavar="JSON",
        help="archivo de duraciones (por defecto .cache/docverify/durations.json)",
    )
    parser.add_argument(
        "--report",
        default=None,
        metavar="CARPETA",
        help="escribe report.json, findings.txt y los diffs de divergencias",
    )
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="ejecuta todos los bloques sin usar .cache/docverify (con CI=true, siempre)",
    )


@command("check", "verifica los bloques sin construir el sitio", _check_args)
def _check(args: argparse.Namespace) -> int:
    from docverify.output import ci_report  # noqa: PLC0415
    from docverify.running.executor import Executor  # noqa: PLC0415
    from docverify.verifying import cache as cache_mod  # noqa: PLC0415
    from docverify.verifying import shards  # noqa: PLC0415
    from docverify.verifying.verify import orphans, verify  # noqa: PLC0415

    cfg = config_mod.load()
    shard = shards.parse(args.shard) if args.shard else None
    pages, whole = select_pages(cfg, args.paths)
    executor = Executor(args.workers)
    runner = executor.resolve_runner(config_mod.runner_from_env(args.runner))
    cache = cache_mod.Cache.for_config(cfg) if cache_mod.allowed() and not args.no_cache else None
    durations = shards.durations_path(cfg, args.durations)
    extra: dict[str, object] = {}
    every = pages
    if shard is not None:
        pages, plan = shards.select(every, runner, shard, shards.load_durations(durations, runner))
        extra = {"shard": str(shard), "plan": plan.digest, "basis": plan.basis}
    report = verify(cfg, pages, runner, executor, whole_site=whole and shard is None, cache=cache)
    if whole and shard is not None and shard.index == 1:
        report.findings.extend(orphans(cfg, every))  # orphans are a site-wide check: shard 1 only
    measured = shards.page_durations(report.outcomes)
    if shard is None:  # shards only read the file, so that all of them compute the same plan
        shards.save_durations(durations, runner, measured)
    if args.report:
        ci_report.write(Path(args.report), report, {**extra, "durations": measured})
    print_findings(report.findings)
    if args.report and any(o.status in ("diverge", "missing") for o in report.outcomes.values()):
        print(f"Si las salidas nuevas son correctas, adóptalas: docverify accept {args.report}")
    total = len(report.outcomes)
    ran = sum(1 for o in report.outcomes.values() if o.status != "other-runner")
    bad = errors(report.findings)
    env = report.env
    part = f" · parte {shard} (plan {extra['plan']}, por {extra['basis']})" if shard else ""
    cached = f" ({cache.hits} desde la caché)" if cache is not None else ""
    print(
        f"docverify check: runner {runner} · torch {env.get('torch', '?')} · "
        f"{ran}/{total} bloques ejecutados{cached} en {len(pages)} páginas{part} · "
        f"{len(bad)} errores"
    )
    return 1 if bad else 0


@command("record", "graba las salidas que cambiaron (nunca con CI=true)", _runner_args)
def _record(args: argparse.Namespace) -> int:
    from docverify.running.executor import Executor  # noqa: PLC0415
    from docverify.verifying.verify import record  # noqa: PLC0415

    cfg = config_mod.load()
    if os.environ.get("CI", "").lower() == "true":
        print(
            "docverify record: se niega a grabar con CI=true; graba en local y revisa el diff.",
            file=sys.stderr,
        )
        return 2
    pages, _ = select_pages(cfg, args.paths)
    executor = Executor(args.workers)
    runner = executor.resolve_runner(config_mod.runner_from_env(args.runner))
    report = record(cfg, pages, runner, executor)
    for label, diff in report.written:
        print(f"grabada: {label}\n{diff}\n")
    print_findings(report.findings)
    refused = errors(report.findings)
    print(
        f"docverify record: runner {runner} · {len(report.written)} grabaciones escritas · "
        f"{report.unchanged} sin cambios · {len(refused)} bloques rechazados"
    )
    return 1 if refused else 0


def _prune_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--yes", action="store_true", help="borra de verdad (sin esto, solo lista)")


@command("prune", "lista (o borra con --yes) las grabaciones sin bloque", _prune_args)
def _prune(args: argparse.Namespace) -> int:
    from docverify.verifying.verify import orphans  # noqa: PLC0415

    cfg = config_mod.load()
    pages = read_site(cfg)
    found = orphans(cfg, pages)
    for finding in found:
        if args.yes:
            (cfg.root / finding.path).unlink()
            print(f"borrada: {finding.path}")
        else:
            print(f"huérfana: {finding.path} (usa --yes para borrarla)")
    print(f"docverify prune: {len(found)} grabaciones huérfanas")
    return 0


def build_parser() -> argparse.ArgumentParser:
    _load_plugins()
    parser = argparse.ArgumentParser(prog="docverify", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (help_text, setup, handler) in COMMANDS.items():
        child = sub.add_parser(name, help=help_text, description=help_text)
        setup(child)
        child.set_defaults(handler=handler)
    return parser


def _load_plugins() -> None:
    """Import every module of `docverify/cli/` but this one: each registers its subcommands."""
    import importlib  # noqa: PLC0415
    import pkgutil  # noqa: PLC0415

    from docverify import cli  # noqa: PLC0415

    for info in pkgutil.iter_modules(cli.__path__):
        if info.name != "main":
            importlib.import_module(f"docverify.cli.{info.name}")


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.handler(args))
    except (ValueError, FileNotFoundError, PermissionError) as exc:
        print(f"docverify: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
