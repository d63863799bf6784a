"""The torch canary in weekly.yml: which torch it runs, its issue (opened, updated, closed), and the
rules that hold its jobs.

The version step's script runs as GitHub runs it (`bash -e`) with a stand-in for the virtual
environment's python that answers `pip index versions torch` as an index would; the pin is the
real one, read by tasks.py from pyproject.toml. The issue's github-script runs in node with a
stand-in GitHub, over canary reports written by the real engine (support/canary.py) for a small
project where one block's output changes, one fails and one warns.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import Project
from docverify.parsing.pages import read_site
from docverify.running.executor import Executor
from docverify.verifying.record import record
from support import browser as bs
from support import github_script as gs
from support import workflow_rules as rules
from support.blocks import block
from support.canary import pinned_torch, report_here
from support.workflow_run import run_with_outputs

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"
CPU_INDEX = rules.TORCH_CPU_INDEX


def weekly() -> dict[str, Any]:
    return rules.load((WORKFLOWS / "weekly.yml").read_text(encoding="utf-8"))["jobs"]


def step(job: str, step_id: str) -> dict[str, Any]:
    [found] = [s for s in weekly()[job]["steps"] if s.get("id") == step_id]
    return found


pinned = pinned_torch


def newer(version: str) -> str:
    major, minor, *_ = version.split(".")
    return f"{major}.{int(minor) + 1}.0"


# --- the newest torch, against the pin -----------------------------------------------------------


def run_version(
    tmp_path: Path, listing: str, *, index: str | None, pip_fails: bool = False, job: str = "canary"
) -> tuple[int, str, dict[str, str], list[str]]:
    """Run the version step of `job` in a copy of the project's tasks.py and pyproject.toml,
    with a .venv/bin/python whose pip lists `listing`; (exit code, log, outputs, pip's args)."""
    work = tmp_path / "work"
    (work / ".venv" / "bin").mkdir(parents=True)
    for name in ("tasks.py", "pyproject.toml"):
        shutil.copy(ROOT / name, work / name)
    (work / "listing.txt").write_text(listing, encoding="utf-8")
    python = work / ".venv" / "bin" / "python"
    python.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = "-m" ] && [ "$2" = "pip" ]; then\n'
        '  printf "%s\\n" "$*" >> pip-args.txt\n'
        f"  {'exit 1' if pip_fails else 'cat listing.txt'}\n"
        "  exit 0\n"
        "fi\n"
        f'exec {sys.executable} "$@"\n',
        encoding="utf-8",
    )
    python.chmod(0o755)
    env = {} if index is None else {"DOCS_TORCH_INDEX": index}
    code, log, outputs = run_with_outputs(
        [shutil.which("bash") or "/bin/bash", "-e", "-c", str(step(job, "version")["run"])],
        env,
        tmp_path / "output",
        cwd=work,
    )
    args = (work / "pip-args.txt").read_text(encoding="utf-8").splitlines()
    return code, log, outputs, args


def test_both_canary_jobs_ask_for_the_version_the_same_way() -> None:
    assert step("canary", "version") == step("canary-gpu", "version")


@pytest.mark.parametrize(("index", "local"), [(CPU_INDEX, "+cpu"), (None, "")], ids=["cpu", "pypi"])
def test_a_newer_torch_is_the_canarys(tmp_path: Path, index: str | None, local: str) -> None:
    version = newer(pinned())
    listing = f"torch ({version}{local})\nAvailable versions: {version}{local}, {pinned()}{local}\n"
    code, log, outputs, args = run_version(tmp_path, listing, index=index)
    assert code == 0, log
    assert outputs == {"torch": version, "ran": "true"}
    assert [("--index-url" in a, index is not None and index in a) for a in args] == [
        (index is not None, index is not None)
    ]


def test_the_pinned_torch_runs_no_canary(tmp_path: Path) -> None:
    listing = f"torch ({pinned()}+cpu)\nAvailable versions: {pinned()}+cpu\n"
    code, log, outputs, _ = run_version(tmp_path, listing, index=CPU_INDEX)
    assert code == 0, log
    assert outputs == {"torch": pinned(), "ran": "false"}
    assert "::notice title=Sin canario esta semana::" in log


