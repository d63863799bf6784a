"""Installed package versions, read from their metadata (never imported: a process that only
verifies stays torch-free), and versions compared without their local label."""

from __future__ import annotations

import importlib.metadata


def installed(package: str) -> str | None:
    """The version of the installed distribution `package`, or None when it is not installed."""
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def public(version: str | None) -> str | None:
    """A version without its local label: 2.13.0+cpu is 2.13.0."""
    return version.partition("+")[0] if version else version


def same(a: str | None, b: str | None) -> bool:
    """Versions equal once the local label is dropped."""
    return public(a) == public(b)
