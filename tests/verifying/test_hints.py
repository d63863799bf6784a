"""Findings point at the line that caused them and carry the edit that fixes them."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Project
from docverify.core import versions
from docverify.core.findings import errors
from docverify.core.kinds import Kind
from docverify.parsing.pages import Block, read_site
from docverify.running.executor import Executor
from docverify.verifying import compare, hints
from docverify.verifying.record import record
from docverify.verifying.recordings import Recording
from docverify.verifying.verify import verify

DIVERGING = """\
import torch


def mostrar(t):
    print("valor:", t.tolist())


print("sin cambios")
mostrar(torch.arange(3))
print("también igual")
"""


@pytest.fixture(autouse=True)
def _local_author(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)


def _one_error(project: Project, executor: Executor):
    config = project.config
    found = errors(verify(config, read_site(config), "cpu", executor).findings)
    (finding,) = [f for f in found if f.kind != Kind.MISSING_RECORDING]  # blocks never recorded
    return finding


def test_divergence_points_at_the_line_that_wrote_it(project: Project, executor: Executor) -> None:
    project.snippet("a/b.py", DIVERGING)
    project.page("a.md", '```python exec="on" id="b"\n--8<-- "a/b.py"\n```\n')
    record(project.config, read_site(project.config), "cpu", executor)
    project.snippet("a/b.py", DIVERGING.replace("arange(3)", "arange(4)"))
    finding = _one_error(project, executor)
    assert finding.kind == Kind.DIVERGENCE
    # The innermost line of the block on the stack when «valor: …» was written: the print
    # inside mostrar(), line 5 of the snippet (not line 1, not the call on line 9).
    assert finding.where == "snippets/a/b.py:5", finding.where


def test_missing_output_points_at_the_block(project: Project, executor: Executor) -> None:
    project.page("a.md", '```python exec="on" id="b"\nprint(1)\nprint(2)\n```\n')
    record(project.config, read_site(project.config), "cpu", executor)
    project.page("a.md", '```python exec="on" id="b"\nprint(1)\n```\n')
    finding = _one_error(project, executor)
    assert finding.kind == Kind.DIVERGENCE and finding.where == "docs/a.md:2"


def test_exception_points_at_the_raising_frame(project: Project, executor: Executor) -> None:
    code = "def f(x):\n    return 1 / x\n\n\nprint(f(2))\nprint(f(0))\n"
    project.snippet("a/e.py", code)
    project.page("a.md", '```python exec="on" id="e"\n--8<-- "a/e.py"\n```\n')
    finding = _one_error(project, executor)
    assert finding.kind == Kind.UNEXPECTED_EXCEPTION
    assert finding.where == "snippets/a/e.py:2", finding.where


def test_name_error_from_an_earlier_block_suggests_a_session(
    project: Project, executor: Executor
) -> None:
    project.page(
        "a.md",
        '```python exec="on" id="crea"\nimport torch\nw = torch.ones(2)\n```\n\n'
        '```python exec="on" id="usa"\nprint(w.sum())\n```\n',
    )
    finding = _one_error(project, executor)
    assert finding.kind == Kind.UNEXPECTED_EXCEPTION and finding.where == "docs/a.md:7"
    assert "«w»" in finding.fix and "«crea»" in finding.fix and 'session="' in finding.fix


def test_name_error_without_an_earlier_definition_keeps_the_usual_fix(
    project: Project, executor: Executor
) -> None:
    project.page("a.md", '```python exec="on" id="usa"\nprint(nada)\n```\n')
    finding = _one_error(project, executor)
    assert "session" not in finding.fix and "raises=" in finding.fix


def test_expectation_on_a_tensor_says_every_element_is_compared(
    project: Project, executor: Executor
) -> None:
    project.page(
        "a.md",
        '```python exec="on" id="m"\nimport torch\n'
        "print(torch.full((2, 2), 4.5))  # Expectativa: 4.5\n```\n",
    )
    config = project.config
    report = verify(config, read_site(config), "cpu", executor)
    (finding,) = [f for f in report.findings if f.kind == Kind.EXPECTATION]
    assert finding.where == "docs/a.md:3"
    assert "4 y la expectativa tiene 1" in finding.fix
    assert "# Expectativa: [[4.5000, 4.5000], [4.5000, 4.5000]]" in finding.fix


@pytest.mark.parametrize("module", ["paquete_que_no_existe", "otro_paquete_que_no_existe.io"])
def test_a_missing_module_says_what_to_install_and_where(
    project: Project, executor: Executor, module: str
) -> None:
    """The hint names the module and the pyproject.toml extra to add its package to; never
    raises= (a missing install is not what a block teaches)."""
    project.page("a.md", f'```python exec="on" id="b"\nimport {module}\n```\n')
    finding = _one_error(project, executor)
    assert finding.kind == Kind.UNEXPECTED_EXCEPTION
    # Python names the first missing part: the package itself here
    assert f"«{module.split('.', maxsplit=1)[0]}»" in finding.fix, finding.fix
    assert "extra «site»" in finding.fix and "pyproject.toml" in finding.fix, finding.fix
    assert "raises" not in finding.fix, finding.fix


@pytest.mark.parametrize(
    ("module", "package"),
    [("PIL", "pillow"), ("sklearn", "scikit-learn"), ("cv2", "opencv-python")],
)
def test_a_common_module_names_the_package_that_installs_it(module: str, package: str) -> None:
    result = {
        "exception_type": ["ModuleNotFoundError", "builtins.ModuleNotFoundError"],
        "exception_message": f"No module named '{module}'",
    }
    fix = hints.missing_module_fix(result) or ""
    assert f"«{module}»" in fix and f"paquete «{package}»" in fix and "extra «site»" in fix, fix


def test_a_missing_torch_companion_asks_for_the_version_made_for_this_torch() -> None:
    """torchvision and torchaudio are published for one torch release each: the hint names
    torch's installed version and says that tasks.py installs them from torch's index."""
    import importlib.metadata  # noqa: PLC0415

    result = {
        "exception_type": ["ModuleNotFoundError", "builtins.ModuleNotFoundError"],
        "exception_message": "No module named 'torchvision'",
    }
    fix = hints.missing_module_fix(result) or ""
    assert "«torchvision»" in fix and importlib.metadata.version("torch") in fix, fix
    assert "mismo índice que torch" in fix and "extra «site»" in fix, fix


def test_a_missing_submodule_of_an_installed_package_is_not_an_install() -> None:
    result = {
        "exception_type": ["ModuleNotFoundError"],
        "exception_message": "No module named 'numpy.no_existe'",
    }
    fix = hints.missing_module_fix(result) or ""
    assert "«numpy» está instalado" in fix and "extra" not in fix, fix


# Unit tests of each hint: the exact text an author reads, each branch on its own.

NO_RULES = compare.Tolerance(rtol=0.0, atol=0.0, volatile=())  # no volatile rule masks a value


def test_first_difference_is_the_first_line_that_stops_matching() -> None:
    assert hints.first_difference("a\nb\nc", "a\nb\nd", NO_RULES) == 2
    assert hints.first_difference("a\nb\nc", "x\nb\nc", NO_RULES) == 0
    # One text is the other plus lines: the difference starts where the shorter one ends.
    assert hints.first_difference("a\nb", "a\nb\nc", NO_RULES) == 2
    assert hints.first_difference("a\nb\nc", "a", NO_RULES) == 1


@pytest.mark.parametrize(
    ("lines", "index", "expected"),
    [
        ([7, 3], 0, 7),  # the first output line counts
        ([7, 3], 1, 3),
        ([7, 3], 2, None),  # past the traced lines
        ([7, 3], -1, None),  # never from the end
        ([0, 3], 0, None),  # 0: a line the run could not trace to the block
        ([1, 3], 0, 1),  # line 1 of the block is a line
        ([], 0, None),
    ],
)
def test_writer_line_is_the_traced_block_line(
    lines: list[int], index: int, expected: int | None
) -> None:
    assert hints.writer_line({"output_lines": lines}, index) == expected
    assert hints.writer_line({}, 0) is None


def _recording(tmp_path: Path, body: str, header: str = "# runner: cpu\n# ----\n") -> Recording:
    path = tmp_path / "b.cpu.txt"
    path.write_text(header + body + "\n", encoding="utf-8")
    return Recording(path, "cpu", {}, body)


VOLATILE_BODY = "objeto en 0x7f00aa11\nfijo\nid 1234567890123\nx 0xabc\ny 0xdef"
VOLATILE_SEEN = "objeto en 0x7f00bb22\nfijo\nid 9876543210987\nx 0x123\ny 0x456"


def test_volatile_fix_names_each_line_of_the_file_and_its_marked_form(tmp_path: Path) -> None:
    """Read from the recording's own body (no view given); the file lines count the two lines
    of its header; four differing lines, three shown, separated by «; »."""
    fix = hints.volatile_fix(_recording(tmp_path, VOLATILE_BODY), VOLATILE_SEEN, NO_RULES)
    assert fix == (
        "si esos valores cambian en cada ejecución (direcciones, identificadores), volver a "
        "grabar no sirve: edita b.cpu.txt y pon [..] en su lugar (línea 3: «objeto en "
        "0x7f00aa11» → «objeto en [..]»; línea 5: «id 1234567890123» → «id [..]»; línea 6: "
        "«x 0xabc» → «x [..]»); docverify record conserva el marcador mientras la línea "
        "coincida. Si el cambio es real, corrige el código o vuelve a grabar."
    )


def test_volatile_fix_without_a_header_counts_from_the_first_line(tmp_path: Path) -> None:
    recording = _recording(tmp_path, "árbol 0x7f00aa11", header="")
    fix = hints.volatile_fix(recording, "árbol 0x7f00bb22", NO_RULES) or ""
    assert "(línea 1: «árbol 0x7f00aa11» → «árbol [..]»)" in fix, fix


@pytest.mark.parametrize(
    "seen",
    [
        "objeto en 0x7f00aa11\nfijo\nid 1234567890123\nx 0xabc\ny 0xdef",  # nothing differs
        "objeto en 0x7f00bb22\notro\nid 1234567890123\nx 0xabc\ny 0xdef",  # a real change too
        "objeto en 0x7f00bb22\nfijo",  # fewer lines
    ],
)
def test_volatile_fix_is_only_for_volatile_values(tmp_path: Path, seen: str) -> None:
    assert hints.volatile_fix(_recording(tmp_path, VOLATILE_BODY), seen, NO_RULES) is None


WHERE = (
    "añádelo al extra «site» de [project.optional-dependencies] en pyproject.toml, con una "
    "versión fija, y ejecuta python3 tasks.py install (CI instala lo mismo)"
)


def _missing(module: str) -> dict[str, object]:
    return {
        "exception_type": ["ModuleNotFoundError"],
        "exception_message": f"No module named '{module}'",
    }


def test_missing_module_fix_texts() -> None:
    assert hints.missing_module_fix(_missing("paquete_inexistente")) == (
        f"falta el módulo «paquete_inexistente»: {WHERE}, con el nombre del paquete que lo "
        "instala (suele ser «paquete_inexistente»); si el nombre está mal escrito, corrígelo "
        "en el código."
    )
    assert hints.missing_module_fix(_missing("numpy.no_existe")) == (
        "el paquete «numpy» está instalado, pero no tiene el módulo «numpy.no_existe»: "
        "comprueba el nombre en el código, o la versión de ese paquete en pyproject.toml."
    )


def test_a_missing_top_level_module_is_an_install_even_when_this_process_has_it() -> None:
    """«No module named 'numpy'» in the block's process: the package to declare, not a typo in
    a submodule (this process having numpy says nothing about the block's)."""
    fix = hints.missing_module_fix(_missing("numpy")) or ""
    assert fix.startswith("falta el módulo «numpy»: añádelo"), fix


def test_a_submodule_of_a_common_module_names_its_package() -> None:
    assert hints.missing_module_fix(_missing("sklearn.svm")) == (
        f"falta el módulo «sklearn.svm», que instala el paquete «scikit-learn»: {WHERE}."
    )


def test_a_torch_companion_without_torch_installed_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(versions, "installed", lambda package: None)
    fix = hints.missing_module_fix(_missing("torchaudio")) or ""
    assert "Fija la versión de torchaudio que se publicó con torch ? (" in fix, fix


@pytest.mark.parametrize(
    "result",
    [
        {},
        {"exception_message": "No module named 'x'"},
        {"exception_type": ["ModuleNotFoundError"]},
        {"exception_type": ["ImportError"], "exception_message": "No module named 'x'"},
        {"exception_type": ["ModuleNotFoundError"], "exception_message": "otra cosa"},
    ],
)
def test_missing_module_fix_needs_the_error_and_its_message(result: dict[str, object]) -> None:
    assert hints.missing_module_fix(result) is None


def _block(page: str, block_id: str, code: str, session: str | None = None, line: int = 1) -> Block:
    options = {"session": session} if session else {}
    return Block(page, block_id, code, Path(page), line + 1, line, options)


def _name_error(name: str) -> dict[str, object]:
    return {"exception_type": ["NameError"], "exception_message": f"name '{name}' is not defined"}


def test_name_error_fix_names_the_defining_block_and_a_session_for_both() -> None:
    earlier = [_block("guia/cap/tensores.md", "crea", "w = 1", line=4)]
    block = _block("guia/cap/tensores.md", "usa", "print(w)", line=9)
    assert hints.name_error_fix(block, _name_error("w"), earlier) == (
        "«w» se define en el bloque anterior «crea» (línea 4 de la página), pero cada bloque "
        'corre en un espacio de nombres limpio: pon session="tensores" en los dos bloques para '
        "que compartan variables, o define «w» en este bloque."
    )


def test_name_error_fix_reuses_the_session_one_block_has() -> None:
    named = [_block("a.md", "crea", "w = 1", session="s1")]
    fix = hints.name_error_fix(_block("a.md", "usa", "print(w)"), _name_error("w"), named) or ""
    assert 'pon session="s1" en este bloque (como «crea»)' in fix, fix
    plain = [_block("a.md", "crea", "w = 1")]
    fix = hints.name_error_fix(_block("a.md", "usa", "w", "s2"), _name_error("w"), plain) or ""
    assert 'pon session="s2" en los dos bloques' in fix, fix


def test_name_error_fix_is_silent_when_the_blocks_already_share_a_session() -> None:
    earlier = [_block("a.md", "crea", "w = 1", session="s")]
    assert hints.name_error_fix(_block("a.md", "usa", "w", "s"), _name_error("w"), earlier) is None
    fix = hints.name_error_fix(_block("a.md", "usa", "w", "otra"), _name_error("w"), earlier)
    assert fix is not None and 'session="s"' in fix


@pytest.mark.parametrize(
    ("code", "name"),
    [
        ("def ayuda():\n    pass", "ayuda"),
        ("class Modelo:\n    pass", "Modelo"),
        ("import os.path", "os"),
        ("import numpy as np", "np"),
        ("from math import pi", "pi"),
        ("for paso in range(3):\n    pass", "paso"),
    ],
)
def test_name_error_fix_sees_every_way_a_block_binds_a_name(code: str, name: str) -> None:
    earlier = [_block("a.md", "crea", code)]
    fix = hints.name_error_fix(_block("a.md", "usa", name), _name_error(name), earlier)
    assert fix is not None and f"«{name}» se define en el bloque anterior «crea»" in fix


@pytest.mark.parametrize(
    "result",
    [
        {},
        {"exception_message": "name 'w' is not defined"},
        {"exception_type": ["NameError"]},
        {"exception_type": ["NameError"], "exception_message": "otra cosa"},
    ],
)
def test_name_error_fix_needs_the_error_and_its_message(result: dict[str, object]) -> None:
    earlier = [_block("a.md", "crea", "w = 1")]
    assert hints.name_error_fix(_block("a.md", "usa", "w"), result, earlier) is None


def test_expectation_fix_writes_the_values_without_the_tensor_metadata() -> None:
    fix = hints.expectation_fix("1.", "tensor([1., 2.], dtype=torch.float64)") or ""
    assert "imprimió 2 y la expectativa tiene 1" in fix and "(# Expectativa: [1., 2.])" in fix, fix
    assert hints.expectation_fix("1.", None) is None
    assert hints.expectation_fix("1. 2.", "tensor([1., 2.])") is None
