"""Upstream drift of quoted code: each `origin:`'s file at its pinned commit against the
default branch of its repository, fetched with git (the weekly run; never the build).

For every page with an origin (parsing/origin.py), the repository is fetched into a cache
(.cache/docverify/origins/) twice, shallow: the pinned commit and the remote's HEAD. When the
file differs, each quoted block of the page whose code (its non-blank lines, in order) is in
the pinned file but no longer in the new one is named: that is what an author must look at.
What is found becomes one notice (`notice`), which weekly.yml keeps as one issue.
"""

from __future__ import annotations

import difflib
import hashlib
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docverify.core.config import Config
from docverify.core.text import counted
from docverify.parsing import origin
from docverify.parsing.pages import Page

FORMAT = 1  # the notice's JSON format, as weekly.yml's notices job reads it
CACHE = Path(".cache") / "docverify" / "origins"
DIFF_LINES = 80  # of the file's diff, in the issue (the whole diff: git diff in the cache)


class FetchError(RuntimeError):
    """A repository or a commit that git could not fetch: said in Spanish, nothing decided."""


@dataclass
class Drift:
    """What changed upstream in the file one page quotes."""

    page: str  # the page, as the project names it (docs/…)
    found: origin.Origin
    head: str  # the default branch's commit compared with
    gone: bool = False  # the file is no longer there
    blocks: list[tuple[str, int]] = field(default_factory=list)  # (id, fence line) changed
    diff: str = ""


def _git(cache: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(cache), *args], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise FetchError(f"git {' '.join(args)}: {done.stderr.strip() or done.stdout.strip()}")
    return done.stdout


def _fetched(config: Config, found: origin.Origin) -> tuple[Path, str]:
    """The cache holding the pinned commit and the remote's HEAD, and HEAD's commit."""
    name = hashlib.sha256(found.remote.encode()).hexdigest()[:16]
    cache = config.root / CACHE / name
    cache.mkdir(parents=True, exist_ok=True)
    _git(cache, "init", "-q")  # in a repository already there, git init changes nothing
    try:
        _git(cache, "fetch", "-q", "--depth", "1", found.remote, found.commit)
        _git(cache, "fetch", "-q", "--depth", "1", found.remote, "HEAD")
    except FetchError as exc:
        raise FetchError(f"no se pudo traer {found.remote} ({exc})") from exc
    return cache, _git(cache, "rev-parse", "FETCH_HEAD").strip()


def _text(cache: Path, commit: str, path: str) -> str | None:
    try:
        return _git(cache, "show", f"{commit}:{path}")
    except FetchError:
        return None


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.split("\n") if line.strip()]


def _holds(text: str | None, code: str) -> bool:
    """Are the non-blank lines of `code` in `text` (None: no file), one after another?"""
    if text is None:
        return False
    inside, wanted = _lines(text), _lines(code)
    return any(inside[i : i + len(wanted)] == wanted for i in range(len(inside) - len(wanted) + 1))


def compare(config: Config, pages: list[Page]) -> list[Drift]:
    """Every page whose quoted file changed upstream (FetchError when one cannot be fetched)."""
    drifts: list[Drift] = []
    for page in pages:
        found = origin.read(page)
        if found is None:
            continue
        cache, head = _fetched(config, found)
        pinned = _text(cache, found.commit, found.path)
        if pinned is None:
            raise FetchError(
                f"{config.rel(page.path)}: {found.path} no existe en el commit {found.commit} "
                f"de {found.repository}"
            )
        now = _text(cache, head, found.path)
        if now == pinned:
            continue
        drift = Drift(config.rel(page.path), found, head, gone=now is None)
        drift.blocks = [
            (block.id, block.fence_line)
            for block in page.blocks
            if origin.quoted(page, block)
            and _holds(pinned, block.code)
            and not _holds(now, block.code)
        ]
        diff = difflib.unified_diff(
            pinned.split("\n"),
            [] if now is None else now.split("\n"),  # a file gone: every line removed
            f"{found.path} ({found.commit[:12]})",
            f"{found.path} ({head[:12]})",
            lineterm="",
        )
        drift.diff = "\n".join(list(diff)[:DIFF_LINES])
        drifts.append(drift)
    return drifts


def _blocks(drift: Drift) -> str:
    if not drift.blocks:
        return "ningún bloque de la página cita las líneas que cambiaron"
    return ", ".join(f"«{block_id}» (línea {line})" for block_id, line in drift.blocks)


def page_count(count: int) -> str:
    """«1 página», «N páginas»: the notice's title and `docverify origins` say it alike."""
    return counted(count, "página", "páginas")


def notice(drifts: list[Drift], checked: int) -> dict[str, Any]:
    """The notice of weekly.yml's notices job: {format, count, title, body, closing}."""
    parts = []
    for drift in drifts:
        found = drift.found
        what = "ya no existe" if drift.gone else "cambió"
        parts.append(
            f"### `{drift.page}`\n\n"
            f"`{found.path}` de {found.repository} {what} en su rama principal: del commit "
            f"`{found.commit[:12]}` (el de `origin:`) a `{drift.head[:12]}`. Bloques cuyo "
            f"código cambió aguas arriba: {_blocks(drift)}.\n\n"
            f"```diff\n{drift.diff}\n```"
        )
    count = len(drifts)
    return {
        "format": FORMAT,
        "count": count,
        "title": f"Código citado: {page_count(count)} con cambios en su repositorio de origen",
        "body": (
            "El archivo del que viene el código de estas páginas cambió en su repositorio "
            "(`docverify origins --drift`). Revisa cada bloque: porta el cambio (copia el "
            "código nuevo, actualiza `commit:` en `origin:` y graba con `docverify record`) o "
            "deja el commit fijado si la página enseña esa versión.\n\n" + "\n\n".join(parts)
        ),
        "closing": (
            f"Páginas con `origin:` comparadas: {checked}; ninguna tiene cambios en su "
            "repositorio de origen: se cierra."
        ),
    }
