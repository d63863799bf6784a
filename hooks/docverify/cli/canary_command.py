"""`docverify canary`: what another torch would change on every page, without recording anything.

The blocks run under another interpreter (`--python`, or `--torch VERSION`, an environment made
with pip in .cache/docverify/canary/), with this checkout's engine; everything else (comparison,
normalisers, tolerances, device rule) runs here, in `verify`, exactly as `docverify check` runs
it. The exit code says only whether the canary could run: what would change is its report.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docverify.cli.commands import command, configuration, runner_args, select_pages
from docverify.core import config, request, versions
from docverify.core.text import counted

if TYPE_CHECKING:
    from collections.abc import Sequence

    from docverify.parsing.pages import Page
    from docverify.report.report_json import Canary
    from docverify.running.executor import Executor
    from docverify.verifying.outcome import Verification


def _args(parser: argparse.ArgumentParser) -> None:
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument(
        "--python",
        metavar="RUTA",
        help="intérprete con la otra versión de torch (p. ej. /tmp/torch-nuevo/bin/python): "
        "la misma versión menor de Python que el proyecto, con torch y numpy",
    )
    which.add_argument(
        "--torch",
        metavar="VERSIÓN",
        help="crea (o reutiliza) con pip un entorno con torch==VERSIÓN y el numpy del proyecto "
        "en .cache/docverify/canary/ (torch desde DOCS_TORCH_INDEX si está definida)",
    )
    parser.add_argument(
        "--report",
        metavar="CARPETA",
        help="escribe report.json (el formato de docverify check --report, que lee docverify "
        "accept), findings.txt, diffs/ y resumen.md",
    )
    runner_args(parser, auto="gpu si hay CUDA con ese torch")


def _environment(cfg: config.Config, version: str, pins: dict[str, str]) -> str:
    """`--torch VERSION`: the python of its environment, made (or reused) with pip."""
    from docverify.running import environments  # noqa: PLC0415

    requested = environments.check_version(version)
    if not pins.get("numpy"):
        raise environments.SetupError(
            f"{cfg.pyproject}: no fija numpy («numpy==VERSIÓN» en [project].dependencies), y "
            "el entorno del canario usa la versión del proyecto."
        )
    index = os.environ.get(environments.INDEX_ENV, "").strip() or None
    plan = environments.steps(requested, pins["numpy"], index)
    env = environments.folder(cfg.root, requested, pins["numpy"], index)
    if environments.ready(env, plan):
        print(f"docverify canary: reutiliza {cfg.rel(env)}")
    else:
        fetched = environments.download_size(environments.resolve(plan, requested))
        print(
            f"docverify canary: torch {requested} con pip"
            + (f" ({environments.INDEX_ENV}={index})" if index else "")
            + f": {fetched.describe()}; se instala en {cfg.rel(env)}",
            flush=True,
        )
        environments.create(env, plan)
    return str(environments.python_of(env))


def _refuse(message: str) -> int:
    print(f"docverify canary: no se ha escrito nada.\n{message}", file=sys.stderr)
    return 2


@command(
    "canary",
    "ejecuta los bloques con otra versión de torch y dice qué cambiaría (no graba nada)",
    _args,
)
def _canary(args: argparse.Namespace) -> int:
    from docverify.output import canary_output  # noqa: PLC0415
    from docverify.report import canary  # noqa: PLC0415
    from docverify.running import environments, interpreter  # noqa: PLC0415
    from docverify.running.executor import Executor  # noqa: PLC0415

    cfg = configuration("canary")
    pages, _ = select_pages(cfg, args.paths)
    pins = config.pins(cfg.root)
    try:
        python = _environment(cfg, args.torch, pins) if args.torch else args.python
        candidate = interpreter.probe(python)
    except (environments.SetupError, interpreter.InterpreterError) as exc:
        return _refuse(str(exc))
    if args.torch and not versions.same(candidate.torch, args.torch.strip()):
        return _refuse(f"{python}: tiene torch {candidate.torch}, no {args.torch}.")
    executor = Executor(args.workers, python=candidate.path, path=[str(interpreter.HOOKS)])
    seen = executor.identity()
    if not seen:
        return _refuse(f"{python}: no arrancó ningún proceso de página con ese intérprete.")
    if (seen.get("executable"), seen.get("torch_file")) != (
        candidate.executable,
        candidate.torch_file,
    ):
        return _refuse(
            f"los procesos de las páginas no corren en {python} (sino en "
            f"{seen.get('executable', '?')}, con torch de {seen.get('torch_file', '?')}): este "
            "proceso ya tenía en marcha su servidor de fork. Ejecuta docverify canary en un "
            "proceso propio."
        )
    runner = executor.resolve_runner(request.asked_runner(args.runner))
    project = interpreter.this_side()
    print(
        f"docverify canary: {candidate.describe()} en {python} frente a "
        f"torch {project['torch']} ({project['variant']}), numpy {project['numpy']}, Python "
        f"{project['python']} del proyecto · runner {runner}",
        flush=True,
    )
    verification, section = observe(
        cfg,
        pages,
        runner,
        executor,
        {**project, "pins": {k: pins[k] for k in ("torch", "numpy") if k in pins}},
        {
            **candidate.data(),
            "requested": args.torch,
            "index": os.environ.get(environments.INDEX_ENV, "") if args.torch else "",
        },
        candidate.sys_path,
    )
    _print(cfg, verification, section)
    if args.report:
        folder = Path(args.report)
        canary_output.write(cfg, folder, verification, section)
        print(f"Informe: {folder / canary.SUMMARY_FILE} (y report.json, para docverify accept)")
    return 0


def observe(
    cfg: config.Config,
    pages: list[Page],
    runner: str,
    executor: Executor,
    project: dict[str, Any],
    candidate: dict[str, Any],
    search_path: Sequence[str],
) -> tuple[Verification, Canary]:
    """Run and judge every block with `executor` (the other interpreter's) exactly as `check`
    does, and describe what would change: the report and its canary section. `search_path`
    is that interpreter's sys.path, where its fingerprinted packages are read."""
    from docverify.report import canary  # noqa: PLC0415
    from docverify.sources import canary_sources  # noqa: PLC0415
    from docverify.verifying.verify import verify  # noqa: PLC0415

    verification = verify(cfg, pages, runner, executor)
    changes = canary_sources.changes(cfg, pages, search_path)
    return verification, canary.section(
        cfg, verification, project, candidate, [c.data() for c in changes]
    )


def _print(cfg: config.Config, verification: Verification, section: Canary) -> None:
    tally = section.counts
    for key in section.changed:
        outcome = verification.outcomes[key]
        print(f"  {key}: {outcome.status.label} ({cfg.rel(outcome.block.origin)})")
    for key, lines in section.warnings.items():
        print(f"  {key}: {len(lines)} aviso(s) nuevo(s): {lines[0]}")
    for source in section.sources:
        print(f"  fuente «{source['reference']}» ({source['path']}:{source['line']}): cambia")
    print(
        f"docverify canary: {section.headline} de {tally['blocks']} ejecutados "
        f"({tally['diverge']} con otra salida, {tally['error']} fallarían, {tally['missing']} sin "
        f"grabación) · {counted(tally['warnings'], 'aviso nuevo', 'avisos nuevos')} · "
        f"{counted(len(section.sources), 'fuente', 'fuentes')} con huella cuyo código cambia"
    )
