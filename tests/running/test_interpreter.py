"""Another interpreter for the blocks (docverify canary): what it must be, and what it loads.

The probe's answer is judged by one pure function (`problem`); the real interpreters that fail
it are in tests/cli/test_canary.py. The page processes of another interpreter load only what
that interpreter has: the standard library, torch, numpy, and this checkout's running/ and core/.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest
from docverify.running import executor as executor_mod
from docverify.running import interpreter

HERE = (sys.version_info.major, sys.version_info.minor)
ENGINE_FILE = str(interpreter.HOOKS / "docverify" / "running" / "child.py")
FIT = {
    "python": f"{HERE[0]}.{HERE[1]}.0",
    "executable": "/x/bin/python",
    "path": ["/x/lib"],
    "numpy:file": "/x/numpy/__init__.py",
    "numpy:version": "2.4.6",
    "torch:file": "/x/torch/__init__.py",
    "torch:version": "2.14.1",
    "docverify.running.child:file": ENGINE_FILE,
    "cuda": "13.0",
    "hip": None,
}


def test_a_fit_interpreter_passes_with_its_versions_and_variant() -> None:
    assert interpreter.problem(FIT, HERE) == ""
    found = interpreter.validate("p", "/x/bin/python", FIT, HERE)
    assert (found.torch, found.cuda, found.variant, found.numpy) == (
        "2.14.1",
        "13.0",
        "CUDA 13.0",
        "2.4.6",
    )
    cpu = interpreter.validate("p", "/x/bin/python", {**FIT, "cuda": None}, HERE)
    assert cpu.variant == "CPU" and cpu.data()["variant"] == "CPU"
    assert "/x" not in str(cpu.data())  # this machine's paths stay out of the report


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"python": f"{HERE[0]}.{HERE[1] + 1}.2"}, f"y el proyecto usa Python {HERE[0]}.{HERE[1]}"),
        ({"torch:error": "ModuleNotFoundError: No module named 'torch'"}, "no tiene torch"),
        ({"numpy:error": "ModuleNotFoundError: No module named 'numpy'"}, "no tiene numpy"),
        (
            {"docverify.running.child:error": "ImportError: x"},
            "no puede cargar el motor de este proyecto",
        ),
        (
            {"docverify.running.child:file": "/otro/docverify/running/child.py"},
            "carga otro docverify",
        ),
    ],
)
def test_each_problem_is_named(change: dict, says: str) -> None:
    answer = {**FIT, **change}
    assert says in interpreter.problem(answer, HERE)
    with pytest.raises(interpreter.InterpreterError, match=r"^venv/bin/python: "):
        interpreter.validate("venv/bin/python", "/abs/venv/bin/python", answer, HERE)


def _module_file(engine: Path, name: str) -> Path | None:
    base = engine.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def test_the_page_processes_import_only_running_core_torch_and_numpy() -> None:
    """What the fork server preloads, and everything that imports in turn: the standard
    library, torch, numpy and docverify's running/ and core/, nothing else (another torch's
    environment has only torch and numpy)."""
    hooks = interpreter.HOOKS
    todo, seen, outside = list(executor_mod.PRELOAD), set(), []
    while todo:
        name = todo.pop()
        path = _module_file(hooks, name)
        if name in seen or path is None:
            continue
        seen.add(name)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for imported in names:
                bits = imported.split(".")
                if bits[0] == "docverify" and bits[1:2] not in ([], ["running"], ["core"]):
                    outside.append(f"{name}: {imported}")
                elif bits[0] == "docverify":
                    todo.append(imported)
                elif bits[0] not in sys.stdlib_module_names | {"torch", "numpy"}:
                    outside.append(f"{name}: {imported}")
    assert {"docverify.running.child", "docverify.core.policies"} <= seen, seen
    assert outside == [], outside
