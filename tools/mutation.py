"""Mutation testing of the engine: how many planted one-line bugs its tests catch (mutmut).

    python3 tasks.py mutate PATH…              # engine files or sub-packages (hooks/docverify/…)
    python3 tasks.py mutate --changed main     # the engine files changed since main (git)
    python3 tasks.py mutate --shard 3/24       # one of 24 shards of the engine (the weekly job)
      [--ratchet FILE]   fail when a module kills a smaller share than FILE records
      [--record FILE]    write the measured modules' scores and survivors into FILE
      [--summary FILE]   append a Markdown summary (the weekly job's $GITHUB_STEP_SUMMARY)
    python3 tasks.py mutate --merge FILE… --record OUT   # several shards' records into OUT

tasks.py installs what it needs (mutmut is in pyproject's `dev` group) and runs this file with
the project's Python. Each module is run with its mirrored tests (`tests/<sub-package>/`, or,
where the sub-package has no folder of tests, the test files that import it), without the
`slow` ones (whole site builds, browser), in a staged copy of the working tree under
.cache/mutate/ where the engine is `src/docverify`: mutmut only finds the tests of a mutant when
the mutated package sits in `src/` (it strips that prefix from module names), and the editable
install would otherwise give the tests hooks/docverify, unmutated. [tool.mutmut] in
pyproject.toml holds the fixed settings; this file adds the run's own (which files, which tests,
what to copy). docs-dev/pruebas.md explains the choices and how to read the output.

It prints each mutant that no test killed, with file:line and its diff, each module's score and
one last line `mutation: K/N killed (P %), E equivalent, T s` over the paths given. N counts the
mutants mutmut made; an equivalent mutant (no test could tell it from the original) is marked
where it lives, `# pragma: no mutate; equivalent: <why>`, and counted in E, never in N; a pragma
without its reason is refused. A timeout counts as killed (the tests did not pass).
"""

from __future__ import annotations

import argparse
import ast
import collections
import contextlib
import difflib
import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
ENGINE = "hooks/docverify"
STAGE = ".cache/mutate"  # the staged copy, under the repository (ignored by git)
SOURCE = "src/docverify"  # where the engine sits in the staged copy: hooks/ is copied as src/
RUN_KEYS = ("only_mutate", "pytest_add_cli_args_test_selection", "also_copy")
KILLED = {1, 3, 36, 24, -24, 152, 255, -9, -11}  # failed, pytest error, timeout, killed
TIMEOUT = {36, 24, -24, 152, 255}  # killed by taking too long: shown apart, to be checked
UNCHECKED = "sin comprobar"  # mutmut stopped before it: the measure is incomplete
STATUS = {0: "sobrevive", 5: "sin pruebas", 33: "sin pruebas", 34: "omitido", 35: "sospechoso"}
PRAGMA = re.compile(r"#\s*pragma:\s*no mutate\b(?P<rest>.*)")
REASON = re.compile(r"^(?:\s+(?:block|start))?;\s*equivalent:\s*\S.{8,}")


class Refused(ValueError):
    """A request this command cannot honour, with the reason in Spanish."""


# --- Which modules, which tests ---------------------------------------------------------------


def resolve(paths: Iterable[str], root: Path = ROOT) -> list[str]:
    """The engine modules that `paths` name (files or folders, from the repository root or from
    hooks/docverify/), as sorted repository paths."""
    found: set[str] = set()
    for raw in paths:
        candidates = [root / raw, root / ENGINE / raw]
        path = next((p for p in candidates if p.exists()), None)
        if path is None:
            raise Refused(f"{raw}: no existe (ni en la raíz ni en {ENGINE}/)")
        rel = path.resolve().relative_to(root.resolve()).as_posix()
        if rel != ENGINE and not rel.startswith(f"{ENGINE}/"):
            raise Refused(f"{raw}: no es código del motor ({ENGINE}/)")
        if path.is_dir():
            found.update(p.relative_to(root).as_posix() for p in path.rglob("*.py"))
        elif rel.endswith(".py"):
            found.add(rel)
        else:
            raise Refused(f"{raw}: no es un módulo de Python")
    return sorted(found)


