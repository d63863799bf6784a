"""The functions one executed block passes through from Markdown to HTML (not a test).

    .venv/bin/python tools/block_path.py [--generator mkdocs|zensical|both]

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
"""

from __future__ import annotations

import argparse
import dataclasses
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


class Tracer:
    def __init__(self) -> None:
        self.found: dict[tuple[str, str], None] = {}

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        code = frame.f_code
        path = Path(code.co_filename)
        if event not in ("call", "return") or HOOKS not in path.parents:
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
            where = path.relative_to(HOOKS).as_posix()
            self.found[(where, code.co_qualname)] = None


def _accessor(frame: FrameType) -> bool:
    """A property (or a dataclass's generated method) of the object it is called on."""
    owner = frame.f_locals.get("self")
    if owner is None:
        return False
    member = getattr(type(owner), frame.f_code.co_name, None)
    return isinstance(member, property) or (dataclasses.is_dataclass(owner) and member is None)


def traced(run: Any) -> list[tuple[str, str]]:
    tracer = Tracer()
    sys.setprofile(tracer)
    try:
        run()
    finally:
        sys.setprofile(None)
    return list(tracer.found)


def in_child(root: Path) -> list[tuple[str, str]]:
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


def build(generator: str, root: Path) -> list[tuple[str, str]]:
    os.environ.update(DOCVERIFY_RUNNER="cpu", DOCVERIFY_CACHE="0", NO_MKDOCS_2_WARNING="1")
    os.chdir(root)
    if generator == "mkdocs":
        from mkdocs.commands import build as mkdocs_build  # noqa: PLC0415
        from mkdocs.config import load_config  # noqa: PLC0415

        config = load_config(str(root / "mkdocs.yml"), site_dir=str(root / "site"))
        return traced(lambda: mkdocs_build.build(config))
    from docverify.running import executor as executor_mod  # noqa: PLC0415
    from docverify.zensical import adapter  # noqa: PLC0415

    out = root / "build" / "zensical"
    return traced(lambda: adapter.build(root, out, executor_mod.shared(1), strict=True))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--generator", choices=("mkdocs", "zensical", "both"), default="both")
    args = parser.parse_args(argv)
    generators = ("mkdocs", "zensical") if args.generator == "both" else (args.generator,)
    with tempfile.TemporaryDirectory() as tmp:
        child_side = in_child(project(Path(tmp) / "child"))
        for generator in generators:
            found = build(generator, project(Path(tmp) / generator))
            found += [f for f in child_side if f not in found]
            files = sorted({where for where, _ in found})
            print(f"## {generator}: {len(found)} funciones en {len(files)} archivos")
            for name in files:
                functions = [f for where, f in found if where == name]
                print(f"- {name}: {', '.join(functions)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
