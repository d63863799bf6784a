"""Workflow rules: the security and release invariants of .github/workflows, checked offline.

GitHub Actions cannot run here, so the workflows are read as data and held to the rules that keep
a self-hosted GPU runner safe and the site honest: no write permission by default, every action
pinned to a verified release's commit, the GPU job (recognised by its name, `gpu`, whatever its
`runs-on` says) switched on by DOCS_GPU_RUNNER and closed to forks, deployment only after the cpu
job and, where a GPU runner is configured, the gpu job passed, the GPU report kept on every run and
the published site built with it, deploy running no repo code, no queued GPU job holding up a later
push, the weekly issue filed for failed and cancelled jobs alike. Since the verification is split
into shards (DOCS_SHARDS): every shard uploads its report on every run, the test suite runs once,
the published site renders the reports of all the shards and executes nothing. The torch canary:
its GPU job held to the GPU job's rules, its issue filed only after the canary ran, from the
default branch, with no other permission; the site's canary read, with `actions: read`, by a job
that runs no repository code, from weekly.yml on the default branch. The Zensical job never gates
publishing. The schema (check-jsonschema) and zizmor check the rest; these are the rules specific
to us.
"""

from __future__ import annotations

import copy
import fnmatch
import functools
import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

SHA = re.compile(r"^[0-9a-f]{40}$")
VERSION_COMMENT = re.compile(r"#\s*v\d+(\.\d+)*\b")
# Events whose code and context come only from people with write access to the repository.
TRUSTED_EVENTS = {"push", "schedule", "workflow_dispatch"}
# Events a workflow with a self-hosted job may have; pull_request only behind the fork gate.
SELF_HOSTED_EVENTS = TRUSTED_EVENTS | {"pull_request"}
# pull_request_target and workflow_run hand a fork's change a token and secrets: never here.
FORBIDDEN_EVENTS = {"pull_request_target", "workflow_run"}
SAME_REPO = "github.event.pull_request.head.repo.full_name == github.repository"
# The only write scopes any job may hold, and the action that justifies each.
WRITE_SCOPES = {
    "pages": "actions/deploy-pages",
    "id-token": "actions/deploy-pages",
    "issues": "actions/github-script",
}
STATUS_FUNCTIONS = ("always()", "failure()", "cancelled()")
# The published build reads the gpu job's report from this variable (report/gpu_report.py), the cpu
# job's from FROM_REPORTS_ENV (report/from_reports.py: no block runs), the canary's from
# CANARY_REPORT_ENV (report/canary.py).
GPU_REPORT_ENV = "DOCVERIFY_GPU_REPORT"
FROM_REPORTS_ENV = "DOCVERIFY_FROM_REPORTS"
CANARY_REPORT_ENV = "DOCVERIFY_CANARY_REPORT"
PAGES_UPLOAD = "actions/upload-pages-artifact"
PAGES_DEPLOY = "actions/deploy-pages"
_REPORT = re.compile(r"docverify check\b[^\n]*?--report[ =]([^\s;&|]+)")
_SHARD_ARG = re.compile(r"docverify check\b[^\n]*?--shard[ =]([^\s;&|]+)")
# What runs blocks: never in the job that builds the published site from reports.
_EXECUTES = re.compile(r"docverify (check|record|canary)\b")
# A job that runs docverify on the GPU runner (the check, or the canary): the GPU job's rules.
_ON_GPU = re.compile(r"docverify (check|canary)\b[^\n]*--runner[ =]gpu\b")
_CANARY = re.compile(r"docverify canary\b")
# The shard matrix: the job SHARDS_JOB reads SHARDS_VARIABLE with SHARDS_SCRIPT and gives the
# number of shards (`total`) and their list (`shards`), the matrix of the cpu and gpu jobs.
SHARDS_JOB = "partes"
SHARDS_VARIABLE = "DOCS_SHARDS"
SHARDS_SCRIPT = ".ci/shards.py"
MATRIX_SHARD = "${{ matrix.shard }}"
FIRST_SHARD = "matrix.shard == 1"
# The site's canary comes from this workflow's runs on the default branch.
WEEKLY_RUNS = "actions/workflows/weekly.yml/runs"
DEFAULT_BRANCH_VALUE = "${{ github.event.repository.default_branch }}"
# The Zensical build path: its job audits, and never gates publishing.
_ZENSICAL = re.compile(
    r"--generador[ =]zensical\b|tasks\.py (build|serve) --zensical|docverify zensical\b"
)
# The GPU job is the job with this name; the first job (CONFIG_JOB) reads the repository variable
# GPU_VARIABLE with .ci/gpu-runner.py and says in its output `gpu` whether the gpu job runs
# ("true"), no GPU runner is configured ("false") or the run is a fork's pull request ("fork").
GPU_JOB = "gpu"
CONFIG_JOB = "config"
GPU_VARIABLE = "DOCS_GPU_RUNNER"
GPU_SCRIPT = ".ci/gpu-runner.py"
GPU_ON = f"needs.{CONFIG_JOB}.outputs.gpu == 'true'"
GPU_UNCONFIGURED = f"needs.{CONFIG_JOB}.outputs.gpu == 'false'"
GPU_PASSED = f"needs.{GPU_JOB}.result == 'success'"
GPU_RUNS_ON = re.compile(
    rf"^\$\{{\{{\s*fromjson\(\s*(needs\.{CONFIG_JOB}\.outputs\.runs-on|vars\.{GPU_VARIABLE})\s*\)"
    r"\s*\}\}$",
    re.IGNORECASE,
)
# What the job that files the weekly issue must fire on: any needed job failed (a timed-out job
# included) or was cancelled (GitHub cancels a job queued 24 h for a self-hosted runner).
FAILED = "contains(needs.*.result, 'failure')"
CANCELLED = "contains(needs.*.result, 'cancelled')"


@dataclass(frozen=True)
class Node24:
    """An action's first release that runs on Node 24, and what was read to know it.

    GitHub's runners run Node 24 by default since June 2026 and drop Node 20 in September 2026.
    `first` is the first release whose action.yml says `runs.using: node24` (for a composite
    action: whose inner actions are all pinned by SHA to such releases); `checked` records the
    release and commit whose action.yml was read. An action missing here must be read the same way
    (its action.yml at the pinned commit) before it is added.
    """

    first: str
    checked: str
    # The releases read, each with the full commit its tag points to: a workflow may pin only
    # these (the SHA of the version its comment names). A Dependabot bump fails the tests until
    # the new release's action.yml is read and its tag's commit added here.
    verified: dict[str, str]


