"""Findings point at the line that caused them and carry the edit that fixes them."""

from __future__ import annotations

import pytest
from conftest import Project
from docverify.core.findings import errors
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_site
from docverify.running.executor import Executor
from docverify.verifying import hints
from docverify.verifying.record import record
from docverify.verifying.verify import verify

DIVERGING = """\
import torch


def mostrar(t):
    print("valor:", t.tolist())


print("sin cambios")
mostrar(torch.arange(3))
print("también igual")
"""


@pytest.fixture(autouse=True)
def _local_author(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)


def _one_error(project: Project, executor: Executor):
    config = project.config
    found = errors(verify(config, read_site(config), "cpu", executor).findings)
    (finding,) = [f for f in found if f.kind != Kind.MISSING_RECORDING]  # blocks never recorded
    return finding


def test_divergence_points_at_the_line_that_wrote_it(project: Project, executor: Executor) -> None:
    project.snippet("a/b.py", DIVERGING)
    project.page("a.md", '```python exec="on" id="b"\n--8<-- "a/b.py"\n```\n')
    record(project.config, read_site(project.config), "cpu", executor)
    project.snippet("a/b.py", DIVERGING.replace("arange(3)", "arange(4)"))
    finding = _one_error(project, executor)
    assert finding.kind == Kind.DIVERGENCE
    # The innermost line of the block on the stack when «valor: …» was written: the print
    # inside mostrar(), line 5 of the snippet (not line 1, not the call on line 9).
    assert finding.where == "snippets/a/b.py:5", finding.where


def test_missing_output_points_at_the_block(project: Project, executor: Executor) -> None:
    project.page("a.md", '```python exec="on" id="b"\nprint(1)\nprint(2)\n```\n')
    record(project.config, read_site(project.config), "cpu", executor)
    project.page("a.md", '```python exec="on" id="b"\nprint(1)\n```\n')
    finding = _one_error(project, executor)
    assert finding.kind == Kind.DIVERGENCE and finding.where == "docs/a.md:2"


def test_exception_points_at_the_raising_frame(project: Project, executor: Executor) -> None:
    code = "def f(x):\n    return 1 / x\n\n\nprint(f(2))\nprint(f(0))\n"
    project.snippet("a/e.py", code)
    project.page("a.md", '```python exec="on" id="e"\n--8<-- "a/e.py"\n```\n')
    finding = _one_error(project, executor)
    assert finding.kind == Kind.UNEXPECTED_EXCEPTION
    assert finding.where == "snippets/a/e.py:2", finding.where


def test_name_error_from_an_earlier_block_suggests_a_session(
    project: Project, executor: Executor
) -> None:
    project.page(
        "a.md",
        '```python exec="on" id="crea"\nimport torch\nw = torch.ones(2)\n```\n\n'
        '```python exec="on" id="usa"\nprint(w.sum())\n```\n',
    )
    finding = _one_error(project, executor)
    assert finding.kind == Kind.UNEXPECTED_EXCEPTION and finding.where == "docs/a.md:7"
    assert "«w»" in finding.fix and "«crea»" in finding.fix and 'session="' in finding.fix


def test_name_error_without_an_earlier_definition_keeps_the_usual_fix(
    project: Project, executor: Executor
) -> None:
    project.page("a.md", '```python exec="on" id="usa"\nprint(nada)\n```\n')
    finding = _one_error(project, executor)
    assert "session" not in finding.fix and "raises=" in finding.fix


def test_expectation_on_a_tensor_says_every_element_is_compared(
    project: Project, executor: Executor
) -> None:
    project.page(
        "a.md",
        '```python exec="on" id="m"\nimport torch\n'
        "print(torch.full((2, 2), 4.5))  # Expectativa: 4.5\n```\n",
    )
    config = project.config
    report = verify(config, read_site(config), "cpu", executor)
    (finding,) = [f for f in report.findings if f.kind == Kind.EXPECTATION]
    assert finding.where == "docs/a.md:3"
    assert "4 y la expectativa tiene 1" in finding.fix
    assert "# Expectativa: [[4.5000, 4.5000], [4.5000, 4.5000]]" in finding.fix


@pytest.mark.parametrize("module", ["paquete_que_no_existe", "otro_paquete_que_no_existe.io"])
def test_a_missing_module_says_what_to_install_and_where(
    project: Project, executor: Executor, module: str
) -> None:
    """The hint names the module and the pyproject.toml extra to add its package to; never
    raises= (a missing install is not what a block teaches)."""
    project.page("a.md", f'```python exec="on" id="b"\nimport {module}\n```\n')
    finding = _one_error(project, executor)
    assert finding.kind == Kind.UNEXPECTED_EXCEPTION
    # Python names the first missing part: the package itself here
    assert f"«{module.split('.', maxsplit=1)[0]}»" in finding.fix, finding.fix
    assert "extra «site»" in finding.fix and "pyproject.toml" in finding.fix, finding.fix
    assert "raises" not in finding.fix, finding.fix


@pytest.mark.parametrize(
    ("module", "package"),
    [("PIL", "pillow"), ("sklearn", "scikit-learn"), ("cv2", "opencv-python")],
)
def test_a_common_module_names_the_package_that_installs_it(module: str, package: str) -> None:
    result = {
        "exception_type": ["ModuleNotFoundError", "builtins.ModuleNotFoundError"],
        "exception_message": f"No module named '{module}'",
    }
    fix = hints.missing_module_fix(result) or ""
    assert f"«{module}»" in fix and f"paquete «{package}»" in fix and "extra «site»" in fix, fix


def test_a_missing_torch_companion_asks_for_the_version_made_for_this_torch() -> None:
    """torchvision and torchaudio are published for one torch release each: the hint names
    torch's installed version and says that tasks.py installs them from torch's index."""
    import importlib.metadata  # noqa: PLC0415

    result = {
        "exception_type": ["ModuleNotFoundError", "builtins.ModuleNotFoundError"],
        "exception_message": "No module named 'torchvision'",
    }
    fix = hints.missing_module_fix(result) or ""
    assert "«torchvision»" in fix and importlib.metadata.version("torch") in fix, fix
    assert "mismo índice que torch" in fix and "extra «site»" in fix, fix


def test_a_missing_submodule_of_an_installed_package_is_not_an_install() -> None:
    result = {
        "exception_type": ["ModuleNotFoundError"],
        "exception_message": "No module named 'numpy.no_existe'",
    }
    fix = hints.missing_module_fix(result) or ""
    assert "«numpy» está instalado" in fix and "extra" not in fix, fix
