"""One way to count what a verification did, for `docverify check` and the MkDocs build alike."""

from __future__ import annotations

from docverify.core.text import counted
from docverify.verifying.outcome import Verification


def line(verification: Verification, cache_hits: int | None = None) -> str:
    """«runner cpu · torch 2.13.0 · 12/14 bloques ejecutados (3 desde la caché) en 5 páginas»;
    from reports, «12/14 bloques leídos de 2 informes, ninguno ejecutado aquí, en 5 páginas».

    A block counts as executed when it ran on this runner (or its result came from the cache);
    blocks of the other runner and blocks not run (DOCVERIFY_EXECUTE=0) count only in the total.
    """
    total = len(verification.outcomes)
    ran = sum(1 for o in verification.outcomes.values() if o.status.ran)
    cached = f" ({cache_hits} desde la caché)" if cache_hits is not None else ""
    done = "ejecutados"
    if verification.origin is not None:  # a build from reports (from_reports.py): nothing ran here
        count = len(verification.origin.reports)
        done = f"leídos de {counted(count, 'informe', 'informes')}, ninguno ejecutado aquí,"
    return (
        f"runner {verification.runner} · torch {verification.env.get('torch', '?')} · "
        f"{ran}/{total} bloques {done}{cached} en "
        f"{counted(len(verification.pages), 'página', 'páginas')}"
    )
