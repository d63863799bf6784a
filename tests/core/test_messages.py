"""Every failure kind the engine can emit says what, where (file:line) and how to fix it.

The kinds are discovered in the engine's source (calls to Finding and to the local helpers that
build one, each naming a `Kind` member), so a new kind without a scenario here fails
`test_every_kind_has_a_scenario`. Scenarios are keyed by the kind's English value.
"""

from __future__ import annotations

import ast
import datetime as dt
import json
import os
import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import docverify
import pytest
from conftest import Project, as_local_author
from conftest import docverify as run_docverify
from docverify import build
from docverify.cli import main as cli
from docverify.core.config import today
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.core.request import Request
from docverify.output import verification_page
from docverify.parsing.pages import read_site
from docverify.report import accept, canary, from_reports, gpu_report, report_json
from docverify.running.executor import Executor
from docverify.sources import fingerprint
from docverify.verifying.record import record
from docverify.verifying.verify import verify
from support import mkdocs_site
from support.canary import report_here
from support.glossary import GLOSSARY
from support.relabel import check_report, relabel

ENGINE = Path(docverify.__file__).parent
_COMMAND = re.compile(r"docverify ([a-z][a-z-]*)")
# Kinds caused by an environment variable, not a file: their "where" is that variable.
WHERE_IS_AN_ENV_VAR = {
    "verifying.verify:execution-disabled",
    "report.gpu_report:invalid-report",
    "report.canary:invalid-canary-report",
    "report.from_reports:invalid-report",
    "report.accept:refused",
    "verifying.record:refused",
}
# Kinds whose fix is a command (the only thing that can fix them is running it).
FIXED_BY_COMMAND = {
    "verifying.messages:missing-recording",
    "verifying.messages:divergence",
    "verifying.messages:device-marks",
    "site.usage:orphan-recording",
}


# --- discovery ------------------------------------------------------------------------------


def _helpers(tree: ast.AST) -> dict[str, int]:
    """Functions that build a Finding whose kind is one of their parameters: name → position
    (of the argument in a call). A method is named «.name» (called as `obj.name(…)`), and its
    `self` is not an argument of the call."""
    found: dict[str, int] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef):
            continue
        params = [a.arg for a in node.args.args]
        method = params[:1] == ["self"]
        params = params[1:] if method else params
        for call in ast.walk(node):
            if (
                _is_finding(call)
                and call.args
                and isinstance(call.args[0], ast.Name)
                and call.args[0].id in params
            ):
                found[f".{node.name}" if method else node.name] = params.index(call.args[0].id)
    return found


def _is_finding(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Finding"
    )


def discover_kinds() -> tuple[set[str], list[str]]:
    """{"module:kind"} for every kind in the engine, and the calls whose kind is not a member."""
    kinds: set[str] = set()
    opaque: list[str] = []
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        helpers = _helpers(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            # A helper is called by name (`fail(…)`) or as a method (`verdict.fail(…)`).
            if isinstance(node.func, ast.Attribute):
                name = f".{node.func.attr}"
            else:
                name = getattr(node.func, "id", None)
            if name == "Finding" and isinstance(node.func, ast.Name):
                position = 0
            elif name in helpers:
                position = helpers[name]
            else:
                continue
            kind = (
                node.args[position]
                if len(node.args) > position
                else next((k.value for k in node.keywords if k.arg == "kind"), None)
            )
            if member := _member(kind):
                kinds.add(f"{_module(path)}:{member.value}")
            elif not (name == "Finding" and _inside_helper(tree, node, helpers)):
                opaque.append(
                    f"{path.relative_to(ENGINE)}:{node.lineno}"
                )  # a kind no scenario can name
    return kinds, opaque


def _member(node: ast.expr | None) -> Kind | None:
    """The registry member a call names (`Kind.DIVERGENCE`); None for anything else."""
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "Kind"
        and node.attr in Kind.__members__
    ):
        return Kind[node.attr]
    return None


def _module(path: Path) -> str:
    """A module's dotted name inside the engine package: «verifying.verify»."""
    return ".".join(path.relative_to(ENGINE).with_suffix("").parts)


def _inside_helper(tree: ast.AST, call: ast.Call, helpers: dict[str, int]) -> bool:
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.FunctionDef)
            and (node.name in helpers or f".{node.name}" in helpers)
            and any(child is call for child in ast.walk(node))
        ):
            return True
    return False


# --- scenarios ------------------------------------------------------------------------------

