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
from docverify.core.status import Status
from docverify.parsing.pages import read_site
from docverify.report import report_folder, report_json
from docverify.running.executor import Executor
from docverify.verifying import judge
from docverify.verifying.cache import Cache
from docverify.verifying.outcome import Observation
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