@pytest.mark.parametrize("fails", [False, True], ids=["sin-versiones", "pip-falla"])
def test_no_version_is_an_error(tmp_path: Path, fails: bool) -> None:
    code, log, outputs, _ = run_version(tmp_path, "", index=CPU_INDEX, pip_fails=fails)
    assert code == 1
    assert "::error title=Canario sin versión de torch::" in log, log
    assert "ran" not in outputs


# --- the issue ----------------------------------------------------------------------------------

HARNESS = gs.HARNESS
RUN_URL = "https://github.com/duena/curso/actions/runs/1234"
MARKER = "<!-- docverify-canary -->"
BOT = {"login": "github-actions[bot]"}


def _page(project: Project, data: Path, other: Path) -> None:
    cambia = (
        "import warnings\n"
        f"texto = open({str(data)!r}).read()\n"
        "if texto == 'nueva':\n"
        "    warnings.warn('aviso de la versión nueva', FutureWarning)\n"
        "print(texto)"
    )
    project.page(
        "a.md",
        "# A\n\n"
        + block("print(1)", "igual")
        + block(cambia, "cambia")
        + block(f"print(open({str(other)!r}).read())", "falla"),
    )


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory, executor: Executor) -> dict[str, Path]:
    """Real canary reports of a small project: «cambia» (another output and a new warning) and
    «falla» (an error) under the canary's world; nothing in the same world as the recordings."""
    base = tmp_path_factory.mktemp("canario")
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("CI", raising=False)
        project = Project(base / "proj")
        data, other = base / "dato.txt", base / "otro.txt"
        data.write_text("vieja", encoding="utf-8")
        other.write_text("presente", encoding="utf-8")
        _page(project, data, other)
        cfg = project.config
        assert len(record(cfg, read_site(cfg), "cpu", executor).written) == 3
        same = report_here(cfg, executor, base / "igual")
        assert same["counts"]["changed"] == same["counts"]["warnings"] == 0
        data.write_text("nueva", encoding="utf-8")
        other.unlink()
        changed = report_here(cfg, executor, base / "cambia")
        assert changed["changed"] == {"a/cambia": "diverge", "a/falla": "error"}
        assert set(changed["warnings"]) == {"a/cambia"}
    return {"changed": base / "cambia", "same": base / "igual"}


def job(result: str, **outputs: str) -> dict[str, Any]:
    return {"result": result, "outputs": outputs}


RAN = job("success", ran="true", torch="9.9.9")
PINNED = job("success", ran="false", torch="9.9.9")
SKIPPED = job("skipped")


