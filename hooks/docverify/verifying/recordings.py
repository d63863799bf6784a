"""Recordings: one plain-text file per block and runner, with a header that is not compared."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from docverify.core import device_marks
from docverify.core.config import RUNNERS, Config
from docverify.parsing.pages import Block, page_stem

_END = "# ----"
_FIELD = re.compile(r"^# (?P<key>[\w -]+): (?P<value>.*)$")
# Why the block's output on a GPU is not its CPU output (core/device_marks.py), in a cpu
# recording; absent when there is no reason. Like every header key, never compared.
MARKS = device_marks.HEADER_KEY
# Header keys of recordings written before the keys were English: read as today's keys.
LEGACY_KEYS = {"dispositivo": "device", "fecha": "date", "origen": "origin", "ejecución": "run"}


@dataclass(frozen=True)
class Recording:
    path: Path
    runner: str
    header: dict[str, str]
    body: str

    @property
    def marks(self) -> tuple[str, ...]:
        """The device marks its header records (none when it records none)."""
        return device_marks.parse(self.header.get(MARKS))


def path_for(config: Config, block: Block, runner: str) -> Path:
    """snippets/<page>/<id>.<runner>.txt — beside the block's snippet."""
    return config.snippets_dir / page_stem(block.page) / f"{block.id}.{runner}.txt"


def read(path: Path, runner: str) -> Recording:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    header: dict[str, str] = {}
    if _END in lines:
        end = lines.index(_END)
        for line in lines[:end]:
            if match := _FIELD.match(line):
                key = match.group("key").strip()
                header[LEGACY_KEYS.get(key, key)] = match.group("value").strip()
        body = "\n".join(lines[end + 1 :])
    else:
        body = text
    return Recording(path=path, runner=runner, header=header, body=body)


def of_block(config: Config, block: Block) -> dict[str, Recording]:
    """Every recording of `block`, one per runner that has one."""
    found = {}
    for runner in RUNNERS:
        path = path_for(config, block, runner)
        if path.is_file():
            found[runner] = read(path, runner)
    return found


def render(
    block: Block,
    runner: str,
    env: dict[str, str],
    date: str,
    body: str,
    provenance: dict[str, str] | None = None,
    marks: Iterable[str] = (),
) -> str:
    """The file text; `provenance` adds header fields (origin, run) after the fixed ones, and
    `marks` the device marks (only where there are any)."""
    header = [
        f"# docverify: salida grabada de «{block.key}» en el runner {runner}",
        f"# torch: {env.get('torch', '?')}",
        f"# python: {env.get('python', '?')}",
        f"# device: {env.get('device', '?')}",
        f"# date: {date}",
        *(f"# {key}: {value}" for key, value in (provenance or {}).items() if value),
        *([f"# {MARKS}: {value}"] if (value := device_marks.header_value(marks)) else []),
        _END,
    ]
    return "\n".join(header) + "\n" + (body + "\n" if body else "")


def with_marks(recording: Recording, marks: Iterable[str]) -> tuple[str, str]:
    """The recording's file text, and that text with its device marks line replaced by `marks`
    (removed when none) and every other line as it is: `record` and `accept` rewrite only that
    line when only the marks changed."""
    text = recording.path.read_text(encoding="utf-8")
    lines = text.split("\n")
    if _END not in lines:  # no header at all: nothing to keep
        lines = [_END, *lines]
    end = lines.index(_END)
    head = [line for line in lines[:end] if not line.startswith(f"# {MARKS}:")]
    if value := device_marks.header_value(marks):
        head.append(f"# {MARKS}: {value}")
    return text, "\n".join([*head, *lines[end:]])


def all_recordings(config: Config) -> list[tuple[Path, str, str]]:
    """(path, page stem, block id) for every recording file under snippets/."""
    found = []
    for runner in RUNNERS:
        for path in sorted(config.snippets_dir.rglob(f"*.{runner}.txt")):
            rel = path.relative_to(config.snippets_dir)
            stem = rel.parent.as_posix()
            found.append((path, stem, rel.name[: -len(f".{runner}.txt")]))
    return found
