# Local cache of block results, so that `mkdocs serve` and local builds re-run only what changed.
"""A local, disposable cache of page results, keyed by everything that can change an output.

Granularity: the page. All blocks of a page run in one process, in order, so a block can
depend on more than its `session`: a block that calls `torch.set_default_dtype` or fills a
module-level cache changes what later blocks of the same page print, session or not. The only
safe unit to reuse or re-run is therefore the whole page process: its key covers every block of
the page in order (code, which is the text of the included snippet when there is one, the file
and line the code comes from, session, timeout, output limit, seed), plus the runner, the
versions of Python, torch and numpy (read from package metadata: this process must not import
torch) and the engine (its version and a hash of its source files). A prose edit leaves every
key unchanged and re-runs no block; a code edit re-runs that page only.

The files a page declares in `data_files:` (parsing/data_files.py) are covered by their
content's SHA-256, which their blocks' specs carry. Not covered, on purpose: other files a block
reads at run time (by absolute path), the packages a block
imports besides torch and numpy, and the exact GPU model. That is acceptable for a local
convenience because only a page that ran without failure is stored: a page with an engine error
(timeout, dead process, syntax error, output limit), an exception that its block does not
declare with `raises=` or a declared one that did not come is never stored, so installing the
missing package (or creating the missing file) is seen by the very next run, with nothing to
clear by hand. What the cache replays is only ever a run that succeeded.

Who reads and who writes: a local build or `docverify check` reads and refreshes it;
`docverify check --no-cache` and `DOCVERIFY_CACHE=0` (the tests' strict builds) run every block
without reading it but still refresh the entries of the pages they ran; under CI (`CI=true`) it
is neither read nor written.

Storage: `<project>/.cache/docverify/<runner>/<page>.json`, outside docs/ and ignored by git;
deleting it only costs a re-run. Each file starts with a line holding the SHA-256 of the rest:
a truncated, edited or otherwise corrupt file fails that check (or the key, or the shape check)
and is treated as a miss, then overwritten by the fresh run. It is never trusted, never fatal.
"""

from __future__ import annotations

import hashlib
import json
import platform
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import docverify
from docverify.core import versions
from docverify.core.config import Config, today
from docverify.core.files import write_atomic
from docverify.running.executor import PageJob
from docverify.running.protocol import STORED_FIELDS, BlockResult, Environment
from docverify.verifying.compare import declared_exception

FORMAT = 1
MAGIC = "docverify-cache"
FOLDER = Path(".cache") / "docverify"


def failed(result: BlockResult | None, raises: str | None) -> bool:
    """Did this block's run fail: no result, an engine error, or an exception that `raises`
    (the block's raises="Type: message start") does not declare, or a declared one missing?
    The cache's policy (what is not worth replaying), not a verdict: a replayed result is judged
    again by judge.py, as a fresh one is, expectations and recordings included."""
    if result is None or result.get("engine") or result["error"]:
        return True
    if not raises:
        return bool(result["exception"])
    return not declared_exception(raises, result)


def _version(package: str) -> str:
    return versions.installed(package) or "absent"


@cache
def engine_fingerprint() -> str:
    """docverify's version plus a hash of its source files: any engine edit invalidates."""
    digest = hashlib.sha256(docverify.__version__.encode())
    for path in sorted(Path(docverify.__file__).parent.rglob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return f"{docverify.__version__}+{digest.hexdigest()[:16]}"


def environment_parts() -> tuple[str, ...]:
    """The parts of the key that do not depend on the page (computed without importing torch):
    the Python, the machine, torch's and numpy's versions and the engine's fingerprint."""
    return (
        f"{platform.python_implementation()} {platform.python_version()}",
        platform.machine(),
        _version("torch"),
        _version("numpy"),
        engine_fingerprint(),
    )


@dataclass
class Cache:
    """Page results on disk under `folder`; counts blocks served and pages rejected as corrupt.

    With `read=False` nothing is served (every page runs) but what runs is stored as usual."""

    folder: Path
    read: bool = True
    hits: int = 0  # blocks whose result came from the cache
    misses: int = 0  # blocks that had to run
    rejected: int = 0  # files present but corrupt, truncated or of another format
    parts: tuple[str, ...] = ()  # environment_parts(), read once

    @classmethod
    def for_config(cls, config: Config, *, read: bool = True) -> Cache:
        return cls(config.root / FOLDER, read=read)

    def key(self, job: PageJob) -> str:
        """SHA-256 over the runner, the environment parts and every block spec of the page."""
        if not self.parts:
            self.parts = environment_parts()
        material = (FORMAT, job.runner, job.page, self.parts, job.blocks)
        blob = json.dumps(material, sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()

    def path(self, job: PageJob) -> Path:
        return self.folder / job.runner / f"{job.page}.json"

    def load(self, job: PageJob) -> tuple[dict[str, BlockResult], Environment] | None:
        """The page's results and environment, or None when absent, stale or not trustworthy
        (or when this cache is not read)."""
        keys = [b["key"] for b in job.blocks]
        if not self.read:
            self.misses += len(keys)
            return None
        data = self._read(self.path(job))
        if data is None or data.get("key") != self.key(job):
            self.misses += len(keys)
            return None
        results = data.get("results")
        if (
            not isinstance(results, dict)
            or sorted(results) != sorted(keys)
            or not all(
                isinstance(r, dict) and all(f in r for f in STORED_FIELDS) for r in results.values()
            )
        ):
            self.rejected += 1
            self.misses += len(keys)
            return None
        self.hits += len(keys)
        for result in results.values():
            result["cached"] = data.get("stored", "")
        return results, dict(data.get("env") or {})  # type: ignore[return-value]

    def store(
        self,
        job: PageJob,
        results: dict[str, BlockResult],
        env: Environment,
        raises: dict[str, str | None] | None = None,
    ) -> bool:
        """Save a page whose every block ran without failure (see `failed`; `raises`: block key →
        its raises="…" option). A failed page is not stored and its old entry is removed, so
        the next run runs it again: a failure is never replayed."""
        raises = raises or {}
        mine = {b["key"]: results.get(b["key"]) for b in job.blocks}
        if not mine or any(failed(r, raises.get(k)) for k, r in mine.items()):
            self.path(job).unlink(missing_ok=True)
            return False
        body = json.dumps(
            {
                "format": FORMAT,
                "key": self.key(job),
                "page": job.page,
                "stored": today().isoformat(),
                "env": env,
                "results": mine,
            },
            ensure_ascii=False,
            sort_keys=True,
        )
        checksum = hashlib.sha256(body.encode()).hexdigest()
        write_atomic(self.path(job), f"{MAGIC} {FORMAT} {checksum}\n{body}")
        return True

    def _read(self, path: Path) -> dict[str, Any] | None:
        try:
            raw = path.read_bytes()
        except OSError:
            return None  # absent (or unreadable): a plain miss
        head, sep, body = raw.partition(b"\n")
        try:
            magic, version, checksum = head.decode("ascii").split(" ")
            data = json.loads(body)
        except (UnicodeDecodeError, ValueError):
            data = None
        else:
            if (
                not sep
                or magic != MAGIC
                or version != str(FORMAT)
                or hashlib.sha256(body).hexdigest() != checksum
                or not isinstance(data, dict)
            ):
                data = None
        if data is None:
            self.rejected += 1
        return data