# The valid case's source was verified 10 days before the pinned day (conftest), so it is fresh;
# the dated scenarios are counted from that day too.
VALID = (today() - dt.timedelta(days=10)).isoformat()
# The article of the one-article MkDocs site (support.mkdocs_site), dated for these scenarios.
ARTICLE = mkdocs_site.ARTICLE.replace('verified: "2026-05-01"', f'verified: "{VALID}"')
FENCE = '```python exec="on" id="uno"\n--8<-- "articulos/a/uno.py"\n```'
RECORDING = mkdocs_site.RECORDING


class Case:
    """A valid one-article project, one mutation away from each failure."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.root = project.root
        self.text = ARTICLE
        self.code = "print(1)\n"
        self.recorded: str | None = "1"
        self.check: Callable[[], list[Finding]] = self.lint  # the last check a scenario ran

    def replace(self, old: str, new: str) -> Case:
        assert old in self.text, old
        self.text = self.text.replace(old, new, 1)
        return self

    def write(self) -> None:
        self.project.page("articulos/a.md", self.text)
        self.project.snippet("articulos/a/uno.py", self.code)
        if self.recorded is not None:
            self.project.snippet("articulos/a/uno.cpu.txt", RECORDING.format(body=self.recorded))

    def lint(self) -> list[Finding]:
        self.write()
        self.check = lambda: build.lint(self.project.config)
        return self.check()

    def verify(self, executor: Executor, **kwargs: Any) -> list[Finding]:
        self.write()

        def check() -> list[Finding]:
            cfg = self.project.config
            return verify(cfg, read_site(cfg), "cpu", executor, **kwargs).findings

        self.check = check
        return check()


def _nav(case: Case, nav: str) -> Case:
    (case.root / "mkdocs.yml").write_text(f"site_name: x\nnav:\n{nav}", encoding="utf-8")
    return case


Scenario = Callable[[Case, Executor], list[Finding]]


def _run_code(code: str, options: str = "", recorded: str | None = "1") -> Scenario:
    def scenario(case: Case, executor: Executor) -> list[Finding]:
        case.code, case.recorded = code, recorded
        if options:
            case.replace('id="uno"', f'id="uno" {options}')
        return case.verify(executor)

    return scenario


def _lint(mutate: Callable[[Case], object]) -> Scenario:
    def scenario(case: Case, executor: Executor) -> list[Finding]:
        mutate(case)
        return case.lint()

    return scenario


def _no_result(case: Case, executor: Executor) -> list[Finding]:
    # An engine failure: the executor returns nothing for the block.
    return case.verify(executor, run=lambda *_: ({}, {}))


def _gpu_report(mutate: Callable[[Case, Path], object]) -> Scenario:
    """A build with a GPU report (a real CPU run's report, relabelled), after `mutate`."""

    def scenario(case: Case, executor: Executor) -> list[Finding]:
        case.write()
        folder = case.root / "informe-gpu"
        check_report(case.project.config, executor, folder, runner="gpu")
        mutate(case, folder)
        case.write()

        def check() -> list[Finding]:
            cfg = case.project.config
            report = verify(cfg, read_site(cfg), "cpu", executor)
            return gpu_report.attach(cfg, report, folder).findings

        case.check = check
        return check()

    return scenario


def _canary_report(mutate: Callable[[Case, Path], object]) -> Scenario:
    """A build given a canary report (of this torch, support/canary.py), after `mutate`."""

    def scenario(case: Case, executor: Executor) -> list[Finding]:
        case.write()
        folder = case.root / "informe-canario"
        report_here(case.project.config, executor, folder)
        mutate(case, folder)
        case.write()

        def check() -> list[Finding]:
            cfg = case.project.config
            report = verify(cfg, read_site(cfg), "cpu", executor)
            return report.findings + canary.attach(cfg, report, folder)[1]

        case.check = check
        return check()

    return scenario


def _from_reports(mutate: Callable[[Case, Path], object]) -> Scenario:
    """A build from a CPU check report (DOCVERIFY_FROM_REPORTS), after `mutate`."""

    def scenario(case: Case, executor: Executor) -> list[Finding]:
        case.write()
        folder = case.root / "informe-cpu"
        check_report(case.project.config, executor, folder, runner="cpu")
        mutate(case, folder)
        case.write()

        def check() -> list[Finding]:
            cfg = case.project.config
            source = from_reports.load(cfg, [folder], "cpu")
            return from_reports.verify(cfg, read_site(cfg), source).findings

        case.check = check
        return check()

    return scenario


def _drop_canary(folder: Path) -> None:
    """What is left is a check report: not a canary's."""
    path = folder / "report.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["canary"]
    path.write_text(json.dumps(data), encoding="utf-8")


def _without_results(folder: Path) -> None:
    path = folder / "report.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    for item in data["observations"].values():
        del item["result"], item["spec_sha256"]
    path.write_text(json.dumps(data), encoding="utf-8")


def _drop_observations(folder: Path) -> None:
    path = folder / "report.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["observations"] = {}
    path.write_text(json.dumps(data), encoding="utf-8")


def _source(case: Case, *, verified: str = VALID, extra: str = "") -> Case:
    """Give the article's source another date and extra keys (a fingerprint, review_days)."""
    return case.replace(f'    verified: "{VALID}"\n', f'    verified: "{verified}"\n{extra}')


def _days_from_today(days: int) -> str:
    return (today() + dt.timedelta(days=days)).isoformat()


def _fingerprint(**fields: str) -> str:
    lines = "".join(f"      {key}: {value}\n" for key, value in fields.items())
    return f"    fingerprint:\n{lines}"


BACKWARD = "torch.autograd.backward"


def _backward_sha() -> str:
    base = fingerprint.package_dir("torch")
    return fingerprint.digest(fingerprint.object_source(base, BACKWARD))


def _policy(case: Case) -> None:
    pyproject = case.root / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text(encoding="utf-8") + "\n[tool.docverify.sources]\nmax_age_days = -1\n",
        encoding="utf-8",
    )


