"""Upstream drift of quoted code (`docverify origins --drift`, sources/origins.py), on a local
git repository the test makes (two commits), never the network: git's url.<…>.insteadOf, set
in the command's environment, sends the origin's GitHub address to that folder."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from conftest import Project, docverify
from support.blocks import block

pytestmark = pytest.mark.usefixtures("local_author")

REMOTE = "https://github.com/docverify-pruebas/tutorial.git"
DATOS = "import torch\n\n# the inputs\nx = torch.ones(3)\nprint(x)\n"
PERDIDA = "# compute the loss\nperdida = (x - 1).pow(2).sum()\nprint(perdida)\n"
PERDIDA_NUEVA = "# compute the loss\nperdida = (x - 2).pow(2).mean()\nprint(perdida)\n"
GIT = {
    "GIT_AUTHOR_NAME": "Prueba",
    "GIT_AUTHOR_EMAIL": "prueba@example.org",
    "GIT_COMMITTER_NAME": "Prueba",
    "GIT_COMMITTER_EMAIL": "prueba@example.org",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def _git(folder: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args],
        cwd=folder,
        env={**os.environ, **GIT},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def upstream(folder: Path) -> tuple[str, str]:
    """A tutorial's repository: the file, then a commit that changes one cell of it."""
    folder.mkdir()
    _git(folder, "init", "-q", "-b", "main")
    # What GitHub allows: fetching a commit by its SHA.
    _git(folder, "config", "uploadpack.allowReachableSHA1InWant", "true")
    (folder / "tutorial.py").write_text(DATOS + "\n" + PERDIDA, encoding="utf-8")
    _git(folder, "add", "tutorial.py")
    _git(folder, "commit", "-q", "-m", "tutorial")
    first = _git(folder, "rev-parse", "HEAD")
    (folder / "tutorial.py").write_text(DATOS + "\n" + PERDIDA_NUEVA, encoding="utf-8")
    _git(folder, "commit", "-q", "-am", "otra pérdida")
    return first, _git(folder, "rev-parse", "HEAD")


def ported(project: Project, commit: str) -> str:
    front = (
        f'---\ntitle: "Portado"\norigin:\n  repository: docverify-pruebas/tutorial\n'
        f"  path: tutorial.py\n  commit: {commit}\n  license: MIT\n---\n\nTexto.\n\n"
    )
    text = (
        front
        + block(DATOS, "datos", ' session="t"')
        + "\n"
        + block(PERDIDA, "perdida", ' session="t"')
        + "\n"
        + block("print(perdida * 2)", "propio", ' session="t" own="true"')
    )
    project.page("portado.md", text)
    return text


def drift(project: Project, repository: Path) -> tuple[subprocess.CompletedProcess[str], Path]:
    out = project.root / "aviso" / "origenes.json"
    env = {
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": f"url.{repository}.insteadOf",
        "GIT_CONFIG_VALUE_0": REMOTE,
        **GIT,
    }
    done = docverify(
        project.root, "origins", "--drift", "--issue", str(out), env=env, new_process=True
    )
    return done, out


def test_a_changed_cell_upstream_is_named_per_page_and_block(
    project: Project, tmp_path: Path
) -> None:
    first, second = upstream(tmp_path / "upstream")
    text = ported(project, first)
    done, out = drift(project, tmp_path / "upstream")
    assert done.returncode == 0, done.stdout + done.stderr
    notice = json.loads(out.read_text(encoding="utf-8"))
    assert notice["format"] == 1 and notice["count"] == 1
    fence = text.split("\n").index('```python exec="on" id="perdida" session="t"') + 1
    body = notice["body"]
    assert "`docs/portado.md`" in body and f"«perdida» (línea {fence})" in body, body
    assert "«datos»" not in body and "«propio»" not in body  # unchanged; ours
    assert f"`{first[:12]}`" in body and f"`{second[:12]}`" in body
    assert "+perdida = (x - 2).pow(2).mean()" in body  # the diff
    assert "docs/portado.md" in done.stdout and "perdida" in done.stdout

    ported(project, second)  # the page follows upstream: nothing left, the issue closes
    done, out = drift(project, tmp_path / "upstream")
    assert done.returncode == 0, done.stdout + done.stderr
    notice = json.loads(out.read_text(encoding="utf-8"))
    assert notice["count"] == 0 and "comparadas: 1;" in notice["closing"]


def test_a_commit_that_cannot_be_fetched_fails_and_writes_no_notice(
    project: Project, tmp_path: Path
) -> None:
    upstream(tmp_path / "upstream")
    ported(project, "f" * 40)
    done, out = drift(project, tmp_path / "upstream")
    assert done.returncode == 1
    assert "no se pudo traer" in done.stderr and REMOTE in done.stderr, done.stderr
    assert not out.exists()  # the issue stays as it is
