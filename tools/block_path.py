"""The functions one executed block passes through from Markdown to HTML (not a test).

    .venv/bin/python tools/block_path.py [--generator mkdocs|zensical|both|markdown-exec]

A one-page project with one block (`print(424242)`) is built in this process by each generator
(MkDocs with the project's hook, `docverify zensical build`), every block really run (no
cache), while a profiler notes each engine function (hooks/) called with the block's data as an
argument or returned by it: its `Block`, `BlockSpec`, `BlockResult`, `Observation`, `Verdict`,
`Outcome`, `ShownBlock`, its page as the render gives it (`Shown`), or a text that holds its
code or its output (the page's Markdown, its HTML).
Properties and methods a dataclass generates are left out (they read a field; nothing passes
through them). The block runs in a page process of the fork server: those functions are noted
by running the same child functions here (`child.run_block` on the block's spec). Prints the
functions of each generator, by file, and how many; docs-dev/motor.md lists them.

Also printed, per generator: the lines of those functions (not blank, not a comment, not the
docstring) by layer of the engine (its first folder under docverify/; the adapters' files
together), and the fewest functions that could hold them if each were at the size limit
(60 lines) and none mixed two layers: the floor of any count of this kind.
`--generator markdown-exec` measures markdown-exec by the same rule (its plugin builds the
same page, with `source="above"` so that it shows the code as the engine does; its package in
place of hooks/), the reference the engine's count is compared with.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import math
import os
import sys
import tempfile
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HOOKS = ROOT / "hooks"
sys.path.insert(0, str(HOOKS))
MARK = "424242"
PAGE = f"""\
# Un bloque

Texto.

```python exec="on" id="marca"
print({MARK})
```
"""
PYPROJECT = """\
[project]
name = "camino"
version = "0"

[tool.docverify]
docs_dir = "docs"
snippets_dir = "snippets"
"""
MKDOCS_YML = """\
site_name: Camino
docs_dir: docs
theme:
  name: mkdocs
plugins: []
hooks:
  - {hook}
markdown_extensions:
  - admonition
  - attr_list
  - md_in_html
  - pymdownx.superfences
  - pymdownx.tabbed:
      alternate_style: true
nav:
  - bloque.md
"""
TYPES = {
    "Block",
    "BlockSpec",
    "BlockResult",
    "Observation",
    "Verdict",
    "Outcome",
    "ShownBlock",
    "Shown",
}


def project(root: Path) -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "snippets/bloque").mkdir(parents=True)
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    hook = (HOOKS / "mkdocs_hooks.py").as_posix()
    (root / "mkdocs.yml").write_text(MKDOCS_YML.format(hook=hook), encoding="utf-8")
    (root / "docs/bloque.md").write_text(PAGE, encoding="utf-8")
    recording = f"# docverify: grabación\n# ----\n{MARK}\n"
    (root / "snippets/bloque/marca.cpu.txt").write_text(recording, encoding="utf-8")
    return root


def holds_block(value: Any, depth: int = 0) -> bool:
    """Whether `value` is the block's data (see the module's text)."""
    if isinstance(value, str):
        return MARK in value
    if type(value).__name__ in TYPES:
        return True
    if depth < 1 and isinstance(value, (list, tuple)) and len(value) < 50:
        return any(holds_block(v, depth + 1) for v in value)
    if depth < 1 and isinstance(value, dict) and len(value) < 50:  # a spec, a result (TypedDict)
        return any(holds_block(v, depth + 1) for v in value.values())
    return False


SIZE_LIMIT = 60  # lines of a function (docs-dev/motor.md)
MARKDOWN_EXEC_YML = """\
site_name: Camino
docs_dir: docs
theme:
  name: mkdocs
plugins:
  - markdown-exec
markdown_extensions:
  - pymdownx.superfences
nav:
  - bloque.md
