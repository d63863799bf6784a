"""site.usage: which snippets the pages include, which are unused, which recordings are orphans.

Small projects written here; each finding is checked whole (path, line, message, fix)."""

from __future__ import annotations

import shutil

from conftest import Project
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_site
from docverify.site import usage
from support.blocks import block

PAGE = (
    "# Página\n\n"
    '```python exec="on" id="uno"\n--8<-- "a/uno.py"\n```\n\n'
    "```python\n  ---8<--- 'a/visto.py'  \n```\n\n"  # a shown block, more dashes, quotes
    "--8<--\n"  # the block form: one file a line, blank lines and `;` comments skipped
    "a/tres.py\n\n"
    "; a/comentado.py\n"
    "   a/cuatro.py:2:5   \n"
    "--8<--\n"
    "a/fuera.py\n"  # after the block form: plain text, no include
    '--8<-- "a/linea.py:seccion"\n'
)


def test_includes_reads_every_form(project: Project) -> None:
    project.page("p.md", PAGE)
    (page,) = read_site(project.config)
    assert usage.includes(page) == {
        "a/uno.py",
        "a/visto.py",
        "a/tres.py",
        "a/cuatro.py:2:5",
        "a/linea.py:seccion",
    }


def test_snippet_files_leave_out_recordings_hidden_files_and_caches(project: Project) -> None:
    for name in (
        "b/z.py",
        "a.py",
        "b/x.cpu.txt",
        "b/x.gpu.txt",
        "b/x.txt",
        ".oculto.py",
        "b/__pycache__/m.py",
        "c/.ipynb_checkpoints/n.py",
    ):
        project.snippet(name, "print(1)\n")
    cfg = project.config
    assert [p.relative_to(cfg.snippets_dir).as_posix() for p in usage.snippet_files(cfg)] == [
        "a.py",
        "b/x.txt",
        "b/z.py",
    ]
    shutil.rmtree(project.root / "snippets")
    assert usage.snippet_files(project.config) == []


def test_unused_names_each_snippet_no_page_includes(project: Project) -> None:
    project.page("p.md", PAGE)
    for name in ("a/uno.py", "a/visto.py", "a/tres.py", "a/cuatro.py", "a/linea.py"):
        project.snippet(name, "print(1)\n")
    project.snippet("a/fuera.py", "print(2)\n")
    project.snippet("a/comentado.py", "print(3)\n")
    project.snippet("a/con:dos.py", "print(4)\n")  # a file whose name holds «:» is kept whole
    project.page("q.md", '--8<-- "a/con:dos.py"\n')
    cfg = project.config
    found = usage.unused(cfg, read_site(cfg))
    assert [(f.kind, f.path, f.line, f.message, f.fix) for f in found] == [
        (
            Kind.UNUSED_SNIPPET,
            f"snippets/a/{name}",
            1,
            f"el snippet «a/{name}» no lo incluye ninguna página: nadie lo ejecuta ni lo verifica.",
            f'inclúyelo en un bloque con --8<-- "a/{name}" o bórralo (git rm snippets/a/{name}).',
        )
        for name in ("comentado.py", "fuera.py")
    ]


def test_an_unused_snippet_a_mistyped_include_meant_is_not_to_be_deleted(
    project: Project,
) -> None:
    """A snippet left unused because a page's --8<-- path has a typo: the fix is that path,
    never `git rm` of the author's file; an unused snippet nothing comes close to keeps it."""
    project.page("p.md", '# P\n\n```python exec="on" id="uno"\n--8<-- "a/unno.py"\n```\n')
    project.snippet("a/uno.py", "print(1)\n")
    project.snippet("b/suelto.py", "print(2)\n")
    cfg = project.config
    found = usage.unused(cfg, read_site(cfg))
    assert [(f.path, f.fix) for f in found] == [
        (
            "snippets/a/uno.py",
            "una página incluye «a/unno.py», que no existe: si quería este, corrige su --8<-- "
            'a "a/uno.py" (no lo borres).',
        ),
        (
            "snippets/b/suelto.py",
            'inclúyelo en un bloque con --8<-- "b/suelto.py" o bórralo '
            "(git rm snippets/b/suelto.py).",
        ),
    ]


def test_orphans_are_recordings_of_no_block_on_that_runner(project: Project) -> None:
    project.page(
        "p.md",
        "# P\n\n" + block("print(1)", "cpu") + block("print(2)", "gpu", ' runner="gpu" reason="x"'),
    )
    for name in (
        "p/cpu.cpu.txt",
        "p/gpu.gpu.txt",
        "p/gpu.cpu.txt",
        "p/ido.gpu.txt",
        "q/cpu.cpu.txt",
        "p/v1.2.cpu.txt",  # a name that is no valid id (a dot): still named with its runner
    ):
        project.snippet(name, "# ----\n1\n")
    cfg = project.config
    found = usage.orphans(cfg, read_site(cfg))
    assert [(f.kind, f.path, f.line, f.message, f.fix) for f in found] == [
        (
            Kind.ORPHAN_RECORDING,
            f"snippets/{stem}/{block_id}.{runner}.txt",
            1,
            f"la grabación de «{stem}/{block_id}» ({runner}) no corresponde a ningún bloque que "
            "corra en ese runner.",
            "docverify prune --yes (la borra) o restaura el bloque con ese id.",
        )
        for stem, block_id, runner in (
            ("p", "gpu", "cpu"),
            ("p", "v1.2", "cpu"),
            ("q", "cpu", "cpu"),
            ("p", "ido", "gpu"),
        )
    ]


def test_the_recording_of_a_fence_whose_code_cannot_be_read_is_no_orphan(project: Project) -> None:
    """A mistyped `--8<--` path (or a snippet mixed with code) is an error of its own; the
    fence is still there, so its recording is kept: no «prune» of an author's recording."""
    project.snippet("p/uno.py", "print(1)\n")
    project.page(
        "p.md",
        '# P\n\n```python exec="on" id="uno"\n--8<-- "p/unno.py"\n```\n\n'
        '```python exec="on" id="dos"\n--8<-- "p/uno.py"\nprint(2)\n```\n',
    )
    for name in ("p/uno.cpu.txt", "p/dos.cpu.txt", "p/tres.cpu.txt"):
        project.snippet(name, "# ----\n1\n")
    cfg = project.config
    found = usage.orphans(cfg, read_site(cfg))
    assert [f.path for f in found] == ["snippets/p/tres.cpu.txt"]
