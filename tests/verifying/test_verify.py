"""The verification engine on small fixture pages: identity, capture, recordings, isolation."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import Project
from docverify.core.findings import errors
from docverify.parsing.pages import read_site
from docverify.running.executor import Executor
from docverify.verifying import compare, recordings
from docverify.verifying.verify import record, verify


@pytest.fixture(autouse=True)
def _local_author(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests record as an author does locally; CI=true (as in .ci/run) forbids recording."""
    monkeypatch.delenv("CI", raising=False)


def run(project: Project, executor: Executor, runner: str = "cpu"):
    return verify(project.config, read_site(project.config), runner, executor)


def kinds(findings) -> list[str]:
    return [f.kind for f in findings]


def block(code: str, block_id: str, extra: str = "") -> str:
    return f'```python exec="on" id="{block_id}"{extra}\n{code.strip()}\n```\n'


def test_missing_and_duplicate_ids_are_located(project: Project) -> None:
    project.page(
        "a.md",
        "# A\n\n" + block("print(1)", "uno") + '\n```python exec="on"\n'
        "print(2)\n```\n\n" + block("print(3)", "uno"),
    )
    pages = read_site(project.config)
    found = {f.kind: f for f in pages[0].findings}
    assert set(found) == {"id-ausente", "id-duplicado"}
    assert found["id-ausente"].where == "docs/a.md:7"
    assert found["id-duplicado"].where == "docs/a.md:11"
    assert [b.key for b in pages[0].blocks] == ["a/uno"]


def test_id_is_stable_when_the_page_changes_elsewhere(project: Project) -> None:
    project.page("a.md", block("print(1)", "uno"))
    first = read_site(project.config)[0].blocks[0].key
    project.page("a.md", "# Título nuevo\n\nTexto.\n\n" + block("print(1)", "uno"))
    assert read_site(project.config)[0].blocks[0].key == first == "a/uno"


def test_other_languages_cannot_execute_unverified(project: Project) -> None:
    project.page("a.md", '```bash exec="on" id="x"\necho hola\n```\n')
    assert kinds(read_site(project.config)[0].findings) == ["lenguaje-no-verificado"]


def test_capture_stdout_stderr_warnings_in_order(project: Project, executor: Executor) -> None:
    code = """
import sys, warnings
print("uno")
print("dos", file=sys.stderr)
warnings.warn("cuidado")
print("tres")
"""
    project.page("a.md", block(code, "captura"))
    report = run(project, executor)
    assert report.outcomes["a/captura"].observed == "uno\ndos\nUserWarning: cuidado\ntres"


def test_missing_recording_names_the_command(project: Project, executor: Executor) -> None:
    project.page("a.md", block("print(1)", "nuevo"))
    report = run(project, executor)
    (finding,) = errors(report.findings)
    assert finding.kind == "grabacion-ausente"
    assert finding.fix == "docverify record --runner cpu docs/a.md"
    assert finding.where == "docs/a.md:2"


def test_record_then_check_then_divergence_with_diff(project: Project, executor: Executor) -> None:
    project.snippet("a/uno.py", "print('hola')\nprint(41 + 1)\n")
    project.snippet("a/dos.py", "print('adiós')\n")
    project.page(
        "a.md",
        '```python exec="on" id="uno"\n--8<-- "a/uno.py"\n```\n\n'
        '```python exec="on" id="dos"\n--8<-- "a/dos.py"\n```\n',
    )
    cfg = project.config
    rec = record(cfg, read_site(cfg), "cpu", executor)
    assert len(rec.written) == 2 and not rec.findings
    assert not errors(run(project, executor).findings)
    # Change what both blocks print: every divergence is reported, each with a diff.
    project.snippet("a/uno.py", "print('hola')\nprint(41 + 2)\n")
    project.snippet("a/dos.py", "print('adios')\n")
    found = errors(run(project, executor).findings)
    assert kinds(found) == ["divergencia", "divergencia"]
    assert found[0].where == "snippets/a/uno.py:1"
    assert "docs/a.md:1" in found[0].message and "a/uno" in found[0].message
    assert "-42" in found[0].detail and "+43" in found[0].detail
    assert found[1].where == "snippets/a/dos.py:1"