def _built(case: Case, executor: Executor) -> build.BuildResult:
    """The build result of the case's project (what the MkDocs hook gets)."""
    case.write()
    cfg = case.project.config
    return build.run(cfg, read_site(cfg), Request(runner="cpu"), executor)


def _reserved(case: Case, executor: Executor) -> list[Finding]:
    case.project.page(verification_page.URI, "# Mi informe\n")
    return _built(case, executor).findings


def _config(case: Case) -> None:
    pyproject = case.root / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    pyproject.write_text(text.replace("timeout = 60\n", "timeot = 60\n"), encoding="utf-8")


def _under_ci(scenario: Callable[[Case, Executor], list[Finding]]) -> Scenario:
    """`scenario` run with CI=true, as GitHub Actions and .ci/run set it."""

    def under_ci(case: Case, executor: Executor) -> list[Finding]:
        before = os.environ.get("CI")
        os.environ["CI"] = "true"
        try:
            return scenario(case, executor)
        finally:
            if before is None:
                del os.environ["CI"]
            else:
                os.environ["CI"] = before

    return under_ci


def _record(case: Case, executor: Executor) -> list[Finding]:
    case.write()
    cfg = case.project.config
    return record(cfg, read_site(cfg), "cpu", executor).findings


def _record_code(code: str) -> Scenario:
    """`docverify record` of a new block of `code` (no recording yet)."""

    def scenario(case: Case, executor: Executor) -> list[Finding]:
        case.code, case.recorded = code, None
        with as_local_author():  # record refuses under CI=true (.ci/run sets it)
            return _record(case, executor)

    return scenario


def _accept(case: Case, executor: Executor) -> list[Finding]:
    case.write()
    folder = case.root / "informe"
    check_report(case.project.config, executor, folder, runner="cpu")
    cfg = case.project.config
    return accept.plan(cfg, read_site(cfg), report_json.read(folder)).refusals


def _orphan(case: Case) -> None:
    case.project.snippet("articulos/a/viejo.cpu.txt", RECORDING.format(body="1"))


def _prose(text: str) -> Callable[[Case], object]:
    """The article's body text replaced by `text`, with the site's glossary in docs/."""

    def mutate(case: Case) -> None:
        case.project.page("glosario.yml", GLOSSARY)
        case.replace("## Cuerpo\n\nTexto.", f"## Cuerpo\n\n{text}")

    return mutate


