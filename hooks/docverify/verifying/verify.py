"""Verification: run the blocks of some pages on a runner, compare, and report findings."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from docverify.core.config import RUNNERS, Config
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.core.status import Status
from docverify.parsing.pages import Block, Page, page_stem
from docverify.running.executor import Executor, PageJob
from docverify.running.protocol import BlockResult
from docverify.verifying import baselines, compare, graph, hints, recordings
from docverify.verifying.cache import Cache
from docverify.verifying.outcome import Outcome, Report, not_run, tolerance
from docverify.verifying.specs import spec


def execute(
    config: Config, pages: list[Page], runner: str, executor: Executor, cache: Cache | None = None
) -> tuple[dict[str, BlockResult], dict[str, str]]:
    """Run every block of `pages` that runs on `runner`; return results and the environment.

    With a cache, pages whose key is unchanged are not run; the others run whole (see cache.py).
    """
    env: dict[str, str] = {}
    jobs = [
        PageJob(page.rel, runner, [spec(config, b) for b in page.blocks if b.runs_on(runner)])
        for page in pages
    ]
    cached: dict[str, BlockResult] = {}
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


def verify(
    config: Config,
    pages: list[Page],
    runner: str,
    executor: Executor,
    *,
    run: Callable[..., tuple[dict[str, BlockResult], dict[str, str]]] = execute,
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
                Kind.EXECUTION_DISABLED,
                "DOCVERIFY_EXECUTE=0: ningún bloque se ejecutó ni se "
                "verificó; las salidas mostradas son las grabadas.",
                "DOCVERIFY_EXECUTE",
                1,
                "quita DOCVERIFY_EXECUTE=0 (solo sirve para medir con docverify bench).",
            )
        )
    outcomes: dict[str, Outcome] = {}
    for page in pages:
        for number, block in enumerate(page.blocks):
            if not execute_blocks:
                outcomes[block.key] = not_run(config, block, runner)
                continue
            outcome = judge(config, block, runner, results.get(block.key), page.blocks[:number])
            outcomes[block.key] = outcome
            findings.extend(outcome.findings)
    return Report(runner=runner, env=env, pages=pages, outcomes=outcomes, findings=findings)


def missing_recording(config: Config, block: Block, runner: str) -> Finding:
    """A block that runs on `runner` has no baseline for it (from a check, or from lint)."""
    page = config.rel(config.docs_dir / block.page)
    wanted = baselines.expected_runner(block, runner)
    target = config.rel(recordings.path_for(config, block, wanted))
    via = "" if wanted == runner else f", que el runner {runner} usa como referencia"
    return Finding(
        Kind.MISSING_RECORDING,
        f"el bloque «{block.key}» no tiene grabación para el runner {runner} ({target}{via}). "
        f"(página {page}:{block.fence_line})",
        config.rel(block.origin),
        block.origin_line,
        f"docverify record --runner {wanted} {page}",
    )


def judge(
    config: Config,
    block: Block,
    runner: str,
    result: BlockResult | None,
    earlier: Sequence[Block] = (),
) -> Outcome:
    """Compare one block's result; `earlier` (the page's blocks before it) words some hints."""
    recs = {r: rec for r in RUNNERS if (rec := recordings.load(config, block, r))}
    if not block.runs_on(runner):
        return Outcome(block, runner, None, recs, Status.OTHER_RUNNER)
    outcome = Outcome(block, runner, result, recs, Status.OK)
    page_where = f"{config.rel(config.docs_dir / block.page)}:{block.fence_line}"
    where = config.rel(block.origin)
    fix_record = f"docverify record --runner {runner} {config.rel(config.docs_dir / block.page)}"

    def fail(
        kind: Kind,
        message: str,
        fix: str,
        line: int | None = None,
        detail: str = "",
        status: Status = Status.ERROR,
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
            Kind.NO_RESULT,
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
                Kind.EXPECTATION,
                f"«{block.key}»: Esperado {item['expected']} · Observado {item['observed']}",
                hints.expectation_fix(item["expected"], item["observed"])
                or "corrige el código o el comentario «# Expectativa:».",
                line=item["line"],
            )
    if result["error"]:
        fail(
            Kind.EXECUTION_FAILURE,
            f"el bloque «{block.key}» {result['error']}",
            f"corrige el código en {where}:{block.origin_line}; si necesita más tiempo, "
            'añade timeout="segundos" al bloque.',
        )
        return outcome
    raises = block.options.get("raises")
    if result["exception"] and not _expected(raises, result):
        fail(
            Kind.UNEXPECTED_EXCEPTION,
            f"el bloque «{block.key}» lanzó {result['exception']}",
            hints.name_error_fix(block, result, earlier)
            or "corrige el código o, si el error es lo que el bloque enseña, declara "
            'raises="Tipo: inicio del mensaje".',
            line=result.get("exception_line"),
            detail=result["traceback"],
        )
        return outcome
    if raises and not result["exception"]:
        fail(
            Kind.MISSING_EXCEPTION,
            f"el bloque «{block.key}» debía lanzar «{raises}» y terminó sin error.",
            'corrige el código o quita raises="…".',
        )
        return outcome
    if block.options.get(graph.OPTION):
        try:
            graph.parse(compare.normalise(result["output"]))
        except graph.GraphError as exc:
            fail(
                Kind.UNREADABLE_GRAPH,
                f'el bloque «{block.key}» lleva {graph.OPTION}="…" y su salida no se puede '
                f"dibujar: {exc}",
                "imprime un nodo por línea, «[0] MulBackward0 → [1], [2]», como el ayudante "
                'describir_grafo de la guía de autores; o quita graph="…".',
            )
            return outcome
    baseline = baselines.choose(block, recs, runner)
    if baseline.recording is None:
        outcome.status = Status.MISSING
        outcome.findings.append(missing_recording(config, block, runner))
        return outcome
    recording, output = baseline.recording, result["output"]
    if not baseline.matches(output, tol):
        rule = f", con la {baselines.DEVICE_RULE}" if baseline.device_rule else ""
        detail = output_diff(config, baseline, output, tol, f"observado ({runner}{rule})")
        line = hints.writer_line(result, hints.first_difference(recording.body, output, tol))
        if marks := hints.volatile_fix(recording, baseline.comparable(output), tol):
            fail(
                Kind.VOLATILE_DIVERGENCE,
                f"la salida de «{block.key}» en {runner} solo difiere de su grabación en "
                "valores que parecen cambiar en cada ejecución (hexadecimales, números de "
                "diez cifras o más).",
                marks,
                line=line,
                detail=detail,
                status=Status.DIVERGE,
            )
            return outcome
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
            Kind.DIVERGENCE,
            f"la salida de «{block.key}» en {runner} no coincide con su grabación"
            f" ({config.rel(recording.path)}{rule}).",
            fix,
            line=line,
            detail=detail,
            status=Status.DIVERGE,
        )
    return outcome


def output_diff(
    config: Config,
    baseline: baselines.Baseline,
    output: str,
    tol: compare.Tolerance,
    label: str,
) -> str:
    """The diff a divergence shows: the recording against `output`, both as compared (device
    rule, placeholders, tolerance, volatile values). `baseline` must have a recording."""
    recording = baseline.recording
    assert recording is not None
    return compare.diff(
        compare.comparable(recording.body, tol),
        compare.comparable(baseline.comparable(output), tol),
        f"grabación {config.rel(recording.path)}",
        label,
    )


def _expected(raises: str | None, result: BlockResult) -> bool:
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
                    Kind.ORPHAN_RECORDING,
                    f"la grabación de «{stem}/{block_id}» ({runner}) no "
                    "corresponde a ningún bloque que corra en ese runner.",
                    config.rel(path),
                    1,
                    "docverify prune --yes (la borra) o restaura el bloque con ese id.",
                )
            )
    return found