def test_hand_edited_recording_fails_and_record_restores_it(
    project: Project, executor: Executor, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1790000000")
    project.page("a.md", block("import torch\nprint(torch.arange(3) * 2)", "t"))
    cfg = project.config
    record(cfg, read_site(cfg), "cpu", executor)
    path = cfg.snippets_dir / "a" / "t.cpu.txt"
    original = path.read_bytes()
    path.write_text(path.read_text(encoding="utf-8").replace("4", "5"), encoding="utf-8")
    assert kinds(errors(run(project, executor).findings)) == ["divergencia"]
    record(cfg, read_site(cfg), "cpu", executor)
    assert path.read_bytes() == original
    # And a second record changes nothing.
    again = record(cfg, read_site(cfg), "cpu", executor)
    assert again.written == [] and again.unchanged == 1


def test_record_keeps_placeholders_that_still_match(project: Project, executor: Executor) -> None:
    project.page("a.md", block("print('id:', id(object()))\nprint('fijo')", "ph"))
    cfg = project.config
    record(cfg, read_site(cfg), "cpu", executor)
    path = cfg.snippets_dir / "a" / "ph.cpu.txt"
    text = path.read_text(encoding="utf-8")
    head, _, _ = text.partition("# ----\n")
    path.write_text(head + "# ----\nid: [..]\nfijo\n", encoding="utf-8")
    assert not errors(run(project, executor).findings)
    project.page("a.md", block("print('id:', id(object()))\nprint('cambiado')", "ph"))
    record(cfg, read_site(cfg), "cpu", executor)
    assert recordings.read(path, "cpu").body == "id: [..]\ncambiado\n"


def test_record_refuses_under_ci(
    project: Project, executor: Executor, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CI", "true")
    project.page("a.md", block("print(1)", "x"))
    with pytest.raises(PermissionError, match="CI=true"):
        record(project.config, read_site(project.config), "cpu", executor)
    assert not (project.root / "snippets" / "a" / "x.cpu.txt").exists()


def test_record_refuses_unexpected_exception(project: Project, executor: Executor) -> None:
    project.page("a.md", block("print('antes')\n1 / 0", "boom"))
    rec = record(project.config, read_site(project.config), "cpu", executor)
    assert rec.written == []
    (finding,) = rec.findings
    assert finding.kind == "excepcion-inesperada" and "ZeroDivisionError" in finding.message
    assert "docs/a.md:3: 1 / 0" in finding.detail


def test_expected_exception_is_recorded_and_shown(project: Project, executor: Executor) -> None:
    project.page(
        "a.md",
        block(
            "print('antes')\nraise ValueError('mal dato: 3')",
            "err",
            ' raises="ValueError: mal dato"',
        ),
    )
    cfg = project.config
    record(cfg, read_site(cfg), "cpu", executor)
    body = recordings.read(cfg.snippets_dir / "a" / "err.cpu.txt", "cpu").body
    assert body == "antes\nValueError: mal dato: 3\n"
    project.page("a.md", block("print('antes')", "err", ' raises="ValueError: mal dato"'))
    assert kinds(errors(run(project, executor).findings)) == ["excepcion-ausente"]
    project.page("a.md", block("raise KeyError('otra')", "err", ' raises="ValueError: mal"'))
    assert kinds(errors(run(project, executor).findings)) == ["excepcion-inesperada"]


def test_orphan_recording_fails_and_prune_lists_it(project: Project, executor: Executor) -> None:
    project.page("a.md", block("print(1)", "vivo"))
    cfg = project.config
    record(cfg, read_site(cfg), "cpu", executor)
    project.page("a.md", block("print(1)", "renombrado"))
    record(cfg, read_site(cfg), "cpu", executor)
    found = [f for f in run(project, executor).findings if f.kind == "grabacion-huerfana"]
    assert [f.path for f in found] == ["snippets/a/vivo.cpu.txt"]


def test_runner_only_blocks_and_reasons(project: Project, executor: Executor) -> None:
    project.page(
        "a.md",
        block("print('solo gpu')", "g", ' runner="gpu" reason="usa CUDA"')
        + block("print(1)", "sin", ' runner="gpu"'),
    )
    pages = read_site(project.config)
    assert kinds(pages[0].findings) == ["motivo-ausente"]
    report = run(project, executor)
    assert report.outcomes["a/g"].status == "other-runner"
    assert report.outcomes["a/g"].result is None


def test_gpu_recording_missing_never_fails_cpu(project: Project, executor: Executor) -> None:
    project.page("a.md", block("print(1)", "x"))
    cfg = project.config
    record(cfg, read_site(cfg), "cpu", executor)
    assert not errors(run(project, executor).findings)
    assert not (cfg.snippets_dir / "a" / "x.gpu.txt").exists()


def test_tolerance_from_block_options(project: Project, executor: Executor) -> None:
    project.page("a.md", block("print(0.1 + 0.2)", "num", ' rtol="0.01"'))
    cfg = project.config
    record(cfg, read_site(cfg), "cpu", executor)
    path = cfg.snippets_dir / "a" / "num.cpu.txt"
    path.write_text(
        path.read_text(encoding="utf-8").replace("0.30000000000000004", "0.301"), encoding="utf-8"
    )
    assert not errors(run(project, executor).findings)
    project.page("a.md", block("print(0.1 + 0.2)", "num"))
    assert kinds(errors(run(project, executor).findings)) == ["divergencia"]


def test_expectations(project: Project, executor: Executor) -> None:
    project.page(
        "a.md",
        block(
            "import torch\nx = torch.tensor(3.0)\nprint(x * 4)  # "
            "Expectativa: 12\nprint(x * 2)  # Expectativa: 7",
            "e",
        ),
    )
    report = run(project, executor)
    outcome = report.outcomes["a/e"]
    assert [(e["expected"], e["observed"], e["ok"]) for e in outcome.expectations] == [
        ("12", "tensor(12.)", True),
        ("7", "tensor(6.)", False),
    ]
    bad = [f for f in report.findings if f.kind == "expectativa"]
    assert len(bad) == 1 and bad[0].where == "docs/a.md:5"
    assert "Esperado 7 · Observado tensor(6.)" in bad[0].message


def test_pages_are_isolated_and_seeded(project: Project, executor: Executor) -> None:
    leak = "import torch\ntorch.set_default_dtype(torch.float64)\nprint(torch.get_default_dtype())"
    look = (
        "import torch, random\n"
        "print(torch.get_default_dtype(), torch.rand(1).item(), random.random())"
    )
    project.page("a.md", block(leak, "leak"))
    project.page("b.md", block(look, "look") + block(look, "again"))
    report = run(project, executor)
    assert report.outcomes["a/leak"].observed == "torch.float64"
    first = report.outcomes["b/look"].observed
    assert first.startswith("torch.float32 ")
    assert report.outcomes["b/again"].observed == first  # seeds reset before each block


def test_working_directory_is_outside_the_repo(project: Project, executor: Executor) -> None:
    project.page("a.md", block("import os\nprint(os.getcwd())", "cwd"))
    cwd = Path(run(project, executor).outcomes["a/cwd"].observed)
    assert project.root not in cwd.parents and cwd != project.root
    assert Path.cwd() not in (cwd, *cwd.parents)


def test_sessions_share_state_within_a_page(project: Project, executor: Executor) -> None:
    project.page(
        "a.md",
        block("x = 5", "def", ' session="s"')
        + block("print(x)", "use", ' session="s"')
        + block("print('x' in dir())", "no"),
    )
    report = run(project, executor)
    assert report.outcomes["a/use"].observed == "5"
    assert report.outcomes["a/no"].observed == "False"


def test_timeout_names_the_block_and_the_run_goes_on(project: Project, executor: Executor) -> None:
    project.page(
        "a.md",
        block("while True: pass", "bucle", ' timeout="2"') + block("print('sigo')", "despues"),
    )
    started = time.monotonic()
    report = run(project, executor)
    assert time.monotonic() - started < 30
    (finding, *_) = [f for f in report.findings if f.kind == "fallo-ejecucion"]
    assert "a/bucle" in finding.message and "tiempo límite de 2 s" in finding.message
    assert report.outcomes["a/despues"].observed == "sigo"


@pytest.mark.parametrize(
    ("code", "needle"),
    [
        ("import sys\nsys.exit(3)", "sys.exit(3)"),
        ("import os\nos._exit(7)", "código de salida 7"),
        ("print('x' * 200_000)", "límite"),
        ("def f(:\n  pass", "sintaxis"),
    ],
)
def test_crashes_fail_the_block_clearly(
    project: Project, executor: Executor, code: str, needle: str
) -> None:
    project.page("a.md", block(code, "malo") + block("print('vivo')", "bueno"))
    report = run(project, executor)
    failures = [f for f in report.findings if f.kind == "fallo-ejecucion"]
    assert len(failures) == 1 and needle in failures[0].message
    assert "a/malo" in failures[0].message
    assert report.outcomes["a/bueno"].observed == "vivo"


def test_session_after_a_crash_is_skipped(project: Project, executor: Executor) -> None:
    project.page(
        "a.md",
        block("import os\nos._exit(1)", "c", ' session="s"')
        + block("print(1)", "d", ' session="s"'),
    )
    report = run(project, executor)
    assert "misma sesión" in report.outcomes["a/d"].result["error"]


def test_c_level_output_is_captured(project: Project, executor: Executor) -> None:
    project.page("a.md", block("import os\nos.write(1, b'desde C\\n')\nprint('python')", "fd"))
    assert run(project, executor).outcomes["a/fd"].observed == "desde C\npython"


def test_compare_rules() -> None:
    tol = compare.Tolerance(rtol=1e-5, atol=1e-8)
    assert compare.matches("tensor([1.0000, 2.0000])", "tensor([1.0000, 2.0000])  \n\n", tol)
    assert compare.matches("a = [..] fin", "a = 0x7f3a12 fin", tol)
    assert not compare.matches("a = [..] fin", "a = 0x7f3a12 final", tol)
    assert compare.matches("x 1.000001", "x 1.000002", tol)
    assert not compare.matches("x 1.0", "x 1.1", tol)
    assert not compare.matches("una\nlínea", "una", tol)
    assert compare.expectation_holds("12", "tensor(12.)", tol)
    assert not compare.expectation_holds("12", "tensor([12., 1.])", tol)
    # The runner's device and the dtype are metadata, not values (GPU: device='cuda:0').
    assert compare.expectation_holds("6", "tensor(6., device='cuda:0')", tol)
    assert compare.expectation_holds(
        "27", "tensor(27., device='cuda:0', grad_fn=<MulBackward0>)", tol
    )
    assert compare.expectation_holds("12", "tensor(12., dtype=torch.float64)", tol)
    assert not compare.expectation_holds("6", "tensor(7., device='cuda:0')", tol)
    assert compare.merge("v [..]\nfijo", "v 9\notro", tol) == "v [..]\notro"


def test_warnings_are_not_deduplicated(project: Project, executor: Executor) -> None:
    code = "import warnings\nfor _ in range(2):\n    warnings.warn('otra vez')"
    project.page("a.md", block(code, "w"))
    assert run(project, executor).outcomes["a/w"].observed == (
        "UserWarning: otra vez\nUserWarning: otra vez"
    )


def test_engine_does_not_import_torch_or_mkdocs_in_the_caller() -> None:
    code = (
        "import sys; from docverify.verifying import verify; from docverify.parsing import pages; "
        "from docverify.cli import main; "
        "print('torch' in sys.modules, 'mkdocs' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env={**os.environ}
    )
    assert out.stdout.strip() == "False False"


def test_gpu_runner_without_cuda_is_a_clear_error(executor: Executor) -> None:
    if executor.resolve_runner("auto") == "gpu":
        pytest.skip("esta máquina tiene CUDA")
    with pytest.raises(ValueError, match="CUDA no está disponible"):
        executor.resolve_runner("gpu")
    assert executor.resolve_runner("cpu") == "cpu"


def test_check_needs_only_torch_numpy_and_yaml(project: Project) -> None:
    """The gpu runner's entry point runs where only torch, numpy and PyYAML are installed."""
    project.page("a.md", block("import torch\nprint(torch.ones(2).sum())", "t"))
    blocked = (
        "mkdocs",
        "markdown_exec",
        "pymdownx",
        "markdown",
        "material",
        "nbformat",
        "nbconvert",
        "mkdocs_jupyter",
        "jinja2",
        "pytest",
        "playwright",
        "psutil",
    )
    code = (
        f"import sys\nfor name in {blocked!r}:\n    sys.modules[name] = None\n"
        "from docverify.cli.main import main\n"
        "sys.exit(main(['check', '--runner', 'cpu', '--no-cache', '--workers', '1']))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=project.root,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    # It runs the block and fails only for the missing recording, not for a missing module.
    assert result.returncode == 1, result.stderr
    assert "[grabacion-ausente]" in result.stderr
    assert "1/1 bloques ejecutados" in result.stdout