def engine_modules(names: Iterable[str], root: Path = ROOT) -> list[str]:
    """Of the repository paths `names` (git's output), the engine modules that still exist."""
    return sorted(
        {
            n
            for n in (name.strip() for name in names)
            if n.startswith(f"{ENGINE}/") and n.endswith(".py") and (root / n).is_file()
        }
    )


def changed(base: str, root: Path = ROOT) -> list[str]:
    """The engine modules changed since `base`'s merge base with HEAD: committed, staged,
    unstaged or untracked."""

    def git(*args: str) -> list[str]:
        done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise Refused(f"git {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout.splitlines()

    since = git("merge-base", base, "HEAD")[0]
    names = git("diff", "--name-only", since, "--", ENGINE)
    names += git("ls-files", "--others", "--exclude-standard", "--", ENGINE)
    return engine_modules(names, root)


def shard(modules: list[str], index: int, total: int, root: Path = ROOT) -> list[str]:
    """Shard `index` (1 to `total`) of `modules`: ordered by their mirrored tests, then by path,
    and cut into `total` runs of about as many lines each. Contiguous, so that a shard meets
    few sets of tests: mutmut runs each set once more per shard it appears in (its stats)."""
    if not 1 <= index <= total:
        raise Refused(f"--shard {index}/{total}: la parte va de 1 a {total}")
    ordered = sorted(modules, key=lambda m: (_mirror(m, root), m))
    sizes = [len((root / m).read_text(encoding="utf-8").splitlines()) or 1 for m in ordered]
    everything = sum(sizes)
    mine, before = [], 0
    for module, size in zip(ordered, sizes, strict=True):
        middle = before + size / 2  # a module goes where its middle line falls
        if min(int(middle * total / everything), total - 1) == index - 1:
            mine.append(module)
        before += size
    return sorted(mine)


def _imports(tree: ast.Module, dotted: str) -> bool:
    parent, _, last = dotted.rpartition(".")
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            if any(a.name == dotted or a.name.startswith(f"{dotted}.") for a in node.names):
                return True
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if node.module == dotted or node.module.startswith(f"{dotted}."):
                return True
            if node.module == parent and any(a.name == last for a in node.names):
                return True
    return False


@functools.cache
def _mirror(module: str, root: Path) -> tuple[str, ...]:
    return tuple(mirror(module, root))


def mirror(module: str, root: Path = ROOT) -> list[str]:
    """The tests of an engine module: tests/<sub-package>/ when that folder exists (the
    repository's rule: tests mirror the engine), else the test files that import the module."""
    parts = PurePosixPath(module).relative_to(ENGINE).parts
    if len(parts) > 1 and (root / "tests" / parts[0]).is_dir():
        return [f"tests/{parts[0]}/"]
    dotted = ".".join(["docverify", *parts]).removesuffix(".py").removesuffix(".__init__")
    return sorted(name for name, tree in _test_files(root) if _imports(tree, dotted))


@functools.cache
def _test_files(root: Path) -> tuple[tuple[str, ast.Module], ...]:
    """Every test file under `root`/tests, parsed once per run."""
    return tuple(
        (path.relative_to(root).as_posix(), ast.parse(path.read_text(encoding="utf-8")))
        for path in sorted((root / "tests").rglob("test_*.py"))
    )


def groups(modules: list[str], root: Path = ROOT) -> dict[tuple[str, ...], list[str]]:
    """The modules by their mirrored tests: one mutmut run each, so that a mutant is judged by
    its module's tests only."""
    found: dict[tuple[str, ...], list[str]] = {}
    for module in modules:
        found.setdefault(_mirror(module, root), []).append(module)
    return found


# --- Equivalent mutants -------------------------------------------------------------------------


def unexplained_pragmas(source: str) -> list[int]:
    """Lines whose `# pragma: no mutate` does not say why the mutants there are equivalent
    (`; equivalent: <why>`); a closing `no mutate end` needs no reason."""
    lines = []
    for number, line in enumerate(source.splitlines(), 1):
        match = PRAGMA.search(line)
        rest = match.group("rest") if match else ""
        if match and not rest.strip().startswith("end") and not REASON.match(rest):
            lines.append(number)
    return lines


def without_pragmas(source: str) -> str:
    """`source` with every `no mutate` pragma disarmed, the rest unchanged."""
    return PRAGMA.sub(lambda m: m.group(0).replace("no mutate", "counted"), source)


# --- Results --------------------------------------------------------------------------------------


@dataclass
class Survivor:
    module: str
    line: int
    mutant: str  # mutmut's name
    status: str
    diff: str

    @property
    def fingerprint(self) -> str:
        """The same change in the same function, whatever its number and line: what the
        ratchet remembers of each survivor."""
        changes = [
            line[0] + line[1:].strip()
            for line in self.diff.splitlines()
            if line[:1] in "+-" and not line.startswith(("+++", "---"))
        ]
        function = self.mutant.rpartition(".")[2].partition("__mutmut_")[0]
        text = "\n".join([self.module, function, *changes])
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


@dataclass
class Module:
    module: str
    mutants: int = 0  # N: the non-equivalent mutants mutmut made
    killed: int = 0
    equivalent: int = 0
    timeouts: list[str] = field(default_factory=list)  # killed ones that ran out of time
    survivors: list[Survivor] = field(default_factory=list)

    @property
    def score(self) -> float:
        return 100.0 * self.killed / self.mutants if self.mutants else 100.0


def function_of(mutant: str) -> tuple[str | None, str]:
    """(class, function) of a mutmut name: `pkg.mod.x_f__mutmut_3`, `pkg.mod.xǁCǁm__mutmut_1`."""
    mangled = mutant.rpartition(".")[2].partition("__mutmut_")[0]
    if mangled.startswith("xǁ"):
        cls, _, name = mangled[2:].partition("ǁ")
        return cls, name
    return None, mangled.removeprefix("x_")


def def_line(source: str, cls: str | None, name: str) -> int:
    """The line of `def name` (a method of `cls`, or a top-level function) in `source`."""
    body = ast.parse(source).body
    if cls is not None:
        body = next(n.body for n in body if isinstance(n, ast.ClassDef) and n.name == cls)
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    return next(n.lineno for n in body if isinstance(n, functions) and n.name == name)


def located(source: str, mutant: str, before: str, after: str, module: str) -> tuple[int, str]:
    """(line in `source`, unified diff) of a mutant, from its function's text before and after
    (mutmut's copies, whose first lines may differ from the module's: comments, decorators)."""
    old, new = before.split("\n"), after.split("\n")
    diff = "\n".join(difflib.unified_diff(old, new, fromfile=module, tofile=module, lineterm=""))
    cls, name = function_of(mutant)
    header = re.compile(rf"\s*(async\s+)?def\s+{re.escape(name)}\b")
    start = next(i for i, line in enumerate(old) if header.match(line))
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    first = next(i1 for tag, i1, _, _, _ in matcher.get_opcodes() if tag != "equal")
    return def_line(source, cls, name) + first - start, diff


def summary_line(modules: list[Module], seconds: float) -> str:
    killed = sum(m.killed for m in modules)
    total = sum(m.mutants for m in modules)
    equivalent = sum(m.equivalent for m in modules)
    share = 100.0 * killed / total if total else 100.0
    return (
        f"mutation: {killed}/{total} killed ({share:.1f} %), {equivalent} equivalent, "
        f"{round(seconds)} s"
    )


# --- The ratchet ----------------------------------------------------------------------------------


def load_scores(path: Path) -> dict:
    """A scores file (`--ratchet`, `--record`): {"format": 1, "modules": {path: record}}."""
    if not path.is_file():
        return {"format": 1, "modules": {}}
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("format") != 1 or not isinstance(data.get("modules"), dict):
        raise Refused(f"{path}: no es un archivo de puntuaciones de formato 1")
    return data


def record(modules: list[Module], scores: dict) -> dict:
    """`scores` with the measured modules' records replaced by today's, the others kept."""
    kept = dict(scores["modules"])
    for m in modules:
        kept[m.module] = {
            "mutants": m.mutants,
            "killed": m.killed,
            "equivalent": m.equivalent,
            "survivors": sorted(s.fingerprint for s in m.survivors),
        }
    return {"format": 1, "modules": dict(sorted(kept.items()))}


@dataclass
class Verdict:
    module: Module
    recorded: dict | None  # None: the module has no recorded score
    new: list[Survivor]  # survivors the record does not list

    @property
    def fell(self) -> bool:
        """Whether the module kills a smaller share than recorded (compared as fractions)."""
        if self.recorded is None:
            return False
        was_killed, was_total = self.recorded["killed"], self.recorded["mutants"]
        now_killed, now_total = self.module.killed, self.module.mutants
        was = (was_killed, was_total) if was_total else (1, 1)
        now = (now_killed, now_total) if now_total else (1, 1)
        return now[0] * was[1] < was[0] * now[1]


def compare(modules: list[Module], scores: dict) -> list[Verdict]:
    """Each measured module against its record: its share of killed mutants and the survivors
    that were not there when it was recorded (the same change in the same function)."""
    verdicts = []
    for m in modules:
        recorded = scores["modules"].get(m.module)
        known = collections.Counter(recorded["survivors"] if recorded else [])
        new = []
        for survivor in m.survivors:
            if known[survivor.fingerprint] > 0:
                known[survivor.fingerprint] -= 1
            else:
                new.append(survivor)
        verdicts.append(Verdict(m, recorded, new))
    return verdicts


def _share(killed: int, total: int) -> str:
    return f"{100.0 * killed / total:.1f} %" if total else "100.0 %"


def verdict_line(v: Verdict) -> str:
    now = _share(v.module.killed, v.module.mutants)
    if v.recorded is None:
        return f"trinquete: {v.module.module}: {now}, sin puntuación registrada"
    was = _share(v.recorded["killed"], v.recorded["mutants"])
    state = "BAJA" if v.fell else "se mantiene o sube"
    return (
        f"trinquete: {v.module.module}: {now} frente a {was} registrado: {state}; "
        f"{len(v.new)} supervivientes nuevos"
    )


_EMPTY = {"format": 1, "modules": {}}
MAX_SUMMARY = 900_000  # GitHub refuses a step summary over 1 MiB


def markdown(verdicts: list[Verdict], title: str) -> str:
    """The summary of a run: a table of the modules, then the new survivors with their diffs."""
    rows = [
        f"## Mutación: {title}",
        "",
        "| Módulo | Mutantes | Muertos | % | Registrado | Equivalentes | Nuevos supervivientes |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for v in verdicts:
        m = v.module
        was = _share(v.recorded["killed"], v.recorded["mutants"]) if v.recorded else "—"
        mark = " ⚠️ baja" if v.fell else ""
        rows.append(
            f"| `{m.module}` | {m.mutants} | {m.killed} | {_share(m.killed, m.mutants)}{mark} "
            f"| {was} | {m.equivalent} | {len(v.new)} |"
        )
    text = "\n".join(rows) + "\n"
    new = [s for v in verdicts for s in v.new]
    if new:
        text += f"\n### Supervivientes nuevos ({len(new)})\n"
    for count, s in enumerate(new):
        block = (
            f"\n<details><summary><code>{s.module}:{s.line}</code> ({s.status})</summary>\n\n"
            f"```diff\n{s.diff}\n```\n\n</details>\n"
        )
        if len(text) + len(block) > MAX_SUMMARY:
            text += f"\n… y {len(new) - count} más (la salida del trabajo los lista todos).\n"
            break
        text += block
    return text


# --- The run --------------------------------------------------------------------------------------


def tree_files(root: Path = ROOT) -> list[str]:
    """The working tree's files as git sees them: tracked and untracked, not ignored."""
    done = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=root,
        capture_output=True,
        check=True,
    )
    names = [n for n in done.stdout.decode("utf-8").split("\0") if n]
    return sorted({n for n in names if (root / n).is_file()})


def settings(pyproject: str, modules: list[str], tests: list[str], copy: list[str]) -> str:
    """pyproject.toml's text with this run's keys added to [tool.mutmut]."""
    header = re.search(r"^\[tool\.mutmut\][ \t]*\n", pyproject, re.M)
    if header is None:
        raise Refused("pyproject.toml no tiene la sección [tool.mutmut]")
    section = pyproject[header.end() :].split("\n[", 1)[0]
    taken = [k for k in RUN_KEYS if re.search(rf"^{k}\s*=", section, re.M)]
    if taken:
        raise Refused(f"[tool.mutmut] no debe fijar {', '.join(taken)}: los pone cada ejecución")
    only = [f"{SOURCE}/{PurePosixPath(m).relative_to(ENGINE)}" for m in modules]
    added = "".join(
        f"{key} = {json.dumps(value)}\n"
        for key, value in zip(RUN_KEYS, (only, tests, copy), strict=True)
    )
    return pyproject[: header.end()] + added + pyproject[header.end() :]


def stage(modules: list[str], tests: list[str], root: Path = ROOT) -> Path:
    """A fresh copy of the working tree in .cache/mutate/, with hooks/ also as src/ (the
    engine in src/docverify) and pyproject.toml's [tool.mutmut] completed for `modules` and
    `tests`."""
    where = root / STAGE
    if where.exists():
        shutil.rmtree(where)
    for name in tree_files(root):
        targets = [where / name]
        if name.startswith("hooks/"):  # the engine and, beside it, the MkDocs adapter
            targets.append(where / "src" / PurePosixPath(name).relative_to("hooks"))
        for target in targets:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(root / name, target)
    copy = sorted(p.name for p in where.iterdir() if p.name not in ("src", "mutants"))
    text = (root / "pyproject.toml").read_text(encoding="utf-8")
    (where / "pyproject.toml").write_text(settings(text, modules, tests, copy), encoding="utf-8")
    return where


@contextlib.contextmanager
def inside(folder: Path) -> Iterator[None]:
    """In `folder`, with mutmut's settings read afresh there (mutmut reads ./pyproject.toml)."""
    old = Path.cwd()
    os.chdir(folder)
    try:
        from mutmut.configuration import reset_config  # noqa: PLC0415

        reset_config()
        yield
    finally:
        os.chdir(old)


NO_TEST = "could not find any test case for any mutant"


def mutmut(where: Path, jobs: int) -> bool:
    """Run mutmut in the staged copy; its log (spinners and all) in mutmut.log there. False
    when no test reached any mutant (mutmut stops then: each one is left untested)."""
    log = where / "mutmut.log"
    with log.open("w", encoding="utf-8") as out:
        done = subprocess.run(
            [str(Path(sys.executable).parent / "mutmut"), "run", "--max-children", str(jobs)],
            cwd=where,
            stdout=out,
            stderr=subprocess.STDOUT,
            check=False,
        )
    text = log.read_text(encoding="utf-8", errors="replace")
    if done.returncode != 0 and NO_TEST in text:
        return False
    if done.returncode != 0:
        lines = re.split(r"[\r\n]+", text)
        tail = [line for line in lines if line.strip() and not re.match(r"^[⠁-⣿] ", line)]
        print("\n".join(tail[-60:]))
        raise Refused(f"mutmut terminó con el código {done.returncode} (registro: {log})")
    return True


def count(source_path: str, source: str) -> int:
    """How many mutants mutmut makes of `source` (inside the staged copy: it reads its settings)."""
    from mutmut.mutation.file_mutation import mutate_file_contents  # noqa: PLC0415

    return len(mutate_file_contents(source_path, source).mutant_names)


def collect(where: Path, module: str, untested: bool = False) -> Module:
    """A module's results in the staged copy: its mutants, the killed ones, the equivalent ones
    and, for the others, where each lives and its diff."""
    import libcst  # noqa: PLC0415
    from mutmut.mutation import diff_apply  # noqa: PLC0415

    source_path = _source_path(module)
    source = (where / source_path).read_text(encoding="utf-8")
    meta = where / "mutants" / f"{source_path}.meta"
    codes = {}
    if meta.is_file():
        codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
    result = Module(module, mutants=len(codes))
    with inside(where):
        result.equivalent = count(source_path, without_pragmas(source)) - count(source_path, source)
        for name, code in sorted(codes.items(), key=lambda item: _number(item[0])):
            if code in KILLED:
                result.killed += 1
                if code in TIMEOUT:
                    result.timeouts.append(name)
                continue
            functions = diff_apply.read_functions_from_index(name, source_path)
            if functions is None:
                tree = diff_apply.read_mutants_module(source_path)
                functions = (
                    diff_apply.read_original_function(tree, name),
                    diff_apply.read_mutant_function(tree, name),
                )
            before, after = (libcst.Module([f]).code.strip() for f in functions)
            line, diff = located(source, name, before, after, module)
            verdict = 33 if code is None and untested else code
            status = STATUS.get(verdict, f"código {verdict}") if verdict is not None else UNCHECKED
            result.survivors.append(Survivor(module, line, name, status, diff))
    result.survivors.sort(key=lambda s: (s.line, _number(s.mutant)))
    return result


def _number(mutant: str) -> tuple[str, int]:
    function, _, number = mutant.rpartition("__mutmut_")
    return function, int(number) if number.isdigit() else 0


# --- The command ----------------------------------------------------------------------------------


def shard_spec(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"(\d+)/(\d+)", text.strip())
    if not match or not 1 <= int(match.group(1)) <= int(match.group(2)):
        raise argparse.ArgumentTypeError(f"«{text}» no es I/N, con 1 ≤ I ≤ N (p. ej. 3/12)")
    return int(match.group(1)), int(match.group(2))


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python3 tasks.py mutate",
        description="Pruebas de mutación del motor (mutmut): cuántos fallos sembrados cazan sus "
        "pruebas. docs-dev/pruebas.md lo explica.",
    )
    parser.add_argument("paths", nargs="*", metavar="RUTA", help="módulos o subpaquetes")
    parser.add_argument("--changed", metavar="BASE", help="los módulos cambiados desde BASE")
    parser.add_argument("--shard", metavar="I/N", type=shard_spec, help="la parte I de N")
    parser.add_argument("--ratchet", metavar="ARCHIVO", type=Path, help="falla si baja")
    parser.add_argument("--record", metavar="ARCHIVO", type=Path, help="guarda lo medido")
    parser.add_argument("--summary", metavar="ARCHIVO", type=Path, help="añade un resumen")
    parser.add_argument("--merge", metavar="ARCHIVO", type=Path, nargs="+", help="junta")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="mutantes a la vez")
    args = parser.parse_args(argv)
    scoped = bool(args.paths or args.changed or args.shard)
    if args.merge and (scoped or not args.record):
        parser.error("--merge solo va con --record (sin rutas, --changed ni --shard)")
    if not args.merge and not scoped:
        parser.error("di qué medir: RUTA…, --changed BASE o --shard I/N (el motor entero)")
    return args


