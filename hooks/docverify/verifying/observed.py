"""Observations of a check report: what one runner printed for each block, tied to its code.

`docverify check --report DIR` writes them (output/ci_report.py); `docverify accept DIR` turns
them into recordings, a site build shows them as the other runner's output (peers.py), and a
build from reports renders them instead of executing anything (replay.py). All first make sure
the report still describes the current code: each observation carries the SHA-256 of its
block's code and of every block before it on its page (a page shares one process, so a block
can depend on any earlier block), and since format 3 the digest of the options that change how
those blocks run (session, timeout, seed…); a mismatch names the block.

Format 3 adds, without changing any key of format 2: per observation, `spec_sha256` and
`result`, the block's result as the engine returned it (error, exception, traceback,
expectations, shown value, where each output line came from…) minus its `output`, which is
the observation's normalised `output`; per report, `all_pages` (every page the run was asked
for, in order, sharded or not) and `site_sha256` (the digest of all their code and options),
so that the reports of the shards of one run can be merged (merge.py); per finding, its `part`
and `page`, so that merged findings keep the unsharded order.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docverify.core import device_marks
from docverify.core.config import RUNNERS, Config
from docverify.core.status import Status
from docverify.parsing.pages import Block, Page
from docverify.verifying.specs import setup_text

FORMAT = 3  # 2: observations; 3: their results and option digests (older reports lack both)
REPORT_FILE = "report.json"
# Result fields a report does not keep: the output is the observation's own (normalised), and
# a cache date says nothing about the run that wrote the report.
_NOT_KEPT = ("output", "cached")
MARKS = device_marks.RESULT_KEY  # an observation's device marks (added to FORMAT 2)


class ReportError(ValueError):
    """A report that cannot be used; the message says what, where and how to fix it."""


@dataclass(frozen=True)
class Observation:
    key: str
    status: Status  # the check's verdict on that runner: ok | diverge | missing | error
    output: str  # normalised observed output
    code_sha256: str
    inputs_sha256: str
    error: str = ""
    spec_sha256: str = ""  # format 3: options of this block and of the earlier ones
    result: dict[str, Any] | None = None  # format 3: the block's result, without its output

    def block_result(self) -> dict[str, Any] | None:
        """The block's result as the engine returned it (a fresh copy), or None (format 2)."""
        if self.result is None:
            return None
        return {**json.loads(json.dumps(self.result)), "output": self.output}

    # The run's device marks (core/device_marks.py); () in a report written before they were.
    device_dependent: tuple[str, ...] = ()


@dataclass(frozen=True)
class ObservedReport:
    path: Path
    runner: str
    env: dict[str, str]
    date: str
    run_url: str
    observations: dict[str, Observation]
    # The canary section of a `docverify canary` report (verifying/canary.py); None for check's.
    canary: dict[str, Any] | None = None
    sources: tuple[Path, ...] = ()  # the report files it was read (or merged) from
    shards: str = ""  # "N" when merged from the N shards of one run

    @property
    def folder(self) -> Path:
        """The folder to name in commands (`docverify accept FOLDER`): the one holding them."""
        parents = [str(p.parent) for p in self.sources or (self.path,)]
        return Path(os.path.commonpath(parents))

    def provenance(self) -> str:
        """One line for people: where and when these outputs were observed."""
        where = f"ejecución de CI {self.run_url}" if self.run_url else "ejecución local"
        if self.canary is not None:
            where = f"canario, {where}"
        return (
            f"runner {self.runner} · torch {self.env.get('torch', '?')} · "
            f"{self.env.get('device', '?')} · {self.date} · {where}"
        )


def code_digest(code: str) -> str:
    return hashlib.sha256(code.encode("utf-8")).hexdigest()


def digests(page: Page, runner: str) -> dict[str, tuple[str, str]]:
    """Block key → (digest of its code, digest of its code and all earlier code run with it)."""
    found: dict[str, tuple[str, str]] = {}
    chain = hashlib.sha256()
    for block in page.blocks:
        if not block.runs_on(runner):
            continue
        own = code_digest(block.code)
        chain.update(own.encode())
        found[block.key] = (own, chain.hexdigest())
    return found


