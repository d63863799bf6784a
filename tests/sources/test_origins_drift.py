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
    assert "`tutorial.py` de docverify-pruebas/tutorial cambió en su rama principal" in body
    assert "ya no existe" not in body, body  # the file is still there: it changed
    assert "«datos»" not in body and "«propio»" not in body  # unchanged; ours
    assert f"`{first[:12]}`" in body and f"`{second[:12]}`" in body
    assert "+perdida = (x - 2).pow(2).mean()" in body  # the diff
    assert "docs/portado.md" in done.stdout and "perdida" in done.stdout

    ported(project, second)  # the page follows upstream: nothing left, the issue closes
    done, out = drift(project, tmp_path / "upstream")
    assert done.returncode == 0, done.stdout + done.stderr
    notice = json.loads(out.read_text(encoding="utf-8"))
    assert notice["count"] == 0 and "comparadas: 1;" in notice["closing"]


def test_a_file_deleted_upstream_is_said_gone_with_every_quoted_block(
    project: Project, tmp_path: Path
) -> None:
    """The default branch no longer has the file: the notice says so (not «cambió»), and each
    quoted block is named, since none of their code is upstream any more; our own block is not."""
    first, _ = upstream(tmp_path / "upstream")
    _git(tmp_path / "upstream", "rm", "-q", "tutorial.py")
    _git(tmp_path / "upstream", "commit", "-q", "-m", "sin tutorial")
    text = ported(project, first)
    done, out = drift(project, tmp_path / "upstream")
    assert done.returncode == 0, done.stdout + done.stderr
    notice = json.loads(out.read_text(encoding="utf-8"))
    assert notice["count"] == 1
    body = notice["body"]
    assert "`tutorial.py` de docverify-pruebas/tutorial ya no existe en su rama principal" in body
    assert "cambió en su rama principal" not in body, body
    lines = text.split("\n")
    fences = {
        name: lines.index(f'```python exec="on" id="{name}" session="t"') + 1
        for name in ("datos", "perdida")
    }
    assert f"«datos» (línea {fences['datos']}), «perdida» (línea {fences['perdida']})" in body
    assert "«propio»" not in body
    assert "-perdida = (x - 1).pow(2).sum()" in body  # the diff: every line removed


def test_a_commit_that_cannot_be_fetched_fails_and_writes_no_notice(
    project: Project, tmp_path: Path
) -> None:
    upstream(tmp_path / "upstream")
    ported(project, "f" * 40)
    done, out = drift(project, tmp_path / "upstream")
    assert done.returncode == 1
    assert "no se pudo traer" in done.stderr and REMOTE in done.stderr, done.stderr
    assert not out.exists()  # the issue stays as it is
