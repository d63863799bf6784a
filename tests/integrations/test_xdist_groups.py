"""The suite's worker groups hold: a module marked xdist_group runs on one worker only."""

from __future__ import annotations

import pytest


# In a group itself, so that it always sees one (its own node id), also when `-m "not slow"`
# leaves out the grouped modules of the suite.
@pytest.mark.xdist_group("xdist-groups")
def test_each_group_stays_on_one_worker(request: pytest.FixtureRequest) -> None:
    """Under `--dist loadgroup` (pyproject's addopts), pytest-xdist names each test of an
    xdist_group by appending «@group» to its node id, and hands out the tests by that suffix.
    A pytest that drops the renaming (9.2 with xdist 3.8: pytest-xdist#1386) splits every
    group silently across the workers, and each of them sets up the group's costly fixtures
    again (the whole site verified, or built, twice)."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("sin --dist loadgroup (p. ej. con -n 0) no hay grupos que repartir")
    grouped = [i for i in request.session.items if i.get_closest_marker("xdist_group")]
    lost = [i.nodeid for i in grouped if "@" not in i.nodeid]
    assert grouped, "ninguna prueba marcada con xdist_group: la comprobación no ve nada"
    assert not lost, (
        f"pytest-xdist no agrupa {len(lost)} pruebas marcadas con xdist_group (p. ej. "
        f"{lost[0]}): esta versión de pytest rompe --dist loadgroup; instala la que fija "
        "pyproject.toml (python3 tasks.py install)"
    )
