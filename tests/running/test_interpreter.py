"""Another interpreter for the blocks (docverify canary): what it must be, and what it loads.

The probe's answer is judged by one pure function (`problem`); the real interpreters that fail
it are in tests/cli/test_canary.py. The page processes of another interpreter load only what
that interpreter has: the standard library, torch, numpy, and this checkout's running/ and core/.
"""

from __future__ import annotations

import ast
import importlib.metadata
import importlib.util
import json
import os
import platform
import sys
import time
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


# --- Called here: the messages, the fields, and the probe of small scripts written here ------

PROBLEMS = [
    (
        {"python": f"{HERE[0]}.{HERE[1] + 1}.2"},
        f"es Python {HERE[0]}.{HERE[1] + 1}.2 y el proyecto usa Python {HERE[0]}.{HERE[1]}: las "
        "salidas grabadas solo se comparan con la misma versión menor (crea el entorno con "
        f"python{HERE[0]}.{HERE[1]})",
    ),
    (
        {"torch:error": "ModuleNotFoundError: x"},
        "no tiene torch (ModuleNotFoundError: x); instala torch en ese entorno",
    ),
    (
        {"numpy:error": "ModuleNotFoundError: y"},
        "no tiene numpy (ModuleNotFoundError: y); instala numpy en ese entorno",
    ),
    (
        {"docverify.running.child:error": "ImportError: z"},
        "no puede cargar el motor de este proyecto (ImportError: z)",
    ),
    (
        {"docverify.running.child:file": "/otro/docverify/running/child.py"},
        f"carga otro docverify (/otro/docverify/running/child.py) en lugar del de este proyecto "
        f"({interpreter.HOOKS})",
    ),
]


@pytest.mark.parametrize(("change", "says"), PROBLEMS)
def test_each_problem_says_exactly_what(change: dict, says: str) -> None:
    assert interpreter.problem({**FIT, **change}, HERE) == says
    with pytest.raises(interpreter.InterpreterError) as raised:
        interpreter.validate("venv/bin/python", "/abs/venv/bin/python", {**FIT, **change}, HERE)
    assert str(raised.value) == f"venv/bin/python: {says}."


def test_torch_missing_is_said_before_numpy_missing_and_a_python_without_digits() -> None:
    both = {**FIT, "torch:error": "E1", "numpy:error": "E2"}
    assert interpreter.problem(both, HERE).startswith("no tiene torch (E1)")
    assert interpreter.problem({**FIT, "python": "x.y"}, HERE).startswith("es Python x.y y ")
    assert "carga otro docverify" in interpreter.problem(
        {k: v for k, v in FIT.items() if k != "docverify.running.child:file"}, HERE
    )


def test_a_fit_answer_gives_every_field() -> None:
    found = interpreter.validate("p", "/x/bin/python", {**FIT, "hip": "6.2"}, HERE)
    assert found == interpreter.Interpreter(
        path="/x/bin/python",
        executable="/x/bin/python",
        python=f"{HERE[0]}.{HERE[1]}.0",
        torch="2.14.1",
        cuda="13.0",
        hip="6.2",
        numpy="2.4.6",
        torch_file="/x/torch/__init__.py",
        sys_path=("/x/lib",),
    )
    assert (
        found.describe() == f"torch 2.14.1 (CUDA 13.0), numpy 2.4.6, Python {HERE[0]}.{HERE[1]}.0"
    )
    assert found.data() == {
        "torch": "2.14.1",
        "cuda": "13.0",
        "hip": "6.2",
        "variant": "CUDA 13.0",
        "numpy": "2.4.6",
        "python": f"{HERE[0]}.{HERE[1]}.0",
    }
    bare = {k: v for k, v in FIT.items() if k not in ("cuda", "hip", "path")}
    assert interpreter.validate("p", "/x", bare, HERE).sys_path == ()


@pytest.mark.parametrize(
    ("cuda", "hip", "shown"),
    [("13.0", None, "CUDA 13.0"), (None, "6.2", "ROCm 6.2"), (None, None, "CPU"), ("", "", "CPU")],
)
def test_the_variant_as_readers_read_it(cuda: str | None, hip: str | None, shown: str) -> None:
    assert interpreter.variant(cuda, hip) == shown


