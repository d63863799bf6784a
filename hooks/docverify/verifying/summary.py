"""One way to count what a verification did, for `docverify check` and the MkDocs build alike."""

from __future__ import annotations

from docverify.verifying.outcome import Report


def line(report: Report, cache_hits: int | None = None) -> str:
    """«runner cpu · torch 2.13.0 · 12/14 bloques ejecutados (3 desde la caché) en 5 páginas».

    A block counts as executed when it ran on this runner (or its result came from the cache);
    blocks of the other runner and blocks not run (DOCVERIFY_EXECUTE=0) count only in the total.
    """
    total = len(report.outcomes)
    ran = sum(1 for o in report.outcomes.values() if o.status.ran)
    cached = f" ({cache_hits} desde la caché)" if cache_hits is not None else ""
    return (
        f"runner {report.runner} · torch {report.env.get('torch', '?')} · "
        f"{ran}/{total} bloques ejecutados{cached} en {len(report.pages)} páginas"
    )
