"""Hints: where a failure comes from and the edit that fixes it, beyond the generic advice.

- a divergence points at the line of the block that wrote the first diverging output line;
- a divergence only in values that change from run to run (addresses, long ids) that no
  volatile rule covers says how to mark them with [..] (re-recording would only move them);
- a NameError on a name an earlier block of the page defines suggests session="…";
- a ModuleNotFoundError names the module, the package that installs it when it is a common one,
  and the `site` extra of pyproject.toml to add it to (never raises=: a missing install is not
  what a block teaches);
- an expectation against several printed numbers says that all of them are compared.
"""

from __future__ import annotations

import ast
import importlib.metadata
import importlib.util
import re
from collections.abc import Sequence
from typing import Any

from docverify.core import versions, volatile
from docverify.core.text import normalise
from docverify.parsing.pages import Block, page_stem
from docverify.verifying import baselines, compare
from docverify.verifying.recordings import Recording

_NAME_ERROR = re.compile(r"name '(?P<name>\w+)' is not defined")
_NO_MODULE = re.compile(r"No module named '(?P<name>[\w.]+)'")
# The package (distribution) that installs a module, where its name is not the module's.
DISTRIBUTIONS = {
    "PIL": "pillow",
    "sklearn": "scikit-learn",
    "skimage": "scikit-image",
    "cv2": "opencv-python",
    "yaml": "PyYAML",
    "bs4": "beautifulsoup4",
    "dateutil": "python-dateutil",
}
# Published with each torch release, for that release only: their version must match torch's.
# The same pair as tasks.COMPANIONS, which installs them from torch's index (the hint says so).
TORCH_COMPANIONS = ("torchvision", "torchaudio")
EXTRA = "site"  # the extra of [project.optional-dependencies] that the site's blocks need


def first_difference(recorded: str, observed: str, tol: compare.Tolerance) -> int:
    """Index of the first output line where `observed` stops matching `recorded`."""
    before = compare.comparable(recorded, tol).split("\n")
    after = compare.comparable(observed, tol).split("\n")
    shared = min(len(before), len(after))
    return next(
        (i for i in range(shared) if not compare.line_matches(before[i], after[i], tol)), shared
    )


def writer_line(result: dict[str, Any], index: int) -> int | None:
    """The block line that wrote output line `index`, when the run could trace it."""
    lines = result.get("output_lines") or []
    return lines[index] if 0 <= index < len(lines) and lines[index] > 0 else None


def volatile_fix(
    recording: Recording,
    observed: str,
    tol: compare.Tolerance,
    recorded: baselines.View | None = None,
) -> str | None:
    """How to mark the values that differ only because they change on every run, or None
    when the divergence is anything else. `recorded`: the recording as it was compared (its
    suffixes joined under the device rule), whose line numbers map back to the file's."""
    recorded = recorded or baselines.View.of(normalise(recording.body))
    before = compare.comparable(recorded.text, tol).split("\n")
    after = compare.comparable(observed, tol).split("\n")
    if len(before) != len(after):
        return None
    pairs = [(i, a, after[i]) for i, a in enumerate(before) if a != after[i]]
    pairs = [(i, a, b) for i, a, b in pairs if not compare.line_matches(a, b, tol)]
    if not pairs or not all(volatile.volatile_only(a, b) for _, a, b in pairs):
        return None
    offset = _body_line(recording)
    edits = "; ".join(
        f"línea {offset + recorded.original(i)}: «{a}» → «{volatile.marked(a, b)}»"
        for i, a, b in pairs[:3]
    )
    return (
        "si esos valores cambian en cada ejecución (direcciones, identificadores), volver a "
        f"grabar no sirve: edita {recording.path.name} y pon [..] en su lugar ({edits}); "
        "docverify record conserva el marcador mientras la línea coincida. Si el cambio es "
        "real, corrige el código o vuelve a grabar."
    )


