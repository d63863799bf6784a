"""verifying.summary.line: the one line that counts what a verification did."""

from __future__ import annotations

from types import SimpleNamespace

from docverify.core.status import Status
from docverify.verifying import summary
from docverify.verifying.outcome import Provenance, SeenIn, Verification


def _verification(statuses: list[Status], pages: int, env: dict[str, str], origin=None):  # type: ignore[no-untyped-def]
    """A Verification whose outcomes carry only a status (all `line` reads of them)."""
    outcomes = {f"p/b{i}": SimpleNamespace(status=s) for i, s in enumerate(statuses)}
    return Verification("cpu", env, [object()] * pages, outcomes, [], origin)


def test_the_line_counts_run_blocks_of_all_blocks_and_pages() -> None:
    # Executed: OK, DIVERGE, MISSING, ERROR; only counted in the total: OTHER_RUNNER, NOT_RUN.
    statuses = [Status.OK, Status.DIVERGE, Status.MISSING, Status.ERROR]
    statuses += [Status.OTHER_RUNNER, Status.NOT_RUN]
    verification = _verification(statuses, 3, {"torch": "2.13.0"})
    assert summary.line(verification) == (
        "runner cpu · torch 2.13.0 · 4/6 bloques ejecutados en 3 páginas"
    )
    assert summary.line(verification, 2) == (
        "runner cpu · torch 2.13.0 · 4/6 bloques ejecutados (2 desde la caché) en 3 páginas"
    )
    # Zero hits from the cache are said too (None is «no cache»).
    assert "(0 desde la caché)" in summary.line(verification, 0)


def test_one_page_and_an_unknown_torch() -> None:
    verification = _verification([Status.NOT_RUN], 1, {})
    assert summary.line(verification) == "runner cpu · torch ? · 0/1 bloques ejecutados en 1 página"


def test_a_build_from_reports_says_how_many_were_read_and_that_none_ran_here() -> None:
    def origin(reports: tuple[str, ...]) -> Provenance:
        return Provenance("cpu", "2.13.0", "cpu", "2026-01-02", SeenIn.REPORT, reports=reports)

    two = _verification([Status.OK, Status.OK], 2, {"torch": "2.13.0"}, origin(("a", "b")))
    assert summary.line(two) == (
        "runner cpu · torch 2.13.0 · 2/2 bloques leídos de 2 informes, ninguno ejecutado "
        "aquí, en 2 páginas"
    )
    one = _verification([Status.OK], 1, {"torch": "2.13.0"}, origin(("a",)))
    assert "leídos de 1 informe, ninguno" in summary.line(one)
