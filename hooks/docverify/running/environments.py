"""A virtual environment with another torch, for `docverify canary --torch VERSION`.

`<project>/.cache/docverify/canary/<version>-<key>/` holds a virtual environment of this same
Python with torch==VERSION and the project's numpy pin, installed with pip as `tasks.py install`
installs the project's: torch from DOCS_TORCH_INDEX when it is set (the CPU wheels, say), the
rest with pip's own configuration. `<key>` digests the index and the numpy pin, so another index
or a new numpy pin gets its own environment; the same ones reuse it (one marker file, written
last, says it is complete: an interrupted install is made again).

Before installing anything, pip resolves the requirements without installing them
(`--dry-run --report`): an unknown version stops there, with nothing written, and the size of
what pip will fetch is said first (file:// URLs measured on disk, https ones asked with HEAD).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
import venv
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

FOLDER = Path(".cache") / "docverify" / "canary"
MARKER = "docverify-canary.json"
INDEX_ENV = "DOCS_TORCH_INDEX"  # as tasks.py reads it
# A release as pip names it: 2.14.1, 2.15.0rc1, 2.13.0+cpu (nothing pip would read as more).
VERSION = re.compile(r"\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?(\+[A-Za-z0-9.]+)?")


class SetupError(ValueError):
    """The environment cannot be made; the message says why, in Spanish."""


@dataclass(frozen=True)
class Step:
    """One pip install: requirements and, for torch when DOCS_TORCH_INDEX is set, its index."""

    requirements: tuple[str, ...]
    index: str | None = None

    def args(self) -> list[str]:
        return [*self.requirements, *(["--index-url", self.index] if self.index else [])]


@dataclass(frozen=True)
class Download:
    """What pip will fetch: files, bytes (those on this disk apart) and files of unknown size."""

    files: int
    size: int
    local: int  # bytes read from file:// URLs (this machine's disk or mirror)
    unknown: int

    def describe(self) -> str:
        text = f"{self.files} archivos, {human(self.size)}"
        if self.local:
            text += f" (de ellos {human(self.local)} ya en este disco, file://)"
        if self.unknown:
            text += f"; de {self.unknown} no se pudo saber el tamaño"
        return text


def human(size: int) -> str:
    """Bytes as readers read them, with a decimal comma: «2,8 GiB», «512 MiB»."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}".replace(".", ",")
    return f"{size} B"


def check_version(version: str) -> str:
    version = version.strip()
    if not VERSION.fullmatch(version):
        raise SetupError(
            f"--torch {version!r}: no es una versión de torch (se espera, p. ej., 2.14.1); "
            "no se ha escrito nada."
        )
    return version


def steps(version: str, numpy: str, index: str | None) -> list[Step]:
    """The installs, in order: torch (from `index` when given), then the project's numpy."""
    torch, pinned = f"torch=={version}", f"numpy=={numpy}"
    if index:
        return [Step((torch,), index), Step((pinned,))]
    return [Step((torch, pinned))]


def folder(root: Path, version: str, numpy: str, index: str | None) -> Path:
    key = hashlib.sha256(json.dumps([index or "", numpy]).encode()).hexdigest()[:12]
    return root / FOLDER / f"{version}-{key}"


def python_of(env: Path) -> Path:
    return env / "bin" / "python"


def ready(env: Path, plan: list[Step]) -> bool:
    """Whether `env` is a complete environment for `plan` (its marker, written last, says so)."""
    try:
        marker = json.loads((env / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(marker, dict):  # other JSON (edited by hand): made again
        return False
    return marker.get("steps") == [s.args() for s in plan] and python_of(env).exists()


def _pip(python: str = sys.executable) -> list[str]:
    return [python, "-m", "pip", "--disable-pip-version-check"]


def resolve(plan: list[Step], version: str, python: str = sys.executable) -> list[dict]:
    """What pip would install for `plan` (its `--report` items), installing nothing."""
    items: list[dict] = []
    for step in plan:
        with tempfile.TemporaryDirectory(prefix="docverify-pip-") as tmp:
            report = Path(tmp) / "report.json"
            done = subprocess.run(
                [
                    *_pip(python),
                    "install",
                    "--dry-run",
                    "--ignore-installed",
                    "--quiet",
                    "--report",
                    str(report),
                    *step.args(),
                ],
                capture_output=True,
                text=True,
                check=False,
                stdin=subprocess.DEVNULL,
            )
            if done.returncode != 0:
                said = [
                    line
                    for line in done.stderr.splitlines()
                    if line.strip() and "is ignored: it is neither a file" not in line
                ]
                where = f" en {step.index}" if step.index else " con la configuración de pip"
                if any("No matching distribution" in line for line in said) or any(
                    "Could not find a version" in line for line in said
                ):
                    raise SetupError(
                        f"--torch {version}: pip no encuentra {' '.join(step.requirements)}"
                        f"{where}. Comprueba la versión (pip index versions torch) y el índice "
                        f"({INDEX_ENV}); no se ha escrito nada."
                    )
                raise SetupError(
                    f"--torch {version}: pip no pudo resolver {' '.join(step.requirements)}"
                    f"{where} (código {done.returncode}: {(said or ['sin mensaje'])[-1]}); no "
                    "se ha escrito nada."
                )
            items += json.loads(report.read_text(encoding="utf-8")).get("install", [])
    return items


def _head(url: str) -> int | None:
    request = urllib.request.Request(url, method="HEAD")  # one of pip's own https URLs
    with urllib.request.urlopen(request, timeout=30) as response:
        length = response.headers.get("Content-Length")
    return int(length) if length and length.isdigit() else None


def download_size(items: list[dict], head: Callable[[str], int | None] = _head) -> Download:
    """The size of the files pip's report would fetch: stat for file://, HEAD for http(s)."""
    size = local = unknown = 0
    for item in items:
        url = str(item.get("download_info", {}).get("url", ""))
        parsed = urllib.parse.urlparse(url)
        found: int | None = None
        try:
            if parsed.scheme == "file":
                found = Path(urllib.parse.unquote(parsed.path)).stat().st_size
                local += found
            elif parsed.scheme in ("http", "https"):
                found = head(url)
        except OSError:
            found = None
        if found is None:
            unknown += 1
        else:
            size += found
    return Download(files=len(items), size=size, local=local, unknown=unknown)


def create(env: Path, plan: list[Step], say: Callable[[str], None] = print) -> Path:
    """Make the environment: this Python's venv, then pip (targeting it) for each step."""
    if env.exists():  # an install that never finished (no marker): start again
        shutil.rmtree(env)
    env.parent.mkdir(parents=True, exist_ok=True)
    venv.create(env, with_pip=False, symlinks=os.name != "nt")
    python = str(python_of(env))
    try:
        for step in plan:
            say(f"pip install {' '.join(step.args())}")
            done = subprocess.run(
                [*_pip(), "--python", python, "install", *step.args()],
                check=False,
                stdin=subprocess.DEVNULL,
            )
            if done.returncode != 0:
                raise SetupError(
                    f"pip no pudo instalar {' '.join(step.requirements)} en {env} (código "
                    f"{done.returncode}); el entorno incompleto se ha borrado."
                )
    except BaseException:
        shutil.rmtree(env, ignore_errors=True)
        raise
    (env / MARKER).write_text(
        json.dumps({"steps": [s.args() for s in plan]}, indent=1) + "\n", encoding="utf-8"
    )
    return python_of(env)
