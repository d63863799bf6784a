"""Build-time patches to a site generator's minified scripts, and the refusal when one no longer
applies.

A generator's search scripts have no setting for what this site needs (Spanish without tildes,
articles first, a Spanish dialog), so the build changes copies of them: each `Change` is a short
text to find, how many times it must appear, and what replaces it. No generator's script is kept
in the repository. If a release changes a text, the build stops and says which (`PatchError`)
instead of shipping a site with a part unpatched. The patches themselves live with what they
serve: output/search.py (Material's search worker), zensical/patches.py (Zensical's scripts).
"""

from __future__ import annotations

import importlib.metadata
from dataclasses import dataclass

from docverify.core.text import counted


@dataclass(frozen=True)
class Change:
    old: str
    new: str
    count: int = 1  # how many times `old` appears in the file


@dataclass(frozen=True)
class Patch:
    name: str  # what it does, in Spanish (errors name it)
    pattern: str  # the file, relative to the theme's or the site's folder (a glob: hashed names)
    changes: tuple[Change, ...]


@dataclass(frozen=True)
class Pinned:
    """The package a set of patches was written against, and where they are."""

    package: str  # its distribution name (pyproject.toml pins it)
    written_for: str  # the version the patches' texts were read from
    home: str  # the module that holds the patches, for the author to revise


class PatchError(RuntimeError):
    """A text to patch is not where it was: the package changed (a Spanish message says what)."""


def version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def apply(text: str, patch: Patch, where: str, pinned: Pinned) -> str:
    """`text` (the file `where`) with every change of `patch`, or PatchError naming the first
    text that does not appear as often as expected."""
    for change in patch.changes:
        found = text.count(change.old)
        if found != change.count:
            times = counted(found, "vez", "veces")
            raise PatchError(
                f"{pinned.package} {version(pinned.package)}: el parche «{patch.name}» no se "
                f"puede aplicar: en {where} el texto «{change.old}» aparece {times}, y debería "
                f"aparecer {change.count}. Los parches de {pinned.home} están escritos para "
                f"{pinned.package} {pinned.written_for}: revísalos con la versión nueva (o "
                "quítalos si ya hace lo que hacían) antes de cambiar la versión fijada en "
                "pyproject.toml."
            )
        text = text.replace(change.old, change.new)
    return text


def is_applied(text: str, patch: Patch) -> bool:
    """Whether `text` already has every change of `patch` (a file patched by an earlier build):
    each replacement is there, and each text a change removes is gone. (Not «the old text is
    gone»: a replacement may contain it.)"""
    return all(
        change.new in text if change.new else change.old not in text for change in patch.changes
    )
