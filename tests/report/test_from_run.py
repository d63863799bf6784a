"""report.from_run: the report of one verification run, and where its CI run is."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

import pytest
from conftest import PYPROJECT, Project
from docverify.core.findings import Finding, Level
from docverify.core.kinds import Kind
from docverify.core.status import Status
from docverify.parsing.pages import read_site
from docverify.report import digests, from_run
from docverify.running.executor import Executor
from docverify.verifying.verify import verify
from support.blocks import block

CI_RUN = {
    "GITHUB_SERVER_URL": "https://github.com",
    "GITHUB_REPOSITORY": "equipo/pytorch-es",
    "GITHUB_RUN_ID": "99",
}
URL = "https://github.com/equipo/pytorch-es/actions/runs/99"


def test_the_run_url_is_made_of_githubs_three_variables() -> None:
    assert from_run.run_url(CI_RUN) == URL
    spaced = {
        "GITHUB_SERVER_URL": " https://github.example/ \n",
        "GITHUB_REPOSITORY": " equipo/pytorch-es ",
        "GITHUB_RUN_ID": " 7 ",
    }
    assert from_run.run_url(spaced) == "https://github.example/equipo/pytorch-es/actions/runs/7"
    # Only the slashes after the server are dropped, not any other character there.
    boxed = {**CI_RUN, "GITHUB_SERVER_URL": "https://BOXX//"}
    assert from_run.run_url(boxed) == "https://BOXX/equipo/pytorch-es/actions/runs/99"


@pytest.mark.parametrize("name", sorted(CI_RUN))
@pytest.mark.parametrize("value", [None, "", "  "])
def test_without_any_of_them_there_is_no_run_url(name: str, value: str | None) -> None:
    environ = {k: v for k, v in CI_RUN.items() if k != name}
    if value is not None:
        environ[name] = value
    assert from_run.run_url(environ) == ""


def test_the_run_url_reads_the_process_environment_by_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, value in CI_RUN.items():
        monkeypatch.setenv(name, value)
    assert from_run.run_url() == URL
    monkeypatch.delenv("GITHUB_RUN_ID")
    assert from_run.run_url() == ""
    assert from_run.run_url({}) == ""


PAGE = (
    "# A\n\n"
    + block("print(1)", "uno")
    + block("print(1 +)", "roto")
    + block("raise ValueError('no')", "lanza")
    + block("x = 1", "mudo")
    + block("print(3)", "gpu", ' runner="gpu"')
    + block("print(5)", "cpu", ' runner="cpu" reason="solo en cpu"')
    + block("print(4)", "Mal")
    + block("# Expectativa: 5\nprint(2 + 2)", "espera")
    + block("import torch\nprint(torch.cuda.is_available())", "acelerador")
)


def test_a_report_keeps_the_runs_verdicts_findings_and_observations(
    project: Project, executor: Executor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Page a.md verified of the pages a.md and b.md; a mistake in [tool.docverify] and a
    finding of the whole site added to the run's findings, as `check` adds them."""
    project.page("a.md", PAGE)
    project.page("b.md", "# B\n")
    (project.root / "pyproject.toml").write_text(PYPROJECT + "timeot = 5\n", encoding="utf-8")
    cfg = project.config
    pages = read_site(cfg)
    run = verify(cfg, pages[:1], "cpu", executor)
    site_wide = Finding(Kind.ORPHAN_RECORDING, "huérfana", "snippets/a/zz.cpu.txt", 1, "bórrala")
    (config_finding,) = cfg.findings
    run = dataclasses.replace(run, findings=[config_finding, *run.findings, site_wide])
    for name, value in CI_RUN.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01
    folder = tmp_path / "informe"
    made = from_run.report(folder, run, config=cfg, every=pages, durations={"a.md": 1.5})
    assert (made.path, made.runner, made.env, made.date, made.run_url) == (
        folder / "report.json",
        "cpu",
        run.env,
        "2026-01-01",
        URL,
    )
    assert (made.pages, made.all_pages) == (("a.md",), ["a.md", "b.md"])
    assert made.site_sha256 == digests.site_digest(cfg, pages, "cpu")
    assert made.site_sha256 != digests.site_digest(cfg, pages[:1], "cpu")
    assert (made.shard, made.durations, made.canary) == (None, {"a.md": 1.5}, None)
    assert list(made.blocks.items()) == [
        ("a/acelerador", Status.MISSING),
        ("a/cpu", Status.MISSING),
        ("a/espera", Status.MISSING),
        ("a/gpu", Status.OTHER_RUNNER),
        ("a/lanza", Status.ERROR),
        ("a/mudo", Status.MISSING),
        ("a/roto", Status.ERROR),
        ("a/uno", Status.MISSING),
    ]
    errors = [f for f in run.findings if f.level is Level.ERROR]
    assert made.errors == len(errors) > 0
    assert [(n.finding, n.part, n.page) for n in made.findings] == [
        (config_finding, "head", None),
        *[(f, "page", "a.md") for f in pages[0].findings],
        *[(f, "block", "a.md") for o in run.outcomes.values() for f in o.findings],
        (site_wide, "tail", None),
    ]
    assert len(made.findings) == len(run.findings)
    assert list(made.observations) == [
        "a/uno",
        "a/roto",
        "a/lanza",
        "a/mudo",
        "a/cpu",
        "a/espera",
        "a/acelerador",
    ]
    options = digests.setup_digests(cfg, pages[0], "cpu")
    for key, entry in made.observations.items():
        outcome = run.outcomes[key]
        code = next(b.code for b in pages[0].blocks if b.key == key)
        assert entry.code_sha256 == hashlib.sha256(code.encode("utf-8")).hexdigest()
        assert entry.spec_sha256 == options[key]
        assert (entry.key, entry.status, entry.output) == (key, outcome.status, outcome.observed)
        assert entry.result is not None and "output" not in entry.result
        assert entry.result["exception"] == (outcome.result or {})["exception"]
        assert entry.device_dependent == (("accelerator",) if key == "a/acelerador" else ())
    # Only the cpu runner's runs detect device marks: a gpu report keeps none.
    on_gpu = from_run.entries(cfg, pages[:1], "gpu", run.outcomes)
    assert on_gpu["a/acelerador"].device_dependent == ()
    assert "a/gpu" not in on_gpu  # it runs there, but this run did not observe it
    assert from_run.entries(cfg, pages[:1], "cpu", {}) == {}  # nothing observed, no entry
    chain = [e.inputs_sha256 for e in made.observations.values()]
    assert len(set(chain)) == len(chain)  # each block's inputs include the blocks before it
    assert (
        made.observations["a/uno"].inputs_sha256
        == hashlib.sha256(made.observations["a/uno"].code_sha256.encode()).hexdigest()
    )
    errors_kept = {k: e.error for k, e in made.observations.items()}
    assert errors_kept == {
        "a/uno": "",
        "a/roto": "error de sintaxis en docs/a.md:7: invalid syntax",
        "a/lanza": "ValueError: no",
        "a/mudo": "",
        "a/cpu": "",
        "a/espera": "",
        "a/acelerador": "",
    }
    assert made.observations["a/espera"].result["expectations"] == [  # type: ignore[index]
        {
            "line": PAGE.splitlines().index("# Expectativa: 5") + 1,
            "expected": "5",
            "observed": None,
            "ok": False,
        }
    ]
