"""report.json: the one module that reads and writes it, in every format it was written in.

Each type keeps its reader (`from_json`) beside its writer (`to_json`). `VERSIONS` says what
each older format lacks: no key was ever removed or renamed, so one reader reads them all.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, cast

from docverify.core import device_marks
from docverify.core.config import RUNNERS
from docverify.core.files import write_atomic
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.core.status import Status
from docverify.running.protocol import BlockResult
from docverify.running.specs import FORMAT_3_FIELDS, SETUP_FIELDS

FILE = "report.json"  # the one place its name is written
NOT_KEPT = ("output", "cached")  # result fields an entry keeps elsewhere (output) or not at all
MARKS = device_marks.RESULT_KEY  # an entry's device marks (added to format 2; cpu reports only)


@dataclass(frozen=True)
class Version:
    """A format report.json was written in, and what this engine can do with it."""

    added: str  # what it added to the format before it
    mergeable: bool  # its shards' reports say which shard, and of what code: they merge
    digested: tuple[str, ...]  # the options its entries' spec digests cover (digests.py)


# Format 1 had no observations: refused. No `format`: 2, whose entries keep no result.
VERSIONS = {
    2: Version("observations: each block's output and its code's digests", False, FORMAT_3_FIELDS),
    3: Version("results, option digests, what merging shards needs", True, FORMAT_3_FIELDS),
    4: Version("no key: hash_seed and data_files in the option digests", True, SETUP_FIELDS),
}
FORMAT = max(VERSIONS)
CANARY_VERSIONS = {1: "a canary's section: both interpreters, counts, changes, warnings, sources"}
CANARY_FORMAT = max(CANARY_VERSIONS)


class ReportError(ValueError):
    """A report that cannot be used; the message says what, where and how to fix it."""


@dataclass(frozen=True)
class Entry:
    """One row of `observations`: a block's output on the report's runner, tied to its code."""

    key: str
    status: Status  # the check's verdict on that runner: ok | diverge | missing | error
    output: str  # normalised observed output
    code_sha256: str
    inputs_sha256: str
    error: str = ""
    spec_sha256: str = ""  # format 3: options of this block and of the earlier ones
    result: dict[str, Any] | None = None  # format 3: the block's result, without its output
    device_dependent: tuple[str, ...] = ()  # the run's device marks (none kept: ())

    @classmethod
    def from_json(cls, key: str, item: Mapping[str, Any]) -> Entry:
        result, marks = item.get("result"), item.get(MARKS)
        if not isinstance(result, dict | None):
            raise TypeError(f"«result» debe ser un objeto, no {type(result).__name__}")
        if not isinstance(marks, list | None) or any(not isinstance(m, str) for m in marks or ()):
            raise TypeError(f"{MARKS} debe ser una lista de textos, no {marks!r}")
        return cls(
            key=key,
            status=Status(item["status"]),
            output=str(item["output"]),
            code_sha256=str(item["code_sha256"]),
            inputs_sha256=str(item["inputs_sha256"]),
            error=str(item.get("error", "")),
            spec_sha256=str(item.get("spec_sha256") or ""),
            result=result,
            device_dependent=device_marks.ordered(marks or ()),
        )

    def to_json(self, runner: str) -> dict[str, Any]:
        """Its row. Only a cpu run detects every device mark: a gpu report carries none."""
        item: dict[str, Any] = {
            "status": str(self.status),
            "output": self.output,
            "code_sha256": self.code_sha256,
            "inputs_sha256": self.inputs_sha256,
            "error": self.error,
        }
        if self.result is not None:
            item |= {"spec_sha256": self.spec_sha256, "result": self.result}
            if MARKS in self.result and runner == device_marks.RUNNER:
                item[MARKS] = list(self.device_dependent)
        return item

    def block_result(self) -> BlockResult:
        """The block's result as the engine returned it (a fresh copy). Format 2 kept none:
        every use refuses such a report first (`Report.without_results`)."""
        if self.result is None:
            raise ReportError(f"«{self.key}»: el informe no guarda su resultado (formato 2)")
        return cast(BlockResult, {**json.loads(json.dumps(self.result)), "output": self.output})


@dataclass(frozen=True)
class Noted:
    """A finding of the run, and where an unsharded run puts it (merge.py keeps that order):
    `head` (configuration: every shard has it), `page` or `block` (of `page`), `tail` (the
    whole site's: only shard 1 has it). Format 2 kept neither (None)."""

    finding: Finding
    part: str | None = None
    page: str | None = None

    @classmethod
    def from_json(cls, item: Mapping[str, Any]) -> Noted:
        return cls(Finding.from_json(item), item.get("part"), item.get("page"))

    def to_json(self) -> dict[str, Any]:
        item = self.finding.to_json()
        return item if self.part is None else item | {"part": self.part, "page": self.page}


class _Keyed:
    """A section whose fields are its keys, in order (a key it lacks reads as None)."""

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Any:
        return cls(**{f.name: raw.get(f.name) for f in fields(cast(Any, cls))})

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(cast(Any, self))}


