"""One owner per stored thing and per decision (docs-dev/motor.md): report.json is read and
written only by report/report_json.py, a recording file is made and written only by
verifying/proposal.py, and a verdict is decided only by verifying/judge.py (every other module
judges pages through its one loop, `judge.verification`).

A second place that builds report.json's JSON by its keys, names its file or parses it, or that
renders a recording's text or writes a file among the modules that handle recordings, is a
second reader or writer that will drift from the first: each is found here, with its line.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import docverify

ENGINE = Path(docverify.__file__).parent
REPORT_OWNER = "report/report_json.py"
RECORDING_OWNER = "verifying/proposal.py"
# Keys that only report.json has (its top level, an entry, a shard's or a merged report): a
# dict built or read with one of them is report.json's JSON.
REPORT_KEYS = {
    "observations",
    "all_pages",
    "site_sha256",
    "plan_shards",
    "code_sha256",
    "inputs_sha256",
    "spec_sha256",
}
# What each module of the packages that handle recordings and reports writes, and nothing else
# there writes a file: a recording is written by RECORDING_OWNER alone.
WRITERS = {
    RECORDING_OWNER: "grabaciones",
    REPORT_OWNER: "report.json",
    "report/report_folder.py": "findings.txt y diffs/ de la carpeta de un informe",
    "verifying/cache.py": "la caché local",
    "verifying/shards.py": "las duraciones de las páginas",
}
WRITING = {"write_atomic", "write_text", "write_bytes"}
# The one function that reads a block's recordings (every runner's, once).
RECORDING_READER = ("verifying/recordings.py", "of_block")
VERDICT_OWNER = "verifying/judge.py"
# What only the judge does: decide a verdict, or make a block's outcome of one. (Its `attach`,
# an outcome with a verdict the one loop decided, decides nothing.)
JUDGING = {"judge", "unobserved", "outcome"}
MADE = {"Verdict", "Outcome"}
# Another file of the same name: pip's own report (pip install --report), read in a temporary
# folder while the canary's environment is made.
OTHER_REPORT_JSON = {"running/environments.py"}


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _called(node: ast.AST) -> str:
    """The name a call calls: `f(…)` → f, `x.f(…)` → f."""
    if not isinstance(node, ast.Call):
        return ""
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _on(node: ast.AST) -> str:
    """The name a method call is made on: `x.f(…)` → x."""
    func = getattr(node, "func", None)
    return getattr(getattr(func, "value", None), "id", "")


def _by_line(found: list[tuple[str, int, str]]) -> list[str]:
    return [f"{where}:{line} {what}" for where, line, what in sorted(found)]


def report_json_places(root: Path = ENGINE) -> list[str]:
    """«module:line what» for each place outside REPORT_OWNER that names report.json's file,
    parses or dumps JSON in report/, or builds or reads a dict by one of REPORT_KEYS."""
    found: list[tuple[str, int, str]] = []
    for path in sorted(root.rglob("*.py")):
        where = path.relative_to(root).as_posix()
        if where == REPORT_OWNER:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            line, keys = getattr(node, "lineno", 0), []
            if isinstance(node, ast.Constant) and node.value == "report.json":
                if id(node) not in docs and where not in OTHER_REPORT_JSON:
                    found.append((where, line, "nombra el archivo report.json"))
            elif isinstance(node, ast.Dict):
                keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
            elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
                keys = [node.slice.value]
            elif isinstance(node, ast.Call) and _called(node) == "get" and node.args:
                keys = [getattr(node.args[0], "value", None)]
            elif _on(node) == "json" and where.startswith("report/"):
                found.append((where, line, "lee o escribe JSON"))
            found += [(where, line, f"clave «{k}»") for k in keys if k in REPORT_KEYS]
    return _by_line(found)


def recording_places(root: Path = ENGINE) -> list[str]:
    """«module:line what» for each place outside RECORDING_OWNER that renders a recording's
    text, and each place in verifying/ and report/ that writes a file without being one of
    WRITERS."""
    found: list[tuple[str, int, str]] = []
    for path in sorted(root.rglob("*.py")):
        where = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name, line = _called(node), getattr(node, "lineno", 0)
            renders = name in {"render", "with_marks"} and _on(node) == "recordings"
            if renders and where != RECORDING_OWNER:
                found.append((where, line, "compone el texto de una grabación"))
            in_scope = where.startswith(("verifying/", "report/")) and where not in WRITERS
            if name in WRITING and in_scope:
                found.append((where, line, f"escribe un archivo ({name})"))
    return _by_line(found)


def _imports_read(tree: ast.AST) -> bool:
    """Whether the module imports recordings.py's `read` by its name."""
    return any(
        isinstance(node, ast.ImportFrom)
        and (node.module or "").endswith(".recordings")
        and any(a.name == "read" for a in node.names)
        for node in ast.walk(tree)
    )


