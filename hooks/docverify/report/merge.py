"""The reports of the N shards of one run, merged into the report of the whole run.

`docverify check --shard I/N --report DIR` verifies one share of the pages
(verifying/shards.py). The N reports of one run hold, between them, everything one unsharded
`docverify check --report DIR` writes: the same observations, the same table of block statuses
and the same findings, which `merge` puts back in page order. It refuses, naming the files,
reports that do not belong together: another runner, another plan, other code (`site_sha256`:
every page, block, code and option the run was asked for), another environment or CI run, two
reports of the same shard or page, or shards missing (pages nobody verified). It works on the
JSON itself, so the merged report keeps every key a shard's report has, and `docverify accept`,
a build with DOCVERIFY_GPU_REPORT and a build from reports (from_reports.py) read it like any
other.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docverify.parsing.pages import page_stem
from docverify.report import report_json
from docverify.report.report_json import REPORT_FILE, ReportError
from docverify.verifying import shards

FORMAT = 3  # the first format whose shard reports can be merged (report_json.py)
SHARD_KEYS = ("shard", "plan", "basis", "plan_shards")  # what only a shard's report holds
REMADE_KEYS = ("durations", "merged")  # what a merge writes anew (not copied from a shard)
FIX_SAME_RUN = (
    "combina solo las partes de una misma ejecución (en CI, los artefactos docverify-<runner>-* "
    "de la misma ejecución), o vuelve a verificar todas las partes con este código"
)


@dataclass(frozen=True)
class Merged:
    """One report's JSON, merged from `sources` (one file: that report as it was)."""

    data: dict[str, Any]
    sources: tuple[Path, ...]  # report files, in shard order
    diffs: dict[str, Path]  # "<page>/<id>.<runner>.diff" under diffs/ → the shard's file
    shards: str = ""  # "N" when merged from N shards


def find(paths: Iterable[Path]) -> list[Path]:
    """The report files PATHS name: FOLDER/report.json, a report.json itself, or, for a folder
    without one (the artifacts of a run's shards, downloaded side by side), every report.json
    below it. The same file named twice counts once."""
    found: dict[Path, Path] = {}
    for path in paths:
        if path.is_file():
            below = [path]
        elif (path / REPORT_FILE).is_file():
            below = [path / REPORT_FILE]
        elif path.is_dir():
            below = sorted(path.rglob(REPORT_FILE))
            if not below:
                raise ReportError(
                    f"{path}: no hay ningún {REPORT_FILE} en esta carpeta ni debajo. Cómo "
                    "arreglarlo: pasa las carpetas que escribió docverify check --report (los "
                    "artefactos de CI descomprimidos)."
                )
        else:
            raise ReportError(
                f"{path}: no existe. Cómo arreglarlo: pasa las carpetas que escribió docverify "
                "check --report (los artefactos de CI descomprimidos)."
            )
        for file in below:
            found.setdefault(file.resolve(), file)
    if not found:
        raise ReportError("no se ha indicado ningún informe (carpetas de check --report).")
    return list(found.values())


def load(paths: Sequence[Path]) -> report_json.Report:
    """The report PATHS hold: one report as it is, or the shards of one run merged."""
    merged = merge(paths)
    first = merged.sources[0]
    return report_json.parse(merged.data, first, merged.sources, merged.shards)


def merge(paths: Sequence[Path]) -> Merged:
    """Merge the reports PATHS hold (see `find`); ReportError says why they cannot be."""
    files = find(paths)
    raws = [(file, _read(file)) for file in files]
    if len(raws) == 1 and "shard" not in raws[0][1]:
        file, raw = raws[0]
        return Merged(raw, (file,), _diffs(file))
    for file, raw in raws:
        _mergeable(file, raw, len(raws))
    raws.sort(key=lambda item: (_index(item[1]), str(item[0])))
    first_file, first = raws[0]
    for file, raw in raws[1:]:
        _same_run(first_file, first, file, raw)
    total = _total(first)
    _complete(raws, total)
    return _combine(raws, total)


