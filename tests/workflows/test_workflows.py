"""The GitHub workflows, checked offline: schema, zizmor and our invariants, each able to fail."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from support import workflow_rules as rules

ROOT = Path(__file__).resolve().parents[2]
GITHUB = ROOT / ".github"
WORKFLOWS = GITHUB / "workflows"
BIN = Path(sys.executable).parent
# Any attempt to reach the network goes to a closed local port and fails: the tools must work
# from what is installed (check-jsonschema's vendored schemas, zizmor's offline audits).
OFFLINE = {
    "HTTP_PROXY": "http://127.0.0.1:9",
    "HTTPS_PROXY": "http://127.0.0.1:9",
    "http_proxy": "http://127.0.0.1:9",
    "https_proxy": "http://127.0.0.1:9",
    "ALL_PROXY": "http://127.0.0.1:9",
    "NO_PROXY": "",
    "no_proxy": "",
    "ZIZMOR_OFFLINE": "true",
}
# The fork gate of the gpu job, the second line of its if: (the first: a GPU runner is configured).
GATE = (
    "\n      && (github.event_name == 'push' || github.event_name == 'workflow_dispatch'\n"
    "      || github.event.pull_request.head.repo.full_name == github.repository)\n"
)
GPU_RUNS_ON = "    runs-on: ${{ fromJSON(needs.config.outputs.runs-on) }}\n"
NOTICES_IF = (
    "    if: >-\n      ${{ always()\n"
    "      && (needs.freshness.outputs.sources-issue != '' "
    "|| needs.links.outputs.links-issue != ''\n"
    "      || needs.origins.outputs.origins-issue != '')\n"
    "      && (github.event_name == 'schedule'\n"
    "      || github.ref == format('refs/heads/{0}', github.event.repository.default_branch)) }}\n"
)
WEEKLY_IF = (
    "    if: >-\n      ${{ always()\n"
    "      && (contains(needs.*.result, 'failure') || contains(needs.*.result, 'cancelled'))\n"
    "      && (github.event_name == 'schedule'\n"
    "      || github.ref == format('refs/heads/{0}', github.event.repository.default_branch)) }}\n"
)


def text(name: str) -> str:
    return (WORKFLOWS / name).read_text(encoding="utf-8")


def mutate(name: str, old: str, new: str) -> str:
    """The workflow with its first `old` replaced; the test is void unless `old` is there."""
    original = text(name)
    assert old in original, f"la mutación no aplica: «{old.strip()}» no está en {name}"
    return original.replace(old, new, 1)


def rules_broken(workflow_text: str, name: str) -> set[str]:
    return {p.rule for p in rules.check(workflow_text, name)}


def run_tool(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / args[0]), *args[1:]],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, **OFFLINE},
        check=False,
        timeout=120,
    )


# --- The real workflows -------------------------------------------------------------------------


def test_the_workflows_follow_every_rule() -> None:
    problems = rules.check_folder(WORKFLOWS)
    assert not problems, "\n".join(map(str, problems))


def test_the_rules_see_what_they_guard() -> None:
    """A checker that finds no job, no pin and no deploy would pass vacuously: count them."""
    docs = rules.load(text("docs.yml"))
    jobs = docs["jobs"]
    assert rules.events(docs) == {"pull_request", "push", "workflow_dispatch"}
    assert [n for n, j in jobs.items() if rules.checks_on(j, "gpu")] == [rules.GPU_JOB]
    assert [n for n, j in jobs.items() if rules.checks_on(j, "cpu")] == ["cpu"]
    assert rules.all_needs(jobs, "deploy") == {"config", "partes", "cpu", "gpu", "canario", "site"}
    # cpu and gpu are shard matrices; the Zensical job and the site's canary are seen.
    assert [n for n, j in jobs.items() if rules.matrix(j)] == ["cpu", "gpu"]
    assert [n for n, j in jobs.items() if rules.builds_zensical(j)] == ["zensical"]
    assert [n for n, j in jobs.items() if rules._fetches_weekly_canary(j)] == ["canario"]
    # The gpu job's labels come from DOCS_GPU_RUNNER: the rules treat it as a self-hosted job.
    assert rules.runs_on(jobs["gpu"]) == [GPU_RUNS_ON.split(": ", 1)[1].strip()]
    assert rules.is_self_hosted(jobs["gpu"])
    weekly = rules.load(text("weekly.yml"))
    assert rules.events(weekly) == {"schedule", "workflow_dispatch"}
    assert rules.all_needs(weekly["jobs"], "report") == {
        "config",
        "cpu",
        "gpu",
        "freshness",
        "links",
        "canary",
        "canary-pre",
        "canary-gpu",
    }
    assert [n for n, j in weekly["jobs"].items() if rules.checks_on(j, "gpu")] == [rules.GPU_JOB]
    # The jobs on the GPU runner, the canary's included, and the canary's issue.
    assert [n for n, j in weekly["jobs"].items() if rules.on_gpu(j)] == ["gpu", "canary-gpu"]
    assert [n for n, j in weekly["jobs"].items() if rules.reads_canary(j, weekly["jobs"])] == [
        "canary-issue"
    ]
    pinned = [
        ref
        for name in ("docs.yml", "weekly.yml")
        for _, ref in rules.all_uses(rules.load(text(name))["jobs"])
    ]
    assert len(pinned) >= 12
    assert all(rules.SHA.match(ref.partition("@")[2]) for ref in pinned)


def test_only_deploy_and_the_issue_jobs_may_write() -> None:
    writers = {}
    for path in sorted(WORKFLOWS.glob("*.yml")):
        for name, job in rules.load(path.read_text(encoding="utf-8"))["jobs"].items():
            perms = job.get("permissions") or {}
            scopes = sorted(s for s, level in perms.items() if level == "write")
            if scopes:
                writers[f"{path.name}:{name}"] = scopes
    assert writers == {
        "docs.yml:deploy": ["id-token", "pages"],
        "weekly.yml:report": ["issues"],
        "weekly.yml:canary-issue": ["issues"],
        "weekly.yml:notices": ["issues"],
        "gpu-queue.yml:notices": ["issues"],
    }


def test_the_node24_table_covers_every_action_in_use() -> None:
    """Each entry names a release checked at or after its first Node 24 release; none is idle."""
    used = {
        "/".join(ref.partition("@")[0].split("/")[:2])
        for name in ("docs.yml", "weekly.yml")
        for _, ref in rules.all_uses(rules.load(text(name))["jobs"])
    }
    assert used <= set(rules.NODE24), used - set(rules.NODE24)
    assert len(used) >= 6, used
    for action, entry in rules.NODE24.items():
        first, checked = rules.version_tuple(entry.first), rules.version_tuple(entry.checked)
        assert first and checked and checked >= first, (action, entry)
        assert re.search(r"\b[0-9a-f]{12}\b", entry.checked), (action, entry)
        assert "node24" in entry.checked or "composite" in entry.checked, (action, entry)


def test_a_push_to_main_says_when_the_weekly_schedule_was_disabled() -> None:
    """GitHub turns a schedule off after 60 idle days and never back on: a push to main checks."""
    jobs = rules.load(text("docs.yml"))["jobs"]
    checkers = [
        (name, job)
        for name, job in jobs.items()
        if any(
            "actions/workflows/weekly.yml" in str(s.get("run", ""))
            and "disabled_inactivity" in str(s.get("run", ""))
            for s in job.get("steps", []) or []
        )
    ]
    assert len(checkers) == 1, [n for n, _ in checkers]
    name, job = checkers[0]
    assert job.get("permissions") == {"actions": "read"}, job.get("permissions")
    assert rules.split_top(rules.expression(job.get("if")), "&&") == [
        "github.event_name == 'push'",
        "github.ref == 'refs/heads/main'",
    ]
    assert name not in rules.all_needs(jobs, "deploy"), "no debe bloquear la publicación"
    assert "schedule" in rules.events(rules.load(text("weekly.yml")))


# --- Each rule fails when its invariant is broken ---------------------------------------------

MUTATIONS = [
    # (id, workflow, old, new, rule expected to break)
    ("sin-puerta", "docs.yml", GATE, "\n", "puerta-fork"),
    ("puerta-o-true", "docs.yml", GATE, GATE.rstrip("\n") + " || true\n", "puerta-fork"),
    # A job named otherwise escapes nothing: the gpu job is the one that checks on the GPU.
    ("gpu-con-otro-nombre", "docs.yml", "\n  gpu:\n", "\n  gpu2:\n", "runner-gpu"),
    # Labels from an expression may name a self-hosted runner: the gate applies to such a job too.
    (
        "runner-por-variable-sin-puerta",
        "docs.yml",
        "    runs-on: ubuntu-latest\n",
        "    runs-on: ${{ fromJSON(vars.OTRO_RUNNER) }}\n",
        "puerta-fork",
    ),
    # DOCS_GPU_RUNNER switches the gpu job on; unset, it is skipped, not queued.
    (
        "gpu-sin-interruptor",
        "docs.yml",
        "    if: >-\n      needs.config.outputs.gpu == 'true'\n      && (",
        "    if: >-\n      (",
        "runner-gpu",
    ),
    (
        "gpu-etiquetas-fijas",
        "weekly.yml",
        GPU_RUNS_ON,
        "    runs-on: [self-hosted, linux, x64, gpu]\n",
        "runner-gpu",
    ),
    (
        "config-sin-variable",
        "docs.yml",
        "          DOCS_GPU_RUNNER: ${{ vars.DOCS_GPU_RUNNER }}\n",
        '          DOCS_GPU_RUNNER: \'["self-hosted", "gpu"]\'\n',
        "runner-gpu",
    ),
    (
        "gpu-sin-config",
        "weekly.yml",
        "    needs: [config]\n    # Only where",
        "    # Only where",
        "runner-gpu",
    ),
    # The fork gate and the cache rules hold the gpu job whatever its labels.
    ("cache-pip-en-gpu-semanal", "weekly.yml", '      PIP_NO_CACHE_DIR: "1"\n', "", "cache"),
    # A queued gpu job never holds up a later push's cpu check.
    (
        "cola-en-main",
        "docs.yml",
        "  group: docs-${{ github.event_name == 'pull_request' && github.ref || github.run_id }}",
        "  group: docs-${{ github.ref }}",
        "cola",
    ),
    (
        "cola-fija",
        "docs.yml",
        "  group: docs-${{ github.event_name == 'pull_request' && github.ref || github.run_id }}",
        "  group: docs",
        "cola",
    ),
    (
        "cola-solo-en-push",
        "docs.yml",
        "github.event_name == 'pull_request' && github.ref || github.run_id",
        "github.event_name == 'push' && github.ref || github.run_id",
        "cola",
    ),
    (
        "puerta-acepta-pr",
        "docs.yml",
        "github.event_name == 'push' ||",
        "github.event_name == 'pull_request' ||",
        "puerta-fork",
    ),
    (
        "puerta-negada",
        "docs.yml",
        "github.event_name == 'push' ||",
        "github.event_name != 'pull_request' ||",
        "puerta-fork",
    ),
    (
        "pr-en-semanal",
        "weekly.yml",
        "  workflow_dispatch:\n",
        "  workflow_dispatch:\n  pull_request:\n",
        "puerta-fork",
    ),
    (
        "pull-request-target",
        "docs.yml",
        "  pull_request:\n",
        "  pull_request:\n  pull_request_target:\n",
        "disparador",
    ),
    (
        "accion-por-etiqueta",
        "docs.yml",
        "actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1",
        "actions/checkout@v7.0.1",
        "fijado",
    ),
    (
        "sha-corto",
        "weekly.yml",
        "actions/github-script@ed597411d8f924073f98dfc5c65a23a2325f34cd",
        "actions/github-script@ed59741",
        "fijado",
    ),
    (
        "sin-version",
        "docs.yml",
        "cd2ce8fcbc39b97be8ca5fce6e763baed58fa128 # v5.0.0",
        "cd2ce8fcbc39b97be8ca5fce6e763baed58fa128",
        "fijado",
    ),
    (
        "deploy-sin-gpu",
        "docs.yml",
        "needs: [config, cpu, gpu, canario]",
        "needs: [config, cpu, canario]",
        "deploy",
    ),
    (
        "deploy-sin-cpu",
        "docs.yml",
        "needs: [config, cpu, gpu, canario]",
        "needs: [config, gpu, canario]",
        "deploy",
    ),
    (
        "deploy-always",
        "docs.yml",
        "${{ !cancelled() && needs.site.result",
        "${{ always() && needs.site.result",
        "deploy",
    ),
    (
        "deploy-sin-exigir-el-sitio",
        "docs.yml",
        "${{ !cancelled() && needs.site.result == 'success'\n",
        "${{ !cancelled()\n",
        "deploy",
    ),
    (
        "deploy-en-pr",
        "docs.yml",
        " && github.ref == 'refs/heads/main'\n      && needs.site",
        "\n      && needs.site",
        "deploy",
    ),
    (
        "deploy-o",
        "docs.yml",
        "      && (github.event_name == 'push' || github.event_name == 'workflow_dispatch')\n"
        "      && github.ref == 'refs/heads/main'\n      && needs.site",
        "      || (github.event_name == 'push' || github.event_name == 'workflow_dispatch')\n"
        "      && github.ref == 'refs/heads/main'\n      && needs.site",
        "deploy",
    ),
    (
        "deploy-en-cualquier-evento",
        "docs.yml",
        "      && (github.event_name == 'push' || github.event_name == 'workflow_dispatch')\n"
        "      && github.ref == 'refs/heads/main'\n      && needs.site",
        "      && github.ref == 'refs/heads/main'\n      && needs.site",
        "deploy",
    ),
    (
        "escritura-en-cpu",
        "docs.yml",
        "contents: read # checkout\n",
        "contents: write\n",
        "permisos",
    ),
    (
        "write-all",
        "weekly.yml",
        "issues: write # open",
        "issues: write\n      contents: write #",
        "permisos",
    ),
    ("permisos-por-defecto", "docs.yml", "permissions: {}\n", "", "permisos-globales"),
    (
        "permisos-globales-lectura",
        "weekly.yml",
        "permissions: {}\n",
        "permissions:\n  contents: read\n",
        "permisos-globales",
    ),
    ("sin-timeout", "docs.yml", "    timeout-minutes: 10\n", "", "timeout"),
    (
        "sin-concurrencia",
        "weekly.yml",
        "concurrency:\n  group: weekly-${{ github.ref }}\n  cancel-in-progress: false\n",
        "",
        "concurrencia",
    ),
    (
        "credenciales",
        "docs.yml",
        "persist-credentials: false",
        "persist-credentials: true",
        "checkout",
    ),
    # The weekly issue: filed when a job failed, was cancelled or timed out, never otherwise.
    ("incidencia-siempre", "weekly.yml", WEEKLY_IF, "", "incidencia"),
    (
        "incidencia-sin-cancelados",
        "weekly.yml",
        " || contains(needs.*.result, 'cancelled')",
        "",
        "incidencia",
    ),
    (
        "incidencia-solo-failure",
        "weekly.yml",
        "(contains(needs.*.result, 'failure') || contains(needs.*.result, 'cancelled'))",
        "failure()",
        "incidencia",
    ),
    ("incidencia-sin-always", "weekly.yml", "${{ always()\n      && (", "${{ (", "incidencia"),
    (
        "incidencia-tambien-si-pasa",
        "weekly.yml",
        "contains(needs.*.result, 'cancelled'))",
        "contains(needs.*.result, 'cancelled') || true)",
        "incidencia",
    ),
    # The notices: filed whenever a job wrote its notice, even if it failed afterwards.
    (
        "avisos-sin-always",
        "weekly.yml",
        NOTICES_IF,
        NOTICES_IF.replace("${{ always()\n      && (", "${{ ("),
        "incidencia-aviso",
    ),
    (
        "avisos-aunque-no-haya-aviso",
        "weekly.yml",
        NOTICES_IF,
        NOTICES_IF.replace(
            "      && (needs.freshness.outputs.sources-issue != '' "
            "|| needs.links.outputs.links-issue != ''\n"
            "      || needs.origins.outputs.origins-issue != '')\n",
            "",
        ),
        "incidencia-aviso",
    ),
    (
        "avisos-sin-el-de-enlaces",
        "weekly.yml",
        NOTICES_IF,
        NOTICES_IF.replace(" || needs.links.outputs.links-issue != ''", ""),
        "incidencia-aviso",
    ),
    (
        "avisos-en-cualquier-rama",
        "weekly.yml",
        NOTICES_IF,
        NOTICES_IF.split("\n      && (github.event_name", maxsplit=1)[0] + " }}\n",
        "rama-por-defecto",
    ),
    # Node 24: each action at its first release on Node 24 or later (NODE24), inner pins included.
    (
        "checkout-en-node20",
        "docs.yml",
        "actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1",
        "actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2",
        "node24",
    ),
    (
        "pages-artifact-con-etiqueta-movil",
        "docs.yml",
        "actions/upload-pages-artifact@fc324d3547104276b827a68afc52ff2a11cc49c9 # v5.0.0",
        "actions/upload-pages-artifact@56afc609e74202658d3ffba0e8f6dda462b719fa # v3.0.1",
        "node24",
    ),
    (
        "accion-sin-comprobar",
        "weekly.yml",
        "actions/github-script@ed597411d8f924073f98dfc5c65a23a2325f34cd # v8.0.0",
        "someone/script@ed597411d8f924073f98dfc5c65a23a2325f34cd # v9.0.0",
        "node24",
    ),
    # torch: its version only in pyproject.toml; hosted runners install the CPU wheels.
    (
        "torch-repetido",
        "weekly.yml",
        "        run: python3 tasks.py install\n",
        "        run: |\n          python3 -m pip install torch==2.13.0\n"
        "          python3 tasks.py install\n",
        "torch",
    ),
    (
        "torch-de-pypi",
        "docs.yml",
        "        env:\n          DOCS_TORCH_INDEX: https://download.pytorch.org/whl/cpu\n",
        "",
        "torch",
    ),
    # The self-hosted runner keeps no cache for the next job.
    ("cache-pip-en-gpu", "docs.yml", '      PIP_NO_CACHE_DIR: "1"\n', "", "cache"),
    (
        "cache-npm-en-gpu",
        "weekly.yml",
        '          echo "npm_config_cache=$RUNNER_TEMP/npm" >> "$GITHUB_ENV"\n',
        "",
        "cache",
    ),
    (
        "cache-xdg-en-home",
        "docs.yml",
        "XDG_CACHE_HOME=$RUNNER_TEMP/cache",
        "XDG_CACHE_HOME=$HOME/.cache",
        "cache",
    ),
    # The published site is built with the address Pages gives it.
    (
        "sitio-sin-direccion",
        "docs.yml",
        "PAGES_URL: ${{ steps.pages.outputs.url }}",
        'PAGES_URL: ""',
        "sitio-publicado",
    ),
    (
        "sitio-solo-cpu-sin-direccion",
        "docs.yml",
        "          PAGES_URL: ${{ steps.pages.outputs.url }}\n        run: |\n          echo",
        '          PAGES_URL: ""\n        run: |\n          echo',
        "sitio-publicado",
    ),
    (
        "direccion-inventada",
        "docs.yml",
        '          pages=$(gh api "repos/$REPOSITORY/pages") || pages=""\n',
        """          pages='{"html_url": "https://example.org/", "build_type": "workflow"}'\n""",
        "sitio-publicado",
    ),
    # Pins: each SHA is the commit of the release its comment names, per NODE24.
    (
        "sha-de-otra-version",
        "docs.yml",
        "actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1",
        "actions/checkout@08eba0b27e820071cde6df949e0beb9ba4906955 # v7.0.1",
        "fijado",
    ),
    (
        "version-sin-verificar",
        "weekly.yml",
        "actions/github-script@ed597411d8f924073f98dfc5c65a23a2325f34cd # v8.0.0",
        "actions/github-script@ed597411d8f924073f98dfc5c65a23a2325f34cd # v8.0.1",
        "fijado",
    ),
    # Weekly: only the default branch files the issue.
    (
        "incidencia-en-cualquier-rama",
        "weekly.yml",
        "\n      && (github.event_name == 'schedule'\n"
        "      || github.ref == format('refs/heads/{0}', github.event.repository.default_branch))",
        "",
        "rama-por-defecto",
    ),
    (
        "rama-o-true",
        "weekly.yml",
        "github.event.repository.default_branch))",
        "github.event.repository.default_branch) || true)",
        "rama-por-defecto",
    ),
]


@pytest.mark.parametrize(
    ("workflow", "old", "new", "rule"), [m[1:] for m in MUTATIONS], ids=[m[0] for m in MUTATIONS]
)
def test_a_broken_invariant_is_reported(workflow: str, old: str, new: str, rule: str) -> None:
    assert rule not in rules_broken(text(workflow), workflow)
    assert rule in rules_broken(mutate(workflow, old, new), workflow)


@pytest.mark.parametrize(
    "condition",
    [
        "github.event_name == 'push' || github.event.pull_request.head.repo.full_name == "
        "github.repository",
        "${{ (github.event_name == 'push' || github.event_name == 'pull_request' && "
        "github.event.pull_request.head.repo.full_name == github.repository) && !cancelled() }}",
    ],
)
def test_equivalent_gates_are_accepted(condition: str) -> None:
    assert rules.guarded(rules.expression(condition))


@pytest.mark.parametrize(
    "condition",
    [
        "github.event.pull_request.head.repo.full_name == github.repository && true || true",
        "contains(github.event.pull_request.labels.*.name, 'gpu')",
        "github.event_name == 'push'",
        "!(github.event.pull_request.head.repo.full_name != github.repository)",
    ],
)
def test_weaker_gates_are_refused(condition: str) -> None:
    assert not rules.guarded(rules.expression(condition))


# --- check-jsonschema, with its vendored schemas ------------------------------------------------


def test_the_workflows_match_the_github_schema() -> None:
    result = run_tool(
        "check-jsonschema",
        "--builtin-schema",
        "vendor.github-workflows",
        *sorted(str(p) for p in WORKFLOWS.glob("*.yml")),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    dependabot = run_tool(
        "check-jsonschema", "--builtin-schema", "vendor.dependabot", str(GITHUB / "dependabot.yml")
    )
    assert dependabot.returncode == 0, dependabot.stdout + dependabot.stderr


def test_the_schema_check_can_fail(tmp_path: Path) -> None:
    broken = tmp_path / "docs.yml"
    broken.write_text(
        mutate("docs.yml", "    timeout-minutes: 10\n", "    timeout: 10\n"), encoding="utf-8"
    )
    bad_dependabot = tmp_path / "dependabot.yml"
    bad_dependabot.write_text(
        (GITHUB / "dependabot.yml")
        .read_text(encoding="utf-8")
        .replace("interval: weekly", "interval: fortnightly", 1),
        encoding="utf-8",
    )
    result = run_tool(
        "check-jsonschema", "--builtin-schema", "vendor.github-workflows", str(broken)
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "timeout" in result.stdout + result.stderr
    result = run_tool(
        "check-jsonschema", "--builtin-schema", "vendor.dependabot", str(bad_dependabot)
    )
    assert result.returncode == 1, result.stdout + result.stderr


def test_dependabot_watches_every_manifest() -> None:
    """pyproject.toml (pip), the actions, and each npm lock file the tests install from."""
    import yaml  # noqa: PLC0415

    config = yaml.safe_load((GITHUB / "dependabot.yml").read_text(encoding="utf-8"))
    watched = {
        (u["package-ecosystem"], u["directory"].rstrip("/") or "/") for u in config["updates"]
    }
    locks = [
        path.parent.relative_to(ROOT)
        for path in ROOT.glob("**/package-lock.json")
        if not any(
            part.startswith(".") or part == "node_modules" for part in path.parts[len(ROOT.parts) :]
        )
    ]
    assert locks, "no hay ningún package-lock.json"
    expected = {("pip", "/"), ("github-actions", "/")} | {("npm", f"/{lock}") for lock in locks}
    assert watched == expected, (watched, expected)


# --- zizmor, offline, auditor persona (every finding, false positives included) --------------


def zizmor(folder: Path) -> subprocess.CompletedProcess[str]:
    return run_tool(
        "zizmor",
        "--offline",
        "--no-config",
        "--no-progress",
        "--persona",
        "auditor",
        "--format",
        "plain",
        "--color",
        "never",
        str(folder),
    )


def test_zizmor_finds_nothing() -> None:
    result = zizmor(GITHUB)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No findings to report" in result.stdout + result.stderr
    # Every suppression is inline and carries its reason on the line above.
    for path in sorted(WORKFLOWS.glob("*.yml")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines):
            if "zizmor: ignore" in line:
                assert "Ignored zizmor finding:" in "\n".join(lines[max(0, number - 3) : number]), (
                    f"{path.name}:{number + 1}: ignorar un hallazgo de zizmor exige justificarlo"
                )


@pytest.mark.parametrize(
    ("old", "new", "audit"),
    [
        (
            "        run: python3 .ci/shards.py\n",
            '        run: echo "${{ github.event.pull_request.title }}"\n',
            "template-injection",
        ),
        (GPU_RUNS_ON, "    runs-on: [self-hosted, linux, x64, gpu]\n", "self-hosted-runner"),
        ("        with:\n          persist-credentials: false\n", "", "artipacked"),
    ],
    ids=["inyeccion", "runner-propio-literal", "credenciales"],
)
def test_zizmor_can_fail(tmp_path: Path, old: str, new: str, audit: str) -> None:
    copy = tmp_path / ".github"
    shutil.copytree(GITHUB, copy)
    (copy / "workflows" / "docs.yml").write_text(mutate("docs.yml", old, new), encoding="utf-8")
    result = zizmor(copy)
    assert result.returncode != 0
    assert audit in result.stdout + result.stderr


def test_dependabot_proposes_no_zensical_that_cannot_install() -> None:
    """Zensical is pinned to the newest release that installs from the index (pyproject.toml
    says why): Dependabot ignores every version above the pin, whatever the pin is."""
    import yaml  # noqa: PLC0415

    pins = [
        d
        for group in tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
            "project"
        ]["optional-dependencies"].values()
        for d in group
        if d.startswith("zensical==")
    ]
    assert len(pins) == 1, pins
    config = yaml.safe_load((GITHUB / "dependabot.yml").read_text(encoding="utf-8"))
    [pip] = [u for u in config["updates"] if u["package-ecosystem"] == "pip"]
    ignored = [i for i in pip.get("ignore", []) if i["dependency-name"] == "zensical"]
    assert [i["versions"] for i in ignored] == [[">" + pins[0].removeprefix("zensical==")]]