"""


@dataclasses.dataclass(frozen=True)
class Found:
    where: str  # the file, relative to the package measured
    name: str  # the function's qualified name
    lines: int  # not blank, not a comment, not the docstring


class Tracer:
    def __init__(self, package: Path = HOOKS) -> None:
        self.package = package
        self.found: dict[tuple[str, str], Found] = {}

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        code = frame.f_code
        path = Path(code.co_filename)
        if event not in ("call", "return") or self.package not in path.parents:
            return
        if code.co_name.startswith(("__", "<")):  # dunders, comprehensions, lambdas
            return
        if event == "call":
            names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
            values = [frame.f_locals.get(n) for n in names]
        else:
            values = [arg]
        if _accessor(frame):
            return
        if any(holds_block(v) for v in values):
            where = path.relative_to(self.package).as_posix()
            if (where, code.co_qualname) not in self.found:
                found = Found(where, code.co_qualname, lines_of(path, code.co_firstlineno))
                self.found[(where, code.co_qualname)] = found


def lines_of(path: Path, first: int) -> int:
    """The lines of the function that starts at line `first` of `path` (its first decorator,
    as a code object counts), less blank lines, comments and its docstring."""
    text = path.read_text(encoding="utf-8")
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if min([node.lineno] + [d.lineno for d in node.decorator_list]) != first:
            continue
        skipped: set[int] = set()
        if ast.get_docstring(node, clean=False) is not None:
            doc = node.body[0]
            skipped = set(range(doc.lineno, (doc.end_lineno or doc.lineno) + 1))
        rows = text.split("\n")[first - 1 : node.end_lineno]
        return sum(
            1
            for number, row in enumerate(rows, first)
            if row.strip() and not row.strip().startswith("#") and number not in skipped
        )
    return 0


def _accessor(frame: FrameType) -> bool:
    """A property (or a dataclass's generated method) of the object it is called on."""
    owner = frame.f_locals.get("self")
    if owner is None:
        return False
    member = getattr(type(owner), frame.f_code.co_name, None)
    return isinstance(member, property) or (dataclasses.is_dataclass(owner) and member is None)


def traced(run: Any, package: Path = HOOKS) -> list[Found]:
    tracer = Tracer(package)
    sys.setprofile(tracer)
    try:
        run()
    finally:
        sys.setprofile(None)
    return list(tracer.found.values())


def in_child(root: Path) -> list[Found]:
    """The child side: the block's spec run by the functions a page process runs it with."""
    from docverify.core import config as config_mod  # noqa: PLC0415
    from docverify.parsing.pages import read_site  # noqa: PLC0415
    from docverify.running import child  # noqa: PLC0415
    from docverify.running.specs import spec  # noqa: PLC0415

    cfg = config_mod.load(root)
    (block,) = [b for p in read_site(cfg) for b in p.blocks]
    block_spec = spec(cfg, block)
    cwd = Path.cwd()
    os.chdir(tempfile.mkdtemp())
    try:
        return traced(lambda: child.run_block(block_spec, {}, child.Streams()))
    finally:
        os.chdir(cwd)


def build(generator: str, root: Path) -> list[Found]:
    os.environ.update(DOCVERIFY_RUNNER="cpu", DOCVERIFY_CACHE="0", NO_MKDOCS_2_WARNING="1")
    os.chdir(root)
    if generator in ("mkdocs", "markdown-exec"):
        from mkdocs.commands import build as mkdocs_build  # noqa: PLC0415
        from mkdocs.config import load_config  # noqa: PLC0415

        package = HOOKS
        if generator == "markdown-exec":
            import markdown_exec  # noqa: PLC0415

            package = Path(markdown_exec.__file__).resolve().parent
            (root / "mkdocs.yml").write_text(MARKDOWN_EXEC_YML, encoding="utf-8")
            # The engine shows a block's code above its output unless told otherwise
            # (output/blocks.py, DEFAULT_LAYOUT); markdown-exec shows only the output.
            page = root / "docs/bloque.md"
            page.write_text(PAGE.replace('id="marca"', 'source="above"'), encoding="utf-8")
        config = load_config(str(root / "mkdocs.yml"), site_dir=str(root / "site"))
        return traced(lambda: mkdocs_build.build(config), package)
    from docverify.running import executor as executor_mod  # noqa: PLC0415
    from docverify.zensical import adapter  # noqa: PLC0415

    out = root / "build" / "zensical"
    return traced(lambda: adapter.build(root, out, executor_mod.shared(1), strict=True))


def layer(where: str) -> str:
    """The engine's layer of a file (its folder under docverify/; the adapters together)."""
    parts = where.split("/")
    if parts[0] != "docverify" or len(parts) < 3 or parts[1] == "zensical":
        return "adaptadores"
    return parts[1]


def floor(found: list[Found]) -> list[tuple[str, int, int]]:
    """Per layer: its functions' lines and the fewest functions of SIZE_LIMIT lines that hold
    them (none mixing two layers)."""
    lines: dict[str, int] = {}
    for f in found:
        lines[layer(f.where)] = lines.get(layer(f.where), 0) + f.lines
    return [(name, n, math.ceil(n / SIZE_LIMIT)) for name, n in sorted(lines.items())]


def report(generator: str, found: list[Found]) -> None:
    files = sorted({f.where for f in found})
    print(f"## {generator}: {len(found)} funciones en {len(files)} archivos")
    for name in files:
        print(f"- {name}: {', '.join(f.name for f in found if f.where == name)}")
    if generator == "markdown-exec":
        print(f"{sum(f.lines for f in found)} líneas")
        return
    layers = floor(found)
    print(
        f"{sum(n for _, n, _ in layers)} líneas; con funciones de {SIZE_LIMIT} líneas, "
        f"una capa cada una, al menos {sum(least for *_, least in layers)} funciones: "
        + ", ".join(f"{name} {n} ({least})" for name, n, least in layers)
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    choices = ("mkdocs", "zensical", "both", "markdown-exec")
    parser.add_argument("--generator", choices=choices, default="both")
    args = parser.parse_args(argv)
    generators = ("mkdocs", "zensical") if args.generator == "both" else (args.generator,)
    with tempfile.TemporaryDirectory() as tmp:
        child_side = (
            [] if generators == ("markdown-exec",) else in_child(project(Path(tmp) / "child"))
        )
        for generator in generators:
            found = build(generator, project(Path(tmp) / generator))
            if generator != "markdown-exec":
                seen = {(f.where, f.name) for f in found}
                found += [f for f in child_side if (f.where, f.name) not in seen]
            report(generator, found)
    return 0


if __name__ == "__main__":
    sys.exit(main())
