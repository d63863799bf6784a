"""Verification: run the blocks of some pages on a runner, compare, and report findings."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from docverify.core.config import RUNNERS, Config, today
from docverify.core.findings import Finding
from docverify.parsing.pages import Block, Page, page_stem
from docverify.running.executor import Executor, PageJob
from docverify.verifying import baselines, compare, recordings
from docverify.verifying.cache import Cache


@dataclass
class Outcome:
    """What happened to one block on one runner, and what readers will see."""

    block: Block
    runner: str
    result: dict[str, Any] | None
    recordings: dict[str, recordings.Recording]
    status: str  # ok | diverge | missing | error | other-runner | not-run
    findings: list[Finding] = field(default_factory=list)
    expectations: list[dict[str, Any]] = field(default_factory=list)
    # Other runners' observations of this same code, from their check report (verifying/peers.py).
    peers: dict[str, Any] = field(default_factory=dict)

    @property
    def observed(self) -> str | None:
        return None if self.result is None else compare.normalise(self.result["output"])

    @property
    def recording(self) -> recordings.Recording | None:
        return self.recordings.get(self.runner)


@dataclass
class Report:
    runner: str
    env: dict[str, str]
    pages: list[Page]
    outcomes: dict[str, Outcome]
    findings: list[Finding]

    def outcome(self, page: str, block_id: str) -> Outcome | None:
        """The outcome of block `block_id` of page `page` (outcomes are keyed by Block.key)."""
        return self.outcomes.get(f"{page_stem(page)}/{block_id}")


def tolerance(config: Config, block: Block) -> compare.Tolerance:
    return compare.Tolerance(
        rtol=block.number("rtol", config.rtol), atol=block.number("atol", config.atol)
    )


def spec(config: Config, block: Block) -> dict[str, Any]:
    return {
        "key": block.key,
        "code": block.code,
        "filename": config.rel(block.origin),
        "first_line": block.origin_line,
        "session": block.session,
        "timeout": block.number("timeout", config.timeout),
        "output_limit": config.output_limit,
        "seed": config.seed,
    }


def execute(
    config: Config, pages: list[Page], runner: str, executor: Executor, cache: Cache | None = None
) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """Run every block of `pages` that runs on `runner`; return results and the environment.

    With a cache, pages whose key is unchanged are not run; the others run whole (see cache.py).
    """
    env: dict[str, str] = {}
    jobs = [
        PageJob(page.rel, runner, [spec(config, b) for b in page.blocks if b.runs_on(runner)])
        for page in pages
    ]
    cached: dict[str, dict[str, Any]] = {}
    if cache is not None:
        todo = []
        for job in (j for j in jobs if j.blocks):
            hit = cache.load(job)
            if hit is None:
                todo.append(job)
            else:
                cached.update(hit[0])
                env.update(hit[1])
        jobs = todo
    results = executor.run(jobs, on_env=env.update)
    if cache is not None:
        for job in jobs:
            cache.store(job, results, env)
    return {**cached, **results}, env


def execution_enabled() -> bool:
    """False with DOCVERIFY_EXECUTE=0: only for measuring a build without execution (bench)."""
    return os.environ.get("DOCVERIFY_EXECUTE", "1").strip().lower() not in (
        "0",
        "false",
        "no",
        "off",
    )


def not_run(config: Config, block: Block, runner: str) -> Outcome:
    """An outcome for a block that was deliberately not executed: recordings only."""
    recs = {r: rec for r in RUNNERS if (rec := recordings.load(config, block, r))}
    return Outcome(block, runner, None, recs, "not-run")


def verify(
    config: Config,
    pages: list[Page],
    runner: str,
    executor: Executor,
    *,
    whole_site: bool = True,
    run: Callable[..., tuple[dict[str, dict[str, Any]], dict[str, str]]] = execute,
    cache: Cache | None = None,
    execute_blocks: bool = True,
) -> Report:
    """Run, compare with the recordings of `runner`, and collect every finding of the run.

    Findings and outcomes follow page order, then block order, whatever order pages finish in.
    With `execute_blocks=False` nothing runs and an error says so: a build with execution off
    can be measured (docverify bench) but never passes as verified, not even with `-q --strict`
    (MkDocs does not count warnings under -q).
    """
    if cache is not None:
        run = functools.partial(run, cache=cache)
    results, env = run(config, pages, runner, executor) if execute_blocks else ({}, {})
    findings = [f for page in pages for f in page.findings]
    if not execute_blocks:
        findings.append(
            Finding(
                "ejecucion-desactivada",
                "DOCVERIFY_EXECUTE=0: ningún bloque se ejecutó ni se "
                "verificó; las salidas mostradas son las grabadas.",
                "DOCVERIFY_EXECUTE",
                1,
                "quita DOCVERIFY_EXECUTE=0 (solo sirve para medir con docverify bench).",
            )
        )
    outcomes: dict[str, Outcome] = {}
    for page in pages:
        for block in page.blocks:
            if not execute_blocks:
                outcomes[block.key] = not_run(config, block, runner)
                continue
            outcome = judge(config, block, runner, results.get(block.key))
            outcomes[block.key] = outcome
            findings.extend(outcome.findings)
    if whole_site:
        findings.extend(orphans(config, pages))
    return Report(runner=runner, env=env, pages=pages, outcomes=outcomes, findings=findings)


def missing_recording(config: Config, block: Block, runner: str) -> Finding:
    """A block that runs on `runner` has no baseline for it (from a check, or from lint)."""
    page = config.rel(config.docs_dir / block.page)
    wanted = baselines.expected_runner(block, runner)
    target = config.rel(recordings.path_for(config, block, wanted))
    via = "" if wanted == runner else f", que el runner {runner} usa como referencia"
    return Finding(
        "grabacion-ausente",
        f"el bloque «{block.key}» no tiene grabación para el runner {runner} ({target}{via}). "
        f"(página {page}:{block.fence_line})",
        config.rel(block.origin),
        block.origin_line,
        f"docverify record --runner {wanted} {page}",
    )


def judge(config: Config, block: Block, runner: str, result: dict[str, Any] | None) -> Outcome:
    recs = {r: rec for r in RUNNERS if (rec := recordings.load(config, block, r))}
    if not block.runs_on(runner):
        return Outcome(block, runner, None, recs, "other-runner")
    outcome = Outcome(block, runner, result, recs, "ok")
    page_where = f"{config.rel(config.docs_dir / block.page)}:{block.fence_line}"
    where = config.rel(block.origin)
    fix_record = f"docverify record --runner {runner} {config.rel(config.docs_dir / block.page)}"

    def fail(
        kind: str,
        message: str,
        fix: str,
        line: int | None = None,
        detail: str = "",
        status: str = "error",
    ) -> None:
        outcome.status = status
        outcome.findings.append(
            Finding(
                kind,
                f"{message} (página {page_where})",
                where,
                line or block.origin_line,
                fix,
                detail=detail,
            )
        )

    if result is None:
        fail(
            "sin-resultado",
            f"el bloque «{block.key}» no produjo resultado.",
            "vuelve a ejecutar; si persiste, informa del fallo del motor.",
        )
        return outcome
    tol = tolerance(config, block)
    for item in result["expectations"]:
        item["ok"] = compare.expectation_holds(item["expected"], item["observed"], tol)
        outcome.expectations.append(item)
        if not item["ok"]:
            fail(
                "expectativa",
                f"«{block.key}»: Esperado {item['expected']} · Observado {item['observed']}",
                "corrige el código o el comentario «# Expectativa:».",
                line=item["line"],
            )
    if result["error"]:
        fail(
            "fallo-ejecucion",
            f"el bloque «{block.key}» {result['error']}",
            f"corrige el código en {where}:{block.origin_line}; si necesita más tiempo, "
            'añade timeout="segundos" al bloque.',
        )
        return outcome
    raises = block.options.get("raises")
    if result["exception"] and not _expected(raises, result):
        fail(
            "excepcion-inesperada",
            f"el bloque «{block.key}» lanzó {result['exception']}",
            "corrige el código o, si el error es lo que el bloque enseña, declara "
            'raises="Tipo: inicio del mensaje".',
            detail=result["traceback"],
        )
        return outcome
    if raises and not result["exception"]:
        fail(
            "excepcion-ausente",
            f"el bloque «{block.key}» debía lanzar «{raises}» y terminó sin error.",
            'corrige el código o quita raises="…".',
        )
        return outcome
    baseline = baselines.choose(block, recs, runner)
    if baseline.recording is None:
        outcome.status = "missing"
        outcome.findings.append(missing_recording(config, block, runner))
        return outcome
    if not baseline.matches(result["output"], tol):
        rule = f", con la {baselines.DEVICE_RULE}" if baseline.device_rule else ""
        detail = compare.diff(
            baseline.recording.body,
            baseline.comparable(result["output"]),
            f"grabación {config.rel(baseline.recording.path)}",
            f"observado ({runner}{rule})",
        )
        if baseline.device_rule:
            own = config.rel(recordings.path_for(config, block, runner))
            fix = (
                f"si la salida en {runner} es correcta, grábala aparte ({own}): "
                f"docverify accept CARPETA con el informe del trabajo {runner} de CI, o "
                f"{fix_record} en una máquina con GPU; si no, corrige el código."
            )
        else:
            fix = f"si el cambio es correcto: {fix_record}; si no, corrige el código."
        fail(
            "divergencia",
            f"la salida de «{block.key}» en {runner} no coincide con su grabación"
            f" ({config.rel(baseline.recording.path)}{rule}).",
            fix,
            detail=detail,
            status="diverge",
        )
    return outcome


def _expected(raises: str | None, result: dict[str, Any]) -> bool:
    if not raises:
        return False
    name, _, prefix = raises.partition(":")
    return name.strip() in result.get("exception_type", []) and result.get(
        "exception_message", ""
    ).startswith(prefix.strip())


def orphans(config: Config, pages: list[Page]) -> list[Finding]:
    """Recordings whose block no longer exists (or no longer runs on that runner)."""
    alive = {
        (page_stem(b.page), b.id, r)
        for p in pages
        for b in p.blocks
        for r in RUNNERS
        if b.runs_on(r)
    }
    found = []
    for path, stem, block_id in recordings.all_recordings(config):
        runner = path.name.rsplit(".", 2)[-2]
        if (stem, block_id, runner) not in alive:
            found.append(
                Finding(
                    "grabacion-huerfana",
                    f"la grabación de «{stem}/{block_id}» ({runner}) no "
                    "corresponde a ningún bloque que corra en ese runner.",
                    config.rel(path),
                    1,
                    "docverify prune --yes (la borra) o restaura el bloque con ese id.",
                )
            )
    return found


@dataclass
class RecordReport:
    written: list[tuple[str, str]]  # (path, diff)
    unchanged: int
    findings: list[Finding]
    env: dict[str, str]


def record(config: Config, pages: list[Page], runner: str, executor: Executor) -> RecordReport:
    """Write the recordings whose baseline no longer holds. Refuses under CI and failed blocks.

    On gpu, a block whose output matches its cpu recording under the device rule gets no
    `.gpu.txt`: only the blocks that really differ are recorded (see baselines.py).
    """
    if os.environ.get("CI", "").lower() == "true":
        raise PermissionError(
            "docverify record se niega a grabar con CI=true: las grabaciones se revisan y se "
            "confirman a mano. Ejecútalo en local y confirma los cambios con git."
        )
    results, env = execute(config, pages, runner, executor)
    report = RecordReport([], 0, [f for p in pages for f in p.findings], env)
    date = today().isoformat()
    for page in pages:
        for block in page.blocks:
            if not block.runs_on(runner):
                continue
            outcome = judge(config, block, runner, results.get(block.key))
            blocking = [
                f for f in outcome.findings if f.kind not in ("grabacion-ausente", "divergencia")
            ]
            if blocking:
                report.findings.extend(blocking)
                continue
            result = results[block.key]
            tol = tolerance(config, block)
            if baselines.choose(block, outcome.recordings, runner).matches(result["output"], tol):
                report.unchanged += 1  # its baseline (maybe the cpu one) already holds
                continue
            old = outcome.recording
            body = compare.merge(old.body if old else None, result["output"], tol)
            path = recordings.path_for(config, block, runner)
            recordings.write_atomic(path, recordings.render(block, runner, env, date, body))
            label = config.rel(path)
            report.written.append(
                (
                    label,
                    compare.diff(
                        old.body if old else "", body, f"{label} (antes)", f"{label} (ahora)"
                    ),
                )
            )
    return report