def select(args: argparse.Namespace, root: Path = ROOT) -> list[str]:
    """The modules the arguments name: the paths and the changed ones, then the shard."""
    modules = set(resolve(args.paths, root)) if args.paths else set()
    if args.changed:
        modules |= set(changed(args.changed, root))
    if args.shard:
        pool = sorted(modules) if (args.paths or args.changed) else resolve([ENGINE], root)
        return shard(pool, *args.shard, root)
    return sorted(modules)


def measure(modules: list[str], jobs: int, root: Path = ROOT) -> list[Module]:
    """Each module's results, one mutmut run per set of mirrored tests; a module mutmut makes
    no mutant of (an `__init__.py`, a module of tables) is not run."""
    with inside(root):
        empty = [m for m in modules if not count(_source_path(m), _text(m, root))]
    results = [Module(m) for m in empty]
    for tests, members in groups([m for m in modules if m not in empty], root).items():
        if not tests:
            raise Refused(f"{', '.join(members)}: sin carpeta espejo y ninguna prueba lo importa")
        print(f"mutmut: {' '.join(members)} con {' '.join(tests)} …", flush=True)
        where = stage(members, list(tests), root)
        reached = mutmut(where, jobs)
        results += [collect(where, m, untested=not reached) for m in members]
    return sorted(results, key=lambda m: m.module)


