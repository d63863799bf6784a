"""Engine configuration: the `[tool.docverify]` table of pyproject.toml, with defaults."""

from __future__ import annotations

import datetime as dt
import functools
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docverify.core import policies, settings
from docverify.core.findings import Finding

RUNNERS = ("cpu", "gpu")
LABEL = {"cpu": "CPU", "gpu": "GPU"}  # how pages and messages name each runner
PYPROJECT = "pyproject.toml"
TABLE = "tool.docverify"


@dataclass(frozen=True)
class Config:
    root: Path
    docs_dir: Path
    snippets_dir: Path
    timeout: float = settings.DEFAULTS["timeout"]
    output_limit: int = settings.DEFAULTS["output_limit"]
    rtol: float = settings.DEFAULTS["rtol"]
    atol: float = settings.DEFAULTS["atol"]
    seed: int = settings.DEFAULTS["seed"]
    hash_seed: int = settings.DEFAULTS["hash_seed"]  # PYTHONHASHSEED of block processes
    device_policy: str = settings.DEFAULTS[policies.DEVICE_POLICY]
    last_value: str = settings.DEFAULTS[policies.LAST_VALUE]
    sources: dict[str, Any] = field(default_factory=dict)
    # Mistakes in [tool.docverify] (each with its line; the default is used instead): every
    # build, check and lint reports them as errors, and the other commands stop on them.
    findings: tuple[Finding, ...] = ()
    # Line of each key in pyproject.toml: "timeout", "sources.max_age_days"… (for findings).
    lines: dict[str, int] = field(default_factory=dict)

    def rel(self, path: Path) -> str:
        """A path relative to the project root, for messages."""
        if not (path.is_absolute() and self.root.is_absolute()):  # depends on the cwd
            return _relative.__wrapped__(path, self.root)
        return _relative(path, self.root)

    @property
    def pyproject(self) -> str:
        """The configuration file, as messages name it."""
        return self.rel(self.root / PYPROJECT)

    def line_of(self, key: str) -> int:
        """The line of `key` ("timeout", "sources.drift") in pyproject.toml, or of its table."""
        return self.lines.get(key) or self.lines.get(key.rpartition(".")[0]) or 1


def find_root(start: Path | None = None) -> Path:
    """The nearest folder at or above `start` holding a pyproject.toml with [tool.docverify]."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        candidate = folder / PYPROJECT
        if candidate.is_file() and "[tool.docverify" in candidate.read_text(encoding="utf-8"):
            return folder
    raise FileNotFoundError(
        f"No se encontró pyproject.toml con [tool.docverify] en {here} ni en sus carpetas padre."
    )


def load(root: Path | None = None) -> Config:
    """Read the configuration of the project at `root` (found upwards from cwd by default).

    A mistake in [tool.docverify] is never an exception: it becomes a finding of the Config,
    naming the key and its line, and the default is used in its place (settings.py). Only a file
    that is not TOML at all raises (ValueError, in Spanish, with its line).
    """
    root = find_root(root)
    path = root / PYPROJECT
    text = path.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(
            f"{path}: no es TOML válido ({exc}); corrígelo antes de construir o verificar."
        ) from exc
    table: dict[str, Any] = dict(data.get("tool", {}).get("docverify", {}))
    lines = settings.key_lines(text, TABLE)
    values, findings = settings.read(table, lines, PYPROJECT)  # findings: relative to root
    return Config(
        root=root,
        docs_dir=root / values["docs_dir"],
        snippets_dir=root / values["snippets_dir"],
        timeout=values["timeout"],
        output_limit=values["output_limit"],
        rtol=values["rtol"],
        atol=values["atol"],
        seed=values["seed"],
        hash_seed=values["hash_seed"],
        device_policy=values[policies.DEVICE_POLICY],
        last_value=values[policies.LAST_VALUE],
        sources=dict(values["sources"]),
        findings=tuple(findings),
        lines=lines,
    )


def pins(root: Path) -> dict[str, str]:
    """The exact pins of pyproject.toml's [project].dependencies: {"torch": "2.13.0", …}."""
    data = tomllib.loads((root / PYPROJECT).read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    for item in data.get("project", {}).get("dependencies", []):
        name, sep, version = str(item).replace(" ", "").partition("==")
        if sep and name and version and not any(c in version for c in ";,<>!~"):
            found[name.lower()] = version
    return found


def today() -> dt.date:
    """Today's date, injectable through SOURCE_DATE_EPOCH (the reproducible-builds convention)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        return dt.datetime.fromtimestamp(int(epoch), tz=dt.UTC).date()
    return dt.datetime.now(tz=dt.UTC).date()


def in_ci(environ: Mapping[str, str] | None = None) -> bool:
    """Whether this runs in CI (`CI=true`, as GitHub Actions and .ci/run set it): no recording,
    no accepting, no re-verifying a source, no local cache."""
    env = os.environ if environ is None else environ
    return env.get("CI", "").strip().lower() == "true"


@functools.lru_cache(maxsize=8192)
def _relative(path: Path, root: Path) -> str:
    # Cached: resolving touches the file system, and a check asks this for every block, many
    # times, in the one process that the workers wait on.
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()
