# What a build or a check is asked to do: one typed request, read from the environment here.
"""The request every pipeline of the engine takes (build.py): what to verify, and from which
reports.

The site builds (the MkDocs adapter, the Zensical path), `docverify check` and the benchmarks
make one with `from_env`, the only place that reads the variables below; a test builds one by
hand. Its defaults ask for nothing from the environment: run every block here, no cache, no
report.

    DOCVERIFY_RUNNER         the runner asked for: cpu, gpu or auto (--runner wins)
    DOCVERIFY_EXECUTE=0      run nothing (only to measure a build without execution: bench)
    DOCVERIFY_CACHE=0        run every block, refreshing the local cache (as --no-cache)
    CI=true                  no local cache at all
    DOCVERIFY_FROM_REPORTS   render what verification jobs observed (check reports), run nothing
    DOCVERIFY_GPU_REPORT     attach the gpu job's report to a cpu build
    DOCVERIFY_CANARY_REPORT  show what a torch canary would change
    SOURCE_DATE_EPOCH        the day sources are judged on (config.today)
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from docverify.core.config import RUNNERS, in_ci, today

RUNNER_ENV = "DOCVERIFY_RUNNER"
EXECUTE_ENV = "DOCVERIFY_EXECUTE"
CACHE_ENV = "DOCVERIFY_CACHE"
FROM_REPORTS_ENV = "DOCVERIFY_FROM_REPORTS"
GPU_REPORT_ENV = "DOCVERIFY_GPU_REPORT"
CANARY_REPORT_ENV = "DOCVERIFY_CANARY_REPORT"
_OFF = ("0", "false", "no", "off")


class CacheUse(StrEnum):
    """How a run uses the local cache (verifying/cache.py)."""

    OFF = "off"  # neither read nor written (CI, and requests made by hand)
    WRITE = "write"  # every block runs; what runs is stored (--no-cache, DOCVERIFY_CACHE=0)
    READ = "read"  # unchanged pages are served from it, the rest run and are stored


@dataclass(frozen=True)
class Request:
    """What one run of the pipeline verifies, and from which reports."""

    runner: str = "auto"  # asked for: cpu, gpu, or auto (gpu when CUDA is available)
    execute: bool = True  # False: no block runs (each is an error of the build: bench only)
    cache: CacheUse = CacheUse.OFF
    from_reports: tuple[Path, ...] | None = None  # judge these check reports, run nothing
    gpu_reports: tuple[Path, ...] | None = None  # the gpu job's report, for a cpu build
    canary_report: Path | None = None  # a torch canary's report (shown, never failing)
    day: dt.date | None = None  # the day sources are judged on (None: today)


def from_env(
    environ: Mapping[str, str] | None = None,
    *,
    runner: str | None = None,
    no_cache: bool = False,
    site: bool = True,
) -> Request:
    """The request of this process's environment. `runner` and `no_cache` are a command's own
    options (they win over the variables); `site=False` is a check of blocks: no report of
    the site is read (and the command renders nothing). ValueError names an unknown runner."""
    env = os.environ if environ is None else environ
    canary = env.get(CANARY_REPORT_ENV, "").strip()
    return Request(
        runner=asked_runner(runner, env),
        execute=not _off(env, EXECUTE_ENV),
        cache=cache_use(env, no_cache=no_cache),
        from_reports=folders(env, FROM_REPORTS_ENV) if site else None,
        gpu_reports=folders(env, GPU_REPORT_ENV) if site else None,
        canary_report=Path(canary) if canary and site else None,
        day=today(),
    )


def cache_use(environ: Mapping[str, str] | None = None, *, no_cache: bool = False) -> CacheUse:
    """How this process's environment asks a run to use the local cache: never in CI; only
    stored with DOCVERIFY_CACHE=0 or a command's --no-cache (`no_cache`); else read."""
    env = os.environ if environ is None else environ
    if in_ci(env):
        return CacheUse.OFF
    reads = not _off(env, CACHE_ENV) and not no_cache
    return CacheUse.READ if reads else CacheUse.WRITE


def asked_runner(value: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The runner asked for: an explicit value, else DOCVERIFY_RUNNER, else 'auto'."""
    env = os.environ if environ is None else environ
    runner = (value or env.get(RUNNER_ENV) or "auto").strip().lower()
    if runner not in (*RUNNERS, "auto"):
        raise ValueError(
            f"Runner desconocido «{runner}»: usa cpu, gpu o auto (--runner o {RUNNER_ENV})."
        )
    return runner


def _off(environ: Mapping[str, str], name: str) -> bool:
    """Whether variable `name` is set to a no (0, false, no, off, in any case); unset is not."""
    value = environ.get(name)
    return value is not None and value.strip().lower() in _OFF


def folders(environ: Mapping[str, str], name: str) -> tuple[Path, ...] | None:
    """The report folders variable `name` lists (comma-separated), or None when unset or blank."""
    value = environ.get(name, "").strip()
    if not value:
        return None
    return tuple(Path(part.strip()) for part in value.split(",") if part.strip())
