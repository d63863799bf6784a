"""Another Python interpreter to run the blocks with (docverify canary): probed, then validated.

The probe runs the interpreter once, with this checkout's engine first on its PYTHONPATH (as
the fork server will run), and asks it what it is: Python version, torch (version, build variant:
`torch.version.cuda`), numpy, where each lives, and whether the page processes' modules import
there. It never initialises CUDA. Validation turns every problem into one Spanish message that
names the path; nothing runs with an interpreter that fails it.
"""

from __future__ import annotations

import ast
import importlib.metadata
import importlib.util
import json
import os
import platform
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import docverify
from docverify.core import versions

# The engine's folder on the interpreter's path: the page processes import docverify.running.*
# and docverify.core.* from this checkout, whatever else that interpreter has installed.
HOOKS = Path(docverify.__file__).resolve().parent.parent
_MARK = "docverify-probe:"
_PROBE = f"""
import json, os, platform, sys
info = {{"python": platform.python_version(), "executable": sys.executable, "path": sys.path}}
for name in ("numpy", "torch", "docverify.running.child"):
    try:
        module = __import__(name, fromlist=["_"])
    except BaseException as exc:
        info[name + ":error"] = f"{{type(exc).__name__}}: {{exc}}"
    else:
        info[name + ":file"] = getattr(module, "__file__", None)
        info[name + ":version"] = str(getattr(module, "__version__", ""))
torch = sys.modules.get("torch")
if torch is not None and hasattr(torch, "version"):
    info["cuda"] = getattr(torch.version, "cuda", None)
    info["hip"] = getattr(torch.version, "hip", None)
print({_MARK!r} + json.dumps(info))
"""
PROBE_TIMEOUT = 600.0  # seconds: a first import of a CUDA build of torch reads ~3 GB from disk


class InterpreterError(ValueError):
    """An interpreter that cannot run the blocks; the message names it and says why."""


@dataclass(frozen=True)
class Interpreter:
    """What a Python interpreter answered to the probe (it passed validation)."""

    path: str  # absolute, as given (a virtual environment's python is never resolved)
    executable: str  # sys.executable inside it
    python: str
    torch: str
    cuda: str | None  # torch.version.cuda: None for a CPU (or ROCm) build
    hip: str | None
    numpy: str
    torch_file: str
    sys_path: tuple[str, ...]

    @property
    def variant(self) -> str:
        return variant(self.cuda, self.hip)

    def describe(self) -> str:
        return f"torch {self.torch} ({self.variant}), numpy {self.numpy}, Python {self.python}"

    def data(self) -> dict[str, Any]:
        """For report.json: versions and build variant (paths of this machine left out)."""
        return {
            "torch": self.torch,
            "cuda": self.cuda,
            "hip": self.hip,
            "variant": self.variant,
            "numpy": self.numpy,
            "python": self.python,
        }


def variant(cuda: str | None, hip: str | None) -> str:
    """The build of torch, as readers read it: «CUDA 13.0», «ROCm 6.2» or «CPU»."""
    if cuda:
        return f"CUDA {cuda}"
    if hip:
        return f"ROCm {hip}"
    return "CPU"


def this_side() -> dict[str, Any]:
    """This interpreter's side, as Interpreter.data() says the other's, read without importing
    torch (the verifying process stays torch-free): torch's version and build from the
    constants of its torch/version.py (what torch.__version__ and torch.version.cuda are),
    numpy's from its metadata."""
    found: dict[str, Any] = {"torch": "?", "cuda": None, "hip": None}
    spec = importlib.util.find_spec("torch")
    version_py = Path(spec.origin).parent / "version.py" if spec and spec.origin else None
    if version_py is not None and version_py.is_file():
        names = {"__version__": "torch", "cuda": "cuda", "hip": "hip"}
        for node in ast.parse(version_py.read_text(encoding="utf-8")).body:
            target = (
                node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
            )
            value = getattr(node, "value", None)
            if (
                isinstance(target, ast.Name)
                and target.id in names
                and isinstance(value, ast.Constant)
            ):
                found[names[target.id]] = value.value
    numpy = versions.installed("numpy") or "?"
    return {
        **found,
        "variant": variant(found["cuda"], found["hip"]),
        "numpy": numpy,
        "python": platform.python_version(),
    }


