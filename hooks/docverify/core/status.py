"""Block statuses: what a verification concluded about one block on one runner, in one registry.

A status's value is an internal value written as it is in machine formats (`report.json`, read
back by `docverify accept` from older CI artifacts: the values never change). Readers see its
Spanish `label`; panels and the verification page add its `mark`.
"""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    OK = "ok"  # ran and matched its baseline
    DIVERGE = "diverge"  # ran and differs from its baseline
    MISSING = "missing"  # ran, but has no baseline to compare with
    ERROR = "error"  # failed: an error, an unexpected exception, a failed expectation
    OTHER_RUNNER = "other-runner"  # does not run on this runner
    NOT_RUN = "not-run"  # deliberately not executed (DOCVERIFY_EXECUTE=0)

    @property
    def label(self) -> str:
        """The status as readers read it, in Spanish."""
        return LABELS[self]

    @property
    def mark(self) -> str:
        """✓ for a verified output, ✗ for a failure, nothing for the rest."""
        return {Status.OK: "✓", Status.DIVERGE: "✗", Status.ERROR: "✗"}.get(self, "")

    @property
    def ran(self) -> bool:
        """Whether the block ran on this runner (or its result came from the cache)."""
        return self not in (Status.OTHER_RUNNER, Status.NOT_RUN)


LABELS: dict[Status, str] = {
    Status.OK: "coincide con su grabación",
    Status.DIVERGE: "no coincide con su grabación",
    Status.MISSING: "sin grabación",
    Status.ERROR: "falló",
    Status.OTHER_RUNNER: "no corre en este runner",
    Status.NOT_RUN: "no ejecutado en esta construcción",
}
