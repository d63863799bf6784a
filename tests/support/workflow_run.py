"""A dry run of a workflow's job graph: which jobs run, which are skipped, which steps run.

GitHub Actions cannot run here. This evaluates the workflow's own `if:` conditions, job outputs
and `runs-on` with the expression rules GitHub documents (operators, loose equality, status
functions, `needs.*.result`), over a scenario: the event, the repository variables DOCS_GPU_RUNNER
and DOCS_SHARDS and the result each job would have. The first jobs are not assumed: their steps run
the real .ci/gpu-runner.py and .ci/shards.py with the environment the workflow gives them. A job
with a matrix runs once per combination (its `strategy.matrix`, evaluated like any expression),
and its result is theirs together, as GitHub reports it to the jobs that need it. So the tests ask
the workflows themselves what happens when no GPU runner is configured, when the gpu job (or one
of its shards) fails or is cancelled, or when a fork opens a pull request, instead of restating
the answer.

Only what these workflows use is implemented; anything else raises, so a new construct is noticed.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

# --- Expressions ---------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"\s*(?:(?P<str>'(?:[^']|'')*')|(?P<num>\d+(?:\.\d+)?)|(?P<op>&&|\|\||==|!=|<=|>=|[!<>().,\[\]*])"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_-]*))"
)


def _tokens(text: str) -> list[tuple[str, str]]:
    found, pos = [], 0
    text = text.strip()
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if not match or match.end() == pos:
            raise ValueError(f"expresión no reconocida en {pos}: {text!r}")
        kind = match.lastgroup or ""
        found.append((kind, match.group(kind)))
        pos = match.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    return found


def _truthy(value: Any) -> bool:
    if isinstance(value, float) and math.isnan(value):
        return False
    return value not in (None, False, 0, "")


def _number(value: Any) -> float:
    if value is None:
        return 0.0
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip() or 0)
        except ValueError:
            return float("nan")
    return float("nan")


def _equal(left: Any, right: Any) -> bool:
    """GitHub's loose equality: strings ignore case; different types compare as numbers."""
    if isinstance(left, str) and isinstance(right, str):
        return left.casefold() == right.casefold()
    if type(left) is type(right) or (left is None and right is None):
        return left == right
    if isinstance(left, (list, dict)) or isinstance(right, (list, dict)):
        return left is right
    return _number(left) == _number(right)


def _string(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (list, dict)):
        return json.dumps(value)
    return str(value)


class _Parser:
    def __init__(self, text: str, context: dict[str, Any], functions: dict[str, Any]) -> None:
        self.items = _tokens(text)
        self.pos = 0
        self.context = context
        self.functions = functions
        self.text = text

    def peek(self) -> str | None:
        return self.items[self.pos][1] if self.pos < len(self.items) else None

    def take(self, expected: str | None = None) -> tuple[str, str]:
        if self.pos >= len(self.items):
            raise ValueError(f"expresión incompleta: {self.text!r}")
        item = self.items[self.pos]
        if expected is not None and item[1] != expected:
            raise ValueError(f"se esperaba «{expected}» y hay «{item[1]}» en {self.text!r}")
        self.pos += 1
        return item

    def parse(self) -> Any:
        value = self.disjunction()
        if self.pos != len(self.items):
            raise ValueError(f"sobra «{self.peek()}» en {self.text!r}")
        return value

    def disjunction(self) -> Any:
        value = self.conjunction()
        while self.peek() == "||":
            self.take()
            right = self.conjunction()
            value = value if _truthy(value) else right
        return value

    def conjunction(self) -> Any:
        value = self.equality()
        while self.peek() == "&&":
            self.take()
            right = self.equality()
            value = right if _truthy(value) else value
        return value

    def equality(self) -> Any:
        value = self.comparison()
        while self.peek() in ("==", "!="):
            op = self.take()[1]
            right = self.comparison()
            value = _equal(value, right) if op == "==" else not _equal(value, right)
        return value

    def comparison(self) -> Any:
        value = self.unary()
        while self.peek() in ("<", "<=", ">", ">="):
            op = self.take()[1]
            left, right = _number(value), _number(self.unary())
            value = {
                "<": left < right,
                "<=": left <= right,
                ">": left > right,
                ">=": left >= right,
            }[op]
        return value

    def unary(self) -> Any:
        if self.peek() == "!":
            self.take()
            return not _truthy(self.unary())
        return self.primary()

    def primary(self) -> Any:
        kind, token = self.take()
        if token == "(":
            value = self.disjunction()
            self.take(")")
            return self.postfix(value)
        if kind == "str":
            return token[1:-1].replace("''", "'")
        if kind == "num":
            return float(token)
        if kind != "name":
            raise ValueError(f"«{token}» inesperado en {self.text!r}")
        if token in ("true", "false"):
            return token == "true"
        if token == "null":
            return None
        if self.peek() == "(":
            self.take("(")
            args = []
            while self.peek() != ")":
                args.append(self.disjunction())
                if self.peek() == ",":
                    self.take(",")
            self.take(")")
            function = self.functions.get(token.casefold())
            if function is None:
                raise ValueError(f"función no implementada: {token}()")
            return self.postfix(function(*args))
        if token not in self.context:
            raise ValueError(f"contexto no implementado: {token}")
        return self.postfix(self.context[token])

    def postfix(self, value: Any) -> Any:
        while self.peek() in (".", "["):
            if self.take()[1] == ".":
                _, name = self.take()
                if name == "*":
                    value = list(value.values()) if isinstance(value, dict) else []
                    value = _Filtered(value)
                    continue
                value = _member(value, name)
            else:
                key = self.disjunction()
                self.take("]")
                value = _member(value, _string(key))
        return value.items if isinstance(value, _Filtered) else value


