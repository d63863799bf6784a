"""Sizes a reader can hold in mind (docs-dev/motor.md): every module of hooks/ at most 300
lines, every function at most 60, and the MkDocs adapter at most 150 non-blank lines."""

from __future__ import annotations

import ast
from pathlib import Path

import docverify

HOOKS = Path(docverify.__file__).parents[1]
ADAPTER = HOOKS / "mkdocs_hooks.py"
MODULE_LINES, FUNCTION_LINES, ADAPTER_LINES = 300, 60, 150


def too_big(root: Path = HOOKS) -> list[str]:
    """«file: n lines» for each module past MODULE_LINES, «file:line name(): n lines» for each
    function past FUNCTION_LINES (methods and nested functions included)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(root).as_posix()
        if (count := len(text.splitlines())) > MODULE_LINES:
            found.append(f"{where}: {count} líneas")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > FUNCTION_LINES:
                    found.append(f"{where}:{node.lineno} {node.name}(): {length} líneas")
    return found


def test_no_module_or_function_is_too_big() -> None:
    assert len(list(HOOKS.rglob("*.py"))) > 50  # the engine was found
    found = too_big()
    assert not found, "parte en trozos que un lector pueda abarcar:\n" + "\n".join(found)


def test_the_mkdocs_adapter_only_wires() -> None:
    lines = [line for line in ADAPTER.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(lines) <= ADAPTER_LINES, f"{ADAPTER.name}: {len(lines)} líneas no vacías"


def test_a_long_function_and_a_long_module_are_found(tmp_path: Path) -> None:
    """The measure itself: a function of 61 lines and a module of 301 are caught."""
    body = "".join(f"    x{n} = {n}\n" for n in range(60))
    (tmp_path / "long.py").write_text(f"def long():\n{body}", encoding="utf-8")
    (tmp_path / "big.py").write_text("x = 1\n" * 301, encoding="utf-8")
    assert too_big(tmp_path) == ["big.py: 301 líneas", "long.py:1 long(): 61 líneas"]