@dataclass(frozen=True)
class Sharded(_Keyed):
    """What only a shard's report holds (verifying/shards.py): which shard, of which plan."""

    shard: str  # "I/N"
    plan: str  # the digest of the shards' assignment (shards.Assignment.digest)
    basis: str  # what the plan weighed: the blocks, or earlier durations
    plan_shards: list[list[str]]  # every shard's pages


@dataclass(frozen=True)
class Merged(_Keyed):
    """What only a merged report holds (merge.py): how many shards, of which plan."""

    shards: int
    plan: str
    basis: str


@dataclass(frozen=True)
class Canary(_Keyed):
    """The `canary` section of a `docverify canary` report (report/canary.py makes it; CI's
    issue job reads its keys)."""

    format: int  # CANARY_VERSIONS
    headline: str
    project: dict[str, Any]  # this project's interpreter: torch, variant, numpy, python, pins
    candidate: dict[str, Any]  # the other interpreter's, and how it was asked for
    counts: dict[str, int]  # blocks, ok, diverge, error, missing, changed, warnings
    changed: dict[str, str]  # block key → diverge | error
    warnings: dict[str, list[str]]  # block key → the new warnings in its output
    sources: list[dict[str, Any]]  # the fingerprinted sources whose code changes


@dataclass(frozen=True)
class Report:
    """A report.json as read, made by a run (from_run.py) or merged from a run's shards."""

    path: Path
    runner: str
    env: dict[str, str]
    date: str
    run_url: str
    observations: dict[str, Entry]
    pages: tuple[str, ...] = ()  # the pages this run verified
    blocks: dict[str, Status] = field(default_factory=dict)  # every block's verdict
    errors: int = 0
    findings: tuple[Noted, ...] = ()
    all_pages: list[str] | None = None  # format 3: every page the run was asked for
    site_sha256: str | None = None  # format 3: the digest of all their code and options
    shard: Sharded | None = None
    durations: dict[str, float] | None = None  # seconds per page
    merged: Merged | None = None
    canary: Canary | None = None
    sources: tuple[Path, ...] = ()  # the report files it was read (or merged) from
    shards: str = ""  # "N" when merged from the N shards of one run
    format: int = FORMAT  # the format it was written in (merged: its shards')

    @classmethod
    def from_json(cls, raw: Any, path: Path) -> Report:
        """The report of the JSON read at `path`, whatever its format (`VERSIONS`)."""
        runner = raw.get("runner") if isinstance(raw, dict) else None
        if runner not in RUNNERS or not isinstance(raw.get("observations"), dict):
            raise ReportError(
                f"{path}: el informe no tiene las salidas observadas (formato 2 o posterior). "
                "Cómo arreglarlo: vuelve a ejecutar docverify check --report con esta versión "
                "del motor."
            )
        try:
            table = {k: Entry.from_json(k, item) for k, item in raw["observations"].items()}
            found = tuple(Noted.from_json(item) for item in raw.get("findings") or [])
            blocks = {str(k): Status(v) for k, v in (raw.get("blocks") or {}).items()}
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ReportError(
                f"{path}: una observación del informe está incompleta ({exc})."
            ) from exc
        listed, section, number = raw.get("all_pages"), raw.get("canary"), raw.get("format")
        return cls(
            path=path,
            runner=str(runner),
            env={str(k): str(v) for k, v in (raw.get("env") or {}).items()},
            date=str(raw.get("date") or "?"),
            run_url=str(raw.get("run_url") or ""),
            observations=table,
            pages=tuple(raw.get("pages") or ()),
            blocks=blocks,
            errors=int(raw.get("errors") or 0),
            findings=found,
            all_pages=list(listed) if isinstance(listed, list) else None,
            site_sha256=str(raw["site_sha256"]) if "site_sha256" in raw else None,
            shard=Sharded.from_json(raw) if "shard" in raw else None,
            durations=raw["durations"] if isinstance(raw.get("durations"), dict) else None,
            merged=Merged.from_json(raw["merged"]) if isinstance(raw.get("merged"), dict) else None,
            canary=Canary.from_json(section) if isinstance(section, dict) else None,
            sources=(path,),
            format=number if isinstance(number, int) else 2,
        )

    def to_json(self) -> dict[str, Any]:
        """Its JSON, with the keys in the order the engine has always written them."""
        data: dict[str, Any] = {"format": self.format, "runner": self.runner, "env": self.env}
        data |= {"date": self.date, "run_url": self.run_url, "pages": list(self.pages)}
        data["blocks"] = {key: str(status) for key, status in self.blocks.items()}
        data |= {"errors": self.errors, "findings": [f.to_json() for f in self.findings]}
        data["observations"] = {k: e.to_json(self.runner) for k, e in self.observations.items()}
        later = {"all_pages": self.all_pages, "site_sha256": self.site_sha256}  # format 3
        data |= {key: value for key, value in later.items() if value is not None}
        data |= self.shard.to_json() if self.shard else {}
        data |= {"durations": self.durations} if self.durations is not None else {}
        data |= {"merged": self.merged.to_json()} if self.merged else {}
        return data | ({"canary": self.canary.to_json()} if self.canary else {})

    @property
    def version(self) -> Version:
        """What its format can do (a format this engine does not know reads as the nearest)."""
        return VERSIONS[min(max(self.format, min(VERSIONS)), FORMAT)]

    def without_results(self) -> list[str]:
        """The keys of the entries that keep no result (a report of format 2), sorted."""
        return sorted(k for k, entry in self.observations.items() if entry.result is None)


