"""Shards: split a site's pages over N machines, balanced by the durations of previous runs.

`docverify check --shard I/N` verifies shard I. Every shard computes the same plan from the same
inputs (page list, runner, durations file), so N machines each verify a disjoint share of the
pages and together verify all of them. The plan is a greedy "longest processing time first"
assignment: pages sorted by expected seconds, longest first, each to the shard with the least
work so far. Without recorded durations (a fresh clone, a CI runner without cache) the expected
time of a page is its number of blocks, which depends on the sources alone, so the plan is still
the same on every machine. Shards read the durations file and never write it: a shard that
updated it would change the plan of the shards that start after it.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docverify.core.config import Config
from docverify.core.files import write_atomic
from docverify.parsing.pages import Page

DURATIONS = Path(".cache/docverify/durations.json")
# Forking a page process and sending results costs a little even for a page with no block; this
# keeps empty pages from weighing zero, which would make ties depend on the order of the list.
PAGE_OVERHEAD = 0.05
_SHARD = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


@dataclass(frozen=True)
class Shard:
    index: int  # 1-based, as written on the command line
    total: int

    def __str__(self) -> str:
        return f"{self.index}/{self.total}"


@dataclass(frozen=True)
class Assignment:
    """The assignment of every page to a shard, and a digest that identifies it."""

    shards: tuple[tuple[str, ...], ...]  # page rel paths, per shard
    loads: tuple[float, ...]  # expected seconds per shard
    basis: str  # "duraciones" or "bloques": what the weights came from

    @property
    def digest(self) -> str:
        """Short hash of the assignment: equal on every shard when they share their inputs."""
        text = json.dumps(self.shards, ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]

    def pages_of(self, shard: Shard) -> tuple[str, ...]:
        return self.shards[shard.index - 1]


def parse(text: str) -> Shard:
    """`I/N` with 1 ≤ I ≤ N; anything else raises ValueError saying how to write it."""
    match = _SHARD.match(text or "")
    if not match:
        raise ValueError(f"--shard «{text}» no válido: escribe I/N, por ejemplo --shard 2/4.")
    index, total = int(match.group(1)), int(match.group(2))
    if total < 1 or not 1 <= index <= total:
        raise ValueError(
            f"--shard «{text}» no válido: I debe estar entre 1 y N (N ≥ 1), "
            "por ejemplo --shard 1/4 … --shard 4/4."
        )
    return Shard(index, total)


def durations_path(config: Config, override: str | None = None) -> Path:
    return Path(override) if override else config.root / DURATIONS


def _read(path: Path) -> dict:
    """The durations file's object: empty when it is missing, unreadable or not an object."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def load_durations(path: Path, runner: str) -> dict[str, float]:
    """Page → seconds on `runner` from a previous run; a missing or unreadable file is empty.

    Durations only balance the shards; they never decide what is verified, so a corrupt file is
    ignored (and rewritten at the end of the run) instead of stopping the check.
    """
    table = _read(path).get(runner)
    if not isinstance(table, dict):
        return {}
    return {
        page: float(secs)
        for page, secs in table.items()
        if isinstance(page, str) and isinstance(secs, int | float) and secs >= 0
    }


def weights(
    pages: list[Page], runner: str, durations: Mapping[str, float]
) -> tuple[dict[str, float], str]:
    """Expected seconds per page: recorded durations, else blocks × the mean seconds per block."""
    blocks = {p.rel: sum(1 for b in p.blocks if b.runs_on(runner)) for p in pages}
    known = {rel: durations[rel] for rel in blocks if rel in durations}
    if not known:
        return {rel: PAGE_OVERHEAD + count for rel, count in blocks.items()}, "bloques"
    # A new page has no duration yet: estimate it from the pages that do, in the same unit.
    known_blocks = sum(blocks[rel] for rel in known)
    per_block = sum(known.values()) / known_blocks if known_blocks else 1.0
    return (
        {rel: PAGE_OVERHEAD + known.get(rel, count * per_block) for rel, count in blocks.items()},
        "duraciones",
    )


def assign(page_weights: Mapping[str, float], total: int, basis: str = "bloques") -> Assignment:
    """Longest first, each page to the lightest shard; ties broken by name and shard number."""
    shards: list[list[str]] = [[] for _ in range(total)]
    loads = [0.0] * total
    for rel in sorted(page_weights, key=lambda r: (-page_weights[r], r)):
        target = min(range(total), key=lambda i: (loads[i], i))
        shards[target].append(rel)
        loads[target] += page_weights[rel]
    return Assignment(tuple(tuple(sorted(s)) for s in shards), tuple(loads), basis)


def assignment(
    pages: list[Page], runner: str, total: int, durations: Mapping[str, float]
) -> Assignment:
    page_weights, basis = weights(pages, runner, durations)
    return assign(page_weights, total, basis)


def select(
    pages: list[Page], runner: str, shard: Shard, durations: Mapping[str, float]
) -> tuple[list[Page], Assignment]:
    """The pages of `shard` (in their original order) and the assignment they come from."""
    full = assignment(pages, runner, shard.total, durations)
    chosen = set(full.pages_of(shard))
    return [p for p in pages if p.rel in chosen], full


def page_durations(outcomes: Mapping[str, Any]) -> dict[str, float]:
    """Seconds per page measured in this run, from the verification outcomes."""
    totals: dict[str, float] = {}
    for outcome in outcomes.values():
        result = outcome.result
        if result is not None:
            page = outcome.block.page
            totals[page] = totals.get(page, 0.0) + float(result.get("duration", 0.0))
    return totals


def save_durations(path: Path, runner: str, measured: Mapping[str, float]) -> None:
    """Merge this run's page durations into the file (other pages and runners are kept)."""
    if not measured:
        return
    data = _read(path)
    table = data.get(runner) if isinstance(data.get(runner), dict) else {}
    table.update({page: round(secs, 4) for page, secs in measured.items()})
    data[runner] = dict(sorted(table.items()))
    write_atomic(path, json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