NODE24 = {
    "actions/checkout": Node24(
        "v5.0.0",
        "v7.0.1 3d3c42e5aac5: runs.using node24",
        {"v7.0.1": "3d3c42e5aac5ba805825da76410c181273ba90b1"},
    ),
    "actions/setup-python": Node24(
        "v6.0.0",
        "v7.0.0 5fda3b95a4ea: runs.using node24",
        {"v7.0.0": "5fda3b95a4ea91299a34e894583c3862153e4b97"},
    ),
    "actions/upload-artifact": Node24(
        "v6.0.0",
        "v7.0.0 bbbca2ddaa5d: runs.using node24",
        {"v7.0.0": "bbbca2ddaa5d8feaa63e36b76fdaad77386f024f"},
    ),
    "actions/download-artifact": Node24(
        "v7.0.0",
        "v8.0.1 3e5f45b2cfb9: runs.using node24",
        {"v8.0.1": "3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c"},
    ),
    "actions/deploy-pages": Node24(
        "v5.0.0",
        "v5.0.0 cd2ce8fcbc39: runs.using node24",
        {"v5.0.0": "cd2ce8fcbc39b97be8ca5fce6e763baed58fa128"},
    ),
    "actions/github-script": Node24(
        "v8.0.0",
        "v8.0.0 ed597411d8f9: runs.using node24",
        {"v8.0.0": "ed597411d8f924073f98dfc5c65a23a2325f34cd"},
    ),
    # Composite with no inner action: bash steps that download lychee (v0.23.0 by default; the
    # workflow asks for v0.24.2) and run it. Read at the tag's commit.
    "lycheeverse/lychee-action": Node24(
        "v2.8.0",
        "v2.8.0 8646ba305351: composite, no inner action (bash and the lychee binary)",
        {"v2.8.0": "8646ba30535128ac92d33dfc9133794bfdd9b411"},
    ),
    # Composite: v5.0.0 runs tar and actions/upload-artifact@bbbca2ddaa5d (v7.0.0, node24), pinned
    # by SHA; v3.0.1 called actions/upload-artifact@v4, a movable tag on Node 20.
    "actions/upload-pages-artifact": Node24(
        "v5.0.0",
        "v5.0.0 fc324d354710: composite, uses actions/upload-artifact@bbbca2dd (v7.0.0)",
        {"v5.0.0": "fc324d3547104276b827a68afc52ff2a11cc49c9"},
    ),
}
# The CPU wheels of torch (no CUDA): what a GitHub-hosted runner installs, from the pin that
# pyproject.toml holds (tasks.py reads it when DOCS_TORCH_INDEX is set).
TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"
# ... and PyTorch's CPU indexes of versions not yet released (test: release candidates; nightly),
# chosen by a step that accepts only those two names (the pre-release canary).
TORCH_CPU_INDEXES = re.compile(
    r"https://download\.pytorch\.org/whl/"
    r"((test|nightly|\$\{\{ steps\.[\w-]+\.outputs\.channel \}\})/)?cpu"
)
TORCH_VERSION_LITERAL = re.compile(r"\btorch\s*(==|>=|<=|~=|!=|===)\s*\d")
DEFAULT_BRANCH = "github.ref == format('refs/heads/{0}', github.event.repository.default_branch)"
SCHEDULED = "github.event_name == 'schedule'"
# The events that publish from main: a push, or a run started by hand (workflow_dispatch).
PUBLISHING_EVENTS = ("push", "workflow_dispatch")
# The step that asks GitHub which commit is the head of main (publish=true only when it is this
# run's commit); what a job with a write permission may run besides its action, since it runs no
# code of the repository (`gh api`, nothing checked out).
_HEAD_QUERY = re.compile(r'gh api "?repos/\$\{?REPOSITORY\}?/commits/main"?')
_RUNS_CODE = re.compile(r"\.ci/|tasks\.py|\.venv|\bpython3?\b|\bpip\b|\bnpm\b|\bsource\b|\./")


def is_head_check(step: dict[str, Any]) -> bool:
    """Whether the step only asks which commit is the head of main and compares it with this
    run's commit (`SHA: ${{ github.sha }}`), writing `publish=true` or `publish=false`."""
    run = str(step.get("run", ""))
    sha = _canon(str((step.get("env") or {}).get("SHA", "")))
    return (
        bool(_HEAD_QUERY.search(run))
        and sha == "${{ github.sha }}"
        and "publish=true" in run
        and "publish=false" in run
        and not _RUNS_CODE.search(run)
    )


def publishing_event(conjunct: str) -> bool:
    """Whether a conjunct holds only for a push or a run started by hand (a push at least)."""
    parts = split_top(conjunct, "||")
    return "github.event_name == 'push'" in parts and all(
        re.fullmatch(r"github\.event_name == '([a-z_]+)'", p)
        and p.split("'")[1] in PUBLISHING_EVENTS
        for p in parts
    )


def version_tuple(text: str) -> tuple[int, ...] | None:
    match = re.search(r"v(\d+(?:\.\d+)*)\b", text)
    return tuple(int(x) for x in match.group(1).split(".")) if match else None


@dataclass(frozen=True)
class Problem:
    rule: str
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: [{self.rule}] {self.message}"


# libyaml's parser where PyYAML has it (the wheels do): the same documents, parsed about ten
# times faster than PyYAML's Python one, which was a tenth of the suite's CPU time.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load(text: str) -> dict[str, Any]:
    """Parse a workflow; PyYAML reads the key `on` as True (YAML 1.1), so it is renamed back.
    Each call returns its own copy: a test may change what it got."""
    return copy.deepcopy(_parsed(text))


@functools.lru_cache(maxsize=128)
def _parsed(text: str) -> dict[str, Any]:
    """The rules check the same workflow texts, and their mutations, many times over."""
    doc = yaml.load(text, Loader=_LOADER)
    if not isinstance(doc, dict):
        raise ValueError("el workflow no es un mapa YAML")
    if True in doc:
        doc["on"] = doc.pop(True)
    return doc


def events(doc: dict[str, Any]) -> set[str]:
    on = doc.get("on")
    if isinstance(on, str):
        return {on}
    if isinstance(on, list):
        return {str(e) for e in on}
    if isinstance(on, dict):
        return {str(e) for e in on}
    return set()


def runs_on(job: dict[str, Any]) -> list[str]:
    labels = job.get("runs-on", [])
    if isinstance(labels, dict):
        labels = labels.get("labels", [])
    return [labels] if isinstance(labels, str) else [str(x) for x in labels]


def is_self_hosted(job: dict[str, Any]) -> bool:
    """Whether the job may run on a self-hosted runner: a literal `self-hosted` label, or labels
    from an expression (a variable may name any runner)."""
    return any(label == "self-hosted" or "${{" in label for label in runs_on(job))


def is_gpu(name: str) -> bool:
    """The GPU job is recognised by its name, not by labels that a variable chooses."""
    return name == GPU_JOB


def is_cpu(job: dict[str, Any]) -> bool:
    return any(label.startswith("ubuntu-") for label in runs_on(job))


def runs(job: dict[str, Any]) -> list[str]:
    """The `run:` text of every step of the job."""
    return [str(step.get("run", "")) for step in job.get("steps", []) or [] if "run" in step]


def on_gpu(job: dict[str, Any]) -> bool:
    """Whether the job runs docverify (check or canary) with --runner gpu."""
    return any(_ON_GPU.search(text) for text in runs(job))


def runs_canary(job: dict[str, Any]) -> bool:
    return any(_CANARY.search(text) for text in runs(job))


def builds_zensical(job: dict[str, Any]) -> bool:
    return any(_ZENSICAL.search(text) for text in runs(job))


def reads_canary(job: dict[str, Any], jobs: dict[str, Any]) -> bool:
    """Whether the job downloads an artifact that a job it needs uploads from a canary."""
    uploaded = {
        _with(step, "name")
        for n in needs(job)
        if n in jobs and runs_canary(jobs[n])
        for step in steps_using(jobs[n], "actions/upload-artifact")
    }
    return any(_with(s, "name") in uploaded for s in steps_using(job, "actions/download-artifact"))


def matrix(job: dict[str, Any]) -> dict[str, Any]:
    strategy = job.get("strategy") or {}
    return (strategy.get("matrix") or {}) if isinstance(strategy, dict) else {}


def checks_on(job: dict[str, Any], runner: str) -> bool:
    """Whether a step of the job runs `docverify check --runner RUNNER`."""
    return any(
        re.search(rf"docverify check\b[^\n]*--runner[ =]{runner}\b", str(step.get("run", "")))
        for step in job.get("steps", []) or []
    )


def steps_using(job: dict[str, Any], action: str) -> list[dict[str, Any]]:
    return [s for s in job.get("steps", []) or [] if str(s.get("uses", "")).split("@")[0] == action]


def needs(job: dict[str, Any]) -> list[str]:
    raw = job.get("needs", [])
    return [raw] if isinstance(raw, str) else list(raw)


def all_needs(jobs: dict[str, Any], name: str) -> set[str]:
    """Every job `name` waits for, directly or through other jobs."""
    seen: set[str] = set()
    stack = list(needs(jobs[name]))
    while stack:
        current = stack.pop()
        if current in seen or current not in jobs:
            continue
        seen.add(current)
        stack.extend(needs(jobs[current]))
    return seen


def expression(raw: Any) -> str:
    """An `if:` as bare expression text, `${{ }}` removed and spaces collapsed."""
    text = str(raw).strip() if raw is not None else ""
    if text.startswith("${{") and text.endswith("}}"):
        text = text[3:-2]
    return " ".join(text.replace('"', "'").split())


def split_top(text: str, operator: str) -> list[str]:
    """Split on `operator` outside parentheses and quotes, dropping parentheses around parts."""
    parts, depth, quoted, start, i = [], 0, False, 0, 0
    while i < len(text):
        char = text[i]
        if char == "'":
            quoted = not quoted
        elif not quoted and char == "(":
            depth += 1
        elif not quoted and char == ")":
            depth -= 1
        elif not quoted and depth == 0 and text.startswith(operator, i):
            parts.append(text[start:i])
            i += len(operator)
            start = i
            continue
        i += 1
    parts.append(text[start:])
    return [_unwrap(p.strip()) for p in parts]


