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
    assert "1 grabación escrita" in recorded.stdout, recorded.stdout
    for _ in range(2):  # each check a new process: a new fork server, the same hashing
        checked = docverify(
            project.root, "check", "--runner", "cpu", env=RANDOM_HASHING, new_process=True
        )
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert "1/1 bloques ejecutados" in checked.stdout, checked.stdout


def test_an_output_that_changes_from_run_to_run_is_refused_and_nothing_is_written(
    project: Project,
) -> None:
    """os.urandom differs in every process: record runs the page again in a new one, names
    the block and its line, the lines that changed and the likely cause, and writes nothing of
    that page, not even its stable block; another page with a new block is recorded."""
    code = "import os\nprint('estable')\nprint(os.urandom(6).hex())\n"
    page = project.page("azar.md", block("print('antes')", "antes") + block(code, "bytes"))
    project.page("otra.md", block("print(2 + 2)", "suma"))
    before = sorted(project.root.rglob("*.txt"))
    done = docverify(project.root, "record", "--runner", "cpu", env={"DOCVERIFY_CACHE": "0"})
    assert done.returncode == 1, done.stdout + done.stderr
    out = done.stdout + done.stderr
    fence = page.read_text(encoding="utf-8").split("\n").index('```python exec="on" id="bytes"')
    fence += 1  # its line number
    assert f"docs/azar.md:{fence + 3}: [salida-inestable]" in out, out  # the line that printed
    assert "«azar/bytes»" in out and f"página docs/azar.md:{fence})" in out, out
    assert "os.urandom" in out and "Causas probables" in out, out
    assert "primera ejecución" in out and "segunda ejecución" in out, out  # the diff
    written = sorted(set(project.root.rglob("*.txt")) - set(before))
    assert [p.name for p in written] == ["suma.cpu.txt"], written
    assert "1 grabación escrita" in done.stdout and "2 páginas ejecutadas dos veces" in done.stdout
