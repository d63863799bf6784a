"""The engine's layers: every import between its parts points down, so no two parts need each other.

The order is the layer table «Capas del motor» of docs-dev/motor.md; this test reads that table,
measures the imports of hooks/docverify/ from their source (imports under `if TYPE_CHECKING:`
aside: they never run) and fails on any import of a part at the same level or above. A part is a
sub-package (`verifying/`) or a top-level module (`build.py`).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import docverify

ENGINE = Path(docverify.__file__).parent
MOTOR_DOC = ENGINE.parents[1] / "docs-dev" / "motor.md"
_ROW = re.compile(r"^\|\s*(?P<level>\d+)\s*\|(?P<parts>[^|]+)\|")


def layers(doc: str = MOTOR_DOC.read_text(encoding="utf-8")) -> dict[str, int]:
    """Part → level (1 at the bottom), from the «Capas del motor» table of docs-dev/motor.md."""
    section = doc.split("### Capas del motor", 1)[1].split("\n#", 1)[0]
    found: dict[str, int] = {}
    for line in section.splitlines():
        if match := _ROW.match(line):
            for part in re.findall(r"`([a-z_]+)(?:/|\.py)?`", match.group("parts")):
                found[part] = int(match.group("level"))
    return found


def parts() -> set[str]:
    """The engine's parts: its sub-packages and its top-level modules."""
    return {
        p.name if p.is_dir() else p.stem
        for p in ENGINE.iterdir()
        if (p.is_dir() and (p / "__init__.py").is_file())
        or (p.suffix == ".py" and p.stem != "__init__")
    }


def _type_checking_only(tree: ast.Module) -> set[int]:
    return {
        id(node)
        for branch in ast.walk(tree)
        if isinstance(branch, ast.If) and "TYPE_CHECKING" in ast.unparse(branch.test)
        for node in ast.walk(branch)
    }


def imports(engine: Path = ENGINE) -> list[tuple[str, str, str]]:
    """(importing part, imported part, file:line) for every import between two engine parts."""
    known = parts()
    found = []
    for path in sorted(engine.rglob("*.py")):
        rel = path.relative_to(engine)
        here = rel.parts[0] if len(rel.parts) > 1 else rel.stem
        if here == "__init__":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_checking_only(tree)
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.ImportFrom) and node.module:
                # `from docverify import cli` names the part in the imported name.
                whole = node.module == "docverify"
                names = [f"docverify.{a.name}" for a in node.names] if whole else [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                bits = name.split(".")
                inside = bits[0] == "docverify" and len(bits) > 1
                if inside and bits[1] in known and bits[1] != here:
                    found.append((here, bits[1], f"{rel.as_posix()}:{node.lineno}"))
    return found


def test_every_part_has_a_layer_in_the_table() -> None:
    assert sorted(parts() - set(layers())) == [], "partes del motor sin capa en docs-dev/motor.md"
    assert sorted(set(layers()) - parts()) == [], "capas de docs-dev/motor.md que ya no existen"


def test_every_import_points_down() -> None:
    level = layers()
    found = imports()
    assert len(found) > 50, f"la búsqueda de importaciones encontró muy pocas: {len(found)}"
    upward = [
        f"{where}: {here} (capa {level[here]}) importa {there} (capa {level[there]})"
        for here, there, where in found
        if level[there] >= level[here]
    ]
    listed = "\n".join(upward)
    assert not upward, f"importaciones hacia arriba o entre partes de una capa:\n{listed}"


def test_no_two_parts_import_each_other() -> None:
    """What the layers imply, measured without them: a cycle is found even if the table moves."""
    edges = {(here, there) for here, there, _ in imports()}
    graph: dict[str, set[str]] = {}
    for here, there in edges:
        graph.setdefault(here, set()).add(there)

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(
            nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt}))
            for nxt in graph.get(start, ())
        )

    cycles = sorted(p for p in graph if reaches(p, p, {p}))
    assert not cycles, f"partes del motor en un ciclo de importaciones: {cycles}"


def test_an_upward_import_is_found(tmp_path: Path) -> None:
    """The measure itself: a copy of the engine with one upward import added is caught."""
    copy = tmp_path / "docverify"
    for path in ENGINE.rglob("*.py"):
        target = copy / path.relative_to(ENGINE)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    (copy / "core" / "markdown.py").write_text(
        "from docverify.output import panel\n", encoding="utf-8"
    )
    found = {(h, t) for h, t, _ in imports(copy)}
    assert ("core", "output") in found
    assert ("core", "output") not in {(h, t) for h, t, _ in imports()}


