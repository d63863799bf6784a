"""Upstream drift of quoted code (`docverify origins --drift`, sources/origins.py), on a local
git repository the test makes (two commits), never the network: git's url.<…>.insteadOf, set
in the command's environment, sends the origin's GitHub address to that folder."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path

import pytest
from conftest import Project, docverify
from docverify.parsing import origin
from docverify.parsing.pages import read_site
from docverify.sources import origins
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


def ported(
    project: Project, commit: str, name: str = "portado.md", path: str = "tutorial.py"
) -> str:
    front = (
        f'---\ntitle: "Portado"\norigin:\n  repository: docverify-pruebas/tutorial\n'
        f"  path: {path}\n  commit: {commit}\n  license: MIT\n---\n\nTexto.\n\n"
    )
    text = (
        front
        + block(DATOS, "datos", ' session="t"')
        + "\n"
        + block(PERDIDA, "perdida", ' session="t"')
        + "\n"
        + block("print(perdida * 2)", "propio", ' session="t" own="true"')
    )
    project.page(name, text)
    return text


def drift(project: Project, repository: Path) -> tuple[subprocess.CompletedProcess[str], Path]:
    out = project.root / "aviso" / "origenes.json"
    env = {
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": f"url.{repository}.insteadOf",
        "GIT_CONFIG_VALUE_0": REMOTE,
        **GIT,
    }
    done = docverify(project.root, "origins", "--drift", "--issue", str(out), env=env)
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
    last = "docverify origins: 1 página con origin: · 1 con cambios en su repositorio"
    assert done.stdout.strip().splitlines()[-1] == last, done.stdout

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


# --- In process: compare() and notice() on what the tests wrote ---------------------------------


def compared(
    project: Project, repository: Path, monkeypatch: pytest.MonkeyPatch
) -> list[origins.Drift]:
    """`origins.compare` on every page of `project`, git sent to `repository` as in `drift`."""
    for key, value in {
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": f"url.{repository}.insteadOf",
        "GIT_CONFIG_VALUE_0": REMOTE,
        **GIT,
    }.items():
        monkeypatch.setenv(key, value)
    cfg = project.config
    return origins.compare(cfg, read_site(cfg))


def test_pages_without_origin_or_unchanged_upstream_are_passed_over(
    project: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before the changed page (pages are read in order of name): one without `origin:` and one
    that follows upstream. Neither ends the comparison, neither is a drift."""
    first, second = upstream(tmp_path / "upstream")
    project.page("a.md", "---\ntitle: A\n---\n\nTexto.\n")
    ported(project, second, name="b.md")
    ported(project, first)
    drifts = compared(project, tmp_path / "upstream", monkeypatch)
    assert [(d.page, d.head, d.gone) for d in drifts] == [("docs/portado.md", second, False)]
    # One cache per repository, named by the first 16 hex digits of its address's SHA-256.
    cache = project.root / ".cache" / "docverify" / "origins"
    assert [p.name for p in cache.iterdir()] == [hashlib.sha256(REMOTE.encode()).hexdigest()[:16]]


