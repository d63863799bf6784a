"""Record's second run (verifying/stability.py): only pages with something to write run again,
and the likely causes and the [..] a refusal suggests."""

from __future__ import annotations

import pytest
from conftest import Project
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing.pages import Block, read_site
from docverify.running.executor import Executor
from docverify.verifying import compare, stability
from docverify.verifying.record import record
from docverify.verifying.verify import execute
from support.blocks import block

TOL = compare.Tolerance(1e-5, 1e-8)


@pytest.mark.usefixtures("local_author")  # record refuses under CI=true (.ci/run sets it)
def test_only_pages_with_a_new_or_changed_output_run_a_second_time(
    project: Project, executor: Executor
) -> None:
    """Each call of `run` is a run of its pages: the first of every page, then a second of
    those with something to write; once all is recorded, one run and nothing more."""
    project.page("nueva.md", block("print(1)", "uno"))
    project.page("igual.md", block("print(2)", "dos"))
    project.page("cambia.md", block("print(3)", "tres"))
    cfg = project.config
    record(cfg, [p for p in read_site(cfg) if p.rel != "nueva.md"], "cpu", executor)
    project.page("cambia.md", block("print(4)", "tres"))
    calls: list[list[str]] = []

    def counted(*args, **kwargs):
        calls.append(sorted(page.rel for page in args[1]))
        return execute(*args, **kwargs)

    done = record(cfg, read_site(cfg), "cpu", executor, run=counted)
    assert calls == [["cambia.md", "igual.md", "nueva.md"], ["cambia.md", "nueva.md"]]
    assert done.run_twice == 2 and len(done.written) == 2 and done.unchanged == 1
    calls.clear()
    again = record(cfg, read_site(cfg), "cpu", executor, run=counted)
    assert calls == [["cambia.md", "igual.md", "nueva.md"]] and again.run_twice == 0


def test_a_second_run_is_compared_as_check_compares_it() -> None:
    """Volatile values and [..] markers hold across the two runs; another number, a missing
    line or a failed second run do not, and each changed line is named with its index."""
    body = compare.merge(None, "<AddBackward0 object at 0x7f2c1a3b9e50>\n1", TOL)
    same = {"output": "<AddBackward0 object at 0x7f00000000aa>\n1", "error": None}
    assert stability.changed_lines(body, same, TOL) is None  # type: ignore[arg-type]
    assert stability.changed_lines("id [..]\n1", {"output": "id 42\n1", "error": None}, TOL) is None  # type: ignore[arg-type]
    other = {"output": "<AddBackward0 object at 0x7f00000000aa>\n2", "error": None}
    assert stability.changed_lines(body, other, TOL) == [(1, "1", "2")]  # type: ignore[arg-type]
    failed = {"output": "", "error": "Traceback\nValueError: x"}
    [*_, last] = stability.changed_lines("1", failed, TOL)  # type: ignore[arg-type]
    assert last[2] == "(falló: ValueError: x)"
    assert stability.changed_lines("1", None, TOL)


def test_a_second_run_that_prints_the_same_and_then_fails_is_unstable() -> None:
    """The failure alone tells the runs apart: same output, then an error (or no result at
    all), is a changed line after the last one, never a match."""
    same_then_error = {"output": "1", "error": "Traceback\nValueError: x"}
    assert stability.changed_lines("1", same_then_error, TOL) == [  # type: ignore[arg-type]
        (1, "", "(falló: ValueError: x)")
    ]
    assert stability.changed_lines("", {"output": "", "error": "boom"}, TOL) == [  # type: ignore[arg-type]
        (1, "", "(falló: boom)")
    ]
    assert stability.changed_lines("", None, TOL) == [(1, "", "(falló: sin resultado)")]
    assert stability.changed_lines("1", None, TOL) == [
        (0, "1", ""),
        (1, "", "(falló: sin resultado)"),
    ]
    # An empty error still failed; a second run that printed less leaves empty lines.
    assert stability.changed_lines("1", {"output": "1", "error": ""}, TOL) == [  # type: ignore[arg-type]
        (1, "", "(falló: sin resultado)")
    ]
    assert stability.changed_lines("1\n2", {"output": "1", "error": None}, TOL) == [(1, "2", "")]  # type: ignore[arg-type]
    # The other branch: the same output and no error is stable, also when it is empty.
    assert stability.changed_lines("1", {"output": "1", "error": None}, TOL) is None  # type: ignore[arg-type]
    assert stability.changed_lines("", {"output": "", "error": None}, TOL) is None  # type: ignore[arg-type]


def test_the_causes_named_are_those_the_code_shows() -> None:
    names = {
        "print(list(set(palabras)))": ["hash-order"],
        'print({"a", "b"})': ["hash-order"],
        "import uuid\nprint(uuid.uuid4())": ["os-random"],
        "import time\nprint(time.time())": ["clock"],
        "from concurrent.futures import ThreadPoolExecutor": ["threads"],
        'print(f"{x}")': [c.name for c in stability.CAUSES],  # nothing shows: all of them
    }
    for code, expected in names.items():
        assert [c.name for c in stability.likely_causes(code)] == expected, code


def test_the_marker_suggested_keeps_what_both_runs_printed() -> None:
    assert stability.marked("id: 31416a67 fin", "id: 9a5b8b63 fin") == "id: [..] fin"
    assert stability.marked("abc", "xyz") == "[..]"
    assert compare.line_matches(stability.marked("t=0.31 s", "t=0.29 s"), "t=0.77 s", TOL)


