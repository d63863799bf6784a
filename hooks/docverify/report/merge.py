"""The reports of the N shards of one run, merged into the report of the whole run.

`docverify check --shard I/N --report DIR` verifies one share of the pages
(verifying/shards.py). The N reports of one run hold, between them, everything one unsharded
`docverify check --report DIR` writes: the same observations, the same table of block statuses
and the same findings, which `merge` puts back in page order. It refuses, naming the files,
reports that do not belong together: another runner, another plan, other code (`site_sha256`:
every page, block, code and option the run was asked for), another environment or CI run, two
reports of the same shard or page, or shards missing (pages nobody verified). It reads and
makes `Report`s (report_json.py), so `docverify accept`, a build with DOCVERIFY_GPU_REPORT and a
build from reports (from_reports.py) use a merged report like any other.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from pathlib import Path

from docverify.core.text import counted
from docverify.parsing.pages import page_stem
from docverify.report import report_json
from docverify.report.report_json import Merged, Noted, Report, ReportError, Sharded
from docverify.verifying import shards

FIX_SAME_RUN = (
    "combina solo las partes de una misma ejecución (en CI, los artefactos docverify-<runner>-* "
    "de la misma ejecución), o vuelve a verificar todas las partes con este código"
)


def find(paths: Iterable[Path]) -> list[Path]:
    """The report files PATHS name: FOLDER/report.json, a report.json itself, or, for a folder
    without one (the artifacts of a run's shards, downloaded side by side), every report.json
    below it. The same file named twice counts once."""
    found: dict[Path, Path] = {}
    for path in paths:
        if path.is_file():
            below = [path]
        elif report_json.path_in(path).is_file():
            below = [report_json.path_in(path)]
        elif path.is_dir():
            below = report_json.below(path)
            if not below:
                raise ReportError(
                    f"{path}: no hay ningún {report_json.FILE} en esta carpeta ni debajo. Cómo "
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


def load(paths: Sequence[Path]) -> Report:
    """The report PATHS hold (see `find`): one report as it is, or the shards of one run merged;
    ReportError says why they cannot be."""
    reports = [report_json.read(file) for file in find(paths)]
    if len(reports) == 1 and reports[0].shard is None:
        return reports[0]
    for report in reports:
        _mergeable(report, len(reports))
    reports.sort(key=lambda r: (_index(r), str(r.path)))
    for report in reports[1:]:
        _same_run(reports[0], report)
    total = _total(reports[0])
    _complete(reports, total)
    return _combine(reports, total)


def _mergeable(report: Report, count: int) -> None:
    """A shard's report of format 3 or later: it says which shard, and of what."""
    file, shard = report.path, report.shard
    if not report.version.mergeable or report.site_sha256 is None:
        raise ReportError(
            f"{file}: es un informe de formato {report.format}, anterior al "
            f"{min(n for n, v in report_json.VERSIONS.items() if v.mergeable)}: no dice qué "
            "código verificó ni el orden de sus hallazgos, así que no se puede combinar con "
            "otros. Cómo arreglarlo: vuelve a ejecutar docverify check --shard I/N --report con "
            "esta versión del motor."
        )
    if shard is None:
        raise ReportError(
            f"{file}: no es una parte de un reparto (docverify check --shard I/N), y se han "
            f"indicado {count} informes. Cómo arreglarlo: pasa solo él, o solo las partes de "
            "una misma ejecución."
        )
    try:
        if len(shard.plan_shards) != shards.parse(shard.shard).total:
            raise ValueError(shard.shard)
    except (TypeError, ValueError) as exc:
        raise ReportError(
            f"{file}: la parte «{shard.shard}» o su plan están mal escritos ({exc}). Cómo "
            "arreglarlo: vuelve a ejecutar docverify check --shard I/N --report."
        ) from exc


def _shard(report: Report) -> Sharded:
    """What a shard's report says of its shard (every report `_mergeable` let through)."""
    assert report.shard is not None  # _mergeable
    return report.shard


def _index(report: Report) -> int:
    return shards.parse(_shard(report).shard).index


def _total(report: Report) -> int:
    return shards.parse(_shard(report).shard).total


def _same_run(a: Report, b: Report) -> None:
    """Two shard reports of one run: same runner, plan, code, environment and CI run."""
    mine, theirs = _shard(a), _shard(b)
    both = f"{a.path} (parte {mine.shard}) y {b.path} (parte {theirs.shard})"
    if a.runner != b.runner:
        raise ReportError(
            f"{both} son de runners distintos ({a.runner} y {b.runner}): solo se "
            f"combinan las partes de un mismo runner. Cómo arreglarlo: {FIX_SAME_RUN}."
        )
    # The number of shards: each plan's length, which _mergeable checked against its «I/N».
    if (mine.plan, len(mine.plan_shards)) != (theirs.plan, len(theirs.plan_shards)):
        raise ReportError(
            f"{both} vienen de repartos distintos (plan {mine.plan} y plan {theirs.plan}): "
            "cada parte repartió las páginas de otra forma, así que juntas no cubren el sitio "
            "una vez. Cómo arreglarlo: verifica todas las partes con el mismo N y el mismo "
            "archivo de duraciones (o ninguno, como en CI)."
        )
    if a.site_sha256 != b.site_sha256:
        raise ReportError(
            f"{both} verificaron código distinto (otras páginas, otros bloques, otro código u "
            f"otras opciones de ejecución): no describen el mismo commit. Cómo arreglarlo: "
            f"{FIX_SAME_RUN}."
        )
    for ours, others, what in (
        (a.env, b.env, "entornos distintos"),
        (a.run_url, b.run_url, "ejecuciones de CI distintas"),
    ):
        if ours != others:
            raise ReportError(
                f"{both} son de {what} ({_show(ours)} y {_show(others)}): la procedencia de "
                f"la salida no sería una sola. Cómo arreglarlo: {FIX_SAME_RUN}."
            )
    if mine.shard == theirs.shard:
        raise ReportError(
            f"{both} son la misma parte: se solapan. Cómo arreglarlo: pasa cada parte una sola "
            "vez (una carpeta por parte)."
        )
    if _head(a) != _head(b):
        raise ReportError(
            f"{both} no coinciden en los hallazgos de configuración ([tool.docverify]): no son "
            f"del mismo commit. Cómo arreglarlo: {FIX_SAME_RUN}."
        )


def _show(value: object) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items()) or "vacío"
    return str(value or "ninguna")


