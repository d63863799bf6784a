# `docverify sources`: list sources by review-by date; `--reverify REF` records a new check.
"""`docverify sources [--markdown]`, `docverify sources --due FILE` and
`docverify sources --reverify REF [--yes]`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from docverify.cli.commands import command, configuration, print_findings
from docverify.core import config
from docverify.core.dates import spanish_date
from docverify.core.findings import errors
from docverify.core.text import counted
from docverify.output import due_sources, verification_page
from docverify.parsing.pages import read_site
from docverify.sources import freshness, reverify


def _args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--reverify",
        metavar="REF",
        help="fuente a volver a verificar: su reference, su title o el objeto o "
        "archivo de su huella",
    )
    parser.add_argument(
        "--yes", action="store_true", help="con --reverify, actualiza sin preguntar"
    )
    parser.add_argument(
        "--markdown",
        action="store_true",
        help="imprime la tabla de fuentes del informe de verificación",
    )
    parser.add_argument(
        "--due",
        metavar="ARCHIVO",
        help="escribe en ARCHIVO (JSON) las fuentes a warn_days días o menos de su fecha de "
        "revisión, con el texto de la incidencia semanal; sale con 0 aunque alguna falle",
    )


@command(
    "sources",
    "lista las fuentes por fecha de revisión; --reverify REF las vuelve a verificar",
    _args,
)
def _sources(args: argparse.Namespace) -> int:
    cfg = configuration("sources")
    if args.reverify:
        return _reverify(cfg, args.reverify, assume_yes=args.yes)
    fresh = freshness.evaluate(cfg, read_site(cfg), config.today())
    if args.due:
        return _due(cfg, fresh, Path(args.due))
    if args.markdown:
        print(verification_page.sources_markdown(fresh))
    else:
        print_findings(fresh.findings)
        for status in sorted(fresh.statuses, key=lambda s: (s.review_by, s.source.page)):
            source = status.source
            owner = f" · {source.owner}" if source.owner else ""
            print(
                f"{status.review_by.isoformat()}  {freshness.STATUS[status.status]:<24} "
                f"{status.age_days:>4} días  {source.page}: {source.reference}{owner}"
            )
    bad = errors(fresh.findings)
    print(
        f"docverify sources: {counted(len(fresh.statuses), 'fuente', 'fuentes')} · hoy "
        f"{fresh.today.isoformat()} · {counted(len(bad), 'error', 'errores')}",
        file=sys.stderr if args.markdown else sys.stdout,
    )
    return 1 if bad else 0


def _due(cfg: config.Config, fresh: freshness.Freshness, path: Path) -> int:
    """The due sources as JSON (one line: CI passes it on as a step output). Judging them is the
    job of `docverify sources` without --due, so this exits 0 whatever they say."""
    found = due_sources.document(cfg, fresh)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(found) + "\n", encoding="utf-8")
    due = counted(found["count"], "fuente por revisar", "fuentes por revisar")
    print(f"docverify sources: {due} · hoy {fresh.today} → {path}")
    return 0


def _reverify(cfg: config.Config, ref: str, *, assume_yes: bool) -> int:
    if config.in_ci():
        print(
            "docverify sources --reverify: se niega con CI=true; verificar una fuente es un "
            "acto humano: hazlo en local y confirma el cambio con git.",
            file=sys.stderr,
        )
        return 2
    found = reverify.candidates(cfg, read_site(cfg), ref)
    if not found:
        print(
            f"docverify sources: ninguna fuente se llama «{ref}»; usa su reference, su title o "
            "el objeto o archivo de su huella (lista: docverify sources).",
            file=sys.stderr,
        )
        return 2
    today = config.today()
    for item in found:
        source, fp = item.source, item.source.fingerprint
        print(
            f"{cfg.rel(item.page.path)}:{source.line}: {source.label}, verificada el "
            f"{spanish_date(source.verified)}"
        )
        if fp is None:
            print("  sin huella: solo se actualizará la fecha.")
        elif item.problem:
            print(f"  no se puede leer {fp.target}: {item.problem}", file=sys.stderr)
            return 1
        elif not item.changed:
            print(
                f"  {fp.target}: sin cambios desde la verificación ({fp.package} "
                f"{fp.version}, sha256 {(fp.sha256 or '(ninguna)')[:12]}…)."
            )
        else:
            print(f"  {fp.target} cambió desde la verificación:\n{item.diff}")
    question = (
        f"¿Comprobaste {'estas fuentes' if len(found) > 1 else 'esta fuente'} y las "
        f"marcas como verificadas hoy ({today.isoformat()})? [s/N] "
    )
    if not assume_yes and not _confirm(question):
        print("docverify sources: nada cambiado.")
        return 1
    for item in found:
        path = reverify.apply(cfg, item, today)
        print(f"actualizada: {cfg.rel(path)}:{item.source.line} ({item.source.reference})")
    for path in reverify.prune_snapshots(cfg, read_site(cfg)):
        print(f"borrada la copia que ya no cita ninguna huella: {cfg.rel(path)}")
    return 0


def _confirm(question: str) -> bool:
    try:
        answer = input(question)
    except EOFError:
        return False
    return answer.strip().lower() in ("s", "si", "sí", "y", "yes")