def recording_reads(root: Path = ENGINE) -> list[str]:
    """«module:line what» for each place that reads a recording file other than
    RECORDING_READER: a call to `read` in recordings.py outside that function, and a call to
    `recordings.read` (or to a `read` imported from recordings.py) anywhere else."""
    found: list[tuple[str, int, str]] = []
    module, reader = RECORDING_READER
    for path in sorted(root.rglob("*.py")):
        where = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if where == module:
            scopes, bare = [n for n in tree.body if getattr(n, "name", "") != reader], True
        else:
            scopes, bare = [tree], _imports_read(tree)
        for node in (n for scope in scopes for n in ast.walk(scope)):
            plain = bare and isinstance(getattr(node, "func", None), ast.Name)
            if _called(node) == "read" and (plain or _on(node) == "recordings"):
                found.append((where, node.lineno, "lee una grabación"))
    return _by_line(found)


def verdict_places(root: Path = ENGINE) -> list[str]:
    """«module:line what» for each place outside VERDICT_OWNER that decides a verdict (calls
    the judge's `judge`, `unobserved` or `outcome`) or makes a Verdict or an Outcome
    itself: a second judge, or a loop over pages beside the one."""
    found: list[tuple[str, int, str]] = []
    for path in sorted(root.rglob("*.py")):
        where = path.relative_to(root).as_posix()
        if where == VERDICT_OWNER:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name, line = _called(node), getattr(node, "lineno", 0)
            if name in JUDGING and _on(node) == "judge":
                found.append((where, line, f"juzga un bloque (judge.{name})"))
            elif name in MADE and isinstance(getattr(node, "func", None), ast.Name):
                found.append((where, line, f"hace un {name}"))
            elif name == "replace" and (own := _made_fields() & _keywords(node)):
                found.append((where, line, f"copia un {'/'.join(sorted(MADE))} ({min(own)}=)"))
    return _by_line(found)


def _keywords(node: ast.AST) -> set[str]:
    return {k.arg for k in getattr(node, "keywords", ()) if k.arg}


@functools.cache
def _made_fields() -> set[str]:
    """The fields of a Verdict or an Outcome that no other dataclass of the engine has: a
    `replace(x, field=…)` with one of them copies a verdict or an outcome, whatever x is."""
    fields: dict[str, set[str]] = {}
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(
                "dataclass" in ast.unparse(d) for d in node.decorator_list
            ):
                names = {
                    f.target.id
                    for f in node.body
                    if isinstance(f, ast.AnnAssign) and isinstance(f.target, ast.Name)
                }
                fields[node.name] = fields.get(node.name, set()) | names
    made = set().union(*(fields.get(name, set()) for name in MADE))
    others = set().union(*(v for k, v in fields.items() if k not in MADE))
    return made - others


def test_a_verdict_is_decided_in_one_module() -> None:
    assert (ENGINE / VERDICT_OWNER).is_file()
    found = verdict_places()
    assert not found, (
        f"un veredicto se decide fuera de {VERDICT_OWNER} (juzga las páginas con "
        "judge.verification, el único recorrido):\n" + "\n".join(found)
    )


