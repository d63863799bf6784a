"""site/notebook_names.py: the notebook runs every cell in one namespace, so a block that binds
a name between a session's blocks hands them its own value; the check says so, at the line of
that block, before any notebook runs (tests/output/test_notebooks.py runs them, minutes later)."""

from __future__ import annotations

import pytest
from conftest import Project
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_page
from docverify.site import notebook_names


def _fence(block_id: str, code: str, session: str | None = "s") -> str:
    option = f' session="{session}"' if session else ""
    return f'```python exec="on" id="{block_id}"{option}\n{code}\n```\n'


def _found(project: Project, *blocks: str) -> list[tuple[int, str]]:
    text = "---\ntitle: T\n---\n\n# T\n\n" + "\n".join(blocks)
    path = project.page("articulos/a.md", text)
    page = read_page(project.config, path)
    assert page.findings == [], page.findings
    found = notebook_names.check(project.config, page)
    assert all(f.kind == Kind.NOTEBOOK_NAME_CLASH for f in found)
    assert all(f.path == "docs/articulos/a.md" for f in found)
    return [(f.line, f.message) for f in found]


def _line(project: Project, block_id: str) -> int:
    text = (project.root / "docs/articulos/a.md").read_text(encoding="utf-8").split("\n")
    return next(n for n, line in enumerate(text, 1) if f'id="{block_id}"' in line)


def test_a_block_between_a_sessions_blocks_that_rebinds_what_they_read(project: Project) -> None:
    found = _found(
        project,
        _fence("define", "def evaluar(x):\n    return x + 1"),
        _fence("ejemplo", "def evaluar(a, b):\n    return a * b", session=None),
        _fence("usa", "print(evaluar(1))"),
    )
    assert [line for line, _ in found] == [_line(project, "ejemplo")]
    message = found[0][1]
    for part in ("«ejemplo»", "«evaluar»", "«usa»", "«s»", "«define»"):
        assert part in message, (part, message)


def test_the_same_import_again_and_names_the_session_never_reads_again_are_harmless(
    project: Project,
) -> None:
    assert (
        _found(
            project,
            _fence("uno", "import math\nx = 1\nprint(math.pi, x)"),
            _fence("suelto", "import math\nx = 2\nprint(math.e, x)", session=None),
            _fence("dos", "print(math.tau)\nx = 3\nprint(x)"),
            _fence("tres", "y = x"),
        )
        == []
    )


def test_another_module_under_the_same_name_is_a_clash(project: Project) -> None:
    found = _found(
        project,
        _fence("uno", "import math as m"),
        _fence("suelto", "import cmath as m", session=None),
        _fence("dos", "print(m.pi)"),
    )
    assert [line for line, _ in found] == [_line(project, "suelto")]


def test_a_function_of_the_session_reads_its_globals_when_it_is_called(project: Project) -> None:
    """The clash hides in a function's body: it reads `escala` when a later block calls it."""
    found = _found(
        project,
        _fence("define", "escala = 2\ndef doble(x):\n    return x * escala"),
        _fence("otra", "escala = 10", session="otra"),
        _fence("llama", "print(doble(3))"),
    )
    assert [line for line, _ in found] == [_line(project, "otra")]
    assert "«escala»" in found[0][1]
    # Through a second function of the session, too.
    project2 = Project(project.root.parent / "p2")
    found = _found(
        project2,
        _fence("define", "escala = 2\ndef doble(x):\n    return x * escala"),
        _fence("envuelve", "def cuadruple(x):\n    return doble(doble(x))"),
        _fence("otra", "escala = 10", session=None),
        _fence("llama", "print(cuadruple(3))"),
    )
    assert [line for line, _ in found] == [_line(project2, "otra")]


@pytest.mark.parametrize(
    "reader",
    ["print([fila for fila in datos])", "class C:\n    n = len(datos)", "print(datos)"],
)
def test_a_read_at_the_top_of_a_comprehension_or_a_class_body(
    project: Project, reader: str
) -> None:
    found = _found(
        project,
        _fence("datos", "datos = [1, 2]"),
        _fence("suelto", "datos = 'otra cosa'", session=None),
        _fence("lee", reader),
    )
    assert [line for line, _ in found] == [_line(project, "suelto")]


def test_a_builtin_rebound_by_one_cell_breaks_a_later_one(project: Project) -> None:
    found = _found(
        project,
        _fence("tapa", "sum = 3", session=None),
        _fence("usa", "print(sum([1, 2]))", session=None),
    )
    assert [line for line, _ in found] == [_line(project, "tapa")]
    assert "de Python" in found[0][1]


def test_a_name_the_block_binds_before_it_reads_it_is_its_own(project: Project) -> None:
    assert (
        _found(
            project,
            _fence("uno", "modelo = 1"),
            _fence("suelto", "modelo = 2", session=None),
            _fence("dos", "modelo = 3\nprint(modelo)"),
            _fence("nada", "print(no_definido)"),  # the engine fails too: not this check's
        )
        == []
    )


