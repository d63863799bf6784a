"""output.panel: the verification line under an output folds what it has to add, and shows it
open when the reader must look (a failure, a missing recording), closed otherwise.

One throwaway page, run for real: four blocks with an expectation (so each line has something
to fold), whose recordings make one verify, one diverge, one lack its recording and one end
with the error it expects; and a fifth that verifies with nothing to fold.
"""

from __future__ import annotations

import dataclasses
import html
import re
from types import SimpleNamespace

import pytest
from conftest import Project
from docverify.core.findings import Finding, Level
from docverify.core.kinds import Kind
from docverify.core.policies import DEFAULT_CUDA
from docverify.output import panel
from docverify.parsing.pages import read_site
from docverify.running.executor import Executor
from docverify.verifying import judge
from docverify.verifying.outcome import Observation, Outcome, Provenance, SeenIn
from docverify.verifying.record import record
from support.blocks import block, run

pytestmark = pytest.mark.usefixtures("local_author")

RAISES = ' raises="ValueError: mal"'


def _page(changed: str) -> str:
    return (
        block("print(1)  # Expectativa: 1", "bien")
        + block(f"print({changed})  # Expectativa: {changed}", "cambia")
        + block("print(3)  # Expectativa: 3", "nueva")
        + block('print(4)  # Expectativa: 4\nraise ValueError("mal")', "falla", RAISES)
        + block("print(5)", "sola")
    )


def _check_tags(project: Project, executor: Executor) -> dict[str, tuple[str, str]]:
    """Each block's panel kind and the opening tag of its verification line."""
    shown = {}
    for key, outcome in run(project, executor).outcomes.items():
        markdown = panel.render_outcome(outcome)
        kind = re.match(r"!!! (\w+) dv-output", markdown)
        tag = re.search(r'<(?:details|p) class="dv-check"[^>]*>', markdown)
        assert kind and tag, markdown
        shown[key.split("/")[1]] = (kind.group(1), tag.group())
    return shown


def test_the_line_opens_on_a_failure_and_a_missing_recording_only(
    project: Project, executor: Executor
) -> None:
    project.page("a.md", _page("2"))
    cfg = project.config
    assert len(record(cfg, read_site(cfg), "cpu", executor).written) == 5
    (cfg.snippets_dir / "a" / "nueva.cpu.txt").unlink()
    project.page("a.md", _page("20"))
    assert _check_tags(project, executor) == {
        "bien": ("success", '<details class="dv-check">'),
        "cambia": ("failure", '<details class="dv-check" open>'),
        "nueva": ("warning", '<details class="dv-check" open>'),
        "falla": ("example", '<details class="dv-check">'),
        "sola": ("success", '<p class="dv-check">'),
    }


# The line's parts, worded exactly (mutation tests) --------------------------------------------


def _seen(source: SeenIn, **extra: str) -> Provenance:
    return Provenance("cpu", "2.13.0", "cpu", "2026-01-05", source, **extra)


def test_the_line_says_where_an_output_not_run_in_this_build_was_observed() -> None:
    assert panel._where(_seen(SeenIn.REPORT, run_url="https://ci/1")) == "en CI"
    assert panel._where(_seen(SeenIn.REPORT, shards="3")) == "comprobación local (3 partes)"
    assert panel._where(_seen(SeenIn.REPORT, run_url="https://ci/1", shards="1")) == "en CI"
    assert panel._where(_seen(SeenIn.CACHE)) == "caché local"
    assert panel._where(_seen(SeenIn.BUILD)) == ""
    assert panel._line(["CPU ✓", "GPU ✓"], _seen(SeenIn.CACHE)) == (
        'CPU ✓ · <span class="dv-provenance">torch 2.13.0 · 5 de enero de 2026 · caché local'
        "</span> · GPU ✓"
    )


def test_another_runners_provenance_names_its_device_policy_on_the_gpu_only() -> None:
    assert panel._provenance("cpu", None, "hoy", DEFAULT_CUDA) == (
        '<li class="dv-provenance">CPU · torch ? · hoy</li>'
    )
    assert panel._provenance("gpu", "2.13.0", "ayer", DEFAULT_CUDA) == (
        '<li class="dv-provenance">GPU · cuda por defecto · torch 2.13.0 · ayer</li>'
    )