def _unwrap(text: str) -> str:
    while text.startswith("(") and text.endswith(")") and _balanced(text[1:-1]):
        text = text[1:-1].strip()
    return text


def _balanced(text: str) -> bool:
    depth = 0
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def is_fork_gate(conjunct: str) -> bool:
    """True only when the expression can hold for a trusted event or a same-repository PR.

    Accepted: disjuncts joined by ||, each `github.event_name == '<trusted event>'` or the
    same-repository test (optionally with `github.event_name == 'pull_request' &&` before it),
    with at least one same-repository test. Anything else (`|| true`, `!= 'pull_request'`, a
    label check) is refused: it could let a fork's code reach the runner.
    """
    disjuncts = split_top(conjunct, "||")
    seen_same_repo = False
    for part in disjuncts:
        terms = split_top(part, "&&")
        if SAME_REPO in terms and all(
            t in (SAME_REPO, "github.event_name == 'pull_request'") for t in terms
        ):
            seen_same_repo = True
            continue
        match = re.fullmatch(r"github\.event_name == '([a-z_]+)'", part)
        if not match or match.group(1) not in TRUSTED_EVENTS:
            return False
    return seen_same_repo


def guarded(condition: str) -> bool:
    """Whether an `if:` can only hold when the fork gate holds (|| binds looser than &&)."""
    if len(split_top(condition, "||")) > 1:
        return is_fork_gate(condition)
    conjuncts = split_top(condition, "&&")
    return any(is_fork_gate(c) or (c != condition and guarded(c)) for c in conjuncts)


def uses_lines(text: str) -> dict[str, list[str]]:
    """Every `uses:` value in the raw text, with the comment on its line (pins live in comments)."""
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        match = re.match(
            r"^\s*(?:-\s+)?uses:\s*(['\"]?)(?P<ref>[^\s'\"#]+)\1\s*(?P<rest>#.*)?$", line
        )
        if match:
            found.setdefault(match.group("ref"), []).append(match.group("rest") or "")
    return found


def all_uses(jobs: dict[str, Any]) -> Iterator[tuple[str, str]]:
    for name, job in jobs.items():
        if "uses" in job:  # a reusable workflow called as a job
            yield name, str(job["uses"])
        for step in job.get("steps", []) or []:
            if "uses" in step:
                yield name, str(step["uses"])


def check(text: str, name: str) -> list[Problem]:
    """Every broken rule in one workflow file's text."""
    problems: list[Problem] = []

    def problem(rule: str, where: str, message: str) -> None:
        problems.append(Problem(rule, f"{name}: {where}", message))

    doc = load(text)
    jobs: dict[str, Any] = doc.get("jobs") or {}
    if not jobs:
        problem("trabajos", "jobs", "el workflow no tiene trabajos")
    triggers = events(doc)

    if doc.get("permissions") != {}:
        problem(
            "permisos-globales",
            "permissions",
            "el workflow debe empezar con `permissions: {}` y dar permisos por trabajo",
        )
    group = doc.get("concurrency")
    if isinstance(group, dict):
        group = group.get("group")
    if not group:
        problem("concurrencia", "concurrency", "falta un grupo de concurrencia del workflow")
    for event in sorted(triggers & FORBIDDEN_EVENTS):
        problem(
            "disparador",
            f"on.{event}",
            f"«{event}» da a código de un fork un token y secretos; no se usa aquí",
        )

    problems.extend(_pin_problems(name, text, jobs))
    problems.extend(_node24_problems(name, text, jobs))
    problems.extend(_torch_problems(name, text, doc))
    for job_name, job in jobs.items():
        where = f"jobs.{job_name}"
        timeout = job.get("timeout-minutes")
        if "uses" not in job and not (isinstance(timeout, int) and 0 < timeout <= 360):
            problem("timeout", where, "falta timeout-minutes (entero entre 1 y 360)")
        problems.extend(_permission_problems(name, job_name, job))
        for step in steps_using(job, "actions/checkout"):
            if (step.get("with") or {}).get("persist-credentials") is not False:
                problem(
                    "checkout",
                    where,
                    "actions/checkout sin persist-credentials: false deja el token en .git/config",
                )
        problems.extend(_job_problems(name, job_name, doc, triggers))
    if GPU_JOB in jobs and triggers & {"push", "pull_request"}:
        problems.extend(_queue_problems(name, doc))
    return problems


def _job_problems(
    name: str, job_name: str, doc: dict[str, Any], triggers: set[str]
) -> list[Problem]:
    """The rules that hold one job, by what it is and what it does."""
    jobs: dict[str, Any] = doc.get("jobs") or {}
    job = jobs[job_name]
    problems: list[Problem] = []
    perms = job.get("permissions") or {}
    if is_self_hosted(job) or is_gpu(job_name) or on_gpu(job):
        problems.extend(_self_hosted_problems(name, job_name, job, triggers))
        problems.extend(_cache_problems(name, job_name, job, doc))
    if on_gpu(job) and not is_gpu(job_name):
        # Another job on the GPU runner (the canary's): switched on by DOCS_GPU_RUNNER too.
        problems.extend(_gpu_switch_problems(name, job_name, jobs))
    if matrix(job):
        problems.extend(_shard_problems(name, job_name, jobs))
    if perms.get("actions") in ("read", "write"):
        problems.extend(_actions_reader_problems(name, job_name, job))
    if builds_zensical(job):
        problems.extend(_zensical_problems(name, job_name, jobs))
    if checks_on(job, "gpu") and not is_gpu(job_name):
        problems.append(
            Problem(
                "runner-gpu",
                f"{name}: jobs.{job_name}",
                f"el trabajo que ejecuta docverify check --runner gpu debe llamarse «{GPU_JOB}»: "
                "las reglas del runner GPU (puerta contra forks, cachés) lo reconocen por el "
                "nombre",
            )
        )
    if is_gpu(job_name):
        problems.extend(_gpu_report_problems(name, job_name, job))
        problems.extend(_gpu_switch_problems(name, job_name, jobs))
    if steps_using(job, "actions/deploy-pages"):
        problems.extend(_deploy_problems(name, job_name, jobs))
    if steps_using(job, "actions/upload-pages-artifact"):
        problems.extend(_published_site_problems(name, job_name, jobs, doc))
        problems.extend(_site_without_gpu_problems(name, job_name, jobs))
        problems.extend(_site_url_problems(name, job_name, job))
    if perms.get("issues") == "write":
        problems.extend(_issue_problems(name, job_name, jobs))
        if "workflow_dispatch" in triggers:
            problems.extend(_default_branch_problems(name, job_name, job))
    return problems


def _node24_problems(name: str, text: str, jobs: dict[str, Any]) -> list[Problem]:
    """Every action is in NODE24, pinned to that release or a later one (its comment says which)."""
    found = []
    raw_uses = uses_lines(text)
    for job_name, ref in all_uses(jobs):
        if ref.startswith(("./", "docker://")):
            continue
        action = "/".join(ref.partition("@")[0].split("/")[:2])
        where = f"{name}: jobs.{job_name} uses {ref}"
        known = NODE24.get(action)
        if known is None:
            found.append(
                Problem(
                    "node24",
                    where,
                    f"{action} no está en la tabla NODE24: lee runs.using en su action.yml "
                    "en ese commit y añádela",
                )
            )
            continue
        minimum = version_tuple(known.first)
        for comment in raw_uses.get(ref, []):
            pinned = version_tuple(comment)
            if pinned is not None and minimum is not None and pinned < minimum:
                found.append(
                    Problem(
                        "node24",
                        where,
                        f"{action} corre en Node 24 desde {known.first}; la fijada es anterior "
                        "(Node 20, que los runners de GitHub ya no ejecutan)",
                    )
                )
    return found


def _env_value(key: str, *scopes: dict[str, Any] | None) -> str | None:
    """The value of `key` in the innermost env that sets it (step, then job, then workflow)."""
    for scope in scopes:
        env = (scope or {}).get("env") or {}
        if isinstance(env, dict) and key in env:
            return str(env[key])
    return None