def _complete(reports: list[Report], total: int) -> None:
    """Every page of the plan in exactly one report, and every shard there."""
    owner: dict[str, Path] = {}
    for report in reports:
        for rel in report.pages:
            if rel in owner:
                raise ReportError(
                    f"la página {rel} está en {owner[rel]} y en {report.path}: las partes se "
                    "solapan. Cómo arreglarlo: pasa cada parte una sola vez."
                )
            owner[rel] = report.path
    present = {_index(report) for report in reports}
    missing = [f"{i}/{total}" for i in range(1, total + 1) if i not in present]
    first = reports[0]
    uncovered = [rel for rel in first.all_pages or [] if rel not in owner]
    if missing or uncovered:
        listed = ", ".join(uncovered[:5]) + (" …" if len(uncovered) > 5 else "")
        given = ", ".join(f"{r.path} ({_shard(r).shard})" for r in reports)
        raise ReportError(
            f"{first.path}: faltan partes del reparto (plan {_shard(first).plan}, {total} partes)"
            + (f": {', '.join(missing)}" if missing else "")
            + f"; quedan sin verificar {counted(len(uncovered), 'página', 'páginas')}"
            + (f" ({listed})" if uncovered else "")
            + f". Se han indicado: {given}. Cómo arreglarlo: pasa los informes de todas las "
            "partes (en CI, todos los artefactos docverify-<runner>-* de la ejecución)."
        )


def _head(report: Report) -> list[Noted]:
    return [f for f in report.findings if f.part == "head"]


def _combine(reports: list[Report], total: int) -> Report:
    """The unsharded report: every table in the order of the pages."""
    first = reports[0]
    order = {rel: n for n, rel in enumerate(first.all_pages or [])}
    stems = {page_stem(rel): n for rel, n in order.items()}

    def by_page(key: str) -> int:
        return stems.get(key.rsplit("/", 1)[0], len(order))

    def findings(part: str) -> list[Noted]:
        found = [f for r in reports for f in r.findings if f.part == part]
        return sorted(found, key=lambda f: order.get(str(f.page), len(order)))

    merged = [
        *_head(first),
        *findings("page"),
        *findings("block"),
        *[f for r in reports for f in r.findings if f.part == "tail"],
    ]
    observations = sorted(
        ((k, v) for r in reports for k, v in r.observations.items()),
        key=lambda item: by_page(item[0]),
    )
    durations = sorted(
        ((k, v) for r in reports for k, v in (r.durations or {}).items()),
        key=lambda item: order.get(item[0], len(order)),
    )
    plan = _shard(first)
    return dataclasses.replace(
        first,
        date=max(r.date for r in reports),
        pages=tuple(rel for rel in order if any(rel in r.pages for r in reports)),
        blocks=dict(sorted((k, v) for r in reports for k, v in r.blocks.items())),
        errors=sum(1 for f in merged if f.finding.level == "error"),
        findings=tuple(merged),
        observations=dict(observations),
        shard=None,
        durations=dict(durations),
        merged=Merged(total, plan.plan, plan.basis),
        sources=tuple(r.path for r in reports),
        shards=str(total),
    )