def setups(config: Config, page: Page, runner: str) -> dict[str, str]:
    """Block key → digest of the options that change how it and every earlier block run."""
    found: dict[str, str] = {}
    chain = hashlib.sha256()
    for block in page.blocks:
        if block.runs_on(runner):
            chain.update(setup_text(config, block).encode("utf-8") + b"\0")
            found[block.key] = chain.hexdigest()
    return found


def site_digest(config: Config, pages: list[Page], runner: str) -> str:
    """One digest of every page, block, code and option a run on `runner` was asked for."""
    whole = hashlib.sha256()
    for page in pages:
        whole.update(f"{page.rel}\0".encode())
        options = setups(config, page, runner)
        for key, (_, inputs) in digests(page, runner).items():
            whole.update(f"{key}\0{inputs}\0{options[key]}\0".encode())
    return whole.hexdigest()


def run_url(environ: Mapping[str, str] | None = None) -> str:
    """The CI run's URL from GitHub's variables, or "" outside GitHub Actions."""
    env = os.environ if environ is None else environ
    parts = [env.get(n, "").strip() for n in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY")]
    run_id = env.get("GITHUB_RUN_ID", "").strip()
    if not all(parts) or not run_id:
        return ""
    return f"{parts[0].rstrip('/')}/{parts[1]}/actions/runs/{run_id}"


def data(
    config: Config,
    pages: list[Page],
    runner: str,
    outcomes: Mapping[str, Any],
    observed: Mapping[str, str],
) -> dict[str, dict[str, Any]]:
    """The `observations` table of report.json: every block that ran and printed something.

    `device_dependent` (the run's device marks, a list; cpu reports only) is a key added after
    FORMAT 2 was fixed: a reader of an older report finds none, and an older reader ignores it."""
    table: dict[str, dict[str, Any]] = {}
    for page in pages:
        options = setups(config, page, runner)
        for key, (own, inputs) in digests(page, runner).items():
            outcome = outcomes.get(key)
            if outcome is None or key not in observed:
                continue
            result = outcome.result or {}
            table[key] = {
                "status": outcome.status,
                "output": observed[key],
                "code_sha256": own,
                "inputs_sha256": inputs,
                "error": str(result.get("error") or result.get("exception") or ""),
                "spec_sha256": options[key],
                "result": {k: v for k, v in result.items() if k not in _NOT_KEPT},
            }
            # Only the cpu runner's runs detect them all (on a GPU, draws come from CUDA's
            # generator, which the detection does not watch): a gpu report carries none.
            if MARKS in result and runner == device_marks.RUNNER:
                table[key][MARKS] = list(device_marks.ordered(result[MARKS]))
    return table


def read(folder: Path) -> ObservedReport:
    """Read DIR/report.json (or the file itself) written by `docverify check --report DIR`."""
    path = folder / REPORT_FILE if folder.is_dir() else folder
    fix = "pasa la carpeta que escribió docverify check --report (el artefacto de CI descomprimido)"
    if not path.is_file():
        raise ReportError(f"{path}: no existe el informe {REPORT_FILE}. Cómo arreglarlo: {fix}.")
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ReportError(f"{path}: el informe no es JSON válido ({exc}). {fix}.") from exc
    return parse(raw, path)


def parse(raw: Any, path: Path, sources: tuple[Path, ...] = (), shards: str = "") -> ObservedReport:
    """An ObservedReport from the JSON of report.json at `path` (or merged from `sources`)."""
    runner = raw.get("runner") if isinstance(raw, dict) else None
    table = raw.get("observations") if isinstance(raw, dict) else None
    if runner not in RUNNERS or not isinstance(table, dict):
        raise ReportError(
            f"{path}: el informe no tiene las salidas observadas (formato 2 o posterior). Cómo "
            "arreglarlo: vuelve a ejecutar docverify check --report con esta versión del motor."
        )
    try:
        observations = {
            key: Observation(
                key=key,
                status=Status(item["status"]),
                output=str(item["output"]),
                code_sha256=str(item["code_sha256"]),
                inputs_sha256=str(item["inputs_sha256"]),
                error=str(item.get("error", "")),
                spec_sha256=str(item.get("spec_sha256") or ""),
                result=_result(item.get("result")),
                device_dependent=_marks(item.get(MARKS)),
            )
            for key, item in table.items()
        }
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ReportError(f"{path}: una observación del informe está incompleta ({exc}).") from exc
    return ObservedReport(
        path=path,
        runner=str(runner),
        env={str(k): str(v) for k, v in (raw.get("env") or {}).items()},
        date=str(raw.get("date") or "?"),
        run_url=str(raw.get("run_url") or ""),
        observations=observations,
        canary=raw["canary"] if isinstance(raw.get("canary"), dict) else None,
        sources=sources or (path,),
        shards=shards,
    )


def _result(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise TypeError(f"«result» debe ser un objeto, no {type(value).__name__}")
    return value


def _marks(value: object) -> tuple[str, ...]:
    """An observation's device marks: a list of known reasons (anything else is an error)."""
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TypeError(f"{MARKS} debe ser una lista de textos, no {value!r}")
    return device_marks.ordered(value)


@dataclass(frozen=True)
class Stale:
    """An observation that no longer describes the current code, and why (in Spanish)."""

    key: str
    path: str  # the block's code file, or the report when the block is gone
    line: int
    reason: str

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


def stale(config: Config, pages: list[Page], report: ObservedReport) -> list[Stale]:
    """Observations whose block is gone or whose code (or earlier code) changed since the run."""
    blocks: dict[str, Block] = {b.key: b for p in pages for b in p.blocks}
    current: dict[str, tuple[str, str]] = {}
    options: dict[str, str] = {}
    for page in pages:
        current.update(digests(page, report.runner))
        options.update(setups(config, page, report.runner))
    found: list[Stale] = []
    for key, item in report.observations.items():
        block = blocks.get(key)
        if block is None or key not in current:
            found.append(
                Stale(
                    key,
                    config.rel(report.path),
                    1,
                    f"el bloque «{key}» ya no existe o no corre en {report.runner}",
                )
            )
            continue
        own, inputs = current[key]
        where = (config.rel(block.origin), block.origin_line)
        if own != item.code_sha256:
            found.append(
                Stale(key, *where, f"el código del bloque «{key}» cambió desde el informe")
            )
        elif inputs != item.inputs_sha256:
            earlier = _changed_before(pages, report, key)
            found.append(
                Stale(
                    key,
                    *where,
                    f"cambió el código de un bloque anterior de la página de «{key}»"
                    + (f" («{earlier}»)" if earlier else "")
                    + ", y la salida puede depender de él",
                )
            )
        elif item.spec_sha256 and item.spec_sha256 != options[key]:  # format 2 has none
            found.append(
                Stale(
                    key,
                    *where,
                    f"cambiaron las opciones de ejecución (sesión, tiempo límite, semilla, "
                    f"política de dispositivo o valor final) de «{key}» o de un bloque anterior "
                    "de su página, o las de [tool.docverify]",
                )
            )
    return found


def _changed_before(pages: list[Page], report: ObservedReport, key: str) -> str:
    """The first earlier block of `key`'s page whose own code differs from the report's."""
    for page in pages:
        keys = [b.key for b in page.blocks]
        if key not in keys:
            continue
        for earlier, (own, _) in digests(page, report.runner).items():
            if earlier == key:
                return ""
            item = report.observations.get(earlier)
            if item is None or item.code_sha256 != own:
                return earlier
    return ""


def folders_from_env(name: str) -> list[Path] | None:
    """The report folders an environment variable names (comma-separated), or None when unset
    or blank: DOCVERIFY_GPU_REPORT and DOCVERIFY_FROM_REPORTS."""
    value = os.environ.get(name, "").strip()
    if not value:
        return None
    return [Path(part.strip()) for part in value.split(",") if part.strip()]
