# Fingerprints of sources that live in installed packages: a file or one object's source, hashed.
"""Fingerprints: what a cited file or object looked like when its source was verified.

A source may carry

    fingerprint:
      package: torch
      version: "2.13.0"
      object: torch.autograd.backward      # or  file: torch/autograd/__init__.py
      sha256: "…"

The installed text is found without importing the package (`importlib.util.find_spec` of the
top-level package only, then `ast` for an object's source): the build process stays light and a
broken or slow package import cannot hide a drift.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.machinery
import importlib.metadata
import importlib.util
import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

KEYS = ("package", "version", "sha256", "file", "object")
_SHA = re.compile(r"^[0-9a-f]{64}$")
_PACKAGE = re.compile(r"^[A-Za-z_]\w*$")
_DOTTED = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$")


@dataclass(frozen=True)
class Fingerprint:
    """A parsed `fingerprint:` mapping. `target` is the file path or the dotted object name."""

    package: str
    kind: str  # "file" | "object"
    target: str
    version: str | None
    sha256: str | None
    line: int = 0
    key_lines: dict[str, int] = field(default_factory=dict, compare=False, hash=False)

    @property
    def label(self) -> str:
        return self.target


@dataclass(frozen=True)
class Installed:
    """The installed counterpart of a fingerprint: its text, hash and package version."""

    text: str
    sha256: str
    version: str | None


class FingerprintError(ValueError):
    """The fingerprint cannot be computed (package, file or object not found)."""


def parse(raw: Any, line: int) -> tuple[Fingerprint | None, str]:
    """A Fingerprint from front-matter data, or (None, a Spanish reason)."""
    if not isinstance(raw, dict):
        return None, "«fingerprint» debe ser un mapa con package, version, sha256 y file u object"
    reason = _problem(raw)
    if reason:
        return None, reason
    package = str(raw["package"])
    kind = "file" if raw.get("file") else "object"
    sha, version = raw.get("sha256"), raw.get("version")
    return Fingerprint(
        package=package,
        kind=kind,
        target=str(raw[kind]).strip(),
        version=None if version is None else str(version),
        sha256=None if sha is None else str(sha),
        line=line,
        key_lines=dict(getattr(raw, "key_lines", {})),
    ), ""


def _problem(raw: dict[str, Any]) -> str:
    """Why a fingerprint mapping is not valid, or ''."""
    unknown = sorted(set(map(str, raw)) - set(KEYS))
    package = str(raw.get("package") or "")
    targets = [k for k in ("file", "object") if raw.get(k)]
    target = str(raw[targets[0]]).strip() if len(targets) == 1 else ""
    sha = raw.get("sha256")
    checks = [
        (bool(unknown), f"claves desconocidas en «fingerprint»: {', '.join(unknown)}"),
        (
            not _PACKAGE.match(package),
            "«fingerprint» necesita package: el nombre del paquete importable (torch)",
        ),
        (len(targets) != 1, "«fingerprint» lleva exactamente una de file (ruta) u object (nombre)"),
        (
            targets == ["file"] and not target.startswith(f"{package}/"),
            f"file «{target}» debe ser una ruta dentro del paquete, p. ej. {package}/…",
        ),
        (
            targets == ["object"]
            and not (_DOTTED.match(target) and target.startswith(f"{package}.")),
            f"object «{target}» debe ser un nombre con puntos dentro de {package}",
        ),
        (
            sha is not None and not _SHA.match(str(sha)),
            "sha256 debe tener 64 cifras hexadecimales en minúsculas",
        ),
    ]
    return next((message for failed, message in checks if failed), "")


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def package_dir(package: str, path: Sequence[str] | None = None) -> Path:
    """Where an installed top-level package lives, found without importing it: on this
    interpreter's sys.path, or on `path` (another interpreter's, as docverify canary asks)."""
    try:
        if path is None:
            spec = importlib.util.find_spec(package)
        else:
            spec = importlib.machinery.PathFinder.find_spec(package, list(path))
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        raise FingerprintError(f"el paquete «{package}» no está instalado")
    if spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    if spec.origin:
        return Path(spec.origin).parent
    raise FingerprintError(f"no se encuentra en disco el paquete «{package}»")


def package_version(package: str, path: Sequence[str] | None = None) -> str | None:
    """The installed version of `package` (its distribution's), on sys.path or on `path`."""
    if path is not None:
        for dist in importlib.metadata.distributions(path=list(path)):
            top = (dist.read_text("top_level.txt") or "").split()
            names = {n.lower() for n in [dist.metadata["Name"] or "", *top]}
            if package.lower() in names:
                return dist.version
        return None
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        for dist in importlib.metadata.packages_distributions().get(package, []):
            return importlib.metadata.version(dist)
    return None


def installed(fp: Fingerprint, path: Sequence[str] | None = None) -> Installed:
    """The installed text of the fingerprinted file or object, hashed (on sys.path, or on
    another interpreter's `path`)."""
    base = package_dir(fp.package, path)
    if fp.kind == "file":
        text = _read(base.parent / fp.target)
        if text is None:
            raise FingerprintError(f"el archivo «{fp.target}» no existe en el paquete instalado")
    else:
        text = object_source(base, fp.target)
    return Installed(text=text, sha256=digest(text), version=package_version(fp.package, path))


def object_source(base: Path, dotted: str) -> str:
    """The source of a module-level function or class (or a method) named `dotted`, via ast."""
    parts = dotted.split(".")
    for split in range(len(parts) - 1, 0, -1):
        module, names = parts[:split], parts[split:]
        folder = base.parent.joinpath(*module)
        for candidate in (folder / "__init__.py", folder.with_suffix(".py")):
            text = _read(candidate)
            if text is None:
                continue
            found = _find(_parse(candidate, text), names)
            if found is not None:
                return _segment(text, found)
    raise FingerprintError(f"no se encuentra la definición de «{dotted}» en el paquete instalado")


def _find(tree: ast.Module, names: list[str]) -> ast.AST | None:
    body: list[ast.stmt] = tree.body
    node: ast.AST | None = None
    for name in names:
        # The last definition wins, as it does at import time.
        matches = [
            n
            for n in body
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            and n.name == name
        ]
        if not matches:
            return None
        node = matches[-1]
        body = node.body if isinstance(node, ast.ClassDef) else []
    return node


def _segment(text: str, node: ast.AST) -> str:
    decorators = getattr(node, "decorator_list", [])
    start = min([node.lineno, *(d.lineno for d in decorators)])  # type: ignore[attr-defined]
    lines = text.split("\n")[start - 1 : node.end_lineno]  # type: ignore[attr-defined]
    return textwrap.dedent("\n".join(lines)) + "\n"


@functools.lru_cache(maxsize=64)
def _parse_cached(path: str, mtime_ns: int, text: str) -> ast.Module:
    return ast.parse(text, filename=path)


def _parse(path: Path, text: str) -> ast.Module:
    return _parse_cached(str(path), path.stat().st_mtime_ns, text)


def _read(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.is_file() else None


# Snapshots: the verified text, kept so that `docverify sources --reverify` can show a diff.
def snapshot_path(snapshots_dir: Path, sha256: str) -> Path:
    return snapshots_dir / f"{sha256}.txt"


def read_snapshot(snapshots_dir: Path, sha256: str | None) -> str | None:
    """The text that was fingerprinted, when its snapshot exists and still matches its hash."""
    if not sha256:
        return None
    text = _read(snapshot_path(snapshots_dir, sha256))
    return text if text is not None and digest(text) == sha256 else None
