"""One name per thing in the engine: the table «Un nombre para cada cosa» of docs-dev/motor.md.

Measured from the source of hooks/docverify/ (and the MkDocs adapter, for imports): each name of
the table is defined (a top-level function or class) only in its module; no two modules have one
file name; no two classes one name; and a module is imported under another name only where its
own name is bound to something else in that file, as `<name>_mod`, with a comment that says why
on that line or the one above. Each failure names the file and the line.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import docverify

ENGINE = Path(docverify.__file__).parent
ADAPTER = ENGINE.parent / "mkdocs_hooks.py"
MOTOR_DOC = ENGINE.parents[1] / "docs-dev" / "motor.md"
_ROW = re.compile(r"^\|[^|]+\|\s*`(?P<name>\w+)`\s*\|\s*`(?P<module>[\w/]+\.py)`\s*\|$")


def table(doc: str = MOTOR_DOC.read_text(encoding="utf-8")) -> dict[str, str]:
    """Name → the module that defines it, from the table «Un nombre para cada cosa»."""
    section = doc.split("### Un nombre para cada cosa", 1)[1].split("\n#", 1)[0]
    return {m["name"]: m["module"] for line in section.splitlines() if (m := _ROW.match(line))}


def _modules(engine: Path) -> list[Path]:
    return sorted(engine.rglob("*.py"))


def definitions(engine: Path = ENGINE) -> dict[str, list[str]]:
    """Top-level function or class name → «module:line» of each definition in the engine."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in _modules(engine):
        where = path.relative_to(engine).as_posix()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                found[node.name].append(f"{where}:{node.lineno}")
    return found


def misplaced(names: dict[str, str], engine: Path = ENGINE) -> list[str]:
    """Each definition of a name of the table outside its module, and each name it lacks."""
    defined = definitions(engine)
    wrong = []
    for name, module in sorted(names.items()):
        places = defined.get(name, [])
        if not any(p.rpartition(":")[0] == module for p in places):
            wrong.append(f"{module}: no define «{name}»")
        wrong += [
            f"{p} define «{name}», que es de {module}"
            for p in places
            if not p.startswith(f"{module}:")
        ]
    return wrong


def shared_file_names(engine: Path = ENGINE) -> list[str]:
    """Each engine module whose file name another module has too (`__init__.py` aside)."""
    by_name: dict[str, list[str]] = defaultdict(list)
    for path in _modules(engine):
        if path.name != "__init__.py":
            by_name[path.name].append(path.relative_to(engine).as_posix())
    return [", ".join(paths) for paths in by_name.values() if len(paths) > 1]


def shared_class_names(engine: Path = ENGINE) -> list[str]:
    """Each public class name that more than one engine module defines, with where."""
    return [
        f"{name}: {', '.join(places)}"
        for name, places in sorted(definitions(engine).items())
        if len(places) > 1 and name[0].isupper() and _is_class(engine, places[0])
    ]


def _is_class(engine: Path, place: str) -> bool:
    module, _, line = place.rpartition(":")
    tree = ast.parse((engine / module).read_text(encoding="utf-8"))
    return any(isinstance(n, ast.ClassDef) and n.lineno == int(line) for n in tree.body)