SCENARIOS: dict[str, Scenario] = {
    "parsing.pages:front-matter": _lint(
        lambda c: c.replace('title: "Un artículo"', "title: [sin cerrar")
    ),
    "parsing.fence_checks:unverified-language": _lint(
        lambda c: c.replace("```python exec", "```bash exec")
    ),
    "parsing.origin:malformed-origin": _lint(
        lambda c: c.replace("---\n", "---\norigin:\n  repository: pytorch/tutorials\n")
    ),
    "site.notebook_names:notebook-name-clash": _lint(
        lambda c: c.replace(
            "## Cómo elegir",
            '```python exec="on" id="dos" session="s"\nn = 1\n```\n\n'
            '```python exec="on" id="tres"\nn = 2\n```\n\n'
            '```python exec="on" id="cuatro" session="s"\nprint(n)\n```\n\n## Cómo elegir',
        )
    ),
    "parsing.pages:malformed-data-files": _lint(
        lambda c: c.replace(
            'title: "Un artículo"', 'title: "Un artículo"\ndata_files:\n  - datos/no-esta.csv'
        )
    ),
    "parsing.origin:invalid-option": _lint(lambda c: c.replace('id="uno"', 'id="uno" own="true"')),
    "parsing.fence_checks:unknown-option": _lint(
        lambda c: c.replace('id="uno"', 'id="uno" colour="red"')
    ),
    "parsing.fence_checks:missing-id": _lint(lambda c: c.replace(' id="uno"', "")),
    "parsing.fence_checks:invalid-id": _lint(lambda c: c.replace('id="uno"', 'id="Uno_1"')),
    "parsing.fence_checks:invalid-option": _lint(
        lambda c: c.replace('id="uno"', 'id="uno" timeout="pronto"')
    ),
    "parsing.pages:invalid-option": _lint(
        lambda c: c.replace('title: "Un artículo"', 'title: "Un artículo"\ndevice_policy: rara')
    ),
    "parsing.fence_checks:missing-reason": _lint(
        lambda c: c.replace('id="uno"', 'id="uno" runner="cpu"')
    ),
    "parsing.pages:mixed-snippet": _lint(
        lambda c: c.replace('uno.py"\n```', 'uno.py"\nprint(2)\n```')
    ),
    "parsing.pages:missing-snippet": _lint(lambda c: c.replace("a/uno.py", "a/nada.py")),
    "parsing.pages:duplicate-id": _lint(
        lambda c: c.replace("## Cómo elegir", f"{FENCE}\n\n## Cómo elegir")
    ),
    "site.anatomy:missing-part": _lint(
        lambda c: c.replace("takeaways:\n  - Una conclusión.\n", "")
    ),
    "site.anatomy:malformed-part": _lint(
        lambda c: c.replace("goals:\n  - Un objetivo", 'goals: "Un objetivo"')
    ),
    "site.anatomy:template-text": _lint(
        lambda c: c.replace("| x | y | z |", "| Best when | y | z |")
    ),
    "site.anatomy:seed-without-replacement": _lint(
        lambda c: c.replace(
            "## Cómo elegir\n", '## Cómo elegir\n\n??? semilla "Original"\n\n    Texto.\n\n'
        )
    ),
    "site.meta_types:wrong-type": _lint(
        lambda c: c.replace(
            "takeaways:\n  - Una conclusión.", "takeaways:\n  - Forma: una conclusión."
        )
    ),
    "site.meta_keys:unknown-front-matter-key": _lint(
        lambda c: c.replace("takeaways:\n", "last_valu: show\ntakeaways:\n")
    ),
    "site.build_words:build-word": _lint(
        lambda c: c.replace("## Cuerpo\n\nTexto.", "## Cuerpo\n\nEl runner lo ejecuta.")
    ),
    "site.anatomy:malformed-faq": _lint(lambda c: c.replace('    answer: "Respuesta."\n', "")),
    "site.anatomy:section-order": _lint(
        lambda c: (
            c.replace("## Cómo elegir", "## TMP")
            .replace("## Pasos de implementación", "## Cómo elegir")
            .replace("## TMP", "## Pasos de implementación")
        )
    ),
    "sources.model:malformed-sources": _lint(
        lambda c: c.replace(
            c.text[c.text.index("sources:") : c.text.index("---\n\n##")], 'sources: "README"\n'
        )
    ),
    "sources.model:malformed-source": _lint(
        lambda c: c.replace('  - title: "Fuente"', '  - "una cadena"\n  - title: "Fuente"')
    ),
    "sources.model:unknown-source-key": _lint(
        lambda c: c.replace(f'verified: "{VALID}"', f'verified: "{VALID}"\n    autor: "yo"')
    ),
    "sources.model:incomplete-source": _lint(
        lambda c: c.replace('    reference: "PyTorch / README.md"\n', "")
    ),
    "sources.model:invalid-date": _lint(lambda c: c.replace(f'"{VALID}"', '"2026-13-45"')),
    "site.navigation:dangling-nav-entry": _lint(
        lambda c: _nav(c, "  - articulos/a.md\n  - articulos/falta.md\n")
    ),
    "site.navigation:page-not-in-nav": _lint(
        lambda c: _nav(c, "  - Inicio: index.md\n").project.page("index.md", "# Inicio\n")
    ),
    "site.usage:unused-snippet": _lint(
        lambda c: c.project.snippet("articulos/a/suelto.py", "print(2)\n")
    ),
    "sources.freshness:sources-policy": _lint(_policy),
    "sources.freshness:malformed-source": _lint(
        lambda c: _source(c, extra="    review_days: 9999\n")
    ),
    "sources.freshness:future-date": _lint(lambda c: _source(c, verified=_days_from_today(1))),
    "sources.freshness:stale-source": _lint(lambda c: _source(c, verified=_days_from_today(-181))),
    "sources.freshness:source-review-due": _lint(
        lambda c: _source(c, verified=_days_from_today(-170))
    ),
    "sources.freshness:incomplete-fingerprint": _lint(
        lambda c: _source(c, extra=_fingerprint(package="torch", object=BACKWARD))
    ),
    "sources.freshness:changed-source": _lint(
        lambda c: _source(
            c,
            extra=_fingerprint(
                package="torch", version='"2.13.0"', object=BACKWARD, sha256='"' + "0" * 64 + '"'
            ),
        )
    ),
    "sources.freshness:same-fingerprint": _lint(
        lambda c: _source(
            c,
            extra=_fingerprint(
                package="torch", version='"2.12.0"', object=BACKWARD, sha256=f'"{_backward_sha()}"'
            ),
        )
    ),
    "core.settings:config": _lint(_config),
    "report.accept:refused": _under_ci(_accept),
    "verifying.record:refused": _under_ci(_record),
    "verifying.stability:unstable-output": _record_code("import os\nprint(os.urandom(6).hex())\n"),
    "site.usage:orphan-recording": _lint(_orphan),
    "verifying.judge:no-result": _no_result,
    "verifying.judge:expectation": _run_code("print(1)  # Expectativa: 2\n"),
    "verifying.judge:execution-failure": _run_code("print(1\n"),
    "verifying.judge:unexpected-exception": _run_code('raise ValueError("no")\n'),
    "verifying.judge:missing-exception": _run_code("print(1)\n", 'raises="ValueError: no"'),
    "verifying.messages:missing-recording": _run_code("print(1)\n", recorded=None),
    "verifying.judge:unreadable-graph": _run_code("print(1)\n", 'graph="Grafo"'),
    "verifying.judge:unreadable-curve": _run_code("print(1)\n", 'curve="Curva"'),
    "site.glossary:malformed-glossary": _lint(
        lambda c: c.project.page("glosario.yml", "terms:\n  - term: grafo\n")
    ),
    "site.glossary_lint:avoided-phrase": _lint(_prose("Se recorre el gráfico computacional.")),
    "site.glossary_lint:code-only-word": _lint(_prose("Después se llama a backward.")),
    "site.glossary_lint:missing-seed": _lint(
        lambda c: c.replace(
            'description: "Frase inicial."', 'description: "Frase inicial."\nseed: "no-existe.txt"'
        )
    ),
    "verifying.messages:divergence": _run_code("print(1)\n", recorded="2"),
    "verifying.messages:volatile-divergence": _run_code(
        "print(hex(id(object())))\n", recorded="0x7f0000000001"
    ),
    "verifying.messages:stopped-processes": _run_code(
        'import subprocess\nsubprocess.Popen(["sleep", "300"])\n',
        recorded="ResourceWarning: subprocess [pid] is still running",
    ),
    # A block that draws random numbers, recorded without its device mark in the header.
    "verifying.messages:device-marks": _run_code(
        "import torch\nprint(bool(torch.rand(1) < 1))\n", recorded="True"
    ),
    "parsing.tabs:tab-in-code": _lint(lambda c: setattr(c, "code", 'print("a\tb")\n')),
    "verifying.verify:execution-disabled": lambda c, e: c.verify(e, execute_blocks=False),
    "site.checks:reserved-page": _reserved,
    "report.gpu_report:invalid-report": _gpu_report(
        lambda c, f: (f / "report.json").write_text("{", encoding="utf-8")
    ),
    "report.gpu_report:wrong-report-runner": _gpu_report(lambda c, f: relabel(f, "cpu")),
    "report.gpu_report:stale-report": _gpu_report(lambda c, f: setattr(c, "code", "print(2)\n")),
    "report.gpu_report:incomplete-report": _gpu_report(lambda c, f: _drop_observations(f)),
    "report.gpu_report:report-divergence": _gpu_report(lambda c, f: setattr(c, "recorded", "2")),
    # Format 2: a report that keeps no result per block, which no use can judge again.
    "report.report_json:invalid-report": _gpu_report(lambda c, f: _without_results(f)),
    "report.canary:invalid-canary-report": _canary_report(lambda c, f: _drop_canary(f)),
    "report.canary:stale-canary-report": _canary_report(
        lambda c, f: setattr(c, "code", "print(2)\n")
    ),
    "report.from_reports:invalid-report": _from_reports(
        lambda c, f: (f / "report.json").write_text("{", encoding="utf-8")
    ),
    "report.from_reports:wrong-report-runner": _from_reports(lambda c, f: relabel(f, "gpu")),
    "report.from_reports:stale-report": _from_reports(
        lambda c, f: setattr(c, "code", "print(2)\n")
    ),
    "report.from_reports:incomplete-report": _from_reports(lambda c, f: _drop_observations(f)),
}