def _body_line(recording: Recording) -> int:
    """The file line of the first output line of a recording (after its header)."""
    lines = recording.path.read_bytes().decode().split("\n")  # UTF-8, whatever the locale
    return lines.index("# ----") + 2 if "# ----" in lines else 1


def missing_module_fix(result: dict[str, Any]) -> str | None:
    """A block could not import a module: which one, what installs it and where to declare it."""
    if "ModuleNotFoundError" not in result.get("exception_type", []):
        return None
    match = _NO_MODULE.search(result.get("exception_message", ""))
    if not match:
        return None
    module = match.group("name")
    top = module.split(".")[0]
    where = (
        f"añádelo al extra «{EXTRA}» de [project.optional-dependencies] en pyproject.toml, con "
        "una versión fija, y ejecuta python3 tasks.py install (CI instala lo mismo)"
    )
    if top != module and importlib.util.find_spec(top) is not None:
        return (
            f"el paquete «{top}» está instalado, pero no tiene el módulo «{module}»: comprueba "
            "el nombre en el código, o la versión de ese paquete en pyproject.toml."
        )
    if top in TORCH_COMPANIONS:
        torch = _installed("torch")
        return (
            f"falta el módulo «{module}», del paquete «{top}»: {where}. Fija la versión de "
            f"{top} que se publicó con torch {torch} (cada versión de torch tiene la suya; "
            f"otra no carga con este torch): tasks.py lo instala del mismo índice que torch."
        )
    package = DISTRIBUTIONS.get(module) or DISTRIBUTIONS.get(top)
    if package:
        return f"falta el módulo «{module}», que instala el paquete «{package}»: {where}."
    return (
        f"falta el módulo «{module}»: {where}, con el nombre del paquete que lo instala "
        f"(suele ser «{top}»); si el nombre está mal escrito, corrígelo en el código."
    )


def _installed(package: str) -> str:
    return versions.installed(package) or "?"


def name_error_fix(block: Block, result: dict[str, Any], earlier: Sequence[Block]) -> str | None:
    """A NameError on a name an earlier block of the page defines: suggest a shared session."""
    if "NameError" not in result.get("exception_type", []):
        return None
    match = _NAME_ERROR.search(result.get("exception_message", ""))
    if not match:
        return None
    name = match.group("name")
    source = next((b for b in reversed(earlier) if name in _defined(b.code)), None)
    if source is None:
        return None
    if source.session and source.session == block.session:
        return None  # already shared: the name must be missing for another reason
    # One name per page unless the blocks have one: following every hint of a page that
    # chains its blocks gives them all the same session.
    session = source.session or block.session or page_stem(block.page).rpartition("/")[2]
    both = "los dos bloques" if not source.session else f"este bloque (como «{source.id}»)"
    return (
        f"«{name}» se define en el bloque anterior «{source.id}» (línea {source.fence_line} "
        f'de la página), pero cada bloque corre en un espacio de nombres limpio: pon session="'
        f'{session}" en {both} para que compartan variables, o define «{name}» en este bloque.'
    )


def _defined(code: str) -> set[str]:
    """Names a block binds at any level: assignments, imports, functions, classes, loops."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def expectation_fix(expected: str, observed: str | None) -> str | None:
    """An expectation with fewer numbers than what its statement printed (a tensor of several
    elements): say that every element is compared and how to write it."""
    if observed is None:
        return None
    wanted = compare._NUMBER_RE.findall(expected)
    shown = compare._TENSOR_META.sub("", observed)
    got = compare._NUMBER_RE.findall(shown)
    if not wanted or len(got) <= len(wanted):
        return None
    inner = re.sub(r"^\s*tensor\((.*)\)\s*$", r"\1", shown, flags=re.DOTALL)
    written = re.sub(r"\s+", " ", inner).strip()
    return (
        f"la expectativa compara cada número impreso, en orden: la instrucción imprimió "
        f"{len(got)} y la expectativa tiene {len(wanted)}. Escribe todos "
        f"(# Expectativa: {written}) o imprime un solo valor (.item(), .sum(), x[0, 0])."
    )