def _bound(tree: ast.Module) -> set[str]:
    """Every name the file binds other than by importing it under that name."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)  # a field of the module's class (Source.fingerprint)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def renamed_imports(paths: list[Path], engine: Path = ENGINE) -> list[str]:
    """«file:line what» for each engine module imported under another name without a reason:
    nothing else in the file has its name, the other name is not `<name>_mod`, or no comment on
    the import's line or the line above says why."""
    modules = {
        ".".join(("docverify", *p.relative_to(engine).with_suffix("").parts))
        for p in _modules(engine)
    }
    found = []
    for path in paths:
        where = path.relative_to(engine.parent).as_posix()
        text = path.read_text(encoding="utf-8")
        lines, tree = text.splitlines(), ast.parse(text)
        bound = _bound(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                pairs = [(f"{node.module}.{a.name}", a) for a in node.names]
            elif isinstance(node, ast.Import):
                pairs = [(a.name, a) for a in node.names]
            else:
                continue
            for module, alias in pairs:
                name = module.rpartition(".")[2]
                if module not in modules or alias.asname in (None, name):
                    continue
                above = lines[alias.lineno - 2].strip() if alias.lineno > 1 else ""
                said = "#" in lines[alias.lineno - 1] or above.startswith("#")
                why = [
                    *([f"nada más se llama {name}"] if name not in bound else []),
                    *([f"no se llama {name}_mod"] if alias.asname != f"{name}_mod" else []),
                    *(["sin comentario que diga por qué"] if not said else []),
                ]
                if why:
                    found.append(
                        f"{where}:{alias.lineno} {name} as {alias.asname}: {'; '.join(why)}"
                    )
    return found


def test_each_name_of_the_table_is_defined_in_its_module_alone() -> None:
    names = table()
    assert len(names) > 10, f"la tabla «Un nombre para cada cosa» tiene muy pocas filas: {names}"
    wrong = misplaced(names)
    assert not wrong, "nombres de docs-dev/motor.md fuera de su módulo:\n" + "\n".join(wrong)


def test_no_two_engine_modules_share_a_file_name() -> None:
    shared = shared_file_names()
    assert not shared, "módulos del motor con el mismo nombre de archivo:\n" + "\n".join(shared)


def test_no_two_engine_classes_share_a_name() -> None:
    shared = shared_class_names()
    assert not shared, "clases del motor con el mismo nombre:\n" + "\n".join(shared)


def test_a_module_is_renamed_on_import_only_where_its_name_clashes() -> None:
    found = renamed_imports([*_modules(ENGINE), ADAPTER])
    assert not found, "módulos del motor importados con otro nombre sin motivo:\n" + "\n".join(
        found
    )


def test_each_measure_finds_its_mistake(tmp_path: Path) -> None:
    """The measures themselves, on a small engine with one mistake of each kind."""
    engine = tmp_path / "docverify"
    for folder in ("verifying", "site", "core", "cli"):
        (engine / folder).mkdir(parents=True)
    (engine / "core" / "config.py").write_text("class Config:\n    pass\n", encoding="utf-8")
    (engine / "verifying" / "judge.py").write_text("def judge():\n    pass\n", encoding="utf-8")
    (engine / "site" / "checks.py").write_text(
        "class Config:\n    pass\n\n\ndef judge():\n    pass\n", encoding="utf-8"
    )
    (engine / "cli" / "checks.py").write_text(
        "from docverify.core import config as cfg_mod  # clash\n"
        "from docverify.core import config as config_mod\n"
        "from docverify.verifying import judge as judge_mod  # clash\n"
        "from docverify.site import checks as checks_mod  # clash\n"
        "config = cfg_mod.load()\n"
        "def judge(checks_mod):\n"
        "    return config_mod, judge_mod\n",
        encoding="utf-8",
    )
    names = {"judge": "verifying/judge.py", "Config": "core/config.py", "Plan": "report/accept.py"}
    assert misplaced(names, engine) == [
        "site/checks.py:1 define «Config», que es de core/config.py",
        "report/accept.py: no define «Plan»",
        "cli/checks.py:6 define «judge», que es de verifying/judge.py",
        "site/checks.py:5 define «judge», que es de verifying/judge.py",
    ]
    assert shared_file_names(engine) == ["cli/checks.py, site/checks.py"]
    assert shared_class_names(engine) == ["Config: core/config.py:1, site/checks.py:1"]
    assert renamed_imports(sorted((engine / "cli").glob("*.py")), engine) == [
        "docverify/cli/checks.py:1 config as cfg_mod: no se llama config_mod",
        "docverify/cli/checks.py:2 config as config_mod: sin comentario que diga por qué",
        "docverify/cli/checks.py:4 checks as checks_mod: nada más se llama checks",
    ]