def _torch_problems(name: str, text: str, doc: dict[str, Any]) -> list[Problem]:
    """torch's version is written in pyproject.toml only; hosted runners take the CPU wheels."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if TORCH_VERSION_LITERAL.search(line):
            found.append(
                Problem(
                    "torch",
                    f"{name}:{number}",
                    "la versión de torch se fija solo en pyproject.toml (tasks.py la lee de "
                    "allí); repetida aquí, una subida de Dependabot la dejaría atrás",
                )
            )
    for job_name, job in (doc.get("jobs") or {}).items():
        if not is_cpu(job):
            continue
        for step in job.get("steps", []) or []:
            text = str(step.get("run", ""))
            if "tasks.py install" not in text and not re.search(
                r"docverify canary\b.*--torch", text
            ):
                continue
            if not TORCH_CPU_INDEXES.fullmatch(str(_env_value("DOCS_TORCH_INDEX", step, job, doc))):
                found.append(
                    Problem(
                        "torch",
                        f"{name}: jobs.{job_name}",
                        "en un runner de GitHub, tasks.py install y docverify canary --torch "
                        f"necesitan DOCS_TORCH_INDEX: {TORCH_CPU_INDEX} (si no, instalan el "
                        "torch de PyPI con CUDA, varios GB)",
                    )
                )
    return found


def _cache_problems(
    name: str, job_name: str, job: dict[str, Any], doc: dict[str, Any]
) -> list[Problem]:
    """A self-hosted job keeps no cache for the next job (Dependabot's and others' included)."""
    where = f"{name}: jobs.{job_name}"
    found = []
    if _env_value("PIP_NO_CACHE_DIR", job, doc) not in ("1", "true", "True"):
        found.append(
            Problem("cache", where, 'el runner propio necesita PIP_NO_CACHE_DIR: "1" en env')
        )
    steps = job.get("steps", []) or []
    for step in steps:
        uses = str(step.get("uses", "")).split("@")[0]
        if uses.startswith("actions/cache") or "cache" in (step.get("with") or {}):
            found.append(
                Problem("cache", where, f"el runner propio no usa cachés entre trabajos ({uses})")
            )
    first = str(steps[0].get("run", "")) if steps else ""
    for variable in ("XDG_CACHE_HOME", "npm_config_cache"):
        if not re.search(rf"{variable}=\$RUNNER_TEMP/\S*.*>>\s*\"?\$GITHUB_ENV", first):
            found.append(
                Problem(
                    "cache",
                    where,
                    f"el primer paso debe llevar {variable} a $RUNNER_TEMP (vía $GITHUB_ENV), "
                    "que el runner vacía antes y después de cada trabajo",
                )
            )
    return found


def _site_url_problems(name: str, job_name: str, job: dict[str, Any]) -> list[Problem]:
    """The uploaded site was built with its published address (SITE_URL from Pages)."""
    where = f"{name}: jobs.{job_name}"
    steps = job.get("steps", []) or []
    upload = next(
        i for i, s in enumerate(steps) if str(s.get("uses", "")).startswith("actions/upload-pages")
    )
    pages_ids = [
        str(s["id"])
        for s in steps[:upload]
        if "id" in s
        and (
            re.search(r"gh api \S*/pages\b", str(s.get("run", "")))
            or str(s.get("uses", "")).startswith("actions/configure-pages")
        )
    ]
    builds = [s for s in steps[:upload] if "mkdocs build" in str(s.get("run", ""))]
    # Every build that may become the uploaded site (one with the GPU report, one without).
    if builds and all(
        "SITE_URL" in str(step.get("run", ""))
        and any(
            f"steps.{i}.outputs." in " ".join(str(v) for v in (step.get("env") or {}).values())
            for i in pages_ids
        )
        for step in builds
    ):
        return []
    return [
        Problem(
            "sitio-publicado",
            where,
            "el sitio que se sube a Pages debe construirse con SITE_URL tomado de la "
            "configuración de GitHub Pages (un paso con id que consulte `gh api .../pages` y "
            "cada `mkdocs build` antes de subirlo leyendo su salida), o sus enlaces apuntarán "
            "a 127.0.0.1",
        )
    ]


def _default_branch_problems(name: str, job_name: str, job: dict[str, Any]) -> list[Problem]:
    """A job that files issues runs only for the default branch (or the schedule, which is it)."""
    for conjunct in split_top(expression(job.get("if")), "&&"):
        parts = split_top(conjunct, "||")
        if DEFAULT_BRANCH in parts and all(p in (DEFAULT_BRANCH, SCHEDULED) for p in parts):
            return []
    return [
        Problem(
            "rama-por-defecto",
            f"{name}: jobs.{job_name}",
            "solo la rama por defecto abre incidencias: el if: necesita "
            f"«({SCHEDULED} || {DEFAULT_BRANCH})» unido con &&",
        )
    ]


def _pin_problems(name: str, text: str, jobs: dict[str, Any]) -> list[Problem]:
    found = []
    raw_uses = uses_lines(text)
    for job_name, ref in all_uses(jobs):
        where = f"{name}: jobs.{job_name} uses {ref}"
        if ref.startswith("./"):
            continue
        if ref.startswith("docker://"):
            if "@sha256:" not in ref:
                found.append(Problem("fijado", where, "imagen docker sin digest @sha256:"))
            continue
        if not SHA.match(ref.partition("@")[2]):
            found.append(
                Problem(
                    "fijado",
                    where,
                    "la acción no está fijada a un SHA de commit de 40 caracteres hexadecimales",
                )
            )
        comments = raw_uses.get(ref, [])
        if not comments or not all(VERSION_COMMENT.search(c) for c in comments):
            found.append(Problem("fijado", where, "falta el comentario con la versión (# vX.Y.Z)"))
            continue
        known = NODE24.get("/".join(ref.partition("@")[0].split("/")[:2]))
        if known is None:
            continue  # the node24 rule names it: read its action.yml and add it to the table
        sha = ref.partition("@")[2]
        for comment in comments:
            version = re.search(r"#\s*(v\d+(?:\.\d+)*)\b", comment).group(1)  # type: ignore[union-attr]
            if version not in known.verified:
                found.append(
                    Problem(
                        "fijado",
                        where,
                        f"{version} no está entre las versiones verificadas de NODE24 "
                        f"({', '.join(sorted(known.verified))}): lee su action.yml en el commit de "
                        "su etiqueta y añade ese SHA a la tabla",
                    )
                )
            elif known.verified[version] != sha:
                found.append(
                    Problem(
                        "fijado",
                        where,
                        f"el SHA no es el commit de la etiqueta {version} según NODE24 "
                        f"({known.verified[version]}): el comentario no dice qué código corre",
                    )
                )
    return found


def _gpu_switch_problems(name: str, job_name: str, jobs: dict[str, Any]) -> list[Problem]:
    """DOCS_GPU_RUNNER switches the gpu job on: unset, the job is skipped, never queued."""
    where = f"{name}: jobs.{job_name}"
    job = jobs[job_name]
    found = []
    config = jobs.get(CONFIG_JOB)
    if config is None or CONFIG_JOB not in needs(job):
        found.append(
            Problem(
                "runner-gpu",
                where,
                f"el trabajo gpu necesita (needs) el trabajo «{CONFIG_JOB}», que lee "
                f"{GPU_VARIABLE}",
            )
        )
    else:
        found.extend(_config_problems(name, config))
    condition = expression(job.get("if"))
    if len(split_top(condition, "||")) > 1 or GPU_ON not in split_top(condition, "&&"):
        found.append(
            Problem(
                "runner-gpu",
                where,
                f"el trabajo gpu corre solo donde hay un runner GPU configurado: su if: exige "
                f"«{GPU_ON}» unido con && (sin la variable, se omitiría en vez de esperar en cola)",
            )
        )
    labels = job.get("runs-on")
    if not (isinstance(labels, str) and GPU_RUNS_ON.match(labels.strip())):
        found.append(
            Problem(
                "runner-gpu",
                where,
                "el runner del trabajo gpu sale de la variable: runs-on: "
                f"${{{{ fromJSON(needs.{CONFIG_JOB}.outputs.runs-on) }}}} (etiquetas fijas "
                "esperarían en cola a un runner que quizá no existe)",
            )
        )
    return found


def _config_problems(name: str, config: dict[str, Any]) -> list[Problem]:
    """The config job reads the variable on a GitHub-hosted runner with .ci/gpu-runner.py."""
    where = f"{name}: jobs.{CONFIG_JOB}"
    reads = [
        step
        for step in config.get("steps", []) or []
        if GPU_SCRIPT in str(step.get("run", ""))
        and "id" in step
        and expression((step.get("env") or {}).get(GPU_VARIABLE)) == f"vars.{GPU_VARIABLE}"
    ]
    outputs = config.get("outputs") or {}
    wired = [
        step
        for step in reads
        if all(
            expression(outputs.get(key)) == f"steps.{step['id']}.outputs.{key}"
            for key in ("gpu", "runs-on")
        )
    ]
    if not is_cpu(config) or not wired:
        return [
            Problem(
                "runner-gpu",
                where,
                f"«{CONFIG_JOB}» corre en un runner de GitHub, ejecuta {GPU_SCRIPT} con "
                f"{GPU_VARIABLE}: ${{{{ vars.{GPU_VARIABLE} }}}} en env y da sus salidas gpu y "
                "runs-on como salidas del trabajo",
            )
        ]
    return []


def _site_without_gpu_problems(name: str, job_name: str, jobs: dict[str, Any]) -> list[Problem]:
    """The published build: after cpu and gpu passed, or after cpu passed with no GPU runner
    configured; never when gpu failed, was cancelled, or was skipped by the fork gate."""
    where = f"{name}: jobs.{job_name}"
    job = jobs[job_name]
    direct = needs(job)
    if GPU_JOB not in direct:
        return []  # sitio-gpu says the site waits for the gpu job
    found = []
    condition = expression(job.get("if"))
    conjuncts = split_top(condition, "&&") if condition else []
    if len(split_top(condition, "||")) > 1:
        found.append(
            Problem(
                "sitio-sin-gpu", where, "el if: del sitio no puede tener «||» fuera de paréntesis"
            )
        )
    if not {"!cancelled()", "always()"} & set(conjuncts):
        found.append(
            Problem(
                "sitio-sin-gpu",
                where,
                "sin «!cancelled()» el if: del sitio exige que todo pase, y sin runner GPU "
                "configurado (gpu omitido) el sitio no se construiría ni se publicaría",
            )
        )
    for other in direct:
        if other != GPU_JOB and f"needs.{other}.result == 'success'" not in conjuncts:
            found.append(
                Problem(
                    "sitio-sin-gpu",
                    where,
                    f"el sitio exige «needs.{other}.result == 'success'» unido con &&",
                )
            )

    def gpu_alternatives(conjunct: str) -> bool:
        parts = split_top(conjunct, "||")
        return GPU_PASSED in parts and all(
            part == GPU_PASSED or GPU_UNCONFIGURED in split_top(part, "&&") for part in parts
        )

    if not any(gpu_alternatives(c) for c in conjuncts):
        found.append(
            Problem(
                "sitio-sin-gpu",
                where,
                "el sitio se construye solo si gpu pasó o si no hay runner GPU configurado: "
                f"«({GPU_PASSED} || needs.{GPU_JOB}.result == 'skipped' && "
                f"{GPU_UNCONFIGURED})» unido con &&; "
                "así nunca publica cuando gpu falló, se canceló o lo omitió la puerta contra forks",
            )
        )
    steps = job.get("steps", []) or []
    upload = next((i for i, s in enumerate(steps) if s in steps_using(job, PAGES_UPLOAD)), 0)
    for step in steps[:upload]:
        if "mkdocs build" not in str(step.get("run", "")):
            continue
        if GPU_REPORT_ENV in (step.get("env") or {}) or GPU_REPORT_ENV in (job.get("env") or {}):
            continue
        if GPU_UNCONFIGURED not in split_top(expression(step.get("if")), "&&"):
            found.append(
                Problem(
                    "sitio-sin-gpu",
                    where,
                    f"la construcción sin {GPU_REPORT_ENV} («{step.get('name')}») corre solo sin "
                    f"runner GPU configurado: if: {GPU_UNCONFIGURED}",
                )
            )
    return found


def _issue_problems(name: str, job_name: str, jobs: dict[str, Any]) -> list[Problem]:
    """The weekly issue fires when a needed job failed or was cancelled; the canary's issue
    (the job that needs a canary job) only after the cpu canary ran."""
    job = jobs[job_name]
    if reads_canary(job, jobs):
        return _canary_issue_problems(name, job_name, jobs)
    if relayed_notices(job):
        return _notice_issue_problems(name, job_name, job)
    condition = expression(job.get("if"))
    conjuncts = split_top(condition, "&&") if condition else []
    fires = len(split_top(condition, "||")) == 1 and any(
        set(split_top(c, "||")) == {FAILED, CANCELLED} for c in conjuncts
    )
    if fires and "always()" in conjuncts:
        return []
    return [
        Problem(
            "incidencia",
            f"{name}: jobs.{job_name}",
            f"la incidencia se abre cuando un trabajo falló, se canceló o agotó su tiempo: if: "
            f"«always() && ({FAILED} || {CANCELLED})» (failure() no ve un trabajo cancelado, "
            "como uno que pasó 24 h en la cola de un runner propio)",
        )
    ]


def relayed_notices(job: dict[str, Any]) -> list[str]:
    """The job outputs (`needs.JOB.outputs.NAME`) a notices job hands its github-script: each the
    JSON of one issue (sources due, broken links, a gpu job queued for hours)."""
    return sorted(
        {
            f"needs.{match.group(1)}.outputs.{match.group(2)}"
            for step in steps_using(job, "actions/github-script")
            for value in (step.get("env") or {}).values()
            for match in re.finditer(r"needs\.([\w-]+)\.outputs\.([\w-]+)", str(value))
        }
    )


def _notice_issue_problems(name: str, job_name: str, job: dict[str, Any]) -> list[Problem]:
    """A notices job runs whenever one of its jobs wrote its notice, even if that job failed
    afterwards (a stale source fails the freshness job after it wrote the notice), and never
    when none did."""
    condition = expression(job.get("if"))
    conjuncts = split_top(condition, "&&") if condition else []
    wanted = {f"{output} != ''" for output in relayed_notices(job)}
    if (
        "always()" in conjuncts
        and len(split_top(condition, "||")) == 1
        and any(set(split_top(c, "||")) == wanted for c in conjuncts)
    ):
        return []
    return [
        Problem(
            "incidencia-aviso",
            f"{name}: jobs.{job_name}",
            "el trabajo de los avisos corre cuando alguno de sus trabajos escribió su aviso, "
            f"aunque después fallara: if: «always() && ({' || '.join(sorted(wanted))})» unido con "
            "&& (sin always(), una fuente caducada, que hace fallar la frescura, dejaría la "
            "incidencia sin actualizar)",
        )
    ]


def _canary_issue_problems(name: str, job_name: str, jobs: dict[str, Any]) -> list[Problem]:
    """The canary's issue: opened, updated or closed once the cpu canary ran (its report, or
    «the newest torch is the pinned one»), whatever the gpu canary did; a canary that failed
    leaves the issue as it is."""
    job = jobs[job_name]
    condition = expression(job.get("if"))
    conjuncts = split_top(condition, "&&") if condition else []
    # An optional canary (switched on by a repository variable, as the pre-release one) is not
    # required: the issue goes on with the cpu canary when it is off or did not finish.
    required = [
        f"needs.{n}.result == 'success'"
        for n in needs(job)
        if n in jobs
        and runs_canary(jobs[n])
        and is_cpu(jobs[n])
        and not re.search(r"\bvars\.", str(jobs[n].get("if", "")))
    ]
    found = []
    if (
        not required
        or len(split_top(condition, "||")) > 1
        or not all(r in conjuncts for r in required)
    ):
        found.append(
            Problem(
                "incidencia-canario",
                f"{name}: jobs.{job_name}",
                "la incidencia del canario solo se toca cuando el canario de CPU terminó bien: su "
                f"if: exige «{' && '.join(required) or 'needs.<canario de cpu>.result == success'}»"
                " unido con && (un canario que falló deja la incidencia como está)",
            )
        )
    if "always()" not in conjuncts:
        found.append(
            Problem(
                "incidencia-canario",
                f"{name}: jobs.{job_name}",
                "sin «always()» unido con &&, un canario de GPU omitido (sin runner GPU), fallido "
                "o cancelado impediría actualizar la incidencia con el canario de CPU",
            )
        )
    return found


def _shard_problems(name: str, job_name: str, jobs: dict[str, Any]) -> list[Problem]:
    """A verification job split into shards: one job per shard of the matrix SHARDS_JOB gives,
    none cancelled by another's failure, each checking its own shard and keeping its report
    under a name of its own; the test suite once per run; shards of one run never queue
    behind each other."""
    job = jobs[job_name]
    if not (
        checks_on(job, "cpu")
        or checks_on(job, "gpu")
        or any("tasks.py test" in r for r in runs(job))
    ):
        return []
    where = f"{name}: jobs.{job_name}"
    found = []

    def problem(message: str, rule: str = "partes") -> None:
        found.append(Problem(rule, where, message))

    source = expression(matrix(job).get("shard"))
    match = re.fullmatch(r"fromjson\(\s*needs\.([\w-]+)\.outputs\.shards\s*\)", source, re.I)
    origin = match.group(1) if match else ""
    if not match or origin not in needs(job) or origin not in jobs:
        problem(
            "la matriz de partes sale del trabajo que lee DOCS_SHARDS: strategy.matrix.shard: "
            f"${{{{ fromJSON(needs.{SHARDS_JOB}.outputs.shards) }}}}, con ese trabajo en needs"
        )
    else:
        found.extend(_shards_config_problems(name, origin, jobs[origin]))
    if (job.get("strategy") or {}).get("fail-fast") is not False:
        problem(
            "fail-fast: false en la matriz de partes: una parte que falla no debe cancelar las "
            "demás, cuyos informes (que lee el sitio y docverify accept) se perderían"
        )
    total = f"${{{{ needs.{origin or SHARDS_JOB}.outputs.total }}}}"
    for step in job.get("steps", []) or []:
        text = str(step.get("run", ""))
        env = step.get("env") or {}
        for arg in _SHARD_ARG.findall(text):
            if _resolve(arg, env) != f"{MATRIX_SHARD}/{total}":
                problem(
                    f"cada trabajo verifica su parte: --shard {MATRIX_SHARD}/{total} (por env: "
                    f"«{arg}» no lo es)"
                )
        if "tasks.py test" in text and FIRST_SHARD not in split_top(
            expression(step.get("if")), "&&"
        ):
            problem(
                f"las pruebas corren una vez por ejecución, no en cada parte: el paso "
                f"«{step.get('name')}» necesita «{FIRST_SHARD}» unido con && en su if:"
            )
    if (checks_on(job, "cpu") or checks_on(job, "gpu")) and not any(
        _SHARD_ARG.search(r) for r in runs(job)
    ):
        problem("un trabajo de la matriz de partes verifica con docverify check --shard")
    uploads = report_uploads(job)
    if (checks_on(job, "cpu") or checks_on(job, "gpu")) and (
        not uploads or not all(MATRIX_SHARD in artifact for artifact, _ in uploads)
    ):
        problem(
            "cada parte sube su informe con un nombre propio (que lleve "
            f"{MATRIX_SHARD}): con un nombre común, las partes se pisarían el artefacto"
        )
    group = job.get("concurrency")
    if isinstance(group, dict):
        group = group.get("group")
    if group and MATRIX_SHARD not in _canon(str(group)):
        problem(
            "el grupo de concurrencia de un trabajo con partes lleva la parte "
            f"({MATRIX_SHARD}): si no, las partes de una misma ejecución esperarían unas a otras "
            "y GitHub cancelaría las que esperan",
            "cola",
        )
    return found


def _shards_config_problems(name: str, job_name: str, job: dict[str, Any]) -> list[Problem]:
    """The job that reads DOCS_SHARDS on a GitHub-hosted runner with .ci/shards.py."""
    reads = [
        step
        for step in job.get("steps", []) or []
        if SHARDS_SCRIPT in str(step.get("run", ""))
        and "id" in step
        and expression((step.get("env") or {}).get(SHARDS_VARIABLE)) == f"vars.{SHARDS_VARIABLE}"
    ]
    outputs = job.get("outputs") or {}
    wired = [
        step
        for step in reads
        if all(
            expression(outputs.get(key)) == f"steps.{step['id']}.outputs.{key}"
            for key in ("total", "shards")
        )
    ]
    if is_cpu(job) and wired:
        return []
    return [
        Problem(
            "partes",
            f"{name}: jobs.{job_name}",
            f"el trabajo de las partes corre en un runner de GitHub, ejecuta {SHARDS_SCRIPT} con "
            f"{SHARDS_VARIABLE}: ${{{{ vars.{SHARDS_VARIABLE} }}}} en env y da sus salidas total "
            "y shards como salidas del trabajo",
        )
    ]


def _actions_reader_problems(name: str, job_name: str, job: dict[str, Any]) -> list[Problem]:
    """A job that may read the repository's Actions (other runs, their artifacts and logs) holds
    nothing else and runs no code of the repository: it checks nothing out."""
    perms = job.get("permissions") or {}
    if set(perms) == {"actions"} and not steps_using(job, "actions/checkout"):
        return []
    return [
        Problem(
            "lector-actions",
            f"{name}: jobs.{job_name}",
            "un trabajo con permiso «actions» no tiene otros permisos ni obtiene el código del "
            "repositorio (actions/checkout): el token que lee otras ejecuciones no debe estar "
            "donde corre código del repositorio",
        )
    ]


def _zensical_problems(name: str, job_name: str, jobs: dict[str, Any]) -> list[Problem]:
    """The Zensical job audits its build and never holds up publishing, which stays on MkDocs."""
    gated = sorted(
        other
        for other, job in jobs.items()
        if (steps_using(job, PAGES_UPLOAD) or steps_using(job, "actions/deploy-pages"))
        and job_name in all_needs(jobs, other)
    )
    if not gated:
        return []
    return [
        Problem(
            "zensical",
            f"{name}: jobs.{job_name}",
            f"el trabajo de Zensical no bloquea la publicación: {', '.join(gated)} no debe "
            "esperarlo (needs)",
        )
    ]


def _queue_problems(name: str, doc: dict[str, Any]) -> list[Problem]:
    """No run on main waits behind another: a queued gpu job never holds up a later cpu check."""
    group = doc.get("concurrency")
    if isinstance(group, dict):
        group = group.get("group")
    match = re.fullmatch(r"[^$]*\$\{\{(.*)\}\}[^$]*", str(group or ""), re.DOTALL)
    if match:
        parts = split_top(expression(match.group(1)), "||")
        head, last = parts[:-1], parts[-1]
        if last == "github.run_id" and all(
            split_top(p, "&&")[0] == "github.event_name == 'pull_request'"
            and len(split_top(p, "&&")) == 2
            for p in head
        ):
            return []
    return [
        Problem(
            "cola",
            f"{name}: concurrency",
            "con un trabajo gpu, el grupo de concurrencia del workflow es propio de cada ejecución "
            "fuera de las pull requests (… || github.run_id): si no, un trabajo gpu en cola (hasta "
            "24 h) retiene las ejecuciones siguientes de main y GitHub cancela las que esperan, "
            "con su verificación de CPU",
        )
    ]


def _permission_problems(name: str, job_name: str, job: dict[str, Any]) -> list[Problem]:
    where = f"{name}: jobs.{job_name}.permissions"
    perms = job.get("permissions", {})
    if perms is None:
        perms = {}
    if isinstance(perms, str):
        return [Problem("permisos", where, f"«{perms}» es demasiado amplio: lista los permisos")]
    found = []
    writes = sorted(scope for scope, level in perms.items() if level == "write")
    for scope in writes:
        action = WRITE_SCOPES.get(scope)
        if action is None or not steps_using(job, action):
            found.append(
                Problem(
                    "permisos",
                    where,
                    f"«{scope}: write» solo se permite en el "
                    f"trabajo que usa {action or 'nada: ningún trabajo lo necesita'}",
                )
            )
    if perms.get("issues") == "write" and set(perms) != {"issues"}:
        found.append(
            Problem(
                "permisos",
                where,
                "el trabajo que escribe incidencias no tiene ningún otro permiso "
                f"(tiene: {', '.join(sorted(perms))})",
            )
        )
    if writes and (
        steps_using(job, "actions/checkout")
        or any("run" in s and not is_head_check(s) for s in job.get("steps", []) or [])
    ):
        found.append(
            Problem(
                "permisos",
                where,
                "un trabajo con permisos de escritura no debe "
                "obtener ni ejecutar el código del repositorio",
            )
        )
    return found


def _self_hosted_problems(
    name: str, job_name: str, job: dict[str, Any], triggers: set[str]
) -> list[Problem]:
    where = f"{name}: jobs.{job_name}"
    found = []
    for event in sorted(triggers - SELF_HOSTED_EVENTS):
        found.append(
            Problem("puerta-fork", where, f"un runner propio no puede correr en «{event}»")
        )
    if "pull_request" in triggers:
        condition = expression(job.get("if"))
        if not condition or not guarded(condition):
            found.append(
                Problem(
                    "puerta-fork",
                    where,
                    "el trabajo del runner propio necesita la puerta contra "
                    f"forks en su if: (github.event_name == 'push' || {SAME_REPO})",
                )
            )
    return found


def _deploy_problems(name: str, job_name: str, jobs: dict[str, Any]) -> list[Problem]:
    where = f"{name}: jobs.{job_name}"
    job = jobs[job_name]
    found = []
    upstream = all_needs(jobs, job_name)
    if not any(is_cpu(jobs[n]) and checks_on(jobs[n], "cpu") for n in upstream):
        found.append(
            Problem(
                "deploy",
                where,
                "el despliegue debe esperar al runner de CPU (el trabajo que ejecuta "
                "docverify check --runner cpu)",
            )
        )
    if not any(is_gpu(n) for n in upstream):
        found.append(Problem("deploy", where, "el despliegue debe esperar al runner de GPU"))
    if not any(steps_using(jobs[n], "actions/upload-pages-artifact") for n in upstream):
        found.append(
            Problem(
                "deploy",
                where,
                "el despliegue debe esperar al trabajo que sube el sitio (upload-pages-artifact)",
            )
        )
    steps = job.get("steps", []) or []
    foreign = [
        str(step.get("name") or step.get("uses") or step.get("run"))
        for step in steps
        if not is_head_check(step)
        and ("run" in step or str(step.get("uses", "")).split("@")[0] != "actions/deploy-pages")
    ]
    if foreign:
        found.append(
            Problem(
                "deploy",
                where,
                "el despliegue no ejecuta código del repositorio: sus pasos son la consulta de la "
                f"cabeza de main y actions/deploy-pages (sobran: {', '.join(foreign)})",
            )
        )
    found.extend(_deploy_head_problems(where, steps))
    condition = expression(job.get("if"))
    conjuncts = split_top(condition, "&&") if condition else []
    # `!cancelled()` only lifts GitHub's implicit success() over every ancestor, which a skipped
    # gpu job (no GPU runner configured) would fail: then each direct need must have passed.
    lifted = "!cancelled()" in conjuncts
    for function in STATUS_FUNCTIONS:
        bare = condition.replace(" ", "").replace("!cancelled()", "") if lifted else condition
        if function in bare.replace(" ", ""):
            found.append(
                Problem(
                    "deploy", where, f"«{function}» haría desplegar aunque un runner haya fallado"
                )
            )
    if lifted:
        for need in needs(job):
            if f"needs.{need}.result == 'success'" not in conjuncts:
                found.append(
                    Problem(
                        "deploy",
                        where,
                        f"con «!cancelled()» el despliegue exige «needs.{need}.result == "
                        "'success'» unido con &&",
                    )
                )
    if len(split_top(condition, "||")) > 1:
        found.append(
            Problem(
                "deploy",
                where,
                "la condición del despliegue no puede tener «||» "
                "fuera de paréntesis: debe exigir push a main sin alternativas",
            )
        )
    if not any(publishing_event(c) for c in conjuncts):
        found.append(
            Problem(
                "deploy",
                where,
                "el despliegue debe exigir «github.event_name == 'push'» (o «(github.event_name "
                "== 'push' || github.event_name == 'workflow_dispatch')») unido con &&",
            )
        )
    if "github.ref == 'refs/heads/main'" not in conjuncts:
        found.append(
            Problem("deploy", where, "el despliegue debe exigir «github.ref == 'refs/heads/main'»")
        )
    return found


def _deploy_head_problems(where: str, steps: list[dict[str, Any]]) -> list[Problem]:
    """Deploy asks again, in its own job, whether its commit is the head of main, and publishes
    only then: re-running deploy alone reuses what `site` computed back then."""
    deploys = [
        i for i, s in enumerate(steps) if str(s.get("uses", "")).split("@")[0] == PAGES_DEPLOY
    ]
    checks = [
        str(s["id"]) for s in steps[: min(deploys, default=0)] if is_head_check(s) and "id" in s
    ]
    if (
        deploys
        and checks
        and all(
            any(
                expression(steps[i].get("if")) == f"steps.{check}.outputs.publish == 'true'"
                for check in checks
            )
            for i in deploys
        )
    ):
        return []
    return [
        Problem(
            "deploy-cabeza",
            where,
            "el despliegue pregunta otra vez, en su propio trabajo, si su commit sigue siendo la "
            "cabeza de main (un paso con id que consulte `gh api repos/$REPOSITORY/commits/main` "
            "y lo compare con SHA: ${{ github.sha }}) y publica solo con «if: "
            "steps.<id>.outputs.publish == 'true'»: relanzar deploy solo reutiliza el "
            "«publish» que calculó site entonces",
        )
    ]


def _with(step: dict[str, Any], key: str) -> str:
    return str((step.get("with") or {}).get(key) or "")


def _norm(path: str) -> str:
    return posixpath.normpath(_canon(path).strip() or ".")


def _canon(text: str) -> str:
    """`${{x}}` and `${{  x  }}` written as `${{ x }}`."""
    return re.sub(r"\$\{\{\s*(.*?)\s*\}\}", r"${{ \1 }}", text)


def _resolve(arg: str, env: dict[str, Any]) -> str:
    """A shell argument with its quotes removed and $NAME / ${NAME} replaced by the step's env
    (the value as written: `${{ matrix.shard }}` stays an expression)."""
    text = arg.strip().replace('"', "").replace("'", "")
    return _canon(
        re.sub(
            r"\$\{?([A-Za-z_]\w*)\}?",
            lambda m: str(env[m.group(1)]) if m.group(1) in env else m.group(0),
            text,
        )
    )


def report_folders(job: dict[str, Any]) -> list[str]:
    """Every folder a `docverify check --report FOLDER` of the job writes."""
    found = []
    for step in job.get("steps", []) or []:
        for match in _REPORT.finditer(str(step.get("run", ""))):
            found.append(_norm(_resolve(match.group(1), step.get("env") or {})))
    return found


def report_uploads(job: dict[str, Any]) -> list[tuple[str, str]]:
    """(artifact name, report folder inside the artifact) for each upload that runs always and
    carries a folder the job's `docverify check --report` writes."""
    found = []
    for step in steps_using(job, "actions/upload-artifact"):
        if "always()" not in expression(step.get("if")).replace(" ", ""):
            continue
        for base in (_norm(p) for p in _with(step, "path").split("\n") if p.strip()):
            for folder in report_folders(job):
                inside = posixpath.relpath(folder, base)
                if not inside.startswith(".."):
                    found.append((_canon(_with(step, "name")), inside))
    return found


