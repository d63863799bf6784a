"""Set-up and everyday commands, needing only Python 3.11 and pip.

python3 tasks.py serve   # install what is needed, build and serve on http://127.0.0.1:8000
python3 tasks.py test    # install what is needed and run every test (strict build included)
python3 tasks.py build   # install and build the site once into site/ (strict)
python3 tasks.py mutate PATH…   # mutation testing of engine modules (tools/mutation.py);
                                # also --changed BASE, --shard I/N, --ratchet FILE (--help)

python3 tasks.py build --zensical   # the same site built with Zensical, into build/zensical/site/
python3 tasks.py serve --zensical   # ... and served on http://127.0.0.1:8000, rebuilt on changes
    Both install pyproject's optional group `zensical` first (so does `test`, whose default
    suite builds a small site with Zensical); the MkDocs commands never install it.

DOCS_TORCH_INDEX=https://download.pytorch.org/whl/cpu python3 tasks.py install
    installs torch first from that index (the CPU wheels, without CUDA), at the version pinned in
    pyproject.toml, its only source; the rest of the install then finds it satisfied. torchvision
    and torchaudio, when pyproject.toml requires them (in dependencies or an extra), come from
    that same index in the same step: a build from PyPI does not load with a torch from another
    index.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = Path(os.environ.get("DOCS_VENV", ROOT / ".venv"))
BIN = VENV / "bin"
STAMP = VENV / ".installed"
EXTRAS = ("site", "dev")  # pyproject's optional groups that every task installs
ZENSICAL = "zensical"  # the group of the Zensical build path, installed only when needed


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def python_problem(version: tuple[int, ...] = tuple(sys.version_info[:3])) -> str | None:
    """Why this Python cannot install the project (pyproject's `requires-python`), or None."""
    spec = _project().get("requires-python", "")
    match = re.fullmatch(r">=\s*(\d+(?:\.\d+)*)", spec.strip())
    if not match:
        return None
    minimum = tuple(int(part) for part in match.group(1).split("."))
    if version >= minimum:
        return None
    return (
        f"tasks.py: hace falta Python {match.group(1)} o posterior (pyproject.toml, "
        f"requires-python), y este python3 es {'.'.join(map(str, version))}. Pon uno antes en "
        "el PATH y repite; el python3 de Debian 12, 3.11.2, no sirve."
    )


def torch_requirement() -> str:
    """The torch pin (`torch==X.Y.Z`) from pyproject.toml, where it is written once."""
    project = _project()
    pins = [d for d in project.get("dependencies", []) if re.match(r"torch\s*[=<>!~]", d)]
    if len(pins) != 1 or not re.fullmatch(r"torch\s*==\s*[\w.]+", pins[0]):
        raise SystemExit(
            "pyproject.toml: [project].dependencies debe fijar torch una sola vez, "
            f"como «torch==VERSIÓN» (encontrado: {pins})"
        )
    return pins[0].replace(" ", "")


# Published for one torch release each, on torch's own index: installed from the same index.
COMPANIONS = ("torchvision", "torchaudio")


def companion_requirements() -> list[str]:
    """The requirements of torchvision and torchaudio that pyproject.toml writes (dependencies
    and every extra), as written, without spaces."""
    project = _project()
    written = [
        *project.get("dependencies", []),
        *(d for extra in project.get("optional-dependencies", {}).values() for d in extra),
    ]
    found = []
    for requirement in written:
        name = re.match(r"\s*([A-Za-z0-9_.-]+)", requirement)
        if name and name.group(1).lower() in COMPANIONS:
            found.append(requirement.split(";")[0].replace(" ", ""))
    return found


def install(extras: tuple[str, ...] = EXTRAS) -> None:
    """Create the virtual environment and install the project with the optional groups `extras`,
    again only when pyproject changes or a group is asked for that is not installed yet."""
    if problem := python_problem():
        raise SystemExit(problem)
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    # The stamp: pyproject's digest, then the groups installed with it (an older stamp has
    # only the digest: the default groups).
    stamp = STAMP.read_text().split("\n") if STAMP.is_file() else []
    done = set((stamp[1] if len(stamp) > 1 else ",".join(EXTRAS)).split(",")) if stamp else set()
    if stamp and stamp[0] == digest and set(extras) <= done:
        return
    if stamp and stamp[0] == digest:
        extras = tuple(dict.fromkeys([*extras, *sorted(done)]))  # keep what is there
    if not (BIN / "python").exists():
        print(f"Creando el entorno virtual en {VENV} …", flush=True)
        venv.create(VENV, with_pip=True)
    pip = [str(BIN / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*pip, "--upgrade", "pip"], check=True)
    torch_index = os.environ.get("DOCS_TORCH_INDEX")
    if torch_index:
        wanted = [torch_requirement(), *companion_requirements()]
        subprocess.run([*pip, *wanted, "--index-url", torch_index], check=True)
    subprocess.run([*pip, "-e", f"{ROOT}[{','.join(extras)}]"], check=True)
    STAMP.write_text(f"{digest}\n{','.join(extras)}")


def run(*args: str, env: dict[str, str] | None = None) -> int:
    full = {
        **os.environ,
        "NO_MKDOCS_2_WARNING": "1",
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
        **(env or {}),
    }
    return subprocess.run(list(args), cwd=ROOT, env=full, check=False).returncode


def hash_seed() -> str:
    """[tool.docverify]'s hash_seed as the engine reads it (its default when the value is
    wrong, which the tests then report): pytest must start with it, since with -n 0 its own
    process runs the pages' other fences (docverify/integrations/pytest_plugin.py)."""
    code = "from docverify.core.config import load; print(load().hash_seed)"
    done = subprocess.run(
        [str(BIN / "python"), "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def main(argv: list[str]) -> int:
    task = argv[0] if argv else "help"
    if task not in ("serve", "test", "build", "install", "mutate"):
        print(__doc__)
        return 0 if task == "help" else 2
    zensical = task in ("serve", "build") and "--zensical" in argv[1:]
    if task in ("serve", "build") and set(argv[1:]) - {"--zensical"}:
        print(f"tasks.py {task}: solo acepta --zensical (recibido: {' '.join(argv[1:])})")
        return 2
    # The tests (also mutate's) build a small site with Zensical.
    install((*EXTRAS, ZENSICAL) if zensical or task in ("test", "mutate") else EXTRAS)
    if zensical:
        # Verified first by the engine, then built (or served) by Zensical: build/zensical/.
        docverify = str(BIN / "docverify")
        if task == "build":
            return run(docverify, "zensical", "build", "--strict")
        return run(docverify, "zensical", "serve", "--dev-addr", "127.0.0.1:8000")
    if task == "serve":
        return run(str(BIN / "mkdocs"), "serve", "--dev-addr", "127.0.0.1:8000")
    if task == "build":
        return run(str(BIN / "mkdocs"), "build", "--strict")
    if task == "test":
        return run(str(BIN / "pytest"), *argv[1:], env=test_env())
    if task == "mutate":
        mutation = str(ROOT / "tools" / "mutation.py")  # with the project's Python: mutmut
        return run(str(BIN / "python"), mutation, *argv[1:], env=test_env())
    return 0


def test_env() -> dict[str, str]:
    """The test run's environment: the project's string hashing (see hash_seed) and Python's
    bytecode cache, written even where the shell disables it (PYTHONDONTWRITEBYTECODE): the
    suite starts hundreds of Python processes, and without the cache each of them compiles the
    engine again and pytest rewrites every test module's asserts again in each worker, about a
    seventh of the suite's CPU time. Beside the sources (`__pycache__/`, ignored by git), never
    under a PYTHONPYCACHEPREFIX: there Python would ignore the bytecode pip compiled when it
    installed torch, MkDocs and Jupyter, and on a fresh clone the first processes would compile
    all of it again, at once (docs-dev/pruebas.md)."""
    return {
        "PYTHONHASHSEED": hash_seed(),
        "PYTHONDONTWRITEBYTECODE": "",  # empty is unset, for Python
        "PYTHONPYCACHEPREFIX": "",  # likewise: not even one the shell sets
    }


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