def module_imports(engine: Path = ENGINE) -> dict[str, set[str]]:
    """Module → the engine modules it imports, every import counted: under `if TYPE_CHECKING:`
    and inside functions too (a cycle that only type hints close is still two modules that
    need each other). `from docverify.a import b` imports the module a.b when there is one."""
    names = {}
    for path in engine.rglob("*.py"):
        rel = path.relative_to(engine).with_suffix("").parts
        name = ".".join(("docverify", *rel)).removesuffix(".__init__")
        names[name] = path
    graph: dict[str, set[str]] = {name: set() for name in names}
    for name, path in names.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                wanted = [f"{node.module}.{a.name}" for a in node.names] or [node.module]
                wanted = [w if w in names else node.module for w in wanted]
            elif isinstance(node, ast.Import):
                wanted = [a.name for a in node.names]
            else:
                continue
            for imported in wanted:
                target = imported
                while target and target not in names:
                    target = target.rpartition(".")[0]
                if target and target not in (name, "docverify"):
                    graph[name].add(target)
    return graph


def module_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every group of modules that import each other, directly or through others."""
    order: list[str] = []
    seen: set[str] = set()

    def visit(start: str, edges: dict[str, set[str]], out: list[str]) -> None:
        stack = [(start, iter(sorted(edges.get(start, ()))))]
        seen.add(start)
        while stack:
            node, rest = stack[-1]
            nxt = next((n for n in rest if n not in seen), None)
            if nxt is None:
                stack.pop()
                out.append(node)
            else:
                seen.add(nxt)
                stack.append((nxt, iter(sorted(edges.get(nxt, ())))))

    for node in sorted(graph):
        if node not in seen:
            visit(node, graph, order)
    reverse: dict[str, set[str]] = {}
    for here, there in ((h, t) for h, ts in graph.items() for t in ts):
        reverse.setdefault(there, set()).add(here)
    seen.clear()
    groups = []
    for node in reversed(order):
        if node not in seen:
            group: list[str] = []
            visit(node, reverse, group)
            if len(group) > 1:
                groups.append(sorted(group))
    return groups


def test_no_two_modules_import_each_other() -> None:
    """No cycle between the engine's modules, not even through imports for type hints only."""
    graph = module_imports()
    assert sum(len(v) for v in graph.values()) > 100, "muy pocas importaciones encontradas"
    cycles = module_cycles(graph)
    assert not cycles, f"módulos del motor en un ciclo de importaciones: {cycles}"


def test_a_cycle_under_type_checking_is_found(tmp_path: Path) -> None:
    """The measure itself: parsing/frontmatter.py importing parsing/pages.py for a type hint
    only (pages imports frontmatter) is a cycle."""
    copy = tmp_path / "docverify"
    for path in ENGINE.rglob("*.py"):
        target = copy / path.relative_to(ENGINE)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    hint = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from docverify.parsing.pages import Page\n"
    )
    front = copy / "parsing" / "frontmatter.py"
    front.write_text(front.read_text(encoding="utf-8") + hint, encoding="utf-8")
    cycles = module_cycles(module_imports(copy))
    assert any(
        {"docverify.parsing.pages", "docverify.parsing.frontmatter"} <= set(c) for c in cycles
    )


# What decides a verdict (the comparison, the baselines, the judge): output/ shows verdicts and
# never decides them, so it imports none of these, not even for a type (STYLE.md, «One way
# through»: a renderer that compares again has become a second judge).
DECIDES = ("verifying.compare", "verifying.baselines", "verifying.judge")


def deciders_in_output(engine: Path = ENGINE) -> list[str]:
    """«file:line imports module» for every import of a DECIDES module under output/."""
    found = []
    for path in sorted((engine / "output").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                if any(
                    name == f"docverify.{d}" or name.startswith(f"docverify.{d}.") for d in DECIDES
                ):
                    where = path.relative_to(engine).as_posix()
                    found.append(f"{where}:{node.lineno} importa {name}")
    return found


def test_output_never_decides_a_verdict() -> None:
    found = deciders_in_output()
    assert not found, "output/ importa lo que decide un veredicto:\n" + "\n".join(found)


def test_a_decider_imported_by_output_is_found(tmp_path: Path) -> None:
    """The measure itself: output/ with `from docverify.verifying import compare` is caught."""
    copy = tmp_path / "docverify"
    (copy / "output").mkdir(parents=True)
    for path in (ENGINE / "output").glob("*.py"):
        (copy / "output" / path.name).write_text(path.read_text(encoding="utf-8"), "utf-8")
    (copy / "output" / "render.py").write_text(
        "from docverify.verifying import compare\n", encoding="utf-8"
    )
    assert deciders_in_output(copy) == ["output/render.py:1 importa docverify.verifying.compare"]