def _report_problems(name: str, job_name: str, job: dict[str, Any], rule: str) -> list[Problem]:
    """A verification job keeps its report on every run: the published build (and, for the
    GPU, `accept`) needs it."""
    where = f"{name}: jobs.{job_name}"
    if not report_folders(job):
        return [
            Problem(
                rule, where, "el trabajo de verificación debe ejecutar docverify check --report"
            )
        ]
    if not report_uploads(job):
        return [
            Problem(
                rule,
                where,
                "el informe de docverify check debe subirse en cada ejecución, pase o falle "
                "(upload-artifact con if: always() cuya ruta contenga la carpeta de --report)",
            )
        ]
    return []


def _gpu_report_problems(name: str, job_name: str, job: dict[str, Any]) -> list[Problem]:
    return _report_problems(name, job_name, job, "informe-gpu")


_SAMPLES = ("1", "2", "16")  # matrix values an artifact name template is tried with


def _covers(pattern: str, template: str) -> bool:
    """Whether a download's glob `pattern` matches every name `template` (an artifact name that
    may hold ${{ }} expressions, such as docverify-cpu-${{ matrix.shard }}) can take."""
    return all(
        fnmatch.fnmatchcase(re.sub(r"\$\{\{.*?\}\}", sample, template), pattern)
        for sample in _SAMPLES
    )