def environment(extra_path: Sequence[str] = (str(HOOKS),)) -> dict[str, str]:
    """The environment an interpreter runs the engine with: `extra_path` first on PYTHONPATH."""
    env = dict(os.environ)
    old = env.get("PYTHONPATH", "")
    env["PYTHONPATH"] = os.pathsep.join([*extra_path, *([old] if old else [])])
    return env


def start(path: str | Path) -> tuple[str, subprocess.Popen[str] | str]:
    """Start probing `path`: (its absolute path, the running probe or why it cannot start)."""
    given = str(path)
    where = os.path.abspath(given)  # noqa: PTH100 - a venv's python must not be resolved
    if not os.path.lexists(where):
        return where, f"{given}: no existe"
    if Path(where).is_dir():
        return where, f"{given}: es una carpeta, no un intérprete de Python (venv/bin/python)"
    if not os.access(where, os.X_OK):
        return where, f"{given}: no es ejecutable (no es un intérprete de Python)"
    try:
        process = subprocess.Popen(
            [where, "-c", _PROBE],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            env=environment(),
            cwd=tempfile.gettempdir(),
        )
    except OSError as exc:
        return where, f"{given}: no se puede ejecutar como intérprete de Python ({exc.strerror})"
    return where, process


def finish(
    given: str, where: str, started: subprocess.Popen[str] | str, expected: tuple[int, int]
) -> Interpreter:
    """Wait for a probe from `start` and validate its answer (InterpreterError if it fails)."""
    if isinstance(started, str):
        raise InterpreterError(started)
    try:
        out, err = started.communicate(timeout=PROBE_TIMEOUT)
    except subprocess.TimeoutExpired as exc:
        started.kill()
        started.communicate()
        raise InterpreterError(
            f"{given}: no respondió en {PROBE_TIMEOUT:g} s al importar torch y numpy"
        ) from exc
    answer = next((line for line in out.splitlines() if line.startswith(_MARK)), None)
    if answer is None:
        said = (err or out).strip().splitlines()[-1:] or ["(sin salida)"]
        raise InterpreterError(
            f"{given}: no es un intérprete de Python (código de salida {started.returncode}; "
            f"dijo: {said[0][:200]})"
        )
    return validate(given, where, json.loads(answer.removeprefix(_MARK)), expected)


def probe(path: str | Path, expected: tuple[int, int] | None = None) -> Interpreter:
    """Probe and validate one interpreter; `expected` is the Python (major, minor) it must be."""
    where, started = start(path)
    return finish(str(path), where, started, expected or tuple(sys.version_info[:2]))


def problem(info: Mapping[str, Any], expected: tuple[int, int]) -> str:
    """Why a probe's answer rules the interpreter out, in Spanish, or '' when it is fit."""
    version = str(info.get("python", "?"))
    if tuple(int(p) for p in version.split(".")[:2] if p.isdigit()) != expected:
        wanted = ".".join(map(str, expected))
        return (
            f"es Python {version} y el proyecto usa Python {wanted}: las salidas grabadas "
            f"solo se comparan con la misma versión menor (crea el entorno con python{wanted})"
        )
    for name, what in (("torch", "torch"), ("numpy", "numpy")):
        if f"{name}:error" in info:
            return f"no tiene {what} ({info[f'{name}:error']}); instala {what} en ese entorno"
    if "docverify.running.child:error" in info:
        return (
            f"no puede cargar el motor de este proyecto ({info['docverify.running.child:error']})"
        )
    engine = Path(str(info.get("docverify.running.child:file") or "")).resolve()
    if not engine.is_relative_to(HOOKS):
        return f"carga otro docverify ({engine}) en lugar del de este proyecto ({HOOKS})"
    return ""


def validate(
    given: str, where: str, info: Mapping[str, Any], expected: tuple[int, int]
) -> Interpreter:
    if reason := problem(info, expected):
        raise InterpreterError(f"{given}: {reason}.")
    return Interpreter(
        path=where,
        executable=str(info["executable"]),
        python=str(info["python"]),
        torch=str(info["torch:version"]),
        cuda=info.get("cuda"),
        hip=info.get("hip"),
        numpy=str(info["numpy:version"]),
        torch_file=str(info["torch:file"]),
        sys_path=tuple(str(p) for p in info.get("path") or ()),
    )