def _source_path(module: str) -> str:
    return f"{SOURCE}/{PurePosixPath(module).relative_to(ENGINE)}"


def _text(module: str, root: Path) -> str:
    return (root / module).read_text(encoding="utf-8")


def show(results: list[Module]) -> None:
    for m in results:
        for s in m.survivors:
            print(f"\n{s.module}:{s.line}: {s.status} ({s.mutant})\n{s.diff}")
    print()
    for m in results:
        print(
            f"{m.module}: {m.killed}/{m.mutants} muertos ({_share(m.killed, m.mutants)}; "
            f"{len(m.timeouts)} por tiempo), {m.equivalent} equivalentes"
        )
        if m.timeouts:
            names = ", ".join(m.timeouts)
            print(f"  por tiempo (un bucle sin fin, o una máquina muy cargada): {names}")


def main(argv: list[str], root: Path = ROOT) -> int:
    started = time.monotonic()
    args = parse(argv)
    try:
        if args.merge:
            merged = load_scores(args.record)
            for path in args.merge:
                merged["modules"].update(load_scores(path)["modules"])
            _write(args.record, record([], merged))
            return 0
        modules = select(args, root)
        unexplained = [f"{m}:{n}" for m in modules for n in unexplained_pragmas(_text(m, root))]
        if unexplained:
            raise Refused(
                "«# pragma: no mutate» sin su motivo («; equivalent: por qué»): "
                + ", ".join(unexplained)
            )
        results = measure(modules, args.jobs, root)
    except Refused as refused:
        print(f"tasks.py mutate: {refused}", file=sys.stderr)
        return 2
    show(results)
    verdicts = compare(results, load_scores(args.ratchet) if args.ratchet else _EMPTY)
    if args.ratchet:
        for v in verdicts:
            print(verdict_line(v))
    if args.summary:
        title = " ".join(
            [*args.paths]
            + ([f"cambios desde {args.changed}"] if args.changed else [])
            + ([f"parte {args.shard[0]} de {args.shard[1]}"] if args.shard else [])
        )
        with args.summary.open("a", encoding="utf-8") as out:
            out.write(markdown(verdicts, title) + "\n")
    if args.record:
        _write(args.record, record(results, load_scores(args.record)))
    unchecked = [s for m in results for s in m.survivors if s.status == UNCHECKED]
    print(summary_line(results, time.monotonic() - started))
    if unchecked:
        return 2
    return 1 if any(v.fell for v in verdicts) else 0


def _write(path: Path, scores: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(scores, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