def _this_run(step: dict[str, Any]) -> bool:
    """A download-artifact step that reads this run's artifacts (no run-id, no token)."""
    return not (_with(step, "run-id") or _with(step, "github-token"))


def landing(job: dict[str, Any], uploads: list[tuple[str, str]], others: list[str]) -> set[str]:
    """Where the job's download-artifact steps put the reports of `uploads` (artifact name,
    folder inside it): for a download by name, that folder; for a download by pattern, which
    must cover every name the artifact takes (one per shard) and none of `others` (another
    runner's), the download folder (each shard's artifact lands below it; docverify merges
    every report below a folder)."""
    found = set()
    for step in steps_using(job, "actions/download-artifact"):
        if not _this_run(step):
            continue
        name, pattern, path = _with(step, "name"), _with(step, "pattern"), _with(step, "path")
        for artifact, inside in uploads:
            if name:
                if name == artifact and "${{" not in artifact:
                    found.add(_norm(posixpath.join(path or ".", inside)))
            elif (
                pattern
                and _covers(pattern, artifact)
                and not any(_covers(pattern, other) for other in others)
            ):
                found.add(_norm(path))
    return found


def _published_site_problems(
    name: str, job_name: str, jobs: dict[str, Any], doc: dict[str, Any]
) -> list[Problem]:
    """The job that uploads the Pages artifact renders the verification jobs' reports: the cpu
    job's (every shard, DOCVERIFY_FROM_REPORTS: it executes no block) and the gpu job's
    (DOCVERIFY_GPU_REPORT); a canary only as the site canary job passes it on."""
    where = f"{name}: jobs.{job_name}"
    job = jobs[job_name]
    upstream = all_needs(jobs, job_name)
    gpu_jobs = [n for n in upstream if is_gpu(n)]
    if not gpu_jobs:
        return [
            Problem(
                "sitio-gpu",
                where,
                "el sitio publicado se construye después del runner GPU (needs), con su informe",
            )
        ]
    found = []
    steps = job.get("steps", []) or []
    upload = next(i for i, s in enumerate(steps) if s in steps_using(job, PAGES_UPLOAD))
    builds = [s for s in steps[:upload] if "mkdocs build" in str(s.get("run", ""))]
    for step in steps:
        if _EXECUTES.search(str(step.get("run", ""))):
            found.append(
                Problem(
                    "sitio-informes",
                    where,
                    f"el sitio publicado no ejecuta bloques («{step.get('name')}»): muestra lo "
                    "que observaron los trabajos de verificación, desde sus informes",
                )
            )

    def env(step: dict[str, Any], key: str) -> str:
        return str(_env_value(key, step, job, doc) or "")

    reports = {
        n: report_uploads(jobs[n])
        for n in jobs
        if checks_on(jobs[n], "cpu") or checks_on(jobs[n], "gpu")
    }
    cpu_jobs = [n for n in upstream if checks_on(jobs[n], "cpu")]
    cpu_places: set[str] = set()
    for cpu in cpu_jobs:
        found.extend(_report_problems(name, cpu, jobs[cpu], "informe-cpu"))
        others = [a for n, up in reports.items() if not checks_on(jobs[n], "cpu") for a, _ in up]
        cpu_places |= landing(job, reports[cpu], others)
    if not cpu_places:
        found.append(
            Problem(
                "sitio-informes",
                where,
                "el trabajo que sube el sitio descarga los informes de todas las partes del "
                "trabajo de CPU (download-artifact de esta ejecución, con pattern que cubra "
                "cada parte y ninguno de GPU)",
            )
        )
    for step in builds:
        if _norm(env(step, FROM_REPORTS_ENV)) not in cpu_places or not env(step, FROM_REPORTS_ENV):
            found.append(
                Problem(
                    "sitio-informes",
                    where,
                    f"«{step.get('name')}» construye desde los informes de CPU, sin ejecutar "
                    f"nada: {FROM_REPORTS_ENV} apuntando a donde se descargaron "
                    f"({', '.join(sorted(cpu_places)) or '?'})",
                )
            )
    gpu_places: set[str] = set()
    for gpu in gpu_jobs:
        others = [a for n, up in reports.items() if not checks_on(jobs[n], "gpu") for a, _ in up]
        gpu_places |= landing(job, report_uploads(jobs[gpu]), others)
    if not gpu_places:
        found.append(
            Problem(
                "sitio-gpu",
                where,
                "el trabajo que sube el sitio debe descargar el informe del runner GPU "
                "(download-artifact de esta ejecución: el nombre del artefacto que sube ese "
                "trabajo o, con partes, un pattern que cubra cada una y ninguna de CPU)",
            )
        )
    elif not any(
        _norm(env(s, GPU_REPORT_ENV)) in gpu_places for s in builds if env(s, GPU_REPORT_ENV)
    ):
        found.append(
            Problem(
                "sitio-gpu",
                where,
                f"el sitio que se sube debe construirse (mkdocs build, antes de subirlo) con "
                f"{GPU_REPORT_ENV} apuntando al informe descargado "
                f"({', '.join(sorted(gpu_places))})",
            )
        )
    found.extend(_site_canary_problems(name, job_name, jobs, doc))
    return found


