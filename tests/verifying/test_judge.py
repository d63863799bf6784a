"""verifying.judge: a verdict is a value, and judging leaves what was observed as it came.

An observation comes from a run here, the local cache or a report's entry, and may be judged
again (by the build, then by a canary's or a gpu report's view of the same block): the judge
must build its verdict beside it, never write into it. A verdict, once made, is what every
page shows: nothing may change it afterwards.
"""

from __future__ import annotations

import copy
import dataclasses
import json

import pytest
from conftest import Project
from docverify.core.findings import Finding, Level
from docverify.core.kinds import Kind
from docverify.core.status import Status
from docverify.parsing.pages import read_site
from docverify.report import report_folder, report_json
from docverify.running.executor import Executor
from docverify.verifying import judge, messages, recordings
from docverify.verifying.cache import Cache
from docverify.verifying.outcome import Agreement, Observation, Provenance, SeenIn
from docverify.verifying.verify import execute, verify
from support.blocks import block

pytestmark = pytest.mark.usefixtures("local_author")

# One expectation that holds and one that does not: the judge decides each.
CODE = "print(12)  # Expectativa: 12\nprint(5)  # Expectativa: 6\n"


def _page(project: Project) -> None:
    project.page("a.md", block(CODE, "b"))
    project.snippet("a/b.cpu.txt", "12\n5\n")


def test_a_verdict_and_an_outcome_cannot_be_changed(project: Project, executor: Executor) -> None:
    _page(project)
    made = verify(project.config, read_site(project.config), "cpu", executor).outcomes["a/b"]
    verdict = made.verdict
    for name, value in [("status", Status.OK), ("findings", ()), ("agreement", None)]:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(verdict, name, value)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.verdicts = {}  # type: ignore[misc]
    assert isinstance(verdict.findings, tuple) and isinstance(verdict.expectations, tuple)


def test_judging_leaves_the_observation_as_it_came(project: Project, executor: Executor) -> None:
    """A real run's results, judged twice by the one loop: not one field of them changes, and
    the verdict says which expectation held."""
    _page(project)
    cfg = project.config
    pages = read_site(cfg)
    results, _ = execute(cfg, pages, "cpu", executor)
    before = copy.deepcopy(results)
    observed = {key: Observation(result) for key, result in results.items()}
    first = judge.verification(cfg, pages, "cpu", observed)
    again = judge.verification(cfg, pages, "cpu", observed)
    assert results == before
    assert all("ok" not in e for e in results["a/b"]["expectations"])
    for made in (first.outcomes["a/b"], again.outcomes["a/b"]):
        assert [(e["expected"], e["ok"]) for e in made.expectations] == [("12", True), ("6", False)]
        assert made.status == Status.ERROR


