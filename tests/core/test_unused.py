"""No dead code in the engine: every top-level function, class and constant of hooks/docverify/
is used by the engine, its adapters, tasks.py or tools/ (the tests do not count: a helper only
tests use belongs in tests/support).

A use is read from the source: the name in its own module, `module.name` where the module is
imported, or `from module import name`. What a framework calls by its name is not counted as
unused: a function registered by a decorator (a `docverify` subcommand), pytest's hooks in the
plugin, the MkDocs hooks of the adapter.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import docverify

ENGINE = Path(docverify.__file__).parent
HOOKS = ENGINE.parent
ROOT = HOOKS.parent


def _module(path: Path, hooks: Path) -> str:
    parts = path.relative_to(hooks).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _uses(tree: ast.Module, me: str) -> set[tuple[str, str]]:
    """(module, name) for each name `tree` uses: its own, `alias.name` and imported ones."""
    used: set[tuple[str, str]] = set()
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                used.add((node.module, alias.name))
        elif isinstance(node, ast.Import):
            aliases.update({a.asname or a.name: a.name for a in node.names})
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id in aliases:
                used.add((aliases[node.value.id], node.attr))
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            used.add((me, node.id))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            used.add((me, node.value))  # in __all__, or looked up by name
    return used


def _called_by_name(node: ast.stmt, module: str) -> bool:
    """What a framework calls by its name, or a decorator registers."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        if node.decorator_list:
            return True
        if module.endswith("pytest_plugin") and node.name.startswith("pytest_"):
            return True
        if module == "mkdocs_hooks" and node.name.startswith("on_"):
            return True
    return False


def _defined(node: ast.stmt) -> list[str]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [t.id for t in node.targets if isinstance(t, ast.Name)]
    return []


def unused(hooks: Path = HOOKS, users: tuple[Path, ...] = ()) -> list[str]:
    """«file:line name» for each top-level definition under `hooks` that nothing under `hooks`
    nor in `users` (other files, such as tasks.py and tools/) uses."""
    engine = sorted(hooks.rglob("*.py"))
    used: dict[tuple[str, str], int] = defaultdict(int)
    trees = {}
    for path in [*engine, *users]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        me = _module(path, hooks) if path.is_relative_to(hooks) else path.stem
        trees[path] = (tree, me)
        for pair in _uses(tree, me):
            used[pair] += 1
    found = []
    for path in engine:
        tree, me = trees[path]
        for node in tree.body:
            if _called_by_name(node, me):
                continue
            for name in _defined(node):
                if not name.startswith("__") and not used[(me, name)]:
                    where = path.relative_to(hooks).as_posix()
                    found.append(f"{where}:{node.lineno} {name}")
    return found


def test_every_definition_of_the_engine_is_used_outside_the_tests() -> None:
    users = (ROOT / "tasks.py", *sorted((ROOT / "tools").glob("*.py")))
    assert len(list(ENGINE.rglob("*.py"))) > 50  # the engine was found
    found = unused(HOOKS, users)
    assert not found, (
        "código del motor que nada usa fuera de las pruebas (quítalo, o llévalo a "
        "tests/support si solo lo usan ellas):\n" + "\n".join(found)
    )


def test_an_unused_definition_is_found(tmp_path: Path) -> None:
    """The measure itself: a function nobody calls, one called only in its module, one
    imported, one called through its module, a registered one and a constant."""
    engine = tmp_path / "docverify"
    (engine / "cli").mkdir(parents=True)
    (engine / "texto.py").write_text(
        "LIMITE = 3\n\n\n"
        "def suelta():\n    return 1\n\n\n"
        "def propia():\n    return 2\n\n\n"
        "def importada():\n    return propia()\n\n\n"
        "def por_modulo():\n    return 4\n",
        encoding="utf-8",
    )
    (engine / "cli" / "orden.py").write_text(
        "from docverify import texto\n"
        "from docverify.texto import importada\n\n\n"
        "@registra\n"
        "def _orden():\n"
        "    return importada() + texto.por_modulo()\n",
        encoding="utf-8",
    )
    assert unused(tmp_path) == ["docverify/texto.py:1 LIMITE", "docverify/texto.py:4 suelta"]
    tool = tmp_path / "herramienta.py"
    tool.write_text("from docverify.texto import LIMITE\n", encoding="utf-8")
    assert unused(tmp_path, (tool,)) == ["docverify/texto.py:4 suelta"]
