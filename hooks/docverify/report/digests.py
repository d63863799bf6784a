"""What ties a report to the code it describes: digests of each block's code and options.

An entry of report.json (report_json.py) is only used while it describes the current code: its
block's code, the code of every block before it on its page, and the options that change how
they run. `stale` names each entry that no longer does, and why.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from docverify.core.config import Config
from docverify.parsing.pages import Block, Page
from docverify.report.report_json import Report
from docverify.running.specs import SETUP_FIELDS, setup_text


def code_digest(code: str) -> str:
    return hashlib.sha256(code.encode("utf-8")).hexdigest()


def block_digests(page: Page, runner: str) -> dict[str, tuple[str, str]]:
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


def setup_digests(
    config: Config, page: Page, runner: str, fields: tuple[str, ...] = SETUP_FIELDS
) -> dict[str, str]:
    """Block key → digest of the options that change how it and every earlier block run
    (`fields`: those a report of format 3 digested, for one)."""
    found: dict[str, str] = {}
    chain = hashlib.sha256()
    for block in page.blocks:
        if block.runs_on(runner):
            chain.update(setup_text(config, block, fields).encode("utf-8") + b"\0")
            found[block.key] = chain.hexdigest()
    return found


def site_digest(
    config: Config, pages: list[Page], runner: str, fields: tuple[str, ...] = SETUP_FIELDS
) -> str:
    """One digest of every page, block, code and option a run on `runner` was asked for."""
    whole = hashlib.sha256()
    for page in pages:
        whole.update(f"{page.rel}\0".encode())
        options = setup_digests(config, page, runner, fields)
        for key, (_, inputs) in block_digests(page, runner).items():
            whole.update(f"{key}\0{inputs}\0{options[key]}\0".encode())
    return whole.hexdigest()


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


def stale(config: Config, pages: list[Page], report: Report) -> list[Stale]:
    """Observations whose block is gone or whose code (or earlier code) changed since the run."""
    blocks: dict[str, Block] = {b.key: b for p in pages for b in p.blocks}
    current: dict[str, tuple[str, str]] = {}
    options: dict[str, str] = {}
    for page in pages:
        current.update(block_digests(page, report.runner))
        options.update(setup_digests(config, page, report.runner, _fields(report)))
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
                    "cambiaron las opciones de ejecución (sesión, tiempo límite, semilla, "
                    f"hash_seed, política de dispositivo o valor final) de «{key}» o de un "
                    "bloque anterior de su página, o las de [tool.docverify]",
                )
            )
    return found


def _fields(report: Report) -> tuple[str, ...]:
    """The options a report's digests cover, as its format knew them (report_json.VERSIONS)."""
    return report.version.digested


def _changed_before(pages: list[Page], report: Report, key: str) -> str:
    """The first earlier block of `key`'s page whose own code differs from the report's."""
    for page in pages:
        keys = [b.key for b in page.blocks]
        if key not in keys:
            continue
        for earlier, (own, _) in block_digests(page, report.runner).items():
            if earlier == key:
                return ""
            item = report.observations.get(earlier)
            if item is None or item.code_sha256 != own:
                return earlier
    return ""
