"""Outputs that stay true from one process to the next (issue «recordings that stay true»).

Each command runs as an author runs it, in a new process (its console script), with Python's
string hashing left random in its environment (PYTHONHASHSEED=random): what fixes the order of
a set of strings must be the engine's own doing (hash_seed, core/hashing.py), not the test's.
"""

from __future__ import annotations

import pytest
from conftest import Project, docverify
from support.blocks import block

pytestmark = pytest.mark.usefixtures("local_author")

# Ten words: a set of them is iterated in an order that a new hash secret changes.
WORDS = (
    'palabras = ["tensor", "gradiente", "capa", "modelo", "lote", "peso", "sesgo", '
    '"dato", "época", "pérdida"]\nprint(list(set(palabras)))\n'
)
RANDOM_HASHING = {"PYTHONHASHSEED": "random", "DOCVERIFY_CACHE": "0"}


def test_a_set_of_strings_records_once_and_checks_twice_with_the_cache_off(
    project: Project,
) -> None:
    page = project.page("conjunto.md", block(WORDS, "conjunto"))
    recorded = docverify(
        project.root, "record", "--runner", "cpu", str(page), env=RANDOM_HASHING, new_process=True
    )
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    assert "1 grabaciones escritas" in recorded.stdout, recorded.stdout
    for _ in range(2):  # each check a new process: a new fork server, the same hashing
        checked = docverify(
            project.root, "check", "--runner", "cpu", env=RANDOM_HASHING, new_process=True
        )
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert "1/1 bloques ejecutados" in checked.stdout, checked.stdout