def test_the_folded_details_are_the_error_then_each_expectation() -> None:
    expectations = [
        {"expected": "1", "observed": 2, "ok": False},
        {"expected": "x", "observed": "<x>", "ok": True},
    ]
    made = SimpleNamespace(result={"error": "a<b"}, expectations=expectations)
    assert panel._details(made) == [
        "<li><strong>Error:</strong> a&lt;b</li>",
        '<li class="dv-expectation">Esperado 1 · Observado <code>2</code> ✗</li>',
        '<li class="dv-expectation">Esperado x · Observado <code>&lt;x&gt;</code> ✓</li>',
    ]
    assert panel._details(SimpleNamespace(result={"error": None}, expectations=[])) == []


def test_only_a_passing_block_that_printed_nothing_anywhere_is_silent() -> None:
    quiet = SimpleNamespace(result=None, expectations=())
    assert panel._silent(quiet, [("cpu", "")], "success")
    assert panel._silent(quiet, [("cpu", "")], "info")
    assert not panel._silent(quiet, [("cpu", "")], "example")
    assert not panel._silent(quiet, [("cpu", ""), ("gpu", "1")], "success")
    assert not panel._silent(quiet, [], "success")
    failed = SimpleNamespace(result={"error": "tiempo agotado"}, expectations=())
    assert not panel._silent(failed, [("cpu", "")], "success")


def _judged(project: Project, output: str, extra: str = "", **result_fields: object) -> Outcome:
    """The outcome of one block recorded as "1", observed here printing `output`; `extra`: more
    options of the block, `result_fields`: more fields of its result."""
    project.page("a.md", block("print(1)", "b", extra))
    project.snippet("a/b.cpu.txt", "1\n")
    cfg = project.config
    result = {
        "output": output,
        "error": None,
        "exception": None,
        "traceback": "",
        "expectations": [],
        "duration": 0.1,
    } | result_fields
    seen = {"a/b": Observation(result, seen=_seen(SeenIn.BUILD))}
    return judge.verification(cfg, read_site(cfg), "cpu", seen).outcomes["a/b"]


def test_under_a_failed_block_its_panel_then_the_box_of_its_errors(project: Project) -> None:
    outcome = _judged(project, "2\n")
    [finding] = outcome.findings
    shown = panel.markdown(outcome)
    rendered = panel.render_outcome(outcome)
    assert shown.startswith(rendered)
    box = shown[len(rendered) :]
    assert box.startswith(
        '\n```dv-html\n<div class="admonition failure dv-problem" id="dv-problema-b">'
    )
    assert '<p class="admonition-title">Error en el bloque «b»</p>' in box
    assert html.escape(finding.message) in box


def test_a_block_without_errors_shows_no_box(project: Project) -> None:
    outcome = _judged(project, "1\n")
    assert not outcome.findings
    assert panel.markdown(outcome) == panel.render_outcome(outcome)
    info = dataclasses.replace(
        outcome.verdict,
        findings=(Finding(Kind.STOPPED_PROCESSES, "aviso", "docs/a.md", 1, "", Level.INFO),),
    )
    informed = dataclasses.replace(outcome, verdicts={**outcome.verdicts, "cpu": info})
    assert "dv-problem" not in panel.markdown(informed)


def test_the_check_line_folds_its_items_in_order() -> None:
    folded = panel._check("CPU ✓", "success", ["<li>a</li>", "<li>b</li>"])
    assert "<summary>CPU ✓</summary><ul><li>a</li><li>b</li></ul></details>" in folded


def test_a_block_for_one_runner_says_so_with_its_reason(project: Project) -> None:
    shown = panel.render_outcome(_judged(project, "1\n", ' runner="cpu" reason="a<b"'))
    assert '<p class="dv-only">Solo CPU: a&lt;b</p>' in shown
    shown = panel.render_outcome(_judged(project, "1\n", ' runner="cpu"'))
    assert '<p class="dv-only">Solo CPU: </p>' in shown


def test_an_expected_error_is_marked_as_such(project: Project) -> None:
    outcome = _judged(
        project,
        "1\n",
        ' raises="ValueError: mal"',
        exception="ValueError: mal",
        exception_type=["ValueError", "builtins.ValueError"],
        exception_message="mal",
    )
    shown = panel.render_outcome(outcome)
    assert shown.startswith("!!! example dv-output")
    assert "CPU: Error esperado ✓" in shown


def test_a_build_that_ran_nothing_shows_the_recording_as_not_run(project: Project) -> None:
    project.page("a.md", block("print(1)", "b"))
    project.snippet("a/b.cpu.txt", "1\n")
    cfg = project.config
    [made] = judge.verification(cfg, read_site(cfg), "cpu", None).outcomes.values()
    shown = panel.render_outcome(made)
    assert shown.startswith("!!! info dv-output")
    assert "Salida grabada, no ejecutada ahora" in shown
