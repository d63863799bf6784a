"""`docverify accept`: adopt what a check report observed as recordings, planned then applied.

The plan reads the report and the current site, judges each entry as a run here would be judged
(verifying/judge.py), and either lists what that verdict proposes (verifying/proposal.py: the
recording, with its diff) or the reasons to refuse, as findings of kind `refused`. `apply`
writes only a plan without refusals, so a refused accept writes nothing. Written recordings
carry the report's provenance in their header (`header`): runner, torch, device, the date of
the run and the CI run's URL.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from docverify.core import versions
from docverify.core.config import RUNNERS, Config, in_ci
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing.pages import Page
from docverify.report import digests, report_json
from docverify.verifying import judge, proposal
from docverify.verifying.outcome import Observation, Outcome
from docverify.verifying.proposal import Proposal

FIX_STALE = (
    "descarga el informe de una ejecución de CI de este mismo código (o vuelve a ejecutar "
    "docverify check --report CARPETA) y acepta ese."
)


@dataclass
class Plan:
    report: report_json.Report
    runner: str
    writes: list[Proposal] = field(default_factory=list)
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
    # Each entry of a block of this code, judged by the one loop (judge.py) as a run here.
    observed = {
        key: Observation(entry.block_result())
        for key, entry in report.observations.items()
        if key not in gone
    }
    judged = judge.verification(config, pages, wanted, observed)
    for key in sorted(report.observations):
        if (made := judged.outcomes.get(key)) is not None:
            _plan_block(config, made, result)
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


def _plan_block(config: Config, made: Outcome, plan: Plan) -> None:
    """One entry: refused when its block failed, else what its verdict proposes (nothing when
    its baseline holds), as for a run here."""
    block, verdict = made.block, made.verdict
    failed = proposal.failures(verdict)
    if failed:
        why = failed[0].message
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
    proposed = proposal.propose(config, block, verdict, made.recordings, header(plan.report))
    if proposed is None:
        plan.unchanged.append(block.key)
    else:
        plan.writes.append(proposed)


def header(report: report_json.Report) -> proposal.Header:
    """The header of a recording adopted from `report`: its run's environment, day and CI run,
    and which report it was adopted from."""
    command = "docverify canary" if report.canary is not None else "docverify check"
    origin = f"docverify accept, informe de {command} del {report.date}"
    return proposal.Header(report.env, report.date, origin, report.run_url)


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


def apply(accepted: Plan) -> list[Path]:
    """Write every recording of a plan without refusals (callers check them first)."""
    if accepted.refusals:
        raise RuntimeError("a refused accept plan must not be applied: it writes nothing")
    return proposal.write(accepted.writes)
