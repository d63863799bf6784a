"""DOCS_SHARDS: .ci/shards.py gives the cpu and gpu jobs their matrix, and the rules hold the
sharded jobs: one job per shard, none cancelled by another, each checking its own shard and
uploading its report under its own name, the test suite once per run, shards of one run never
queued behind each other."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support import workflow_rules as rules
from support.workflow_run import run_ci_script

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / ".ci" / "shards.py"
WORKFLOWS = ROOT / ".github" / "workflows"


def run(tmp_path: Path, value: str | None) -> tuple[int, str, dict[str, str]]:
    variables = {} if value is None else {rules.SHARDS_VARIABLE: value}
    return run_ci_script(SCRIPT, variables, tmp_path / "output")


@pytest.mark.parametrize(
    ("value", "total"),
    [(None, 1), ("", 1), (" \n", 1), ("1", 1), ("4", 4), (" 16\n", 16), ("04", 4)],
)
def test_the_number_of_shards_and_their_matrix(
    tmp_path: Path, value: str | None, total: int
) -> None:
    code, log, written = run(tmp_path, value)
    assert code == 0, log
    assert written["total"] == str(total)
    assert json.loads(written["shards"]) == list(range(1, total + 1))
    assert "\n" not in written["shards"] and " " not in written["shards"]


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("0", "fuera del intervalo de 1 a 16"),
        ("17", "fuera del intervalo de 1 a 16"),
        ("-2", "no es un número entero sin signo"),
        ("2.0", "no es un número entero sin signo"),
        ("dos", "no es un número entero sin signo"),
        ("[2]", "no es un número entero sin signo"),
        ("1e1", "no es un número entero sin signo"),
    ],
)
def test_a_malformed_value_fails_with_a_clear_message(
    tmp_path: Path, value: str, says: str
) -> None:
    code, log, written = run(tmp_path, value)
    assert code == 1
    assert f"::error title={rules.SHARDS_VARIABLE} mal formada::" in log, log
    assert says in log, log
    assert "un entero de 1 a 16" in log and "Settings → Secrets and variables" in log
    assert written == {}  # no output: the cpu and gpu jobs read nothing


def test_without_github_output_it_says_so(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT)], env={}, capture_output=True, text=True, check=False
    )
    assert done.returncode == 1
    assert "GITHUB_OUTPUT" in done.stdout


# --- the rules of a sharded job ------------------------------------------------------------------


def text(name: str = "docs.yml") -> str:
    return (WORKFLOWS / name).read_text(encoding="utf-8")


def mutate(old: str, new: str, count: int = 1) -> str:
    original = text()
    assert original.count(old) >= count, f"la mutación no aplica: «{old.strip()}»"
    return original.replace(old, new, count)


def broken(workflow: str) -> set[str]:
    return {p.rule for p in rules.check(workflow, "docs.yml")}


TESTS_IF = (
    "        if: ${{ !cancelled() && steps.install.outcome == 'success' && matrix.shard == 1 }}\n"
    "        run: python3 tasks.py test\n"
)
MUTATIONS = [
    # (id, old, new, how many occurrences, rule expected to break)
    ("una-parte-cancela-las-demas", "  fail-fast: false\n", "  fail-fast: true\n", 1, "partes"),
    ("sin-fail-fast", "      fail-fast: false\n", "", 2, "partes"),
    ("todas-verifican-la-misma", '--shard "$SHARD/$TOTAL"', '--shard "1/$TOTAL"', 1, "partes"),
    ("total-fijo", '--shard "$SHARD/$TOTAL"', '--shard "$SHARD/2"', 1, "partes"),
    ("sin-repartir", ' --shard "$SHARD/$TOTAL"', "", 1, "partes"),
    (
        "informes-con-el-mismo-nombre",
        "name: docverify-gpu-${{ matrix.shard }}",
        "name: docverify-gpu",
        1,
        "partes",
    ),
    (
        "pruebas-en-cada-parte",
        TESTS_IF,
        TESTS_IF.replace(" && matrix.shard == 1", ""),
        1,
        "partes",
    ),
    (
        "matriz-fija",
        "shard: ${{ fromJSON(needs.partes.outputs.shards) }}",
        "shard: [1, 2]",
        1,
        "partes",
    ),
    (
        "partes-sin-la-variable",
        "DOCS_SHARDS: ${{ vars.DOCS_SHARDS }}",
        'DOCS_SHARDS: "2"',
        1,
        "partes",
    ),
    (
        "partes-sin-salida",
        "      total: ${{ steps.shards.outputs.total }}\n",
        "",
        1,
        "partes",
    ),
    # The shards of one run never share a concurrency group.
    (
        "partes-gpu-en-cola",
        "group: docs-gpu-${{ github.ref }}-${{ matrix.shard }}",
        "group: docs-gpu-${{ github.ref }}",
        1,
        "cola",
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "count", "rule"), [m[1:] for m in MUTATIONS], ids=[m[0] for m in MUTATIONS]
)
def test_a_broken_shard_rule_is_reported(old: str, new: str, count: int, rule: str) -> None:
    assert rule not in broken(text())
    assert rule in broken(mutate(old, new, count))


def test_the_rules_see_both_sharded_jobs() -> None:
    jobs = rules.load(text())["jobs"]
    sharded = [n for n, j in jobs.items() if rules.matrix(j)]
    assert sharded == ["cpu", "gpu"]
    for name in sharded:
        assert rules.needs(jobs[name])[-1] == rules.SHARDS_JOB
        assert not rules._shard_problems("docs.yml", name, jobs)
    assert not rules._shards_config_problems("docs.yml", rules.SHARDS_JOB, jobs[rules.SHARDS_JOB])
