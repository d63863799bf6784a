"""`docverify accept`: adopt what a check report observed as recordings, planned then applied.

The plan reads the report and the current site, judges each entry as a run here would be judged
(verifying/judge.py), and either lists the recordings to write (with the diff against each
block's present baseline) or the reasons to refuse, as findings of kind `refused`. `apply`
writes only a plan without refusals, so a refused accept writes nothing. Written recordings
carry the report's provenance in their header: runner, torch, device, the date of the run and
the CI run's URL.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from docverify.core import device_marks, device_rule, versions
from docverify.core.config import RUNNERS, Config, in_ci
from docverify.core.files import write_atomic
from docverify.core.findings import Finding, errors
from docverify.core.kinds import Kind
from docverify.core.status import Status
from docverify.parsing.pages import Block, Page
from docverify.report import digests, report_json
from docverify.verifying import baselines, compare, judge, recordings
from docverify.verifying.outcome import tolerance

FIX_STALE = (
    "descarga el informe de una ejecución de CI de este mismo código (o vuelve a ejecutar "
    "docverify check --report CARPETA) y acepta ese."
)


@dataclass(frozen=True)
class Write:
    key: str
    path: Path
    text: str
    diff: str


@dataclass
class Plan:
    report: report_json.Report
    runner: str
    writes: list[Write] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    refusals: list[Finding] = field(default_factory=list)  # of kind `refused`


def refusal(what: str, path: str, line: int, fix: str) -> Finding:
    """Why nothing is written: what, where (line 0: the whole file or place), how to fix it."""
    return Finding(Kind.REFUSED, what, path, line, fix)


def plan(
    config: Config,
    pages: list[Page],
    report: report_json.Report,
    runner: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> Plan:
    """What accepting `report` would write for `runner` (default: the report's own runner)."""
    wanted = runner or report.runner
    result = Plan(report, wanted, refusals=_refused(report, wanted, environ))
    stale = digests.stale(config, pages, report)
    gone = {s.key for s in stale}
    for item in stale:
        result.refusals.append(
            refusal(f"informe obsoleto: {item.reason}.", item.path, item.line, FIX_STALE)
        )
    if old := report.without_results():
        found = report_json.format_2("docverify accept", str(report.path), old, FIX_STALE)
        result.refusals.append(refusal(found.message, found.path, 0, found.fix))
        return result
    blocks: dict[str, Block] = {b.key: b for p in pages for b in p.blocks}
    for key, entry in sorted(report.observations.items()):
        if key not in gone:
            _plan_block(config, blocks[key], entry, result)
    return result


def _refused(
    report: report_json.Report, wanted: str, environ: Mapping[str, str] | None
) -> list[Finding]:
    """Why no recording of `report` can be written for runner `wanted`, whatever it holds."""
    found = []
    if in_ci(environ):
        found.append(
            refusal(
                "docverify accept se niega a escribir grabaciones con CI=true: aceptar una "
                "salida es un acto que se revisa y se confirma a mano.",
                "CI",
                0,
                "descarga el informe del trabajo de CI y ejecuta docverify accept en local; "
                "revisa el diff y confírmalo con git.",
            )
        )
    if wanted not in RUNNERS or wanted != report.runner:
        found.append(
            refusal(
                f"el informe es del runner {report.runner} y se escribirían grabaciones de "
                f"{wanted} (<id>.{wanted}.txt): una salida solo se graba para el runner que la "
                "observó.",
                str(report.path),
                0,
                f"usa el informe del trabajo {wanted} de CI, o quita --runner {wanted} para "
                f"escribir grabaciones de {report.runner}.",
            )
        )
    if report.canary is not None and (problem := _canary_torch(report)):
        found.append(problem)
    return found


def _plan_block(config: Config, block: Block, entry: report_json.Entry, plan: Plan) -> None:
    """One entry: refused when its block failed, else written unless its baseline holds
    (the judge decides, as for a run here)."""
    recs = judge.recordings_of(config, block)
    verdict = judge.judge(config, block, plan.runner, entry.block_result(), recs=recs)
    if Status.ERROR in (entry.status, verdict.status):
        why = entry.error or next((f.message for f in errors(verdict.findings)), "error")
        plan.refusals.append(
            refusal(
                f"el bloque «{block.key}» falló en el runner {plan.report.runner} "
                f"({why}); una salida que falla no se graba.",
                config.rel(block.origin),
                block.origin_line,
                "corrige el bloque y acepta el informe de una ejecución en la que pase.",
            )
        )
        return
    write = _write(config, block, plan.runner, entry, plan.report, recs, verdict.status)
    if write is None:
        plan.unchanged.append(block.key)
    else:
        plan.writes.append(write)


def _canary_torch(report: report_json.Report) -> Finding | None:
    """A canary's outputs are adopted only once the project runs that torch (the pin bumped
    and installed): before, they would make every `docverify check` fail."""
    # The torch this project's environment has installed, read from its metadata: never imported.
    seen, here = report.env.get("torch", "?"), versions.installed("torch")
    if here is not None and versions.same(seen, here):
        return None
    public = versions.public(seen)
    return refusal(
        f"el informe es de un canario con torch {seen} y este proyecto tiene instalado torch "
        f"{here or '(ninguno)'}: sus salidas solo se adoptan cuando el proyecto usa esa versión.",
        str(report.path),
        0,
        f"fija torch=={public} en pyproject.toml, instala (python3 tasks.py install) y repite "
        "docverify accept con este informe.",
    )


def _write(
    config: Config,
    block: Block,
    runner: str,
    entry: report_json.Entry,
    report: report_json.Report,
    recs: judge.Recordings,
    status: Status,
) -> Write | None:
    """The recording to write for one entry judged `status`, or None when its baseline holds
    (and, on cpu, its header's device marks are the run's)."""
    own = recs.get(runner)
    marks = device_marks.kept(runner, entry.device_dependent)
    if status == Status.OK:
        if own is None or runner != device_marks.RUNNER or own.marks == marks:
            return None
        before, after = recordings.with_marks(own, marks)
        label = config.rel(own.path)
        diff = compare.diff(before, after, f"{label} (cabecera actual)", f"{label} (observada)")
        return Write(block.key, own.path, after, diff)  # the header's marks line only
    body = compare.merge(own.body if own else None, entry.output, tolerance(config, block))
    path = recordings.path_for(config, block, runner)
    command = "docverify canary" if report.canary is not None else "docverify check"
    provenance = {
        "origin": f"docverify accept, informe de {command} del {report.date}",
        "run": report.run_url,
    }
    text = recordings.render(block, runner, report.env, report.date, body, provenance, marks)
    baseline = baselines.choose(block, recs, runner)
    if baseline.recording is None:
        before, label = "", f"{config.rel(path)} (no existe)"
    else:
        rule = f", con la {device_rule.NAME}" if baseline.device_rule else ""
        before = baseline.recording.body
        label = f"{config.rel(baseline.recording.path)} (referencia actual{rule})"
    diff = compare.diff(before, body, label, f"{config.rel(path)} (observada en {runner})")
    return Write(block.key, path, text, diff)


def apply(accepted: Plan) -> list[Path]:
    """Write every recording of a plan without refusals (callers check them first)."""
    if accepted.refusals:
        raise RuntimeError("a refused accept plan must not be applied: it writes nothing")
    for write in accepted.writes:
        write_atomic(write.path, write.text)
    return [w.path for w in accepted.writes]
