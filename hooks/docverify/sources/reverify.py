# Re-verifying a source: what changed since its fingerprint, and an in-place front-matter edit.
"""Re-verification of sources: the diff since the fingerprint, and the edit that records it.

The edit rewrites only the values of `verified:` and of the fingerprint's `version:` and
`sha256:` (inserting those two keys when the author wrote only package and object/file); every
other byte of the page, quotes, comments and line endings included, stays as it was.

The text that was fingerprinted is kept as a snapshot, `<snapshots_dir>/<sha256>.txt` (see
freshness.DEFAULTS). Named by its own hash, a snapshot is shared by every source that cites the
same text, checks itself, and lives outside docs/ and snippets/ so that neither MkDocs nor the
unused-snippet lint sees it. Without one, the diff falls back to saying that the hash changed.
"""

from __future__ import annotations

import copy
import datetime as dt
import difflib
import re
from dataclasses import dataclass
from pathlib import Path

from docverify.core.config import Config
from docverify.core.files import write_atomic
from docverify.parsing.pages import Page, read_page
from docverify.sources import fingerprint as fingerprint_mod  # clash: edit's `fingerprint`
from docverify.sources import freshness
from docverify.sources.model import Source, read_sources


@dataclass
class Candidate:
    """One source chosen for re-verification, with what its fingerprint sees now."""

    page: Page
    source: Source
    index: int  # among the page's well-formed sources, stable across edits of other sources
    installed: fingerprint_mod.Installed | None
    problem: str = ""  # why the installed text could not be read
    diff: str = ""

    @property
    def changed(self) -> bool:
        fp = self.source.fingerprint
        return bool(fp and self.installed and self.installed.sha256 != fp.sha256)


def matches(source: Source, ref: str) -> bool:
    """REF names a source by its reference, its title or its fingerprinted file or object."""
    names = {source.reference, source.title}
    if source.fingerprint:
        names.add(source.fingerprint.target)
    return ref.strip() in names


def candidates(config: Config, pages: list[Page], ref: str) -> list[Candidate]:
    """Every source named by REF, with its installed text and a diff against the snapshot."""
    pol, _ = freshness.policy(config)
    store = freshness.snapshots_dir(config, pol)
    found: list[Candidate] = []
    for page in pages:
        for index, source in enumerate(read_sources(config, page)[0]):
            if not matches(source, ref):
                continue
            candidate = Candidate(page, source, index, None)
            fp = source.fingerprint
            if fp is not None:
                try:
                    candidate.installed = fingerprint_mod.installed(fp)
                except fingerprint_mod.FingerprintError as exc:
                    candidate.problem = str(exc)
                else:
                    candidate.diff = diff_since(store, fp, candidate.installed)
            found.append(candidate)
    return found


def diff_since(store: Path, fp: fingerprint_mod.Fingerprint, now: fingerprint_mod.Installed) -> str:
    """What changed in the cited text since its fingerprint, as a unified diff (or a note)."""
    if fp.sha256 == now.sha256:
        return ""
    old = fingerprint_mod.read_snapshot(store, fp.sha256)
    if old is None:
        return (
            f"(no hay copia del texto verificado en {store.name}/: solo se sabe que la huella "
            f"pasó de {fp.sha256 or '(ninguna)'} a {now.sha256})"
        )
    label = f"{fp.target} ({fp.package} {fp.version})"
    return "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True),
            now.text.splitlines(keepends=True),
            f"{label}, verificado",
            f"{fp.target} ({fp.package} {now.version}), instalado",
        )
    )


