"""`data_files:` in a page's front matter: the files its blocks read, copied beside them.

A page whose blocks read data from files lists them, as paths relative to docs/ (where the site
publishes them, for readers to download next to the article's notebook):

    data_files:
      - datos/digitos.csv

Before the page's first block runs, each file is copied into the page's working folder under
its own name (running/child.py), so the code opens it as a reader's script would:
`open("digitos.csv")`. Each file's SHA-256 is part of the specs of the page's blocks
(running/specs.py): editing the data re-runs the page (verifying/cache.py) and makes a report
of it stale (report/digests.py), as editing its code does. Problems are findings of the page,
with the key's line; a page with none of its files valid runs without them.
"""

from __future__ import annotations

import hashlib
import posixpath
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docverify.core.config import Config

KEY = "data_files"
EXAMPLE = f"{KEY}:\n  - datos/digitos.csv"


@dataclass(frozen=True)
class DataFile:
    """One file a page's blocks read: where it is and what it holds."""

    rel: str  # docs-relative, as written
    path: Path  # the file itself
    sha256: str

    @property
    def name(self) -> str:
        """Its name in the page's working folder."""
        return posixpath.basename(self.rel)


def resolve(config: Config, meta: dict[str, Any]) -> tuple[tuple[DataFile, ...], list[str]]:
    """The valid data files of a page's front matter, and a message for each problem."""
    if KEY not in meta:
        return (), []
    value = meta[KEY]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        return (), [f"«{KEY}:» debe ser una lista de rutas dentro de docs/, no «{value!r}»."]
    found: list[DataFile] = []
    problems: list[str] = []
    names: dict[str, str] = {}
    for rel in value:
        parts = rel.split("/")
        if rel.startswith("/") or ".." in parts:
            problems.append(f"«{rel}» en «{KEY}:» no es una ruta dentro de docs/.")
            continue
        path = config.docs_dir / rel
        if not path.is_file():
            problems.append(f"«{KEY}:» nombra docs/{rel}, que no existe o no es un archivo.")
            continue
        data = DataFile(rel, path, hashlib.sha256(path.read_bytes()).hexdigest())
        if data.name in names:
            problems.append(
                f"«{KEY}:» nombra dos archivos llamados «{data.name}» ({names[data.name]} y "
                f"{rel}): en la carpeta de los bloques uno taparía al otro."
            )
            continue
        names[data.name] = rel
        found.append(data)
    return tuple(found), problems


FIX = (
    "escribe en «data_files:» la ruta de cada archivo desde docs/, uno por línea, con nombres "
    f"distintos; por ejemplo:\n{EXAMPLE}"
)