def test_the_engine_goes_first_on_the_interpreters_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", "/viejo")
    assert interpreter.environment(["/a", "/b"])["PYTHONPATH"] == os.pathsep.join(
        ["/a", "/b", "/viejo"]
    )
    assert os.environ["PYTHONPATH"] == "/viejo"
    monkeypatch.delenv("PYTHONPATH")
    env = interpreter.environment()
    assert env["PYTHONPATH"] == str(interpreter.HOOKS)
    assert env["PATH"] == os.environ["PATH"]


def _script(tmp_path: Path, name: str, text: str, mode: int = 0o755) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    path.chmod(mode)
    return path


def test_paths_that_cannot_be_probed_say_why(tmp_path: Path) -> None:
    missing = tmp_path / "no-hay"
    assert interpreter.start(missing) == (str(missing), f"{missing}: no existe")
    assert interpreter.start(tmp_path) == (
        str(tmp_path),
        f"{tmp_path}: es una carpeta, no un intérprete de Python (venv/bin/python)",
    )
    plain = _script(tmp_path, "plano", "x", mode=0o644)
    assert (
        interpreter.start(plain)[1] == f"{plain}: no es ejecutable (no es un intérprete de Python)"
    )
    garbage = tmp_path / "basura"
    garbage.write_bytes(b"\x7fELF\x00\x00")
    garbage.chmod(0o755)
    assert interpreter.start(garbage)[1] == (
        f"{garbage}: no se puede ejecutar como intérprete de Python (Exec format error)"
    )
    with pytest.raises(interpreter.InterpreterError, match=r"^motivo$"):
        interpreter.finish("p", "/p", "motivo", HERE)


def test_a_program_that_does_not_answer_the_probe(tmp_path: Path) -> None:
    script = _script(tmp_path, "habla", "#!/bin/sh\necho primera >&2\necho hola >&2\nexit 3\n")
    where, started = interpreter.start(script)
    assert where == str(script) and not isinstance(started, str)
    with pytest.raises(interpreter.InterpreterError) as raised:
        interpreter.finish("habla", where, started, HERE)
    assert str(raised.value) == (
        "habla: no es un intérprete de Python (código de salida 3; dijo: hola)"
    )
    long = _script(tmp_path, "largo", "#!/bin/sh\necho " + "x" * 300 + "\n")
    with pytest.raises(interpreter.InterpreterError) as raised:
        interpreter.probe(long)
    assert str(raised.value).endswith(f"dijo: {'x' * 200})")
    mute = _script(tmp_path, "mudo", "#!/bin/sh\nexit 0\n")
    with pytest.raises(interpreter.InterpreterError, match=r"dijo: \(sin salida\)\)$"):
        interpreter.probe(mute)


def test_a_program_that_answers_like_a_fit_interpreter(tmp_path: Path) -> None:
    answer = json.dumps(FIT)
    script = _script(
        tmp_path, "python", f"#!/bin/sh\necho antes\necho 'docverify-probe:{answer}'\n"
    )
    found = interpreter.probe(script)
    assert (found.path, found.torch, found.executable) == (str(script), "2.14.1", "/x/bin/python")
    with pytest.raises(interpreter.InterpreterError, match=r"y el proyecto usa Python 2\.7"):
        interpreter.probe(script, expected=(2, 7))


def test_a_probe_that_does_not_answer_in_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(interpreter, "PROBE_TIMEOUT", 0.2)
    script = _script(tmp_path, "lento", "#!/bin/sh\nexec sleep 30\n")
    began = time.monotonic()
    with pytest.raises(interpreter.InterpreterError) as raised:
        interpreter.probe(script)
    assert str(raised.value) == f"{script}: no respondió en 0.2 s al importar torch y numpy"
    assert time.monotonic() - began < 10  # stopped, not waited for


def test_this_side_reads_torch_and_numpy_without_importing_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    side = interpreter.this_side()
    assert side == {
        "torch": importlib.metadata.version("torch"),  # what torch/version.py also says
        "cuda": side["cuda"],
        "hip": side["hip"],
        "variant": interpreter.variant(side["cuda"], side["hip"]),
        "numpy": importlib.metadata.version("numpy"),
        "python": platform.python_version(),
    }
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    assert interpreter.this_side()["torch"] == "?"
