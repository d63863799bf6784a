"""The blocks of «Informe de verificación» (output/report_blocks.py): facets, what is common, rows.

Outcomes and facets are built by hand; every expected line is written out here in the Spanish
the verification page shows.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from docverify.core import config as config_mod
from docverify.core.status import Status
from docverify.output import report_blocks
from docverify.output.report_blocks import NOW, RUNS, SLOT, Blocks, Facets
from docverify.parsing.pages import Block
from docverify.running.protocol import BlockResult
from docverify.verifying.outcome import (
    Outcome,
    Provenance,
    Reference,
    SeenIn,
    Verdict,
    Verification,
)
from docverify.verifying.recordings import Recording

OK = "coincide con su grabación ✓"
DIVERGES = "no coincide con su grabación ✗"


@pytest.fixture
def config(tmp_path: Path) -> config_mod.Config:
    return config_mod.Config(root=tmp_path, docs_dir=tmp_path / "docs", snippets_dir=tmp_path)


def block(name: str = "b", **options: str) -> Block:
    return Block("a.md", name, "print(1)\n", Path("a.md"), 3, 2, options=dict(options))


def item(name: str, problem: bool = False, **values: str) -> Facets:
    return Facets(block(name), dict(values), problem)


# --- most_common ---------------------------------------------------------------------------


def test_the_most_common_value_wins_even_when_met_last() -> None:
    described = [
        item("a", runs="CPU"),
        item("b", runs="CPU, GPU (cuda por defecto)"),
        item("c", runs="CPU, GPU (cuda por defecto)"),
    ]
    assert report_blocks.most_common(described) == {RUNS: "CPU, GPU (cuda por defecto)"}


def test_a_tie_gives_the_first_value_met_not_the_greatest() -> None:
    described = [item("a", runs="A"), item("b", runs="Z"), item("c", runs="Z"), item("d", runs="A")]
    assert report_blocks.most_common(described) == {RUNS: "A"}
    described = [item("a", runs="Z"), item("b", runs="A")]
    assert report_blocks.most_common(described) == {RUNS: "Z"}


def test_a_problem_verdict_is_never_the_common_one() -> None:
    described = [
        item("a", problem=True, now="CPU: falló ✗", runs="CPU"),
        item("b", problem=True, now="CPU: falló ✗", runs="CPU"),
        item("c", now=f"CPU: {OK}", runs="GPU"),
    ]
    assert report_blocks.most_common(described) == {RUNS: "CPU", NOW: f"CPU: {OK}"}
    assert report_blocks.most_common(described[:2]) == {RUNS: "CPU"}


# --- article, rows, problems ---------------------------------------------------------------


def blocks_of(config: config_mod.Config, shared: dict[str, str]) -> Blocks:
    described = [
        item("uno", runs="CPU", now=f"CPU: {OK}", **{"compares:cpu": "x"}),
        item("dos", runs="CPU", now=f"CPU: {OK}", **{"compares:cpu": "x"}),
        item("tres", runs="CPU", now=f"CPU: {OK}", **{"compares:cpu": f"{SLOT}cpu{SLOT}"}),
        item("cuatro", problem=True, runs="GPU", now=f"CPU: {DIVERGES}", **{"compares:cpu": "x"}),
    ]
    return Blocks(config, {"a.md": described}, shared)


def test_an_article_says_its_own_common_facets_its_alike_blocks_and_a_row_per_other(
    config: config_mod.Config,
) -> None:
    shared = {RUNS: "CPU, GPU (cuda por defecto)", NOW: f"CPU: {OK}", "compares:cpu": "x"}
    assert report_blocks.article(blocks_of(config, shared), "a.md") == [
        "**Bloques de código** (4)",
        '<div class="dv-report dv-report-comun" markdown>\n\n'
        "| Común en este artículo | Valor |\n|---|---|\n| Corre en | CPU |\n\n</div>",
        "Sin diferencias: `uno`, `dos`.",
        '<div class="dv-report dv-report-bloques" markdown>\n\n'
        "| Bloque | Lo que difiere de lo común |\n|---|---|\n"
        "| `tres` | CPU compara con: tres.cpu.txt |\n"
        f"| `cuatro` | Corre en: GPU · **Esta construcción: CPU: {DIVERGES}** |\n\n</div>",
    ]


def test_an_article_like_the_whole_site_has_no_table_of_its_own(
    config: config_mod.Config,
) -> None:
    shared = {RUNS: "CPU", NOW: f"CPU: {OK}", "compares:cpu": "x"}
    parts = report_blocks.article(blocks_of(config, shared), "a.md")
    assert parts[:2] == ["**Bloques de código** (4)", "Sin diferencias: `uno`, `dos`."]
    assert len(parts) == 3 and "dv-report-comun" not in parts[2]


def test_a_page_without_blocks_has_none(config: config_mod.Config) -> None:
    blocks = blocks_of(config, {RUNS: "CPU"})
    assert report_blocks.article(blocks, "otra.md") == ["**Bloques de código** (0)"]


def test_a_problem_only_bolds_the_verdict_and_a_plain_verdict_is_not_bold(
    config: config_mod.Config,
) -> None:
    problem = item("p", problem=True, runs="GPU", now=f"CPU: {DIVERGES}")
    assert report_blocks._row(config, problem, [RUNS]) == "| `p` | Corre en: GPU |"
    plain = item("q", now=f"CPU: {OK}")
    assert report_blocks._row(config, plain, [NOW]) == f"| `q` | Esta construcción: CPU: {OK} |"


def test_the_shared_list_writes_file_names_with_the_id_placeholder(
    config: config_mod.Config,
) -> None:
    shared = {RUNS: "CPU", "compares:gpu": f"{SLOT}cpu{SLOT} (la de CPU)"}
    assert report_blocks.shared_list(Blocks(config, {}, shared)) == (
        "- Corre en: CPU.\n- GPU compara con: `<id>.cpu.txt` (la de CPU)."
    )


def test_problems_name_each_block_with_its_page_and_files(config: config_mod.Config) -> None:
    described = [
        item("bien", now=f"CPU: {OK}"),
        item("mal", problem=True, now=f"CPU: {DIVERGES} ({SLOT}gpu{SLOT})"),
    ]
    blocks = Blocks(config, {"a.md": described}, {})
    assert report_blocks.problems(blocks, {"a.md": "Título"}) == [
        '!!! failure "Bloques con problemas en esta construcción: 1"\n\n'
        f"    - [Título](a.md), `mal`: CPU: {DIVERGES} (mal.gpu.txt)"
    ]
    assert report_blocks.problems(Blocks(config, {"a.md": described[:1]}, {}), {}) == []


# --- facets and this build's verdicts ------------------------------------------------------


def result() -> BlockResult:
    return BlockResult(
        output="1\n", error=None, exception=None, traceback="", expectations=[], duration=0.1
    )


def seen(runner: str, source: SeenIn, run_url: str = "") -> Provenance:
    return Provenance(runner, "2.13.0", "cpu", "2026-01-05", source, run_url)


def verdict(runner: str, status: Status, provenance: Provenance | None = None) -> Verdict:
    reference = Reference("cpu", "b.cpu.txt", "cpu")
    return Verdict(runner, status, reference, result=result(), provenance=provenance)


def outcome_of(runner: str, verdicts: dict[str, Verdict], **recorded: str) -> Outcome:
    records = {
        r: Recording(Path(f"b.{r}.txt"), r, {"date": date}, "1\n") for r, date in recorded.items()
    }
    return Outcome(block(), runner, records, verdicts)


def now(runner: str, outcome: Outcome) -> str:
    verification = Verification(runner, {}, [], {outcome.block.key: outcome}, [])
    return report_blocks._now(verification, outcome)


@pytest.mark.parametrize(
    ("source", "run_url", "expected"),
    [
        (SeenIn.BUILD, "", f"CPU: {OK}"),
        (SeenIn.CACHE, "https://ci/1", f"CPU: {OK}"),
        (SeenIn.REPORT, "https://ci/1", f"CPU (ejecución de CI): {OK}"),
        (SeenIn.REPORT, "", f"CPU (informe local): {OK}"),
    ],
)
def test_this_builds_verdict_says_where_it_was_observed(
    source: SeenIn, run_url: str, expected: str
) -> None:
    outcome = outcome_of("cpu", {"cpu": verdict("cpu", Status.OK, seen("cpu", source, run_url))})
    assert now("cpu", outcome) == expected


@pytest.mark.parametrize(
    ("run_url", "origin"), [("https://ci/1", "ejecución de CI"), ("", "informe local")]
)
def test_the_gpu_report_verdict_follows_the_builds(run_url: str, origin: str) -> None:
    gpu = verdict("gpu", Status.DIVERGE, seen("gpu", SeenIn.REPORT, run_url))
    cpu = verdict("cpu", Status.OK, seen("cpu", SeenIn.BUILD))
    outcome = outcome_of("cpu", {"cpu": cpu, "gpu": gpu})
    assert now("cpu", outcome) == f"CPU: {OK}; GPU ({origin}): {DIVERGES}"


def test_a_runner_without_a_label_is_named_as_it_is() -> None:
    outcome = outcome_of("tpu", {"tpu": verdict("tpu", Status.MISSING)})
    assert now("tpu", outcome) == "tpu: sin grabación"


def test_facets_of_a_block_on_both_runners(config: config_mod.Config) -> None:
    cpu = verdict("cpu", Status.OK, seen("cpu", SeenIn.BUILD))
    gpu = Verdict("gpu", Status.NOT_RUN, Reference(None, "b.cpu.txt (la de CPU)", "cpu", "cpu"))
    outcome = outcome_of("cpu", {"cpu": cpu, "gpu": gpu}, cpu="2026-01-05")
    verification = Verification("cpu", {}, [], {outcome.block.key: outcome}, [])
    found = report_blocks.facets(config, verification, outcome)
    assert found.values == {
        RUNS: "CPU, GPU (cuda por defecto)",
        "recorded:cpu": "5 de enero de 2026",
        "recorded:gpu": "sin grabación propia",
        "compares:cpu": f"{SLOT}cpu{SLOT}",
        "compares:gpu": f"{SLOT}cpu{SLOT} (la de CPU)",
        NOW: f"CPU: {OK}",
    }
    assert not found.problem


def test_a_problem_seen_only_by_the_gpu_report_is_a_problem(config: config_mod.Config) -> None:
    cpu = verdict("cpu", Status.OK, seen("cpu", SeenIn.BUILD))
    gpu = verdict("gpu", Status.DIVERGE, seen("gpu", SeenIn.REPORT, "https://ci/1"))
    outcome = outcome_of("cpu", {"cpu": cpu, "gpu": gpu})
    verification = Verification("cpu", {}, [], {outcome.block.key: outcome}, [])
    assert report_blocks.facets(config, verification, outcome).problem