class _Filtered:
    """The result of `.*`: the following property is taken from each element."""

    def __init__(self, items: list[Any]) -> None:
        self.items = items


def _member(value: Any, name: str) -> Any:
    if isinstance(value, _Filtered):
        return _Filtered([_member(v, name) for v in value.items])
    if isinstance(value, dict):
        for key, item in value.items():
            if key.casefold() == name.casefold():
                return item
        return ""  # GitHub: a missing property is an empty string
    return ""


def _contains(search: Any, item: Any) -> bool:
    if isinstance(search, list):
        return any(_equal(element, item) for element in search)
    return _string(item).casefold() in _string(search).casefold()


def _format(template: str, *args: Any) -> str:
    return re.sub(r"\{(\d+)\}", lambda m: _string(args[int(m.group(1))]), template)


def evaluate(text: str, context: dict[str, Any], status: dict[str, bool] | None = None) -> Any:
    """Evaluate an expression (with or without ${{ }}) in `context`; `status` gives the values of
    success(), failure() and cancelled() (always() is always true)."""
    text = text.strip()
    if text.startswith("${{") and text.endswith("}}"):
        text = text[3:-2]
    status = status or {}
    functions = {
        "success": lambda: status.get("success", True),
        "failure": lambda: status.get("failure", False),
        "cancelled": lambda: status.get("cancelled", False),
        "always": lambda: True,
        "contains": _contains,
        "startswith": lambda a, b: _string(a).casefold().startswith(_string(b).casefold()),
        "endswith": lambda a, b: _string(a).casefold().endswith(_string(b).casefold()),
        "format": _format,
        "fromjson": lambda value: json.loads(_string(value)),
        "tojson": lambda value: json.dumps(value, indent=2),
    }
    return _Parser(text, context, functions).parse()


def condition(raw: Any, context: dict[str, Any], status: dict[str, bool]) -> bool:
    """An `if:`: with no status function in it, GitHub adds `success() &&`."""
    text = str(raw).strip() if raw is not None else ""
    if text.startswith("${{") and text.endswith("}}"):
        text = text[3:-2]
    if not text:
        text = "success()"
    elif not re.search(r"\b(success|failure|cancelled|always)\(\)", text):
        text = f"success() && ({text})"
    return _truthy(evaluate(text, context, status))


def render(template: Any, context: dict[str, Any]) -> str:
    """A value with ${{ }} parts, as the runner receives it."""
    return re.sub(
        r"\$\{\{(.*?)\}\}", lambda m: _string(evaluate(m.group(1), context)), _string(template)
    )


# --- A run ---------------------------------------------------------------------------------------


@dataclass
class Job:
    result: str  # success, failure, cancelled or skipped
    outputs: dict[str, str] = field(default_factory=dict)
    steps: list[str] = field(default_factory=list)  # names of the steps that ran
    uses: list[str] = field(default_factory=list)  # the actions of the steps that ran
    # step name -> its rendered env (the job's env, then the step's)
    env: dict[str, dict[str, str]] = field(default_factory=dict)
    # step name -> its action and its rendered `with:` (for the steps that ran an action)
    actions: dict[str, str] = field(default_factory=dict)
    inputs: dict[str, dict[str, str]] = field(default_factory=dict)
    runs_on: Any = None
    title: str = ""  # the job's rendered name
    matrix: dict[str, Any] = field(default_factory=dict)  # this instance's matrix values
    instances: list[Job] = field(default_factory=list)  # a matrix job: one per combination