def _read(file: Path) -> dict[str, Any]:
    try:
        raw = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ReportError(
            f"{file}: el informe no es JSON válido ({exc}). Cómo arreglarlo: descarga de nuevo "
            "el artefacto o vuelve a ejecutar docverify check --report."
        ) from exc
    if not isinstance(raw, dict):
        raise ReportError(f"{file}: el informe no es un objeto JSON de docverify check --report.")
    return raw


def _mergeable(file: Path, raw: dict[str, Any], count: int) -> None:
    """A shard's report of format 3 or later: it says which shard, and of what."""
    version = raw.get("format")
    if not isinstance(version, int) or version < FORMAT or "site_sha256" not in raw:
        raise ReportError(
            f"{file}: es un informe de formato {version}, anterior al {FORMAT}: no dice qué "
            "código verificó ni el orden de sus hallazgos, así que no se puede combinar con "
            "otros. Cómo arreglarlo: vuelve a ejecutar docverify check --shard I/N --report con "
            "esta versión del motor."
        )
    if "shard" not in raw:
        raise ReportError(
            f"{file}: no es una parte de un reparto (docverify check --shard I/N), y se han "
            f"indicado {count} informes. Cómo arreglarlo: pasa solo él, o solo las partes de "
            "una misma ejecución."
        )
    try:
        if len(raw["plan_shards"]) != shards.parse(str(raw["shard"])).total:
            raise ValueError(raw["shard"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ReportError(
            f"{file}: la parte «{raw.get('shard')}» o su plan están mal escritos ({exc}). Cómo "
            "arreglarlo: vuelve a ejecutar docverify check --shard I/N --report."
        ) from exc


def _index(raw: dict[str, Any]) -> int:
    return shards.parse(str(raw.get("shard", "1/1"))).index


def _total(raw: dict[str, Any]) -> int:
    return shards.parse(str(raw.get("shard", "1/1"))).total


def _same_run(a_file: Path, a: dict[str, Any], b_file: Path, b: dict[str, Any]) -> None:
    """Two shard reports of one run: same runner, plan, code, environment and CI run."""
    both = f"{a_file} (parte {a['shard']}) y {b_file} (parte {b['shard']})"
    if a.get("runner") != b.get("runner"):
        raise ReportError(
            f"{both} son de runners distintos ({a.get('runner')} y {b.get('runner')}): solo se "
            f"combinan las partes de un mismo runner. Cómo arreglarlo: {FIX_SAME_RUN}."
        )
    if (a.get("plan"), _total(a)) != (b.get("plan"), _total(b)):
        raise ReportError(
            f"{both} vienen de repartos distintos (plan {a.get('plan')} y plan {b.get('plan')}): "
            "cada parte repartió las páginas de otra forma, así que juntas no cubren el sitio "
            "una vez. Cómo arreglarlo: verifica todas las partes con el mismo N y el mismo "
            "archivo de duraciones (o ninguno, como en CI)."
        )
    if a.get("site_sha256") != b.get("site_sha256"):
        raise ReportError(
            f"{both} verificaron código distinto (otras páginas, otros bloques, otro código u "
            f"otras opciones de ejecución): no describen el mismo commit. Cómo arreglarlo: "
            f"{FIX_SAME_RUN}."
        )
    for key, what in (("env", "entornos distintos"), ("run_url", "ejecuciones de CI distintas")):
        if a.get(key) != b.get(key):
            raise ReportError(
                f"{both} son de {what} ({_show(a.get(key))} y {_show(b.get(key))}): "
                f"la procedencia de la salida no sería una sola. Cómo arreglarlo: {FIX_SAME_RUN}."
            )
    if a["shard"] == b["shard"]:
        raise ReportError(
            f"{both} son la misma parte: se solapan. Cómo arreglarlo: pasa cada parte una sola "
            "vez (una carpeta por parte)."
        )
    if _head(a) != _head(b):
        raise ReportError(
            f"{both} no coinciden en los hallazgos de configuración ([tool.docverify]): no son "
            f"del mismo commit. Cómo arreglarlo: {FIX_SAME_RUN}."
        )


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items()) or "vacío"
    return str(value or "ninguna")


def _complete(raws: list[tuple[Path, dict[str, Any]]], total: int) -> None:
    """Every page of the plan in exactly one report, and every shard there."""
    owner: dict[str, Path] = {}
    for file, raw in raws:
        for rel in raw.get("pages") or []:
            if rel in owner:
                raise ReportError(
                    f"la página {rel} está en {owner[rel]} y en {file}: las partes se solapan. "
                    "Cómo arreglarlo: pasa cada parte una sola vez."
                )
            owner[rel] = file
    present = {_index(raw) for _, raw in raws}
    missing = [f"{i}/{total}" for i in range(1, total + 1) if i not in present]
    plan = raws[0][1]
    uncovered = [rel for rel in plan.get("all_pages") or [] if rel not in owner]
    if missing or uncovered:
        listed = ", ".join(uncovered[:5]) + (" …" if len(uncovered) > 5 else "")
        given = ", ".join(f"{f} ({raw['shard']})" for f, raw in raws)
        raise ReportError(
            f"{raws[0][0]}: faltan partes del reparto (plan {plan.get('plan')}, {total} partes)"
            + (f": {', '.join(missing)}" if missing else "")
            + f"; quedan sin verificar {len(uncovered)} páginas"
            + (f" ({listed})" if uncovered else "")
            + f". Se han indicado: {given}. Cómo arreglarlo: pasa los informes de todas las "
            "partes (en CI, todos los artefactos docverify-<runner>-* de la ejecución)."
        )


def _head(raw: dict[str, Any]) -> list[Any]:
    return [f for f in raw.get("findings") or [] if f.get("part") == "head"]


def _combine(raws: list[tuple[Path, dict[str, Any]]], total: int) -> Merged:
    """The unsharded report: every table in the order of the pages."""
    first = raws[0][1]
    order = {rel: n for n, rel in enumerate(first.get("all_pages") or [])}
    stems = {page_stem(rel): n for rel, n in order.items()}

    def by_page(key: str) -> int:
        return stems.get(key.rsplit("/", 1)[0], len(order))

    def findings(part: str) -> list[dict[str, Any]]:
        found = [f for _, raw in raws for f in raw.get("findings") or [] if f.get("part") == part]
        return sorted(found, key=lambda f: order.get(str(f.get("page")), len(order)))

    merged_findings = [
        *_head(first),
        *findings("page"),
        *findings("block"),
        *[f for _, raw in raws for f in raw.get("findings") or [] if f.get("part") == "tail"],
    ]
    observations = sorted(
        ((k, v) for _, raw in raws for k, v in (raw.get("observations") or {}).items()),
        key=lambda item: by_page(item[0]),
    )
    durations = sorted(
        ((k, v) for _, raw in raws for k, v in (raw.get("durations") or {}).items()),
        key=lambda item: order.get(item[0], len(order)),
    )
    data = {
        key: value
        for key, value in first.items()
        if key not in SHARD_KEYS and key not in REMADE_KEYS
    }
    data.update(
        date=max(str(raw.get("date") or "") for _, raw in raws),
        pages=[rel for rel in order if any(rel in (raw.get("pages") or []) for _, raw in raws)],
        blocks=dict(sorted((k, v) for _, raw in raws for k, v in raw["blocks"].items())),
        errors=sum(1 for f in merged_findings if f.get("level") == "error"),
        findings=merged_findings,
        observations=dict(observations),
        durations=dict(durations),
        merged={"shards": total, "plan": first.get("plan"), "basis": first.get("basis")},
    )
    diffs: dict[str, Path] = {}
    for file, _ in raws:
        diffs.update(_diffs(file))
    return Merged(data, tuple(file for file, _ in raws), diffs, str(total))


def _diffs(file: Path) -> dict[str, Path]:
    folder = file.parent / "diffs"
    if not folder.is_dir():
        return {}
    return {p.relative_to(folder).as_posix(): p for p in sorted(folder.rglob("*.diff"))}