def test_report_json_is_read_and_written_in_one_module() -> None:
    assert (ENGINE / REPORT_OWNER).is_file()
    found = report_json_places()
    assert not found, f"report.json se lee o se escribe fuera de {REPORT_OWNER}:\n" + "\n".join(
        found
    )


def test_a_recording_is_made_and_written_in_one_module() -> None:
    assert (ENGINE / RECORDING_OWNER).is_file()
    found = recording_places()
    assert not found, (
        f"una grabación se compone o se escribe fuera de {RECORDING_OWNER} (propón con "
        "proposal.propose y escribe con proposal.write):\n" + "\n".join(found)
    )


def test_a_block_s_recordings_are_read_in_one_function() -> None:
    found = recording_reads()
    assert not found, (
        f"una grabación se lee fuera de {RECORDING_READER[1]} ({RECORDING_READER[0]}; pide las "
        "de un bloque con recordings.of_block):\n" + "\n".join(found)
    )


def test_a_second_reader_or_writer_is_found(tmp_path: Path) -> None:
    """The measures themselves: each kind of second reader or writer is caught, with its line."""
    (tmp_path / "report").mkdir()
    (tmp_path / "verifying").mkdir()
    (tmp_path / "report" / "otro.py").write_text(
        '"""Lee report.json."""\n'
        "import json\n"
        "data = json.loads((carpeta / 'report.json').read_text())\n"
        "tabla = data['observations']\n"
        "vieja = data.get('site_sha256')\n"
        "nueva = {'all_pages': []}\n"
        "recordings.render(bloque, 'cpu', {}, '', '')\n",
        encoding="utf-8",
    )
    (tmp_path / "verifying" / "otra.py").write_text(
        "write_atomic(ruta, texto)\nruta.write_text(texto)\nrecordings.with_marks(r, ())\n",
        encoding="utf-8",
    )
    assert report_json_places(tmp_path) == [
        "report/otro.py:3 lee o escribe JSON",
        "report/otro.py:3 nombra el archivo report.json",
        "report/otro.py:4 clave «observations»",
        "report/otro.py:5 clave «site_sha256»",
        "report/otro.py:6 clave «all_pages»",
    ]
    assert recording_places(tmp_path) == [
        "report/otro.py:7 compone el texto de una grabación",
        "verifying/otra.py:1 escribe un archivo (write_atomic)",
        "verifying/otra.py:2 escribe un archivo (write_text)",
        "verifying/otra.py:3 compone el texto de una grabación",
    ]
    (tmp_path / "report" / "juez.py").write_text(
        "veredicto = judge.judge(config, bloque, 'cpu', visto)\n"
        "hecho = judge.outcome(config, bloque, veredicto, grabaciones)\n"
        "otro = Verdict('cpu', estado, referencia)\n"
        "juzgar(bloque)\n"
        "copia = dataclasses.replace(veredicto, agreement=None)\n"
        "otra = replace(hecho, verdicts={})\n"
        "ajena = dataclasses.replace(informe, findings=[])\n",
        encoding="utf-8",
    )
    (tmp_path / "verifying" / "recordings.py").write_text(
        "def of_block(ruta):\n    return read(ruta)\n\n\ndef load(ruta):\n    return read(ruta)\n",
        encoding="utf-8",
    )
    (tmp_path / "report" / "lector.py").write_text(
        "from docverify.verifying.recordings import read\n"
        "una = recordings.read(ruta)\notra = read(ruta)\ntexto = ruta.read()\n",
        encoding="utf-8",
    )
    assert recording_reads(tmp_path) == [
        "report/lector.py:2 lee una grabación",
        "report/lector.py:3 lee una grabación",
        "verifying/recordings.py:6 lee una grabación",
    ]
    assert verdict_places(tmp_path) == [
        "report/juez.py:1 juzga un bloque (judge.judge)",
        "report/juez.py:2 juzga un bloque (judge.outcome)",
        "report/juez.py:3 hace un Verdict",
        "report/juez.py:5 copia un Outcome/Verdict (agreement=)",
        "report/juez.py:6 copia un Outcome/Verdict (verdicts=)",
    ]