def test_a_cached_result_is_judged_as_it_is_stored(
    project: Project, executor: Executor, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """What the cache gives is judged without being written into: the result read back from
    the cache equals, field by field, the one the same cache gives to the next build."""
    project.page("a.md", block("print(12)  # Expectativa: 12\n", "b"))
    project.snippet("a/b.cpu.txt", "12\n")
    cfg = project.config
    cache = Cache.for_config(cfg)
    assert not verify(cfg, read_site(cfg), "cpu", executor, cache=cache).findings
    pages = read_site(cfg)
    results, _ = execute(cfg, pages, "cpu", executor, cache=cache)
    assert cache.hits == 1
    stored = copy.deepcopy(results)
    judged = judge.verification(cfg, pages, "cpu", {k: Observation(r) for k, r in results.items()})
    assert judged.outcomes["a/b"].status == Status.OK
    assert results == stored and "ok" not in results["a/b"]["expectations"][0]


def test_a_report_keeps_each_expectation_as_judged(
    project: Project, executor: Executor, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """report.json keeps, with each expectation, whether it held: what the judge decided (the
    observation itself does not say it)."""
    _page(project)
    cfg = project.config
    folder = tmp_path_factory.mktemp("informe")
    report_folder.write(folder, verify(cfg, read_site(cfg), "cpu", executor), config=cfg)
    raw = json.loads(report_json.path_in(folder).read_text(encoding="utf-8"))
    kept = raw["observations"]["a/b"]["result"]["expectations"]
    assert [(e["expected"], e["ok"]) for e in kept] == [("12", True), ("6", False)]


# --- Each verdict, judged in this process from results written here ----------------------------
# The page: «b» runs on every runner (fence on line 3, code on line 4), «c» only on gpu (fence on
# line 7, code on line 8). Every finding is checked whole: kind, message, file, line, fix.

PAGE = "# T\n\n" + block("print(1)", "b") + "\n" + block("print(2)", "c", ' runner="gpu"')
WHERE = "(página docs/a.md:3)"


def _site(project: Project, text: str = PAGE, cpu: str | None = "1\n") -> list:
    project.page("a.md", text)
    if cpu is not None:
        project.snippet("a/b.cpu.txt", cpu)
    return read_site(project.config)


def _result(output: str = "1\n", **changes: object) -> dict:
    made = {"output": output, "error": None, "exception": None, "traceback": ""}
    return {**made, "expectations": [], "duration": 0.0, **changes}


def _seen() -> Provenance:
    return Provenance("cpu", "2.13.0", "cpu", "2026-01-02", SeenIn.BUILD)


def _judged(project: Project, result: dict | None, text: str = PAGE, cpu: str | None = "1\n"):
    """The cpu verdict on the page's first block, observed as `result`."""
    pages = _site(project, text, cpu)
    first = pages[0].blocks[0]
    return judge.judge(project.config, first, "cpu", Observation(result, _seen()))


def _only(verdict) -> Finding:
    assert len(verdict.findings) == 1, verdict.findings
    return verdict.findings[0]


def test_a_matching_output_is_ok_with_all_it_judged(project: Project) -> None:
    held = {"expected": "1", "observed": "1", "line": 4}
    result = _result("1  \n\n", expectations=[held])
    verdict = _judged(project, result)
    assert (verdict.runner, verdict.status, verdict.findings) == ("cpu", Status.OK, ())
    assert verdict.result is result and verdict.provenance == _seen()
    assert verdict.recording is not None
    assert verdict.recording.path == project.root / "snippets" / "a" / "b.cpu.txt"
    assert (verdict.reference.runner, verdict.reference.described) == ("cpu", "b.cpu.txt")
    assert verdict.expectations == ({**held, "ok": True},)
    assert verdict.compared == "1"  # the recording's text, trailing blank lines dropped


def test_a_block_that_does_not_run_on_the_runner_is_not_judged(project: Project) -> None:
    pages = _site(project)
    other = pages[0].blocks[1]
    verdict = judge.judge(project.config, other, "cpu", Observation(_result("2\n"), _seen()))
    assert (verdict.status, verdict.result, verdict.provenance) == (Status.OTHER_RUNNER, None, None)
    assert verdict.findings == () and verdict.compared is None
    # On its own runner it is judged: its gpu recording matches.
    project.snippet("a/c.gpu.txt", "2\n")
    verdict = judge.judge(project.config, other, "gpu", Observation(_result("2\n"), _seen()))
    assert (verdict.status, verdict.findings, verdict.compared) == (Status.OK, (), "2")


def test_an_observation_without_result_says_why_and_is_not_run(project: Project) -> None:
    pages = _site(project)
    why = Finding(Kind.NO_RESULT, "el informe no tiene el bloque", "informe.json", 7, "vuelve")
    seen = Observation(None, _seen(), missing=why)
    verdict = judge.judge(project.config, pages[0].blocks[0], "cpu", seen)
    assert (verdict.status, verdict.findings, verdict.result) == (Status.NOT_RUN, (why,), None)
    assert verdict.provenance is None and verdict.recording is not None


def test_no_result_is_an_error_of_the_engine(project: Project) -> None:
    verdict = _judged(project, None)
    assert (verdict.status, verdict.provenance, verdict.result) == (Status.ERROR, None, None)
    assert _only(verdict) == Finding(
        Kind.NO_RESULT,
        f"el bloque «a/b» no produjo resultado. {WHERE}",
        "docs/a.md",
        4,
        "vuelve a ejecutar; si persiste, informa del fallo del motor.",
    )


def test_stopped_processes_are_told_and_the_verdict_stands(project: Project) -> None:
    verdict = _judged(project, _result(stopped=["sleep 60"]))
    assert verdict.status == Status.OK
    found = _only(verdict)
    assert (found.kind, found.level, found.line) == (Kind.STOPPED_PROCESSES, Level.INFO, 4)
    assert "«sleep 60»" in found.message


def test_a_failed_expectation_is_an_error_at_its_line(project: Project) -> None:
    wrong = {"expected": "2", "observed": "1", "line": 4}
    verdict = _judged(project, _result(expectations=[wrong]))
    assert verdict.status == Status.ERROR and verdict.expectations == ({**wrong, "ok": False},)
    assert _only(verdict) == Finding(
        Kind.EXPECTATION,
        f"«a/b»: Esperado 2 · Observado 1 {WHERE}",
        "docs/a.md",
        4,
        "corrige el código o el comentario «# Expectativa:».",
    )


def test_a_failed_expectation_with_fewer_numbers_says_how_to_write_them(project: Project) -> None:
    wrong = {"expected": "1", "observed": "tensor([1, 2])", "line": 9}
    found = _only(_judged(project, _result(expectations=[wrong])))
    assert (found.line, found.message) == (
        9,
        f"«a/b»: Esperado 1 · Observado tensor([1, 2]) {WHERE}",
    )
    assert found.fix.startswith("la expectativa compara cada número impreso, en orden: la ")
    assert "(# Expectativa: [1, 2])" in found.fix


def test_an_error_is_judged_before_the_output(project: Project) -> None:
    """The engine could not run it to the end: its output is not compared (it diverges)."""
    timed_out = _result("otra cosa\n", error="superó el tiempo límite (60 s)", cause="timeout")
    verdict = _judged(project, timed_out)
    assert verdict.status == Status.ERROR and verdict.compared is None
    assert _only(verdict) == Finding(
        Kind.EXECUTION_FAILURE,
        f"el bloque «a/b» superó el tiempo límite (60 s) {WHERE}",
        "docs/a.md",
        4,
        'corrige el código en docs/a.md:4; si necesita más tiempo, añade timeout="segundos" '
        "al bloque.",
    )


@pytest.mark.parametrize(
    ("cause", "fix"),
    [
        ("", "corrige el código en docs/a.md:4."),
        (
            "after-failure",
            "corrige primero el bloque de la misma sesión que falló antes (su error aparece "
            "junto a este): este bloque no llegó a ejecutarse.",
        ),
    ],
)
def test_more_time_is_the_fix_of_a_timeout_only(project: Project, cause: str, fix: str) -> None:
    """An output over its limit needs no more time; a block of a session that did not run
    because an earlier one failed is fixed in that one."""
    changes = {"cause": cause} if cause else {}
    failed = _result(error="la salida supera el límite de 200 caracteres", **changes)
    assert _only(_judged(project, failed)).fix == fix


def _raised(kind: str, message: str, **changes: object) -> dict:
    return _result(
        "otra cosa\n",
        exception=f"{kind}: {message}",
        exception_type=[kind, f"builtins.{kind}"],
        exception_message=message,
        traceback="Traceback (most recent call last):\n  ...",
        **changes,
    )


def test_an_undeclared_exception_is_an_error_at_its_line(project: Project) -> None:
    verdict = _judged(project, _raised("ValueError", "malo", exception_line=5))
    assert verdict.status == Status.ERROR and verdict.compared is None
    assert _only(verdict) == Finding(
        Kind.UNEXPECTED_EXCEPTION,
        f"el bloque «a/b» lanzó ValueError: malo {WHERE}",
        "docs/a.md",
        5,
        "corrige el código o, si el error es lo que el bloque enseña, declara "
        'raises="Tipo: inicio del mensaje".',
        detail="Traceback (most recent call last):\n  ...",
    )
    # Raised outside the block's own lines: at the block's first line.
    assert _only(_judged(project, _raised("ValueError", "malo"))).line == 4


def test_an_undeclared_exception_tells_a_missing_module(project: Project) -> None:
    raised = _raised("ModuleNotFoundError", "No module named 'sklearn'")
    fix = _only(_judged(project, raised)).fix
    assert fix.startswith("falta el módulo «sklearn», que instala el paquete «scikit-learn»: ")


def test_an_undeclared_name_error_names_the_earlier_block_that_defines_it(
    project: Project,
) -> None:
    text = "# T\n\n" + block("modelo = 1", "x") + "\n" + block("print(modelo)", "y")
    pages = _site(project, text, cpu=None)
    x, y = pages[0].blocks
    raised = _raised("NameError", "name 'modelo' is not defined")
    seen = Observation(raised, _seen())
    fix = _only(judge.judge(project.config, y, "cpu", seen, [x])).fix
    assert fix.startswith("«modelo» se define en el bloque anterior «x» (línea 3 de la página)")
    default = _only(judge.judge(project.config, y, "cpu", seen)).fix
    assert default.startswith("corrige el código o, si el error es lo que el bloque enseña")
    # The one loop gives each block the blocks before it on its page.
    loop = judge.verification(project.config, pages, "cpu", {"a/y": seen})
    assert loop.findings[0].fix == fix


def test_a_declared_exception_is_compared_like_any_output(project: Project) -> None:
    text = "# T\n\n" + block("raise ValueError('malo')", "b", ' raises="ValueError: ma"')
    verdict = _judged(project, _raised("ValueError", "malo"), text, cpu="otra cosa\n")
    assert (verdict.status, verdict.findings, verdict.compared) == (Status.OK, (), "otra cosa")
    wrong = _judged(project, _raised("ValueError", "otro"), text, cpu="otra cosa\n")
    assert _only(wrong).kind == Kind.UNEXPECTED_EXCEPTION


def test_a_declared_exception_that_is_not_raised_is_an_error(project: Project) -> None:
    text = "# T\n\n" + block("print(1)", "b", ' raises="ValueError: ma"')
    verdict = _judged(project, _result(), text)
    assert verdict.status == Status.ERROR and verdict.compared is None
    assert _only(verdict) == Finding(
        Kind.MISSING_EXCEPTION,
        f"el bloque «a/b» debía lanzar «ValueError: ma» y terminó sin error. {WHERE}",
        "docs/a.md",
        4,
        'corrige el código o quita raises="…".',
    )


def test_an_output_without_its_recording_is_missing(project: Project) -> None:
    verdict = _judged(project, _result(), cpu=None)
    assert (verdict.status, verdict.recording, verdict.compared) == (Status.MISSING, None, None)
    assert _only(verdict) == Finding(
        Kind.MISSING_RECORDING,
        f"el bloque «a/b» no tiene grabación para el runner cpu (snippets/a/b.cpu.txt). {WHERE}",
        "docs/a.md",
        4,
        "docverify record --runner cpu docs/a.md",
    )


def test_an_output_unlike_its_recording_diverges(project: Project) -> None:
    verdict = _judged(project, _result("2\n"))
    assert verdict.status == Status.DIVERGE and verdict.compared is None
    found = _only(verdict)
    assert (found.kind, found.path, found.line) == (Kind.DIVERGENCE, "docs/a.md", 4)
    assert found.message == (
        f"la salida de «a/b» en cpu no coincide con su grabación (snippets/a/b.cpu.txt). {WHERE}"
    )
    assert found.fix == (
        "si el cambio es correcto: docverify record --runner cpu docs/a.md; si no, corrige el "
        "código."
    )


def test_the_blocks_tolerance_judges_its_output_and_its_expectations(project: Project) -> None:
    """rtol="0.1": 1.05 is 1 (the site's 1e-5 would not have it)."""
    near = {"expected": "1", "observed": "1.05", "line": 4}
    text = "# T\n\n" + block("print(1.05)", "b", ' rtol="0.1"')
    verdict = _judged(project, _result("1.05\n", expectations=[near]), text, cpu="1\n")
    assert (verdict.status, verdict.findings) == (Status.OK, ())
    assert verdict.expectations[0]["ok"] is True
    strict = _judged(project, _result("1.05\n", expectations=[near]), PAGE, cpu="1\n")
    assert strict.status == Status.DIVERGE
    assert [f.kind for f in strict.findings] == [Kind.EXPECTATION, Kind.DIVERGENCE]


def test_a_graph_block_must_print_a_graph(project: Project) -> None:
    text = "# T\n\n" + block("print(1)", "b", ' graph="grafo"')
    verdict = _judged(project, _result("nada\n"), text, cpu="nada\n")
    assert verdict.status == Status.ERROR and verdict.compared is None
    assert _only(verdict) == Finding(
        Kind.UNREADABLE_GRAPH,
        'el bloque «a/b» lleva graph="…" y su salida no se puede dibujar: la salida no tiene '
        f"ninguna línea «[0] Nodo → [1], …». {WHERE}",
        "docs/a.md",
        4,
        messages.GRAPH_FIX,
    )
    drawn = "[0] MulBackward0 → [1]\n[1] AccumulateGrad\n"
    verdict = _judged(project, _result(drawn), text, cpu=drawn)
    assert (verdict.status, verdict.compared) == (Status.OK, drawn.strip())


NO_POINT = (
    "la salida no tiene ningún punto; una curva necesita al menos 2 líneas como «época 1: "
    "pérdida 0.93» (x entero primero, y al final)."
)


def test_a_curve_block_must_print_a_curve(project: Project) -> None:
    text = "# T\n\n" + block("print(1)", "b", ' curve="pérdida"')
    verdict = _judged(project, _result("nada\n"), text, cpu="nada\n")
    assert verdict.status == Status.ERROR and verdict.compared is None
    assert _only(verdict) == Finding(
        Kind.UNREADABLE_CURVE,
        f'el bloque «a/b» lleva curve="…" y su salida no se puede dibujar como curva: {NO_POINT} '
        f"{WHERE}",
        "docs/a.md",
        4,
        messages.CURVE_FIX,
    )


def test_a_curve_is_drawn_from_the_recording_it_matched(project: Project) -> None:
    text = "# T\n\n" + block("print(1)", "b", ' curve="pérdida"')
    points = "época 1: pérdida 0.93\népoca 2: pérdida 0.5\n"
    verdict = _judged(project, _result(points), text, cpu="época 1: pérdida 0.93\n[..]\n")
    assert verdict.status == Status.ERROR and verdict.compared == "época 1: pérdida 0.93\n[..]"
    assert _only(verdict) == Finding(
        Kind.UNREADABLE_CURVE,
        'el bloque «a/b» lleva curve="…" y su grabación snippets/a/b.cpu.txt no se puede '
        f"dibujar como curva: {NO_POINT.replace('no tiene ningún', 'tiene un solo')} {WHERE}",
        "docs/a.md",
        4,
        "la curva se dibuja de la grabación: deja en ella los números de cada punto "
        '(sin marcadores [..]) o quita curve="…".',
    )
    verdict = _judged(project, _result(points), text, cpu=points)
    assert (verdict.status, verdict.findings, verdict.compared) == (Status.OK, (), points.strip())


MARKED = "# device-dependent: random\n# ----\n1\n"


def test_a_cpu_run_whose_marks_are_not_its_recordings_is_told(project: Project) -> None:
    verdict = _judged(project, _result(device_dependent=[]), cpu=MARKED)
    assert verdict.status == Status.OK and verdict.compared == "1"
    found = _only(verdict)
    assert (found.kind, found.path, found.line) == (Kind.DEVICE_MARKS, "docs/a.md", 4)
    assert _judged(project, _result(device_dependent=["random"]), cpu=MARKED).findings == ()
    assert _judged(project, _result(), cpu=MARKED).findings == ()  # the engine's: no marks


def test_only_the_cpu_runner_checks_the_marks(project: Project) -> None:
    pages = _site(project, cpu=MARKED)
    project.snippet("a/b.gpu.txt", MARKED)
    seen = Observation(_result(device_dependent=[]), _seen())
    verdict = judge.judge(project.config, pages[0].blocks[0], "gpu", seen)
    assert (verdict.status, verdict.findings, verdict.compared) == (Status.OK, (), "1")


# --- The loop, what is known of the other runners, and a report's verdict attached -------------


def test_with_nothing_observed_every_block_is_not_run(project: Project) -> None:
    """Even «c», which does not run on cpu: a build that runs nothing runs nothing."""
    pages = _site(project)
    before = Finding(Kind.NO_RESULT, "antes", "x.md", 1, "nada")
    made = judge.verification(project.config, pages, "cpu", None, findings=[before])
    assert list(made.outcomes) == ["a/b", "a/c"]
    assert [o.status for o in made.outcomes.values()] == [Status.NOT_RUN, Status.NOT_RUN]
    assert (made.runner, made.env, made.findings, made.origin) == ("cpu", {}, [before], None)
    assert made.pages == pages and made.outcomes["a/b"].verdict.recording is not None


def test_only_the_observed_blocks_are_judged_after_the_findings_given(project: Project) -> None:
    pages = _site(project)
    before = Finding(Kind.NO_RESULT, "antes", "x.md", 1, "nada")
    env = {"torch": "2.13.0", "python": "3.12", "device": "cpu"}
    observed = {"a/b": Observation(_result("2\n"), _seen())}
    made = judge.verification(
        project.config, pages, "cpu", observed, env=env, findings=[before], origin=_seen()
    )
    assert list(made.outcomes) == ["a/b"] and made.outcomes["a/b"].status == Status.DIVERGE
    assert [f.kind for f in made.findings] == [Kind.NO_RESULT, Kind.DIVERGENCE]
    assert (made.env, made.origin) == (env, _seen())
    later = judge.verification(project.config, pages, "cpu", {"a/c": observed["a/b"]})
    assert list(later.outcomes) == ["a/c"]  # «b», not observed, is passed over


def test_the_recordings_a_build_read_are_not_read_again(project: Project) -> None:
    """`recorded` holds a block's recordings as this build read them; a block without them
    there is read from disk."""
    pages = _site(project, cpu="9\n")
    kept = recordings.Recording(project.root / "guardada.txt", "cpu", {}, "1\n")
    observed = {"a/b": Observation(_result("1\n"), _seen())}
    made = judge.verification(
        project.config, pages, "cpu", observed, recorded={"a/b": {"cpu": kept}}
    )
    assert made.outcomes["a/b"].status == Status.OK
    assert made.outcomes["a/b"].verdict.recording is kept
    elsewhere = judge.verification(project.config, pages, "cpu", observed, recorded={"a/c": {}})
    assert elsewhere.outcomes["a/b"].status == Status.DIVERGE  # the 9 on disk
    nothing = judge.verification(project.config, pages, "cpu", None, recorded={"a/b": {}})
    assert nothing.outcomes["a/b"].verdict.recording is None


def test_unobserved_is_not_run_where_the_block_runs_else_another_runners(project: Project) -> None:
    pages = _site(project)
    b, c = pages[0].blocks
    cfg = project.config
    recs = recordings.of_block(cfg, b)
    why = (Finding(Kind.NO_RESULT, "sin el bloque", "informe.json", 1, "vuelve"),)
    verdict = judge.unobserved(cfg, b, "cpu", recs, findings=why)
    assert (verdict.runner, verdict.status, verdict.findings) == ("cpu", Status.NOT_RUN, why)
    assert verdict.recording is recs["cpu"] and verdict.reference.described == "b.cpu.txt"
    assert (verdict.result, verdict.provenance, verdict.compared) == (None, None, None)
    assert judge.unobserved(cfg, b, "gpu", recs).status == Status.NOT_RUN
    assert judge.unobserved(cfg, c, "cpu", {}).status == Status.OTHER_RUNNER
    assert judge.unobserved(cfg, c, "gpu", {}).status == Status.NOT_RUN
    assert judge.unobserved(cfg, c, "cpu", {}, Status.NOT_RUN).status == Status.NOT_RUN
    gpu = judge.unobserved(cfg, b, "gpu", recs)
    assert (gpu.recording, gpu.reference.described) == (
        None,
        "b.cpu.txt con la regla de dispositivo",
    )


def test_an_outcome_knows_every_runner_the_block_runs_on(project: Project) -> None:
    text = PAGE + "\n" + block("print(3)", "d", ' runner="cpu"')
    pages = _site(project, text)
    project.snippet("a/b.gpu.txt", "1\n")
    observed = {k: Observation(_result(), _seen()) for k in ("a/b", "a/c", "a/d")}
    made = judge.verification(project.config, pages, "cpu", observed).outcomes
    assert made["a/b"].recordings == recordings.of_block(project.config, pages[0].blocks[0])
    assert made["a/b"].recording is not None and made["a/b"].recording.body == "1\n"
    both = made["a/b"].verdicts
    assert list(both) == ["cpu", "gpu"] and both["cpu"].status == Status.OK
    assert (both["gpu"].status, both["gpu"].result) == (Status.NOT_RUN, None)
    assert both["gpu"].recording is not None and both["gpu"].recording.runner == "gpu"
    assert both["gpu"].agreement == Agreement.SAME  # agreed: its recording is the cpu output
    assert list(made["a/d"].verdicts) == ["cpu"]  # only cpu
    other = made["a/c"].verdicts  # only gpu: the build's runner, and gpu's own
    assert [(r, v.status) for r, v in other.items()] == [
        ("cpu", Status.OTHER_RUNNER),
        ("gpu", Status.NOT_RUN),
    ]


def test_a_reports_verdict_is_attached_to_a_new_outcome(project: Project) -> None:
    pages = _site(project)
    b = pages[0].blocks[0]
    cfg = project.config
    made = judge.verification(cfg, pages, "cpu", {"a/b": Observation(_result(), _seen())})
    before = made.outcomes["a/b"]
    kept = dict(before.verdicts)
    seen = Observation(_result("2\n"), dataclasses.replace(_seen(), runner="gpu"))
    gpu = judge.judge(cfg, b, "gpu", seen)
    after = judge.attach(cfg, before, gpu)
    assert dict(before.verdicts) == kept and before.verdicts["gpu"].status == Status.NOT_RUN
    assert list(after.verdicts) == ["cpu", "gpu"] and after.verdicts["cpu"] == kept["cpu"]
    assert after.verdicts["gpu"] == dataclasses.replace(gpu, agreement=Agreement.DIFFERENT)
    assert (after.block, after.runner, after.recordings) == (b, "cpu", before.recordings)
    same = judge.attach(cfg, before, judge.judge(cfg, b, "gpu", Observation(_result(), _seen())))
    assert same.verdicts["gpu"].agreement == Agreement.SAME


def test_a_gpu_run_of_a_block_marked_on_cpu_needs_its_own_recording(project: Project) -> None:
    """Its cpu recording asks about the accelerator: the gpu runner cannot compare with it."""
    pages = _site(project, cpu="# device-dependent: accelerator\n# ----\n1\n")
    seen = Observation(_result(), _seen())
    verdict = judge.judge(project.config, pages[0].blocks[0], "gpu", seen)
    assert (verdict.status, verdict.recording, verdict.compared) == (Status.MISSING, None, None)
    assert _only(verdict) == Finding(
        Kind.MISSING_RECORDING,
        "el bloque «a/b» necesita su propia grabación para el runner gpu (snippets/a/b.gpu.txt): "
        "pregunta por el acelerador (marcado en snippets/a/b.cpu.txt), así que su salida en una "
        f"GPU puede no ser la de CPU y no se compara con ella. {WHERE}",
        "docs/a.md",
        4,
        "grábala: docverify record --runner gpu docs/a.md en una máquina con GPU, o docverify "
        "accept CARPETA con el informe del trabajo gpu de CI (el artefacto docverify-gpu); "
        "revisa el diff antes de confirmar.",
    )
