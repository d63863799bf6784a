"""mutation.yml: every shard of the engine once a week, each held to the recorded scores (the
ratchet) with its new survivors in the summary, and the shards' scores joined into one file."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest
from support import workflow_rules as rules
from support.tools import load

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github" / "workflows" / "mutation.yml"
mutation = load("mutation")


def problems(text: str) -> list[str]:
    """What keeps mutation.yml from measuring the whole engine against the ratchet."""
    doc = rules.load(text)
    found = []
    if "schedule" not in rules.events(doc):
        found.append("no corre cada semana (schedule)")
    jobs: dict[str, Any] = doc["jobs"]
    shards = [j for j in jobs.values() if "tasks.py mutate" in "\n".join(rules.runs(j))]
    if len(shards) != 1:
        return [*found, f"{len(shards)} trabajos ejecutan tasks.py mutate; debe ser uno"]
    job = shards[0]
    total = int(job["env"]["SHARDS"])
    if rules.matrix(job).get("shard") != list(range(1, total + 1)):
        found.append(f"la matriz no es cada parte de 1 a {total}, una vez")
    if (job.get("strategy") or {}).get("fail-fast") is not False:
        found.append("una parte que baja no debe cancelar las demás (fail-fast: false)")
    [step] = [s for s in job["steps"] if "tasks.py mutate" in str(s.get("run", ""))]
    args = shlex.split(step["run"].split("tasks.py mutate", 1)[1].split("|")[0].replace("\\\n", ""))
    wanted = {
        "--shard": "$SHARD/$SHARDS",
        "--ratchet": ".ci/mutation-scores.json",
        "--summary": "$GITHUB_STEP_SUMMARY",
    }
    for option, value in wanted.items():
        if option not in args or args[args.index(option) + 1] != value:
            found.append(f"tasks.py mutate sin {option} {value}")
    if step.get("shell") != "bash":
        found.append("sin shell: bash, el | tee esconde el código de salida (sin pipefail)")
    record = args[args.index("--record") + 1] if "--record" in args else ""
    merges = [
        s for j in jobs.values() for s in j.get("steps", []) if "--merge" in str(s.get("run", ""))
    ]
    pattern = record.replace("test-artifacts/", "partes/").replace("$SHARD", "*")
    if not record or not any(pattern in s["run"] for s in merges):
        found.append("las puntuaciones de cada parte no se unen (--record y --merge)")
    return found


def test_the_weekly_job_measures_every_shard_against_the_ratchet() -> None:
    assert problems(WORKFLOW.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("15, 16, 17, 18, 19, 20", "15, 16, 18, 19, 20"),
        ('SHARDS: "24"', 'SHARDS: "25"'),
        ("      fail-fast: false\n", ""),
        (" --ratchet .ci/mutation-scores.json", ""),
        ('--summary "$GITHUB_STEP_SUMMARY"', '--summary "test-artifacts/resumen.md"'),
        ('--shard "$SHARD/$SHARDS"', '--shard "1/$SHARDS"'),
        ("        shell: bash\n", ""),
        ("partes/mutation-scores-*.json", "partes/*.json.bak"),
        ('  schedule:\n    - cron: "23 1 * * 6"', '  pull_request:\n    - cron: "23 1 * * 6"'),
    ],
)
def test_the_check_sees_each_gap(old: str, new: str) -> None:
    text = WORKFLOW.read_text(encoding="utf-8")
    assert old in text, old
    assert problems(text.replace(old, new, 1))


def test_the_recorded_scores_are_a_ratchet_the_tool_reads() -> None:
    scores = mutation.load_scores(ROOT / ".ci" / "mutation-scores.json")
    assert scores["modules"], "ningún módulo registrado"
    for module, entry in scores["modules"].items():
        assert module.startswith(f"{mutation.ENGINE}/") and module.endswith(".py"), module
        assert 0 <= entry["killed"] <= entry["mutants"], module
        assert len(entry["survivors"]) == entry["mutants"] - entry["killed"], module