def _finding(key: str, project: Project, executor: Executor) -> tuple[Finding, Case]:
    case = Case(project)
    kind = key.split(":", 1)[1]
    findings = SCENARIOS[key](case, executor)
    matching = [f for f in findings if f.kind == kind]
    assert matching, f"{key}: el escenario no produjo ese tipo; produjo {findings}"
    return matching[0], case


# --- tests ----------------------------------------------------------------------------------


def test_every_kind_has_a_scenario() -> None:
    kinds, opaque = discover_kinds()
    assert len(kinds) >= 25, f"la búsqueda de tipos encontró muy pocos: {sorted(kinds)}"
    assert not opaque, (
        f"Finding con un tipo que no es un miembro de Kind (no se puede comprobar): {opaque}"
    )
    assert sorted(kinds - set(SCENARIOS)) == [], "tipos nuevos sin escenario en test_messages.py"
    assert sorted(set(SCENARIOS) - kinds) == [], "escenarios de tipos que ya no existen"
    emitted = {key.split(":", 1)[1] for key in kinds}
    assert sorted(set(Kind) - emitted) == [], "tipos del registro que el motor nunca emite"


@pytest.mark.parametrize("key", sorted(SCENARIOS))
def test_message_says_what_where_and_how(key: str, project: Project, executor: Executor) -> None:
    finding, case = _finding(key, project, executor)
    assert finding.message.strip(), f"{key}: mensaje vacío"
    if key in WHERE_IS_AN_ENV_VAR:
        assert finding.path in finding.message and finding.path.isupper(), finding.where
        assert finding.fix.strip(), f"{key}: sin arreglo"
        return
    where = case.root / finding.path
    assert not Path(finding.path).is_absolute() and where.is_file(), f"{key}: {finding.where}"
    lines = max(1, len(where.read_text(encoding="utf-8").splitlines()))
    assert 1 <= finding.line <= lines, f"{key}: línea {finding.line} fuera de {finding.path}"
    assert f"{finding.path}:{finding.line}: [{finding.kind.label}]" in finding.format()
    assert finding.fix.strip() and "Cómo arreglarlo" in finding.format(), f"{key}: sin arreglo"
    cli.build_parser()  # registers every subcommand
    for name in _COMMAND.findall(f"{finding.message} {finding.fix}"):
        assert name in cli.COMMANDS, f"{key}: «docverify {name}» no es un subcomando"
    if key in FIXED_BY_COMMAND:
        assert _COMMAND.search(finding.fix), f"{key}: el arreglo debe ser un comando docverify"


@pytest.mark.parametrize("key", sorted(FIXED_BY_COMMAND))
def test_the_fix_command_fixes_it(key: str, project: Project, executor: Executor) -> None:
    finding, case = _finding(key, project, executor)
    match = re.search(r"docverify [^;()]+", finding.fix)
    assert match, finding.fix
    command = match.group(0).strip().rstrip(".")
    done = run_docverify(case.root, *shlex.split(command)[1:])
    assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
    again = case.check()  # the same check on the files as the command left them
    assert finding.kind not in {f.kind for f in again}, f"{command} no lo arregló: {again}"