def file_issue(
    tmp_path: Path,
    cpu: dict[str, Any],
    gpu: dict[str, Any],
    folders: dict[str, Path],
    open_issues: list[dict[str, Any]] | None = None,
    pre: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """Run the issue job's script in a folder holding the downloaded artifacts `folders`
    (artifact name → report folder), as its download steps leave them."""
    node = shutil.which("node")
    if node is None:
        if bs.in_ci():
            pytest.fail("falta node (lo instala .ci/run con npm)")
        pytest.skip("sin node")
    work = tmp_path / "work"
    work.mkdir(parents=True)
    for name, folder in folders.items():
        shutil.copytree(folder, work / name)
    [script_step] = [s for s in weekly()["canary-issue"]["steps"] if "script" in s.get("with", {})]
    done = subprocess.run(
        [node, "-e", HARNESS.replace("SCRIPT", script_step["with"]["script"])],
        cwd=work,
        env={
            "CANARY": json.dumps(cpu),
            "CANARY_GPU": json.dumps(gpu),
            **({"CANARY_PRE": json.dumps(pre)} if pre is not None else {}),
            "OPEN_ISSUES": json.dumps(open_issues or []),
            "PATH": os.environ.get("PATH", ""),
        },
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def canary(folder: Path) -> dict[str, Any]:
    return json.loads((folder / "report.json").read_text(encoding="utf-8"))["canary"]


def mine(number: int, title: str = "torch 0.0.1 cambiaría 3 bloques") -> dict[str, Any]:
    return {"number": number, "title": title, "user": BOT, "body": f"{MARKER}\nantes"}


@pytest.fixture
def others() -> Iterator[list[dict[str, Any]]]:
    """Open issues that are not the canary's: a person's with its title and even the marker, the
    weekly failure issue by the bot, a pull request with the marker."""
    yield [
        {
            "number": 3,
            "title": "torch 0.0.1 cambiaría 3 bloques",
            "user": {"login": "ana"},
            "body": MARKER,
        },
        {"number": 4, "title": "Verificación semanal fallida", "user": BOT, "body": "fallo"},
        {"number": 5, "title": "x", "user": BOT, "body": MARKER, "pull_request": {}},
    ]


def test_changes_open_one_issue_with_the_marker(
    tmp_path: Path, reports: dict[str, Path], others: list[dict[str, Any]]
) -> None:
    calls = file_issue(tmp_path, RAN, SKIPPED, {"docverify-canary": reports["changed"]}, others)
    assert len(calls) == 1 and "create" in calls[0], calls  # no other issue touched
    created = calls[0]["create"]
    assert created["title"] == canary(reports["changed"])["headline"]
    assert created["body"].startswith(MARKER)
    assert RUN_URL in created["body"]
    summary = (reports["changed"] / "resumen.md").read_text(encoding="utf-8")
    assert summary.strip() in created["body"]
    assert created["labels"] == ["canario-torch"]


def test_the_open_issue_is_updated_never_another_opened(
    tmp_path: Path, reports: dict[str, Path], others: list[dict[str, Any]]
) -> None:
    calls = file_issue(
        tmp_path, RAN, SKIPPED, {"docverify-canary": reports["changed"]}, [*others, mine(9)]
    )
    updates = [c["update"] for c in calls if "update" in c]
    assert [u["issue_number"] for u in updates] == [9]
    assert updates[0]["title"] == canary(reports["changed"])["headline"]
    assert updates[0]["body"].startswith(MARKER) and "state" not in updates[0]
    assert not any("create" in c for c in calls)
    comments = [c["comment"] for c in calls if "comment" in c]
    assert [c["issue_number"] for c in comments] == [9]  # the title changed: say so once
    same_title = mine(9, canary(reports["changed"])["headline"])
    calls = file_issue(
        tmp_path / "otra", RAN, SKIPPED, {"docverify-canary": reports["changed"]}, [same_title]
    )
    assert [next(iter(c)) for c in calls] == ["update"]


def test_a_warning_alone_keeps_the_issue_open(tmp_path: Path, reports: dict[str, Path]) -> None:
    """A report whose only change is a new warning (counts.changed 0): still worth an issue."""
    folder = tmp_path / "solo-avisos"
    shutil.copytree(reports["changed"], folder)
    data = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    data["canary"]["changed"] = {}
    data["canary"]["counts"]["changed"] = 0
    assert data["canary"]["counts"]["warnings"] > 0
    (folder / "report.json").write_text(json.dumps(data), encoding="utf-8")
    calls = file_issue(tmp_path, RAN, SKIPPED, {"docverify-canary": folder})
    assert [next(iter(c)) for c in calls] == ["create"]


@pytest.mark.parametrize("open_one", [True, False], ids=["abierta", "ninguna"])
def test_nothing_changes_closes_the_issue(
    tmp_path: Path, reports: dict[str, Path], open_one: bool
) -> None:
    calls = file_issue(
        tmp_path, RAN, SKIPPED, {"docverify-canary": reports["same"]}, [mine(9)] if open_one else []
    )
    if not open_one:
        assert calls == []  # nothing to open, nothing to close
        return
    assert [next(iter(c)) for c in calls] == ["comment", "update"]
    assert calls[0]["comment"]["issue_number"] == 9
    assert canary(reports["same"])["headline"] in calls[0]["comment"]["body"]
    assert RUN_URL in calls[0]["comment"]["body"]
    assert calls[1]["update"] == {
        "owner": "duena",
        "repo": "curso",
        "issue_number": 9,
        "state": "closed",
        "state_reason": "completed",
    }


def test_the_pinned_torch_closes_the_issue(tmp_path: Path) -> None:
    calls = file_issue(tmp_path, PINNED, SKIPPED, {}, [mine(9)])
    assert [next(iter(c)) for c in calls] == ["comment", "update"]
    assert "9.9.9" in calls[0]["comment"]["body"] and "fijada" in calls[0]["comment"]["body"]
    assert calls[1]["update"]["state"] == "closed"


def test_the_gpu_canary_joins_the_issue(tmp_path: Path, reports: dict[str, Path]) -> None:
    """The gpu report here is the same real CPU run, standing for the GPU runner's."""
    calls = file_issue(
        tmp_path,
        RAN,
        RAN,
        {"docverify-canary": reports["same"], "docverify-canary-gpu": reports["changed"]},
    )
    created = calls[0]["create"]
    headlines = canary(reports["same"])["headline"], canary(reports["changed"])["headline"]
    assert created["title"] == f"{headlines[0]} · GPU: {headlines[1]}"
    assert "## CPU" in created["body"] and "## GPU" in created["body"]


@pytest.mark.parametrize("ending", ["failure", "cancelled"])
def test_an_unfinished_gpu_canary_is_said(
    tmp_path: Path, reports: dict[str, Path], ending: str
) -> None:
    calls = file_issue(tmp_path, RAN, job(ending), {"docverify-canary": reports["changed"]})
    body = calls[0]["create"]["body"]
    assert f"El canario en GPU no terminó ({ending})" in body


def test_a_long_summary_is_cut_below_the_limit(tmp_path: Path, reports: dict[str, Path]) -> None:
    """GitHub refuses a body over 65,536 characters: cut at a line, the fence the cut leaves
    open closed, and where the rest is said."""
    folder = tmp_path / "largo"
    shutil.copytree(reports["changed"], folder)
    summary = folder / "resumen.md"
    long_diff = "\n".join(f"+línea {n} {'x' * 60}" for n in range(2000))
    summary.write_text(
        summary.read_text(encoding="utf-8") + f"\n````diff\n{long_diff}\n````\n\nfinal\n",
        encoding="utf-8",
    )
    calls = file_issue(tmp_path, RAN, SKIPPED, {"docverify-canary": folder})
    body = calls[0]["create"]["body"]
    assert len(body) <= 65536
    assert body.startswith(MARKER) and "recortado" in body and RUN_URL in body
    fences = [line for line in body.split("\n") if re.match(r"^`{3,}", line)]
    assert len(fences) % 2 == 0, fences[-3:]  # every fence opened is closed
    assert "final" not in body.split("recortado")[0][-200:]


def test_a_report_without_the_canary_section_fails(
    tmp_path: Path, reports: dict[str, Path]
) -> None:
    folder = tmp_path / "otro"
    shutil.copytree(reports["changed"], folder)
    data = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    del data["canary"]
    (folder / "report.json").write_text(json.dumps(data), encoding="utf-8")
    node = shutil.which("node")
    if node is None:
        pytest.skip("sin node")
    with pytest.raises(AssertionError, match="no trae la sección «canary»"):
        file_issue(tmp_path, RAN, SKIPPED, {"docverify-canary": folder}, [mine(9)])


# --- the rules of the canary's jobs --------------------------------------------------------------


def text() -> str:
    return (WORKFLOWS / "weekly.yml").read_text(encoding="utf-8")


def mutate(old: str, new: str, occurrence: int = 1) -> str:
    """weekly.yml with the `occurrence`-th `old` replaced; void unless it is there."""
    original = text()
    parts = original.split(old)
    assert len(parts) > occurrence, f"la mutación no aplica: «{old.strip()}» ({occurrence})"
    return old.join(parts[:occurrence]) + new + old.join(parts[occurrence:])


def broken(workflow: str) -> set[str]:
    return {p.rule for p in rules.check(workflow, "weekly.yml")}


CACHES = '          echo "XDG_CACHE_HOME=$RUNNER_TEMP/cache" >> "$GITHUB_ENV"\n'
NO_PIP_CACHE = '      PIP_NO_CACHE_DIR: "1"\n'
CANARY_ISSUE_IF = "${{ always() && needs.canary.result == 'success'\n"
ISSUE_PERMISSIONS = "      issues: write # open, update or close the canary's issue\n"
DEFAULT_BRANCH = (
    "\n      && (github.event_name == 'schedule'\n"
    "      || github.ref == format('refs/heads/{0}', github.event.repository.default_branch))"
)
MUTATIONS = [
    # (id, old, new, occurrence, rule expected to break)
    # The gpu canary: the GPU job's rules, whatever its name.
    # gpu, canary, canary-pre, canary-gpu
    ("canario-gpu-con-cache-pip", NO_PIP_CACHE, "", 4, "cache"),
    ("canario-gpu-cache-xdg-en-home", CACHES, CACHES.replace("$RUNNER_TEMP", "$HOME"), 2, "cache"),
    (
        "canario-gpu-etiquetas-fijas",
        "    runs-on: ${{ fromJSON(needs.config.outputs.runs-on) }}\n",
        "    runs-on: [self-hosted, linux, x64, gpu]\n",
        2,
        "runner-gpu",
    ),
    (
        "canario-gpu-sin-interruptor",
        "    if: needs.config.outputs.gpu == 'true'\n",
        "",
        2,
        "runner-gpu",
    ),
    (
        "canario-gpu-en-pull-request",
        "  workflow_dispatch:\n",
        "  workflow_dispatch:\n  pull_request:\n",
        1,
        "puerta-fork",
    ),
    # The cpu canary takes torch's CPU wheels.
    (
        "canario-cpu-de-pypi",
        "      DOCS_TORCH_INDEX: https://download.pytorch.org/whl/cpu\n      PIP_NO_CACHE_DIR",
        "      PIP_NO_CACHE_DIR",
        1,
        "torch",
    ),
    # The canary's issue: after the cpu canary ran, whatever the gpu canary did, from the default
    # branch, with no other permission and no code.
    (
        "incidencia-aunque-el-canario-falle",
        CANARY_ISSUE_IF,
        "${{ always()\n",
        1,
        "incidencia-canario",
    ),
    (
        "incidencia-sin-always",
        CANARY_ISSUE_IF,
        "${{ needs.canary.result == 'success'\n",
        1,
        "incidencia-canario",
    ),
    (
        "incidencia-con-otro-permiso",
        ISSUE_PERMISSIONS,
        ISSUE_PERMISSIONS + "      contents: read\n",
        1,
        "permisos",
    ),
    ("incidencia-del-canario-en-cualquier-rama", DEFAULT_BRANCH, "", 2, "rama-por-defecto"),
    (
        "incidencia-ejecuta-codigo",
        "      - name: Abrir, actualizar o cerrar la incidencia del canario\n",
        "      - name: Leer\n        run: cat docverify-canary/resumen.md\n"
        "      - name: Abrir, actualizar o cerrar la incidencia del canario\n",
        1,
        "permisos",
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "occurrence", "rule"),
    [m[1:] for m in MUTATIONS],
    ids=[m[0] for m in MUTATIONS],
)
def test_a_broken_canary_rule_is_reported(old: str, new: str, occurrence: int, rule: str) -> None:
    assert rule not in broken(text())
    assert rule in broken(mutate(old, new, occurrence))


def test_the_pre_release_canary_joins_the_issue(tmp_path: Path, reports: dict[str, Path]) -> None:
    """DOCS_CANARY_PRERELEASE's canary: its report beside the cpu one, or a line when it did not
    finish; unset (no CANARY_PRE, as a skipped job), the issue is the cpu canary's alone."""
    folders = {"docverify-canary": reports["changed"], "docverify-canary-pre": reports["changed"]}
    [call] = file_issue(tmp_path / "a", RAN, SKIPPED, folders, pre=RAN)
    headline = canary(reports["changed"])["headline"]
    assert call["create"]["title"] == f"{headline} · Versión preliminar: {headline}"
    assert "## Versión preliminar" in call["create"]["body"]
    [call] = file_issue(tmp_path / "b", RAN, SKIPPED, folders, pre=job("failure"))
    assert call["create"]["title"] == headline
    assert "El canario de la versión preliminar no terminó (failure)" in call["create"]["body"]
    [call] = file_issue(tmp_path / "c", RAN, SKIPPED, {"docverify-canary": reports["changed"]})
    assert call["create"]["title"] == headline and "preliminar" not in call["create"]["body"]