def test_the_diff_of_a_changed_file_whole(
    project: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = upstream(tmp_path / "upstream")
    ported(project, first)
    [found] = compared(project, tmp_path / "upstream", monkeypatch)
    assert found.diff.split("\n") == [
        f"--- tutorial.py ({first[:12]})",
        f"+++ tutorial.py ({second[:12]})",
        "@@ -5,6 +5,6 @@",
        " print(x)",
        " ",
        " # compute the loss",
        "-perdida = (x - 1).pow(2).sum()",
        "+perdida = (x - 2).pow(2).mean()",
        " print(perdida)",
        " ",
    ]


def test_the_diff_of_a_file_gone_removes_every_line(
    project: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, _ = upstream(tmp_path / "upstream")
    _git(tmp_path / "upstream", "rm", "-q", "tutorial.py")
    _git(tmp_path / "upstream", "commit", "-q", "-m", "sin tutorial")
    head = _git(tmp_path / "upstream", "rev-parse", "HEAD")
    ported(project, first)
    [found] = compared(project, tmp_path / "upstream", monkeypatch)
    assert found.gone and [b for b, _ in found.blocks] == ["datos", "perdida"]
    pinned = (DATOS + "\n" + PERDIDA).split("\n")  # 10 lines, the last one empty
    assert found.diff.split("\n") == [
        f"--- tutorial.py ({first[:12]})",
        f"+++ tutorial.py ({head[:12]})",
        "@@ -1,10 +0,0 @@",
        *(f"-{line}" for line in pinned),
    ]


def test_a_change_outside_every_quoted_block_names_none(
    project: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, second = upstream(tmp_path / "upstream")
    folder = tmp_path / "upstream"
    with (folder / "tutorial.py").open("a", encoding="utf-8") as f:
        f.write("print('fin')\n")
    _git(folder, "commit", "-q", "-am", "una línea más")
    ported(project, second)
    [found] = compared(project, folder, monkeypatch)
    assert found.blocks == [] and not found.gone
    body = origins.notice([found], 1)["body"]
    assert (
        "Bloques cuyo código cambió aguas arriba: ningún bloque de la página cita las líneas "
        "que cambiaron.\n\n```diff\n"
    ) in body


def test_a_path_missing_at_the_pinned_commit_stops_with_page_path_commit_and_repository(
    project: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, _ = upstream(tmp_path / "upstream")
    ported(project, first, path="otro.py")
    with pytest.raises(origins.FetchError) as caught:
        compared(project, tmp_path / "upstream", monkeypatch)
    assert str(caught.value) == (
        f"docs/portado.md: otro.py no existe en el commit {first} de docverify-pruebas/tutorial"
    )


def test_a_failed_git_command_is_named_with_its_arguments_and_what_git_said(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "repo"
    folder.mkdir()
    _git(folder, "init", "-q")
    with pytest.raises(origins.FetchError) as caught:
        origins._git(folder, "show", "0000000:x.py")
    said = str(caught.value)
    assert said.startswith("git show 0000000:x.py: fatal: "), said  # git's stderr, stripped
    assert not said.endswith("\n")


@pytest.mark.parametrize(
    ("text", "code", "held"),
    [
        ("x = 1\n\n\ny = 2  \n", "x = 1\ny = 2\n", True),  # blank lines, trailing spaces
        ("a\nb\nc\n", "b\nc", True),  # at the very end
        ("a\nb\nc\n", "a", True),  # at the very start
        ("x = 1\ny = 2\n", "y = 2\nx = 1", False),  # in another order
        ("x = 1\nz = 0\ny = 2\n", "x = 1\ny = 2", False),  # not one after another
        ("def f():\n    return 1\n", "return 1", False),  # indentation counts
        ("a b\nc\n", "b\nc", False),  # lines, not words
        (None, "x = 1", False),  # no file
    ],
)
def test_code_is_held_when_its_non_blank_lines_follow_each_other(
    text: str | None, code: str, held: bool
) -> None:
    assert origins._holds(text, code) is held


FOUND = origin.Origin("docverify-pruebas/tutorial", "tutorial.py", "a" * 40, "MIT")
INTRO = (
    "El archivo del que viene el código de estas páginas cambió en su repositorio "
    "(`docverify origins --drift`). Revisa cada bloque: porta el cambio (copia el código nuevo, "
    "actualiza `commit:` en `origin:` y graba con `docverify record`) o deja el commit fijado "
    "si la página enseña esa versión."
)


def test_the_notice_whole() -> None:
    changed = origins.Drift("docs/a.md", FOUND, "b" * 40, blocks=[("x", 9), ("y", 20)], diff="D")
    gone = origins.Drift("docs/b.md", FOUND, "c" * 40, gone=True, diff="E")
    assert origins.notice([changed, gone], 3) == {
        "format": 1,
        "count": 2,
        "title": "Código citado: 2 páginas con cambios en su repositorio de origen",
        "body": INTRO
        + "\n\n### `docs/a.md`\n\n`tutorial.py` de docverify-pruebas/tutorial cambió en su "
        "rama principal: del commit `aaaaaaaaaaaa` (el de `origin:`) a `bbbbbbbbbbbb`. Bloques "
        "cuyo código cambió aguas arriba: «x» (línea 9), «y» (línea 20).\n\n```diff\nD\n```"
        "\n\n### `docs/b.md`\n\n`tutorial.py` de docverify-pruebas/tutorial ya no existe en "
        "su rama principal: del commit `aaaaaaaaaaaa` (el de `origin:`) a `cccccccccccc`. "
        "Bloques cuyo código cambió aguas arriba: ningún bloque de la página cita las líneas "
        "que cambiaron.\n\n```diff\nE\n```",
        "closing": "Páginas con `origin:` comparadas: 3; ninguna tiene cambios en su "
        "repositorio de origen: se cierra.",
    }


def test_one_page_is_named_in_the_singular() -> None:
    """«1 página», never «1 páginas»."""
    one = origins.Drift("docs/a.md", FOUND, "b" * 40)
    assert origins.notice([one], 1)["title"] == (
        "Código citado: 1 página con cambios en su repositorio de origen"
    )
    assert origins.notice([], 1)["title"] == (
        "Código citado: 0 páginas con cambios en su repositorio de origen"
    )