@dataclass
class Scenario:
    event: str  # push, pull_request, schedule, workflow_dispatch
    variable: str | None = None  # DOCS_GPU_RUNNER; None: not set
    shards: str | None = None  # DOCS_SHARDS; None: not set
    variables: dict[str, str] = field(default_factory=dict)  # any other repository variable
    # job -> result when it runs; "job:N" for the Nth instance (from 1) of a matrix job
    results: dict[str, str] = field(default_factory=dict)
    # "job.step-id" -> the outputs of a step that asks GitHub or an index (not run here)
    outputs: dict[str, dict[str, str]] = field(default_factory=dict)
    fork: bool = False  # a pull request from a fork
    head_current: bool = True  # the run's commit is still the head of main (when `site` asks)
    # ... when `deploy` asks again (None: the same answer): False for a deploy re-run alone later
    head_at_deploy: bool | None = None
    ref: str | None = None
    cancelled: bool = False  # the whole run was cancelled


REPOSITORY = "duena/curso"
SHA = "0" * 40


def github_context(scenario: Scenario) -> dict[str, Any]:
    event: dict[str, Any] = {}
    ref = scenario.ref
    if scenario.event == "pull_request":
        head = "extrana/curso" if scenario.fork else REPOSITORY
        event = {
            "pull_request": {"head": {"repo": {"full_name": head}}},
            "repository": {"default_branch": "main"},
        }
        ref = ref or "refs/pull/7/merge"
    elif scenario.event != "schedule":
        event = {"repository": {"default_branch": "main"}}  # a scheduled event carries none
    return {
        "event_name": scenario.event,
        "ref": ref or "refs/heads/main",
        "repository": REPOSITORY,
        "sha": SHA,
        "run_id": "1234",
        "token": "sin-token",
        "event": event,
    }


def _order(jobs: dict[str, Any]) -> list[str]:
    done: list[str] = []
    pending = list(jobs)
    while pending:
        for name in pending:
            if all(n in done for n in _needs(jobs[name])):
                done.append(name)
                pending.remove(name)
                break
        else:
            raise ValueError(f"dependencias circulares entre {pending}")
    return done


