"""Writing files safely: `write_atomic` writes through a temporary file and a rename.

Every file the engine replaces in an author's project or in its caches (recordings, mkdocs.yml,
the block cache, reports, shards) goes through it. Written directly, where a crash leaves
nothing of the author's to lose: files only ever created new (`docverify new` opens them with
"x": never over an existing one), the build's own output (the site folder: search index and
worker, Zensical's documents) and one-off outputs for CI (`docverify sources --due`, the marker
of a finished environment)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: Path, text: str) -> None:
    """Write through a temporary file and rename, so a crash never leaves half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(
            fd,
            "w",
            encoding="utf-8",
            newline="\n",  # pragma: no mutate; equivalent: None writes os.linesep, "\n" on POSIX
        ) as handle:
            handle.write(text)
        Path(tmp).replace(path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
