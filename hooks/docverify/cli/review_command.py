"""`docverify review CARPETA`: a check report's changed outputs, accepted block by block.

The plan is `docverify accept`'s (report/accept.py: the same refusals, the same proposals,
verifying/proposal.py); review only asks, for each recording the plan proposes, whether to
write it, and applies the plan reduced to the accepted ones. What is skipped stays as it was,
so the next `docverify check` still shows it. Like insta's `cargo insta review`: it asks one
key per block.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import termios
import tty

from docverify.cli.accept_command import describe, plan_report, report_args
from docverify.cli.commands import command, configuration
from docverify.core.config import Config
from docverify.core.text import counted
from docverify.report import accept
from docverify.verifying.proposal import Proposal

ACCEPT, SKIP, ALL, QUIT = "a", "s", "t", "q"
PROMPT = (
    "¿Grabar esta salida? [a] aceptar · [s] saltar · [t] aceptar esta y todas las que quedan · "
    "[q] salir (escribe lo aceptado): "
)
NO_TERMINAL = (
    "docverify review: no se escribe nada. Necesita una terminal para preguntar bloque a "
    "bloque; sin ella (un script, CI), acepta todas las salidas del informe de una vez con "
    "docverify accept {folder} --yes."
)


@command(
    "review",
    "revisa bloque a bloque las salidas de un informe de docverify check y graba solo las "
    "aceptadas (nunca con CI=true)",
    report_args,
)
def _review(args: argparse.Namespace) -> int:
    cfg = configuration("review")
    planned = plan_report(cfg, args, "review")
    if planned is None:
        return 2
    report, plan = planned
    if not plan.writes:
        same = counted(len(plan.unchanged), "salida ya coincide", "salidas ya coinciden")
        print(f"docverify review: {same}; nada que revisar.")
        return 0
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(NO_TERMINAL.format(folder=args.folder), file=sys.stderr)
        return 2
    print(f"docverify review: informe {report.path} · {describe(report)}")
    try:
        chosen = _ask(cfg, plan.writes)
    except KeyboardInterrupt:
        print("\ndocverify review: interrumpido; no se ha escrito nada.")
        return 1
    written = accept.apply(dataclasses.replace(plan, writes=chosen))
    for path in written:
        print(f"escrita: {cfg.rel(path)}")
    left = len(plan.writes) - len(written)
    print(
        f"docverify review: runner {plan.runner} · "
        f"{counted(len(written), 'grabación escrita', 'grabaciones escritas')} · {left} sin "
        "aceptar (el próximo docverify check las sigue mostrando). Revisa con git diff y "
        "confirma."
    )
    return 0


def _ask(cfg: Config, writes: list[Proposal]) -> list[Proposal]:
    """The proposals the author accepts, asked one by one with their diffs."""
    chosen: list[Proposal] = []
    for number, write in enumerate(writes, 1):
        where = cfg.rel(write.path)
        print(f"\n[{number}/{len(writes)}] «{write.key}» → {where}\n{write.diff}\n")
        key = _key(PROMPT)
        if key == ACCEPT:
            chosen.append(write)
        elif key == ALL:
            chosen.extend(writes[number - 1 :])
            break
        elif key == QUIT:
            break
    return chosen


def _key(prompt: str) -> str:
    """One key of ACCEPT, SKIP, ALL or QUIT, read without Enter (others are ignored); the end
    of input is QUIT. Ctrl+C still interrupts: cbreak mode keeps the terminal's signals."""
    fd = sys.stdin.fileno()
    before = termios.tcgetattr(fd)
    # Now, not after a flush (setcbreak's default): a key typed ahead of the prompt is kept.
    tty.setcbreak(fd, termios.TCSANOW)
    try:
        print(prompt, end="", flush=True)
        while True:
            read = os.read(fd, 1)
            if not read:
                key = QUIT
                break
            key = read.decode("utf-8", "ignore").lower()
            if key in (ACCEPT, SKIP, ALL, QUIT):
                break
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, before)
    print(key)
    return key