def _site_canary_problems(
    name: str, job_name: str, jobs: dict[str, Any], doc: dict[str, Any]
) -> list[Problem]:
    """The site's canary comes from weekly.yml's runs on the default branch, fetched by a job
    of its own (the only one holding `actions: read`, running no repository code) and passed
    on as an artifact of this run."""
    where = f"{name}: jobs.{job_name}"
    job = jobs[job_name]
    values = [
        str(scope[CANARY_REPORT_ENV])
        for scope in (
            doc.get("env") or {},
            job.get("env") or {},
            *((s.get("env") or {}) for s in job.get("steps", []) or []),
        )
        if CANARY_REPORT_ENV in scope
    ]
    if not values:
        return []
    # The folders the variable may name: the literals of its expression, or the plain value.
    named = {
        _norm(literal)
        for value in values
        for literal in (re.findall(r"'([^']+)'", value) if "${{" in value else [value])
        if literal.strip() and literal not in ("true", "false")
    }
    fetched = set()
    upstream = all_needs(jobs, job_name)
    for step in steps_using(job, "actions/download-artifact"):
        if not _this_run(step) or not _with(step, "name"):
            continue
        for other in upstream:
            source = jobs[other]
            if any(
                _with(up, "name") == _with(step, "name")
                for up in steps_using(source, "actions/upload-artifact")
            ) and _fetches_weekly_canary(source):
                fetched.add(_norm(_with(step, "path")))
    if named and named <= fetched:
        return []
    return [
        Problem(
            "sitio-canario",
            where,
            f"{CANARY_REPORT_ENV} apunta solo al canario que pasa un trabajo previo de esta "
            "ejecución (download-artifact por nombre, sin run-id ni token): ese trabajo, con "
            "«actions: read» y sin el código del repositorio, lo toma de las ejecuciones de "
            f"{WEEKLY_RUNS.split('/')[-2]} en la rama por defecto "
            f"(branch={DEFAULT_BRANCH_VALUE})",
        )
    ]


def _fetches_weekly_canary(job: dict[str, Any]) -> bool:
    """Whether the job reads weekly.yml's runs of the default branch, holding `actions: read`
    and nothing else, without the repository's code."""
    if (
        _actions_reader_problems("", "", job)
        or (job.get("permissions") or {}).get("actions") != "read"
    ):
        return False
    for step in job.get("steps", []) or []:
        env = step.get("env") or {}
        match = re.search(
            rf"{re.escape(WEEKLY_RUNS)}\?[^\s\"']*\bbranch=\$\{{?(\w+)", str(step.get("run", ""))
        )
        if match and _canon(str(env.get(match.group(1), ""))) == DEFAULT_BRANCH_VALUE:
            return True
    return False


def check_folder(folder: Path) -> list[Problem]:
    """The problems of every workflow in `folder` (.yml and .yaml)."""
    problems: list[Problem] = []
    for path in sorted([*folder.glob("*.yml"), *folder.glob("*.yaml")]):
        problems.extend(check(path.read_text(encoding="utf-8"), path.name))
    return problems
