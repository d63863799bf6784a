"""Set-up and everyday commands, needing only Python 3.11 and pip.

python3 tasks.py serve   # install what is needed, build and serve on http://127.0.0.1:8000
python3 tasks.py test    # install what is needed and run every test (strict build included)
python3 tasks.py build   # install and build the site once into site/ (strict)
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = Path(os.environ.get("DOCS_VENV", ROOT / ".venv"))
BIN = VENV / "bin"
STAMP = VENV / ".installed"


def install() -> None:
    """Create the virtual environment and install the project, again only when pyproject changes."""
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.is_file() and STAMP.read_text() == digest:
        return
    if not (BIN / "python").exists():
        print(f"Creando el entorno virtual en {VENV} …", flush=True)
        venv.create(VENV, with_pip=True)
    pip = [str(BIN / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*pip, "--upgrade", "pip"], check=True)
    subprocess.run([*pip, "-e", f"{ROOT}[site,dev]"], check=True)
    STAMP.write_text(digest)


def run(*args: str) -> int:
    env = {
        **os.environ,
        "NO_MKDOCS_2_WARNING": "1",
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
    }
    return subprocess.run(list(args), cwd=ROOT, env=env, check=False).returncode


def main(argv: list[str]) -> int:
    task = argv[0] if argv else "help"
    if task not in ("serve", "test", "build", "install"):
        print(__doc__)
        return 0 if task == "help" else 2
    install()
    if task == "serve":
        return run(str(BIN / "mkdocs"), "serve", "--dev-addr", "127.0.0.1:8000")
    if task == "build":
        return run(str(BIN / "mkdocs"), "build", "--strict")
    if task == "test":
        return run(str(BIN / "pytest"), *argv[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
