"""Names a notebook cell would take from the wrong block: the notebook has one namespace.

The engine runs each block in its session's namespace (a block without `session=` in a fresh
one), so a block of session S reads the names that S's blocks bound. The article's notebook
(output/notebooks.py) runs every cell in the kernel's one namespace: a block of another session,
or one without a session, that binds the same name between them hands the later block its own
value instead. The page shows one output and the downloaded notebook prints another, or fails;
only running the notebook would tell. This check tells it from the code, with the line of the
block whose name takes the other's place.

What a block reads: the names it uses at its top level (comprehensions and class bodies
included) that it does not bind itself, and the global names read by the body of each function
it calls that an earlier block of its session defined (at call time, as Python reads them).
Two bindings are the same when both import the same thing (`import torch` twice is harmless);
any other binding belongs to its block. A block without a session reads nothing from earlier
blocks in the engine (a name it does not bind fails there), except Python's builtins: a cell
that rebinds `list` or `sum` breaks a later block that uses them.
"""

from __future__ import annotations

import ast
import builtins
import symtable
from dataclasses import dataclass, field

from docverify.core.config import Config
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing.pages import Block, Page

_BUILTINS = frozenset(dir(builtins))
# The scopes symtable makes for comprehensions (of type "function", like a def's): their body
# runs where it stands, unlike a def's or a lambda's.
_COMPREHENSIONS = frozenset({"listcomp", "setcomp", "dictcomp", "genexpr"})


@dataclass
class _Code:
    """What one block binds (name → identity), reads, and what its functions read."""

    binds: dict[str, str]
    reads: set[str]  # used at the top level and not bound there
    used: set[str]  # every name used at the top level, bound there or not
    calls: dict[str, set[str]] = field(default_factory=dict)  # function name → globals it reads


def check(config: Config, page: Page) -> list[Finding]:
    """A finding for each block whose name a later block of a session would get in the notebook
    instead of its session's own (first reader only)."""
    where = config.rel(page.path)
    kernel: dict[str, tuple[str, Block]] = {}  # the notebook: name → (identity, block)
    sessions: dict[str, dict[str, tuple[str, Block]]] = {}
    functions: dict[str, set[str]] = {}  # identity of a function → globals its body reads
    found: dict[tuple[str, str], Finding] = {}
    for block in page.blocks:
        code = _analyse(block)
        if code is None:
            continue
        own = sessions.setdefault(block.session, {})  # no session: None's, never written
        for name in sorted(_reads(code, own, functions)):
            here, there = own.get(name), kernel.get(name)
            if here is None and name not in _BUILTINS:
                continue  # the engine has none to give either: the block fails there too
            if (here and here[0]) == (there and there[0]) or there is None:
                continue
            other = there[1]
            found.setdefault((other.id, name), _finding(where, block, other, name, here))
        for name, identity in code.binds.items():
            value = (identity, block)
            kernel[name] = value
            if block.session:
                own[name] = value
            if name in code.calls:
                functions[value[0]] = code.calls[name]
    return list(found.values())


def _reads(
    code: _Code, own: dict[str, tuple[str, Block]], functions: dict[str, set[str]]
) -> set[str]:
    """The names a block reads from before it: its own, and the globals read by each function
    it uses (its own, or its session's: at call time, as Python reads them), followed through
    the functions those use."""
    reads, todo, seen = set(code.reads), list(code.used), set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if name in code.calls:
            inner = code.calls[name]
        elif name in own and name not in code.binds:
            inner = functions.get(own[name][0], set())
        else:
            continue
        reads |= inner - code.binds.keys()
        todo += inner
    return reads


def _analyse(block: Block) -> _Code | None:
    """The block's bindings and reads, or None when it does not parse (fence_checks says so)."""
    try:
        table = symtable.symtable(block.code, block.id, "exec")
        tree = ast.parse(block.code)
    except (SyntaxError, ValueError):
        return None
    imported = _imports(tree)
    binds: dict[str, str] = {}
    used: set[str] = set()
    for symbol in table.get_symbols():
        name = symbol.get_name()
        if symbol.is_imported() or symbol.is_assigned() or symbol.is_namespace():
            binds[name] = imported.get(name) or f"{block.key}:{name}"
        if symbol.is_referenced():
            used.add(name)
    reads = used - binds.keys()
    calls: dict[str, set[str]] = {}
    for child in table.get_children():
        inner = _globals_read(child)
        if child.get_type() == "function" and child.get_name() in binds:
            calls[child.get_name()] = inner
        elif child.get_type() == "class" or child.get_name() in _COMPREHENSIONS:  # run now
            reads |= inner - binds.keys()
            used |= inner
    return _Code(binds, reads, used, calls)


def _globals_read(table: symtable.SymbolTable) -> set[str]:
    """The global names a scope and the scopes inside it read."""
    names = {s.get_name() for s in table.get_symbols() if s.is_global() and s.is_referenced()}
    for child in table.get_children():
        names |= _globals_read(child)
    return names


def _imports(tree: ast.Module) -> dict[str, str]:
    """Top-level name → what it imports («torch», «torch.nn:Linear»)."""
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                found[bound] = alias.name if alias.asname else alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                found[alias.asname or alias.name] = f"{node.module}:{alias.name}"
    return found


def _finding(
    where: str, reader: Block, other: Block, name: str, here: tuple[str, Block] | None
) -> Finding:
    source = f"del bloque «{here[1].id}»" if here else "de Python"
    session = f"de la sesión «{reader.session}»" if reader.session else "sin sesión"
    return Finding(
        Kind.NOTEBOOK_NAME_CLASH,
        f"el bloque «{other.id}» define «{name}», y en el cuaderno del artículo ese valor "
        f"tapa el que el bloque «{reader.id}» ({session}) lee {source}: la página y el cuaderno "
        "imprimirían cosas distintas. En el cuaderno, todas las celdas comparten los nombres.",
        where,
        other.fence_line,
        f"cambia el nombre «{name}» en el bloque «{other.id}» o pon ese bloque en la misma sesión.",
    )