def path_in(folder: Path) -> Path:
    """Where a report folder keeps its report.json."""
    return folder / FILE


def below(folder: Path) -> list[Path]:
    """Every report.json under `folder` (the artifacts of a run's shards, side by side)."""
    return sorted(folder.rglob(FILE))


def read(path: Path) -> Report:
    """The report at PATH: a report folder (DIR/report.json) or the file itself."""
    file = path_in(path) if path.is_dir() else path
    fix = "Cómo arreglarlo: pasa la carpeta que escribió docverify check --report (el artefacto"
    fix += " de CI descomprimido)"
    if not file.is_file():
        raise ReportError(f"{file}: no existe el informe {FILE}. {fix}.")
    try:
        raw = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ReportError(f"{file}: el informe no es JSON válido ({exc}). {fix}.") from exc
    return Report.from_json(raw, file)


def save(folder: Path, report: Report) -> Path:
    """Write `report` as FOLDER/report.json; its path."""
    path = path_in(folder)
    write_atomic(path, json.dumps(report.to_json(), ensure_ascii=False, indent=1) + "\n")
    return path


def format_2(variable: str, where: str, keys: list[str], fix: str) -> Finding:
    """A report whose entries keep no result (format 2): no use can judge them again."""
    what = (
        f"{variable}: el informe {where} no guarda el resultado de cada bloque (error, "
        f"excepción, expectativas; falta en «{keys[0]}» y {len(keys) - 1} más): lo "
        "escribió una versión anterior del motor (formato 2)."
    )
    again = "vuelve a ejecutar docverify check --report con esta versión del motor. "
    return Finding(Kind.INVALID_REPORT, what, where, 1, again + fix)
