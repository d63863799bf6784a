"""Engine configuration: the `[tool.docverify]` table of pyproject.toml, with defaults."""

from __future__ import annotations

import datetime as dt
import functools
import os
import tomllib
from dataclasses import MISSING, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from docverify.core import policies

RUNNERS = ("cpu", "gpu")
LABEL = {"cpu": "CPU", "gpu": "GPU"}  # how pages and messages name each runner
# Folders of a project, relative to its root, unless [tool.docverify] says otherwise.
DOCS_DIR, SNIPPETS_DIR = "docs", "snippets"


@dataclass(frozen=True)
class Config:
    root: Path
    docs_dir: Path
    snippets_dir: Path
    timeout: float = 60.0
    output_limit: int = 100 * 1024
    rtol: float = 1e-5
    atol: float = 1e-8
    seed: int = 0
    device_policy: str = policies.DEFAULTS[policies.DEVICE_POLICY]
    last_value: str = policies.DEFAULTS[policies.LAST_VALUE]
    sources: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    def rel(self, path: Path) -> str:
        """A path relative to the project root, for messages."""
        if not (path.is_absolute() and self.root.is_absolute()):  # depends on the cwd
            return _relative.__wrapped__(path, self.root)
        return _relative(path, self.root)

    def with_root(self, root: Path) -> Config:
        return replace(self, root=root)


def find_root(start: Path | None = None) -> Path:
    """The nearest folder at or above `start` holding a pyproject.toml with [tool.docverify]."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file() and "[tool.docverify" in candidate.read_text(encoding="utf-8"):
            return folder
    raise FileNotFoundError(
        f"No se encontró pyproject.toml con [tool.docverify] en {here} ni en sus carpetas padre."
    )


def load(root: Path | None = None) -> Config:
    """Read the configuration of the project at `root` (found upwards from cwd by default)."""
    root = find_root(root)
    data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    table: dict[str, Any] = dict(data.get("tool", {}).get("docverify", {}))
    known = {f.name for f in fields(Config)} - {"root", "extra"}
    for name in policies.CHOICES:
        if name in table and (message := policies.problem(name, table[name])):
            raise ValueError(f"{root / 'pyproject.toml'}, [tool.docverify]: {message}")
    extra = {k: v for k, v in table.items() if k not in known}
    default = {f.name: f.default for f in fields(Config) if f.default is not MISSING}
    return Config(
        root=root,
        docs_dir=root / table.get("docs_dir", DOCS_DIR),
        snippets_dir=root / table.get("snippets_dir", SNIPPETS_DIR),
        timeout=float(table.get("timeout", default["timeout"])),
        output_limit=int(table.get("output_limit", default["output_limit"])),
        rtol=float(table.get("rtol", default["rtol"])),
        atol=float(table.get("atol", default["atol"])),
        seed=int(table.get("seed", default["seed"])),
        device_policy=str(
            table.get(policies.DEVICE_POLICY, policies.DEFAULTS[policies.DEVICE_POLICY])
        ),
        last_value=str(table.get(policies.LAST_VALUE, policies.DEFAULTS[policies.LAST_VALUE])),
        sources=dict(table.get("sources", {})),
        extra=extra,
    )


def today() -> dt.date:
    """Today's date, injectable through SOURCE_DATE_EPOCH (the reproducible-builds convention)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        return dt.datetime.fromtimestamp(int(epoch), tz=dt.UTC).date()
    return dt.datetime.now(tz=dt.UTC).date()


def in_ci() -> bool:
    """Whether this runs in CI (`CI=true`, as GitHub Actions and .ci/run set it): no recording,
    no re-verifying a source, no local cache."""
    return os.environ.get("CI", "").strip().lower() == "true"


def runner_from_env(value: str | None = None) -> str:
    """The requested runner: an explicit value, else DOCVERIFY_RUNNER, else 'auto'."""
    runner = (value or os.environ.get("DOCVERIFY_RUNNER") or "auto").strip().lower()
    if runner not in (*RUNNERS, "auto"):
        raise ValueError(
            f"Runner desconocido «{runner}»: usa cpu, gpu o auto (--runner o DOCVERIFY_RUNNER)."
        )
    return runner


@functools.lru_cache(maxsize=8192)
def _relative(path: Path, root: Path) -> str:
    # Cached: resolving touches the file system, and a check asks this for every block, many
    # times, in the one process that the workers wait on.
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()