def test_the_finding_whole_with_a_session_and_without(project: Project) -> None:
    cfg = project.config
    text = "---\ntitle: T\n---\n\n# T\n\n" + "\n".join(
        [
            _fence("define", "def evaluar(x):\n    return x + 1"),
            _fence("ejemplo", "def evaluar(a, b):\n    return a * b\nlen = 3", session=None),
            _fence("usa", "print(evaluar(1))"),
            _fence("otra", "print(evaluar(2))"),  # a second reader: still one finding
            _fence("cuenta", "print(len('abc'))", session=None),
        ]
    )
    page = read_page(cfg, project.page("articulos/a.md", text))
    found = notebook_names.check(cfg, page)
    line = _line(project, "ejemplo")
    shared = (
        ": la página y el cuaderno imprimirían cosas distintas. En el cuaderno, todas las "
        "celdas comparten los nombres."
    )
    assert [(f.kind, f.path, f.line, f.message, f.fix) for f in found] == [
        (
            Kind.NOTEBOOK_NAME_CLASH,
            "docs/articulos/a.md",
            line,
            "el bloque «ejemplo» define «evaluar», y en el cuaderno del artículo ese valor tapa "
            "el que el bloque «usa» (de la sesión «s») lee del bloque «define»" + shared,
            "cambia el nombre «evaluar» en el bloque «ejemplo» o pon ese bloque en la misma "
            "sesión.",
        ),
        (
            Kind.NOTEBOOK_NAME_CLASH,
            "docs/articulos/a.md",
            line,
            "el bloque «ejemplo» define «len», y en el cuaderno del artículo ese valor tapa "
            "el que el bloque «cuenta» (sin sesión) lee de Python" + shared,
            "cambia el nombre «len» en el bloque «ejemplo» o pon ese bloque en la misma sesión.",
        ),
    ]


@pytest.mark.parametrize(
    ("first", "between", "clash"),
    [
        ("import torch.nn", "import torch", False),  # both bind torch, the package
        ("import torch.nn as m", "import torch as m", True),
        ("import torch.nn as m", "import torch.nn as m", False),
        ("from torch import nn as m", "from torch import nn as m", False),
        ("from torch import nn as m", "from math import nn as m", True),
        ("from torch import nn as m", "from torch import optim as m", True),
        ("from .torch import nn as m", "from .torch import nn as m", True),  # relative: unknown
        ("m = 1", "m = 1", True),  # any other binding is its block's own
    ],
)
def test_which_bindings_are_the_same(
    project: Project, first: str, between: str, clash: bool
) -> None:
    name = "torch" if first == "import torch.nn" else "m"
    found = _found(
        project,
        _fence("uno", first),
        _fence("suelto", between, session=None),
        _fence("dos", f"print({name})"),
    )
    assert [line for line, _ in found] == ([_line(project, "suelto")] if clash else [])


def test_a_block_that_does_not_parse_is_left_to_the_fence_checks(project: Project) -> None:
    text = "# T\n\n" + _fence("uno", "x = 1") + _fence("roto", "x = (", None) + _fence("dos", "x")
    page = read_page(project.config, project.page("articulos/a.md", text))
    assert notebook_names.check(project.config, page) == []


def test_what_a_function_reads_nested_scopes_and_recursion(project: Project) -> None:
    """A function reads the globals of its nested scopes too; its own locals are not reads;
    a function that calls itself is followed once."""
    found = _found(
        project,
        _fence(
            "define",
            "escala, datos, t = 2, [1], 0\n"
            "def f(n):\n"
            "    t = 5\n"  # a local: not a read of the global t
            "    g = lambda: datos\n"
            "    return f(n - 1) if n else escala * g()[0] + t",
        ),
        _fence("otra", "escala, datos, t = 10, [3], 7", session=None),
        _fence("llama", "print(f(3))"),
    )
    assert sorted(message.split("»")[1] for _, message in found) == [
        " define «datos",
        " define «escala",
    ]


def test_functions_that_call_each_other_are_all_followed(project: Project) -> None:
    """f calls p and q, each calls f back: meeting f again ends nothing, both are read."""
    found = _found(
        project,
        _fence(
            "define",
            "alfa, beta = 1, 2\n"
            "def f():\n    return p() + q()\n"
            "def p():\n    return f() if alfa < 0 else alfa\n"
            "def q():\n    return f() if beta < 0 else beta\n",
        ),
        _fence("otra", "alfa, beta = 10, 20", session=None),
        _fence("llama", "f()"),
    )
    assert sorted(message.split("»")[1] for _, message in found) == [
        " define «alfa",
        " define «beta",
    ]


def test_what_a_comprehension_reads_runs_now(project: Project) -> None:
    """The body of a comprehension is a scope of its own that runs at once: what it reads
    counts, with what the block reads at its top level and through the functions it calls."""
    found = _found(
        project,
        _fence("define", "escala, otro, beta = 2, 3, 4\ndef f():\n    return beta"),
        _fence("suelto", "escala, otro, beta = 10, 30, 40", session=None),
        _fence("lee", "print(otro, f(), [escala * x for x in [1, 2]])"),
    )
    assert sorted(message.split("»")[1] for _, message in found) == [
        " define «beta",
        " define «escala",
        " define «otro",
    ]


def test_names_nobody_defined_and_blocks_that_do_not_parse_stop_nothing(project: Project) -> None:
    found = _found(
        project,
        _fence("uno", "zeta = 1"),
        _fence("roto", "zeta = (", session=None),
        _fence("suelto", "zeta = 2", session=None),
        _fence("dos", "print(a_indefinido, zeta)"),  # sorted first, and the engine has none
    )
    assert [line for line, _ in found] == [_line(project, "suelto")]
