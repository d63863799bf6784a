# Compiled Jinja templates, kept for the life of the process that builds.
"""MkDocs makes a new Jinja environment for every build, which compiles each of the theme's
templates again: about a quarter of a one-article site's build (Material has ~60 of them).
`mkdocs serve` rebuilds in one process, on every edit, and so do the tests' builds. The MkDocs
adapter gives each build's environment this cache (its `on_env`), so a template compiled once in
the process is not compiled again. Jinja keys each template by its name and file, and checks the
source's checksum: an edited template (a theme override, say) is compiled again.
"""

from __future__ import annotations

from types import CodeType

import jinja2


class MemoryBytecodeCache(jinja2.BytecodeCache):
    """Jinja's bytecode cache in this process's memory, never on disk."""

    def __init__(self) -> None:
        self._code: dict[str, tuple[str | None, CodeType]] = {}
        self.hits = 0  # templates a build did not compile again

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        kept = self._code.get(bucket.key)
        if kept is not None and kept[0] == bucket.checksum:
            bucket.code = kept[1]
            self.hits += 1

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.code is not None:
            self._code[bucket.key] = (bucket.checksum, bucket.code)

    def clear(self) -> None:
        self._code.clear()


CACHE = MemoryBytecodeCache()
