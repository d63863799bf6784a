"""report.json: what one runner printed for each block, tied to its code (its format, read).

`docverify check --report DIR` and `docverify canary --report DIR` write it (write.py); the shards
of one run are merged into one (merge.py); `docverify accept DIR` turns it into recordings
(accept.py), a cpu build shows the gpu runner's as the other runner's output (gpu_report.py), a
build from reports renders it instead of executing anything (from_reports.py) and a build shows
what a canary's would change (canary.py). All first make sure the report still describes the
current code (digests.py): each entry carries the SHA-256 of its block's code and of every block
before it on its page (a page shares one process, so a block can depend on any earlier block),
and since format 3 the digest of the options that change how those blocks run (session,
timeout, seed…); a mismatch names the block.

Format 3 adds, without changing any key of format 2: per entry, `spec_sha256` and `result`, the
block's result as the engine returned it (error, exception, traceback, expectations, shown
value, where each output line came from…) minus its `output`, which is the entry's normalised
`output`; per report, `all_pages` (every page the run was asked for, in order, sharded or not)
and `site_sha256` (the digest of all their code and options), so that the reports of the shards
of one run can be merged; per finding, its `part` and `page`, so that merged findings keep the
unsharded order.

Format 4 changes no key: the option digests also cover `hash_seed` (the PYTHONHASHSEED of the
processes that run blocks). A report of format 3 is still used: its digests are compared with
the options it knew (digests.py).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from docverify.core import device_marks
from docverify.core.config import RUNNERS, Config
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.core.status import Status
from docverify.running.protocol import BlockResult
from docverify.verifying.outcome import Provenance, Source

FORMAT = 4  # 2: observations; 3: their results and option digests; 4: hash_seed digested
REPORT_FILE = "report.json"
# Result fields a report does not keep: the output is the observation's own (normalised), and
# a cache date says nothing about the run that wrote the report.
NOT_KEPT = ("output", "cached")
MARKS = device_marks.RESULT_KEY  # an observation's device marks (added to FORMAT 2)


class ReportError(ValueError):
    """A report that cannot be used; the message says what, where and how to fix it."""


@dataclass(frozen=True)
class Entry:
    """One row of report.json's `observations` table: a block's output on the report's runner."""

    key: str
    status: Status  # the check's verdict on that runner: ok | diverge | missing | error
    output: str  # normalised observed output
    code_sha256: str
    inputs_sha256: str
    error: str = ""
    spec_sha256: str = ""  # format 3: options of this block and of the earlier ones
    result: dict[str, Any] | None = None  # format 3: the block's result, without its output

    def block_result(self) -> BlockResult:
        """The block's result as the engine returned it (a fresh copy). Format 2 kept none:
        every use refuses such a report first (`Report.without_results`)."""
        if self.result is None:
            raise ReportError(f"«{self.key}»: el informe no guarda su resultado (formato 2)")
        return cast(BlockResult, {**json.loads(json.dumps(self.result)), "output": self.output})

    # The run's device marks (core/device_marks.py); () in a report written before they were.
    device_dependent: tuple[str, ...] = ()


@dataclass(frozen=True)
class Report:
    """A report.json as read (or merged from the reports of a run's shards)."""

    path: Path
    runner: str
    env: dict[str, str]
    date: str
    run_url: str
    observations: dict[str, Entry]
    # The canary section of a `docverify canary` report (report/canary.py); None for check's.
    canary: dict[str, Any] | None = None
    sources: tuple[Path, ...] = ()  # the report files it was read (or merged) from
    shards: str = ""  # "N" when merged from the N shards of one run
    format: int = FORMAT  # the format it was written in (merged: its shards')

    @property
    def folder(self) -> Path:
        """The folder to name in commands (`docverify accept FOLDER`): the one holding them."""
        parents = [str(p.parent) for p in self.sources or (self.path,)]
        return Path(os.path.commonpath(parents))

    def seen(self, config: Config) -> Provenance:
        """Where and when the report's runner observed its outputs (the report files named as
        `config` names files)."""
        return Provenance(
            self.runner,
            self.env.get("torch", "?"),
            self.env.get("device", "?"),
            self.date,
            Source.REPORT,
            self.run_url,
            tuple(config.rel(p) for p in self.sources),
            self.shards,
        )

    def without_results(self) -> list[str]:
        """The keys of the entries that keep no result (a report of format 2), sorted."""
        return sorted(k for k, entry in self.observations.items() if entry.result is None)

    def line(self) -> str:
        """One line for people: where and when these outputs were observed."""
        where = f"ejecución de CI {self.run_url}" if self.run_url else "ejecución local"
        if self.canary is not None:
            where = f"canario, {where}"
        return (
            f"runner {self.runner} · torch {self.env.get('torch', '?')} · "
            f"{self.env.get('device', '?')} · {self.date} · {where}"
        )


def read(folder: Path) -> Report:
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


def parse(raw: Any, path: Path, sources: tuple[Path, ...] = (), shards: str = "") -> Report:
    """A Report from the JSON of report.json at `path` (or merged from `sources`)."""
    runner = raw.get("runner") if isinstance(raw, dict) else None
    table = raw.get("observations") if isinstance(raw, dict) else None
    if runner not in RUNNERS or not isinstance(table, dict):
        raise ReportError(
            f"{path}: el informe no tiene las salidas observadas (formato 2 o posterior). Cómo "
            "arreglarlo: vuelve a ejecutar docverify check --report con esta versión del motor."
        )
    try:
        observations = {
            key: Entry(
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
    return Report(
        path=path,
        runner=str(runner),
        env={str(k): str(v) for k, v in (raw.get("env") or {}).items()},
        date=str(raw.get("date") or "?"),
        run_url=str(raw.get("run_url") or ""),
        observations=observations,
        canary=raw["canary"] if isinstance(raw.get("canary"), dict) else None,
        sources=sources or (path,),
        shards=shards,
        format=raw["format"] if isinstance(raw.get("format"), int) else 2,
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


def format_2(variable: str, where: str, keys: list[str], fix: str) -> Finding:
    """A report whose entries keep no result (format 2): no use can judge them again."""
    return Finding(
        Kind.INVALID_REPORT,
        f"{variable}: el informe {where} no guarda el resultado de cada bloque (error, "
        f"excepción, expectativas; falta en «{keys[0]}» y {len(keys) - 1} más): lo "
        "escribió una versión anterior del motor (formato 2).",
        where,
        1,
        "vuelve a ejecutar docverify check --report con esta versión del motor. " + fix,
    )