def run_with_outputs(
    argv: list[str], env: dict[str, str], output: Path, cwd: Path = ROOT
) -> tuple[int, str, dict[str, str]]:
    """A step's command run for real in `cwd`, with `env` (PATH aside, nothing of this
    process's environment) and GITHUB_OUTPUT at `output`: its exit status, its log, and the
    outputs it wrote."""
    output.touch()
    done = subprocess.run(
        argv,
        cwd=cwd,
        env={k: v for k, v in os.environ.items() if k == "PATH"}
        | env
        | {"GITHUB_OUTPUT": str(output)},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    outputs = dict(
        line.split("=", 1) for line in output.read_text(encoding="utf-8").splitlines() if line
    )
    return done.returncode, done.stdout + done.stderr, outputs


def run_ci_script(
    script: str | Path, env: dict[str, str], output: Path
) -> tuple[int, str, dict[str, str]]:
    """A .ci/ step script (Python) run for real from the repository's root (run_with_outputs)."""
    return run_with_outputs([sys.executable, str(script)], env, output)


def _run_script_step(step: dict[str, Any], env: dict[str, str]) -> tuple[str, dict[str, str]]:
    """Run a `run:` step that only calls .ci/ scripts (the config job's), for real."""
    command = str(step["run"]).strip()
    if not re.fullmatch(r"python3 \.ci/[\w.-]+\.py", command):
        raise ValueError(f"solo se ejecutan guiones de .ci/ así: {command!r}")
    with tempfile.TemporaryDirectory() as folder:
        code, _, outputs = run_ci_script(command.split()[1], env, Path(folder) / "output")
    return ("success" if code == 0 else "failure"), outputs


def _needs(job: dict[str, Any]) -> list[str]:
    raw = job.get("needs", [])
    return [raw] if isinstance(raw, str) else list(raw)


def _steps(
    job: dict[str, Any], name: str, context: dict[str, Any], scenario: Scenario, result: str
) -> Job:
    """A job that starts: the steps whose if: holds, each assumed to pass, except the .ci/
    scripts, which run for real; the job's outputs from theirs."""
    record = Job(result, matrix=dict(context.get("matrix") or {}))
    labels = job.get("runs-on")
    record.runs_on = evaluate(str(labels), context) if "${{" in str(labels) else labels
    record.title = render(job.get("name", name), context)
    steps_ctx: dict[str, Any] = {}
    hosted = name != "gpu" and "${{" not in str(labels)  # labels from a variable: maybe its own
    runner = {"environment": "github-hosted" if hosted else "self-hosted"}
    job_env = {k: render(v, context) for k, v in (job.get("env") or {}).items()}
    for step in job.get("steps", []) or []:
        step_context = {**context, "steps": steps_ctx, "runner": runner, "env": job_env}
        if not condition(step.get("if"), step_context, {"success": True}):
            continue
        label = str(step.get("name") or step.get("uses") or step.get("run"))
        env = {k: render(v, step_context) for k, v in (step.get("env") or {}).items()}
        record.steps.append(label)
        if "uses" in step:
            record.uses.append(str(step["uses"]).split("@")[0])
            record.actions[label] = record.uses[-1]
            record.inputs[label] = {
                k: render(v, step_context) for k, v in (step.get("with") or {}).items()
            }
        record.env[label] = {**job_env, **env}
        outputs: dict[str, str] = {}
        # The first jobs' .ci/ scripts (no argument: they read a variable) run for real; one that
        # works on files (.ci/links.py inventory FOLDER) is a step like any other.
        if re.fullmatch(r"python3 \.ci/[\w.-]+\.py", str(step.get("run", "")).strip()):
            result, outputs = _run_script_step(step, env)
            if result != "success":
                record.result = "failure"
                break
        elif f"{name}.{step.get('id')}" in scenario.outputs:
            outputs = dict(scenario.outputs[f"{name}.{step.get('id')}"])
        elif step.get("id") == "head":
            current = scenario.head_current
            if name == "deploy" and scenario.head_at_deploy is not None:
                current = scenario.head_at_deploy
            outputs = {"publish": "true" if current else "false"}
        elif step.get("id") == "pages":
            outputs = {"url": "https://duena.github.io/curso/"}
        if "id" in step:
            steps_ctx[str(step["id"])] = {"outputs": outputs, "outcome": "success"}
    # A job's outputs are what its steps that ran wrote, whatever its result (GitHub passes a
    # failed job's outputs on to a job that runs after it with always()).
    step_context = {**context, "steps": steps_ctx}
    record.outputs = {k: render(v, step_context) for k, v in (job.get("outputs") or {}).items()}
    return record


def _combinations(job: dict[str, Any], context: dict[str, Any]) -> list[dict[str, Any]]:
    """The matrix of a job, one dict per combination ([{}] without a matrix)."""
    raw = (job.get("strategy") or {}).get("matrix")
    if not raw:
        return [{}]
    if not isinstance(raw, dict) or {"include", "exclude"} & set(raw):
        raise ValueError(f"matriz no implementada: {raw!r}")
    found: list[dict[str, Any]] = [{}]
    for key, raw_values in raw.items():
        values = evaluate(raw_values, context) if isinstance(raw_values, str) else raw_values
        if not isinstance(values, list) or not values:
            raise ValueError(f"la matriz {key} no es una lista no vacía: {values!r}")
        found = [{**done, key: value} for done in found for value in values]
    return found


def _run_job(job: dict[str, Any], name: str, context: dict[str, Any], scenario: Scenario) -> Job:
    """A job that starts; a matrix job once per combination, with their result together:
    failure if any failed, else cancelled if any was cancelled, else success."""
    combinations = _combinations(job, context)
    if combinations == [{}] and not (job.get("strategy") or {}).get("matrix"):
        return _steps(job, name, context, scenario, scenario.results.get(name, "success"))
    instances = [
        _steps(
            job,
            name,
            {**context, "matrix": values},
            scenario,
            scenario.results.get(f"{name}:{number}", scenario.results.get(name, "success")),
        )
        for number, values in enumerate(combinations, 1)
    ]
    ended = [i.result for i in instances]
    result = next((r for r in ("failure", "cancelled") if r in ended), "success")
    return Job(result, instances=instances)


def simulate(doc: dict[str, Any], scenario: Scenario) -> dict[str, Job]:
    """Every job of the workflow under `scenario`, in the order GitHub would start them."""
    jobs: dict[str, Any] = doc["jobs"]
    github = github_context(scenario)
    variables: dict[str, str] = {}
    if not scenario.fork:  # a fork's run gets no variables
        given = {"DOCS_GPU_RUNNER": scenario.variable, "DOCS_SHARDS": scenario.shards}
        variables = {k: v for k, v in given.items() if v is not None} | scenario.variables
    done: dict[str, Job] = {}

    def ancestors(name: str) -> set[str]:
        found = set(_needs(jobs[name]))
        for other in _needs(jobs[name]):
            found |= ancestors(other)
        return found

    for name in _order(jobs):
        job = jobs[name]
        needs_ctx = {n: {"result": done[n].result, "outputs": done[n].outputs} for n in _needs(job)}
        context = {"github": github, "needs": needs_ctx, "vars": variables, "inputs": {}}
        # success() looks at every ancestor, not only the direct needs: a job is skipped when any
        # of them was skipped (actions/runner#2205), unless its if: lifts that with a status
        # function.
        upstream = [done[n].result for n in ancestors(name)]
        status = {
            "success": all(r == "success" for r in upstream) and not scenario.cancelled,
            "failure": any(r == "failure" for r in upstream),
            "cancelled": scenario.cancelled,
        }
        if not condition(job.get("if"), context, status):
            done[name] = Job("skipped")
            continue
        done[name] = _run_job(job, name, context, scenario)
    return done