def apply(config: Config, candidate: Candidate, today: dt.date) -> Path:
    """Record the re-verification: new date and fingerprint in the page, snapshot saved."""
    path = candidate.page.path
    text = path.read_bytes().decode("utf-8")
    # Read again: an earlier edit of the same page may have moved this source's lines.
    current = read_sources(config, read_page(config, path, text.replace("\r\n", "\n")))[0]
    source = current[candidate.index]
    fp = source.fingerprint
    values: dict[str, str] = {}
    if fp is not None:
        if candidate.installed is None:
            raise ValueError(
                f"no se puede actualizar la huella de {source.label}: {candidate.problem}"
            )
        version = candidate.installed.version or "desconocida"  # no package metadata
        values = {"version": version.split("+", 1)[0], "sha256": candidate.installed.sha256}
        pol, _ = freshness.policy(config)
        store = freshness.snapshots_dir(config, pol)
        snapshot = fingerprint_mod.snapshot_path(store, candidate.installed.sha256)
        if not snapshot.is_file():
            write_atomic(snapshot, candidate.installed.text)
    new = edit(text, source, today.isoformat(), values)
    if not _only_changed(
        config, path, text, new, source=source, verified=today.isoformat(), values=values
    ):
        raise ValueError(
            f"{config.rel(path)}: no se pudo editar la fuente {source.label} sin "
            "tocar el resto del front matter; edítala a mano."
        )
    write_atomic(path, new)
    return path


def prune_snapshots(config: Config, pages: list[Page]) -> list[Path]:
    """Delete the snapshots no fingerprint of `pages` names any more; return what was deleted."""
    pol, _ = freshness.policy(config)
    store = freshness.snapshots_dir(config, pol)
    alive = {
        s.fingerprint.sha256
        for page in pages
        for s in read_sources(config, page)[0]
        if s.fingerprint and s.fingerprint.sha256
    }
    gone = [path for path in sorted(store.glob("*.txt")) if path.stem not in alive]
    for path in gone:
        path.unlink()
    return gone


def _only_changed(
    config: Config,
    path: Path,
    old: str,
    new: str,
    *,
    source: Source,
    verified: str,
    values: dict[str, str],
) -> bool:
    """Parse both texts: the edit changed exactly the values it meant to, and nothing else."""
    before = read_page(config, path, old.replace("\r\n", "\n"))
    after = read_page(config, path, new.replace("\r\n", "\n"))
    expected = copy.deepcopy(dict(before.meta))
    item = next(i for i in expected["sources"] if getattr(i, "line", 0) == source.line)
    item["verified"] = verified
    if values:
        item["fingerprint"].update(values)
    return after.body == before.body and dict(after.meta) == expected


_VALUE = re.compile(
    r"""^(?P<pre>[ \t]*(?:-[ \t]+)?(?P<key>[\w-]+)[ \t]*:[ \t]*)"""
    r"""(?P<value>"[^"\n]*"|'[^'\n]*'|[^#\r\n]*?)(?P<post>[ \t]*(?:#[^\r\n]*)?)"""
    r"""(?P<end>\r?\n?)$"""
)


def edit(text: str, source: Source, verified: str, fingerprint: dict[str, str]) -> str:
    """`text` with the source's date and fingerprint values replaced, nothing else changed."""
    lines = text.splitlines(keepends=True)
    _set(lines, source.key_lines["verified"], "verified", verified)
    fp = source.fingerprint
    if fp is None or not fingerprint:
        return "".join(lines)
    inserts: list[str] = []
    for key, value in fingerprint.items():
        if key in fp.key_lines:
            _set(lines, fp.key_lines[key], key, value)
        else:
            inserts.append(key)
    if inserts:
        sub = [n for k, n in fp.key_lines.items()]
        if not sub or min(sub) <= fp.line:
            raise ValueError(
                "la huella está escrita en una sola línea ({…}); escríbela como "
                "bloque, una clave por línea."
            )
        last = max(sub)
        model = lines[min(sub) - 1]
        indent = model[: len(model) - len(model.lstrip(" \t"))]
        newline = "\r\n" if lines[last - 1].endswith("\r\n") else "\n"
        if not lines[last - 1].endswith("\n"):  # "\r\n" ends with it too
            lines[last - 1] += newline
        lines[last:last] = [f'{indent}{key}: "{fingerprint[key]}"{newline}' for key in inserts]
    return "".join(lines)


def _set(lines: list[str], line: int, key: str, value: str) -> None:
    match = _VALUE.match(lines[line - 1])
    if not match or match.group("key") != key:
        raise ValueError(f"línea {line}: se esperaba «{key}: valor» en una sola línea.")
    old = match.group("value")
    quote = old[0] if old[:1] in ("'", '"') else ""
    if key != "verified":
        quote = quote or '"'  # an unquoted hash or version could read as a number
    lines[line - 1] = (
        match.group("pre") + f"{quote}{value}{quote}" + match.group("post") + match.group("end")
    )