FIX_START = (
    "si la salida no debía variar, corrige el código (ordena, fija lo que cambia); si debe "
    "variar, imprime algo que no varíe (len(...), una comparación) y compruébalo con una "
    "expectativa (# Expectativa: …), o "
)
FIX_END = (
    "una regla de valores cambiantes ya cubre direcciones, rutas temporales, pids y tiempos "
    "medidos (literal=… las desactiva)."
)
ALL_CAUSES = (
    "el orden de un set (o de un dict hecho con uno): el de las cadenas lo fija hash_seed, el de "
    "objetos que se hashean por su dirección no; recórrelo con sorted(...); bytes del sistema "
    "operativo (os.urandom, uuid, secrets), distintos en cada proceso; la semilla de "
    "[tool.docverify] solo fija random, numpy y torch; la hora o un tiempo medido (time, "
    "datetime); hilos o procesos que terminan en otro orden (threading, concurrent.futures, "
    "num_workers=…), o sumas en paralelo que redondean distinto"
)


def _block(project: Project, code: str) -> Block:
    """Block «uno» of docs/p.md: its fence on line 5, its code from line 20 of the page."""
    return Block("p.md", "uno", code, project.root / "docs" / "p.md", 20, 5)


def test_a_refusal_names_the_block_the_lines_the_causes_and_the_marker(project: Project) -> None:
    """Exactly what the author reads: four changed lines, three quoted and «y 1 más», the
    cause the code shows, a [..] for each quoted line and the line that printed the first."""
    cfg = project.config
    body = "inicio\nid 1\nid 2\nid 3\nid 4"
    first = {"output": body, "error": None, "output_lines": [21, 22, 23, 24, 25]}
    second = {"output": "inicio\nid 5\nid 6\nid 7\nid 8", "error": None}
    block = _block(project, "print(set(palabras))")
    got = stability.unstable(cfg, block, "cpu", body, first, second, TOL)  # type: ignore[arg-type]
    assert (
        got
        == Finding(
            Kind.UNSTABLE_OUTPUT,
            "la salida de «p/uno» en cpu cambió entre dos ejecuciones seguidas, cada una en un "
            "proceso nuevo (página docs/p.md:5); líneas que cambiaron (4): «id 1» → «id 5»; "
            "«id 2» → «id 6»; «id 3» → «id 7» (y 1 más). No se escribe ninguna grabación de esa "
            "página. Causas probables: el orden de un set (o de un dict hecho con uno): el de las "
            "cadenas lo fija hash_seed, el de objetos que se hashean por su dirección no; "
            "recórrelo con sorted(...).",
            "docs/p.md",
            22,  # output line 1, the first that changed, came from line 22
            FIX_START + "escribe snippets/p/uno.cpu.txt a mano con [..] donde cambia («id [..]»; "
            "«id [..]»; «id [..]»), copiando la cabecera de otra grabación, y vuelve a ejecutar "
            "docverify record, que conserva el marcador; " + FIX_END,
            detail="--- primera ejecución\n+++ segunda ejecución (proceso nuevo)\n@@ -1,5 +1,5 @@\n"
            " inicio\n-id 1\n-id 2\n-id 3\n-id 4\n+id 5\n+id 6\n+id 7\n+id 8",
        )
    )
    assert stability.unstable(cfg, block, "cpu", body, first, {**first}, TOL) is None  # type: ignore[arg-type]


def test_a_refusal_of_three_lines_or_of_no_result_quotes_them_all(project: Project) -> None:
    """Three changed lines: no «y … más». No second result: its lines are empty, nothing to
    mark, no trace of the writer (the block's first line), and every cause is named."""
    cfg = project.config
    block = _block(project, 'print(f"{x}")')
    untraced = {"output": "", "error": None}
    later = {"output": "a 4\nb 5\nc 6", "error": None}
    three = stability.unstable(cfg, block, "cpu", "a 1\nb 2\nc 3", untraced, later, TOL)  # type: ignore[arg-type]
    assert three is not None
    assert "(3): «a 1» → «a 4»; «b 2» → «b 5»; «c 3» → «c 6». No se" in three.message
    assert three.line == 20
    assert "(«a [..]»; «b [..]»; «c [..]»)" in three.fix
    none = stability.unstable(cfg, block, "gpu", "7", {"output": "7", "error": None}, None, TOL)  # type: ignore[arg-type]
    assert none == Finding(
        Kind.UNSTABLE_OUTPUT,
        "la salida de «p/uno» en gpu cambió entre dos ejecuciones seguidas, cada una en un "
        "proceso nuevo (página docs/p.md:5); líneas que cambiaron (2): «7» → «»; "
        "«» → «(falló: sin resultado)». No se escribe ninguna grabación de esa página. "
        f"Causas probables: {ALL_CAUSES}.",
        "docs/p.md",
        20,
        FIX_START + FIX_END,
        detail="--- primera ejecución\n+++ segunda ejecución (proceso nuevo)\n@@ -1 +0,0 @@\n-7",
    )


def test_the_marker_takes_the_longest_common_ends_and_no_more() -> None:
    """Each expected [..] worked out by hand: what both lines share at each end stays (up to a
    whole word), also when one line ends where the other goes on or they overlap."""
    cases = {
        ("(1)", "[1]"): "[..]",  # nothing in common at the start: nothing kept there
        ("(1)", "(2)"): "([..])",  # one character in common at each end
        ("a 1 b", "a 2 c"): "a [..]",  # nothing in common at the end
        ("ok;", "ok!"): "[..]",
        ("a b", "a b c"): "a [..]",  # the first is a prefix of the second
        ("1 s", "1 1 s"): "1 [..]",  # the common start and end overlap in the second
        ("x = abc1", "x = abc2"): "x = [..]",  # back to the start of the word, one by one
    }
    for (first, second), expected in cases.items():
        assert stability.marked(first, second) == expected, (first, second)
