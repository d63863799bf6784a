"""Fingerprinted sources under another interpreter's packages: what docverify canary reports.

Each complete fingerprint (version and sha256) is computed again from the files of the other
interpreter's installed package (found on its sys.path, never imported), exactly as the build
computes it from this one's (fingerprint.installed). A source whose cited text differs, or can no
longer be found there, is a change the next torch would bring; its diff is against the verified
snapshot, as `docverify sources --reverify` shows it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from docverify.core.config import Config
from docverify.parsing.pages import Page
from docverify.sources import fingerprint, freshness, reverify
from docverify.sources.model import read_sources


@dataclass(frozen=True)
class SourceChange:
    """A fingerprinted source whose cited code is not the same under the other interpreter."""

    page: str  # docs-relative
    path: str  # the page, relative to the project (for messages)
    line: int  # the fingerprint's `object:` or `file:` line
    reference: str
    title: str
    package: str
    target: str
    verified_version: str
    version: str | None  # the package's version there
    sha256: str  # the verified fingerprint
    new_sha256: str | None  # None when the text is not found there
    problem: str  # why it cannot be read there, or ''
    diff: str  # against the verified snapshot (or a note when there is none)

    def data(self) -> dict[str, Any]:
        return asdict(self)


def changes(config: Config, pages: list[Page], path: Sequence[str]) -> list[SourceChange]:
    """Every complete fingerprint of `pages` whose text differs on the interpreter `path`."""
    pol, _ = freshness.policy(config)
    store = freshness.snapshots_dir(config, pol)
    found: list[SourceChange] = []
    for page in pages:
        for source in read_sources(config, page)[0]:
            fp = source.fingerprint
            if fp is None or not (fp.sha256 and fp.version):
                continue  # the build itself already reports an incomplete fingerprint
            base = {
                "page": page.rel,
                "path": config.rel(page.path),
                "line": fp.key_lines.get(fp.kind, fp.line),
                "reference": source.reference,
                "title": source.title,
                "package": fp.package,
                "target": fp.target,
                "verified_version": fp.version,
                "sha256": fp.sha256,
            }
            try:
                now = fingerprint.installed(fp, path)
            except fingerprint.FingerprintError as exc:
                version = fingerprint.package_version(fp.package, path)
                found.append(
                    SourceChange(
                        **base, version=version, new_sha256=None, problem=str(exc), diff=""
                    )
                )
                continue
            if now.sha256 != fp.sha256:
                found.append(
                    SourceChange(
                        **base,
                        version=now.version,
                        new_sha256=now.sha256,
                        problem="",
                        diff=reverify.diff_since(store, fp, now),
                    )
                )
    return found
