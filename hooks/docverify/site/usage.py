"""Snippet usage: every file under snippets/ must be included by a page or be a live recording.

A snippet nobody includes is code that no build runs, and a recording whose block is gone is an
output nothing compares with: both rot silently, so both are findings.
"""

from __future__ import annotations

import re
from pathlib import Path

from docverify.core.config import RUNNERS, Config
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing.pages import (  # the include syntax pages.py resolves
    _SNIPPET,
    Page,
    closest_snippet,
    page_stem,
)
from docverify.verifying import recordings

# pymdownx.snippets block form: a bare `--8<--` line, one file per line, a closing `--8<--`.
_BLOCK_MARK = re.compile(r"^\s*-{1,}8<-{1,}\s*$")
_IGNORED_PARTS = {"__pycache__", ".ipynb_checkpoints"}


def includes(page: Page) -> set[str]:
    """Snippets-relative paths that the page includes, executed blocks or not."""
    found: set[str] = {b.snippet for b in page.blocks if b.snippet}
    in_block = False
    for line in page.body.split("\n"):
        if _BLOCK_MARK.match(line):
            in_block = not in_block
            continue
        if in_block and line.strip() and not line.strip().startswith(";"):
            found.add(line.strip())
        elif match := _SNIPPET.match(line):
            found.add(match.group("path"))
    return found


def _is_recording(path: Path) -> bool:
    return any(path.name.endswith(f".{runner}.txt") for runner in RUNNERS)


def snippet_files(config: Config) -> list[Path]:
    """Every snippet (not recording, not cache) under snippets/, in a stable order."""
    if not config.snippets_dir.is_dir():
        return []
    return sorted(
        p
        for p in config.snippets_dir.rglob("*")
        if p.is_file()
        and not _is_recording(p)
        and not p.name.startswith(".")
        and not _IGNORED_PARTS.intersection(p.relative_to(config.snippets_dir).parts)
    )


def _normalise(name: str, config: Config) -> str:
    """`file.py:2:5` and `file.py:section` (pymdownx line and section selectors) → `file.py`."""
    if ":" in name and not (config.snippets_dir / name).is_file():
        name = name.partition(":")[0]
    return Path(name).as_posix()


def unused(config: Config, pages: list[Page]) -> list[Finding]:
    """A finding for each snippet that no page includes (needs every page of the site)."""
    used = {_normalise(name, config) for page in pages for name in includes(page)}
    # A path mistyped in a --8<-- line leaves the snippet it meant unused: never advise
    # deleting that one; the missing snippet's finding suggests it (pages.closest_snippet).
    meant = {
        close: name
        for name in sorted(used)
        if not (config.snippets_dir / name).is_file()
        and (close := closest_snippet(config, name)) is not None
    }
    findings = []
    for path in snippet_files(config):
        rel = path.relative_to(config.snippets_dir).as_posix()
        if rel in used:
            continue
        findings.append(
            Finding(
                Kind.UNUSED_SNIPPET,
                f"el snippet «{rel}» no lo incluye ninguna página: nadie lo ejecuta ni lo "
                "verifica.",
                config.rel(path),
                1,
                f"una página incluye «{meant[rel]}», que no existe: si quería este, corrige "
                f'su --8<-- a "{rel}" (no lo borres).'
                if rel in meant
                else f'inclúyelo en un bloque con --8<-- "{rel}" o bórralo '
                f"(git rm {config.rel(path)}).",
            )
        )
    return findings


def orphans(config: Config, pages: list[Page]) -> list[Finding]:
    """Recordings whose block no longer exists (or no longer runs on that runner)."""
    alive = {
        (page_stem(b.page), b.id, r)
        for p in pages
        for b in p.blocks
        for r in RUNNERS
        if b.runs_on(r)
    } | {(page_stem(p.rel), unread, r) for p in pages for unread in p.unread for r in RUNNERS}
    found = []
    for path, stem, block_id in recordings.all_recordings(config):
        runner = path.suffixes[-2][1:]  # «x.cpu.txt» → cpu
        if (stem, block_id, runner) not in alive:
            found.append(
                Finding(
                    Kind.ORPHAN_RECORDING,
                    f"la grabación de «{stem}/{block_id}» ({runner}) no "
                    "corresponde a ningún bloque que corra en ese runner.",
                    config.rel(path),
                    1,
                    "docverify prune --yes (la borra) o restaura el bloque con ese id.",
                )
            )
    return found
