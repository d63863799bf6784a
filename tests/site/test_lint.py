"""site.lint: one located finding per structural problem, on the new article of a copy of the site.

Each test edits the article that `docverify new` wrote (conftest's `authored`), so what is edited
is the scaffold's, whatever the site's own articles say, in a copy of the site reduced to that
article, the home page and the verification page (conftest's `small`: the lint of the whole
site again for each test found nothing more). The copy starts with no error; INFO (a source due
for review soon) is never a problem here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import NEW_PAGE, NEW_SLUG, Project
from docverify import build
from docverify.core import config as config_mod
from docverify.core.findings import Finding, errors
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_site
from docverify.site import lint, scaffold
from support.blocks import block

SNIPPETS = f"snippets/articulos/{NEW_SLUG}"
FENCE = f'```python exec="on" id="{scaffold.FIRST_BLOCK_ID}"'


def lint_errors(root: Path) -> list[Finding]:
    return errors(build.lint(config_mod.load(root)))


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} no está en {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture
def site_root(small_copy: Path) -> Path:
    assert lint_errors(small_copy) == [], "la copia del sitio debe empezar sin errores"
    return small_copy


def _one(root: Path, kind: Kind) -> Finding:
    findings = lint_errors(root)
    assert [f.kind for f in findings] == [kind], [f.format() for f in findings]
    finding = findings[0]
    assert (root / finding.path).is_file() and finding.line >= 1
    return finding


def test_lint_removed_required_part(site_root: Path) -> None:
    page = site_root / NEW_PAGE
    edit(page, "## Pasos de implementación\n", "")
    finding = _one(site_root, Kind.MISSING_PART)
    assert finding.path == NEW_PAGE and "Pasos de implementación" in finding.message
    lines = page.read_text(encoding="utf-8").split("\n")
    assert lines[finding.line - 1].startswith("## ")  # located at the nearest heading


def test_lint_removed_front_matter_part(site_root: Path) -> None:
    edit(site_root / NEW_PAGE, "approach:", "enfoque:")
    # The unknown key is no part: the missing one is located at line 1 of the page, and the
    # unknown key at its own line.
    findings = lint_errors(site_root)
    assert [f.kind for f in findings] == [Kind.MISSING_PART, Kind.UNKNOWN_META_KEY], findings
    missing, unknown = findings
    assert missing.where == f"{NEW_PAGE}:1" and "approach" in missing.message
    lines = (site_root / NEW_PAGE).read_text(encoding="utf-8").split("\n")
    assert unknown.path == NEW_PAGE and lines[unknown.line - 1].startswith("enfoque:")


def test_lint_duplicated_id(site_root: Path) -> None:
    page = site_root / NEW_PAGE
    block = f'{FENCE}\n--8<-- "articulos/{NEW_SLUG}/{scaffold.FIRST_SNIPPET}"\n```'
    edit(page, "## Cómo elegir", f"{block}\n\n## Cómo elegir")
    finding = _one(site_root, Kind.DUPLICATE_ID)
    lines = page.read_text(encoding="utf-8").split("\n")
    assert finding.path == NEW_PAGE
    assert lines[finding.line - 1] == FENCE
    # Located at the second use; the message names the id and the line of the first one, the
    # scaffold's own block, which comes before it.
    first = lines.index(FENCE) + 1
    assert first < finding.line
    assert f"«{scaffold.FIRST_BLOCK_ID}»" in finding.message
    assert f"línea {first})" in finding.message


def test_lint_orphan_snippet(site_root: Path) -> None:
    (site_root / SNIPPETS / "olvidado.py").write_text("print(1)\n")
    finding = _one(site_root, Kind.UNUSED_SNIPPET)
    assert finding.where == f"{SNIPPETS}/olvidado.py:1"


def test_lint_orphan_recording(site_root: Path) -> None:
    block_id = scaffold.FIRST_BLOCK_ID
    edit(site_root / NEW_PAGE, f'id="{block_id}"', f'id="{block_id}-renombrado"')
    findings = lint_errors(site_root)
    kinds = sorted(f.kind for f in findings)
    # The renamed block has no recording; the old recording has no block.
    assert kinds == [Kind.MISSING_RECORDING, Kind.ORPHAN_RECORDING], findings
    orphan = next(f for f in findings if f.kind == Kind.ORPHAN_RECORDING)
    assert orphan.path == f"{SNIPPETS}/{block_id}.cpu.txt"


def test_lint_invalid_source_date(site_root: Path) -> None:
    page = site_root / NEW_PAGE
    verified = config_mod.today().isoformat()
    edit(page, f'verified: "{verified}"', 'verified: "2026-02-30"')
    finding = _one(site_root, Kind.INVALID_DATE)
    lines = page.read_text(encoding="utf-8").split("\n")
    assert "2026-02-30" in lines[finding.line - 1]


def test_lint_navigation(site_root: Path) -> None:
    (site_root / "docs/suelto.md").write_text("# Suelto\n", encoding="utf-8")
    finding = _one(site_root, Kind.PAGE_NOT_IN_NAV)
    assert finding.where == "docs/suelto.md:1"
    (site_root / "docs/suelto.md").unlink()
    edit(site_root / "mkdocs.yml", f"articulos/{NEW_SLUG}.md", "articulos/no-existe.md")
    findings = lint_errors(site_root)
    assert sorted(f.kind for f in findings) == [Kind.DANGLING_NAV_ENTRY, Kind.PAGE_NOT_IN_NAV]
    entry = next(f for f in findings if f.kind == Kind.DANGLING_NAV_ENTRY)
    lines = (site_root / "mkdocs.yml").read_text(encoding="utf-8").split("\n")
    assert entry.path == "mkdocs.yml" and "articulos/no-existe.md" in lines[entry.line - 1]
    loose = next(f for f in findings if f.kind == Kind.PAGE_NOT_IN_NAV)
    assert loose.path == NEW_PAGE


# --- lint.py's own functions, on a small project whose recordings are written here -----------


def _recording(project: Project, name: str, runner: str = "cpu", marks: str = "") -> None:
    """A recording file as `docverify record` lays it out (header, `# ----`, output)."""
    mark = f"# device-dependent: {marks}\n" if marks else ""
    project.snippet(
        f"{name}.{runner}.txt",
        f"# docverify: salida grabada en el runner {runner}\n# torch: 9.9.9\n{mark}# ----\n1\n",
    )


def test_missing_recordings_lists_the_blocks_that_run_on_the_runner_without_one(
    project: Project,
) -> None:
    # Fences on lines 1, 4, 7 and 10; a cpu recording for «dos» only, no gpu recording.
    project.page(
        "a.md",
        block("print(1)", "uno")
        + block("print(2)", "dos")
        + block("print(3)", "tres", ' runner="cpu" reason="prueba"')
        + block("print(4)", "cuatro", ' runner="gpu" reason="prueba"'),
    )
    _recording(project, "a/dos")
    cfg = project.config
    found = lint.missing_recordings(cfg, read_site(cfg))
    assert [(f.kind, f.where, f.fix) for f in found] == [
        (Kind.MISSING_RECORDING, "docs/a.md:2", "docverify record --runner cpu docs/a.md"),
        (Kind.MISSING_RECORDING, "docs/a.md:8", "docverify record --runner cpu docs/a.md"),
    ]
    assert "«a/uno» no tiene grabación para el runner cpu (snippets/a/uno.cpu.txt)" in (
        found[0].message
    )
    on_gpu = lint.missing_recordings(cfg, read_site(cfg), "gpu")
    assert [f.where for f in on_gpu] == ["docs/a.md:2", "docs/a.md:5", "docs/a.md:11"]


def _finding(path: str) -> Finding:
    return Finding(Kind.MISSING_RECORDING, "algo", path, 1, "arréglalo")


def test_select_keeps_the_findings_about_the_paths_and_their_pages_files(
    project: Project,
) -> None:
    project.snippet("comun/x.py", "print(1)\n")
    project.page("b.md", block("print(2)", "otro"))
    project.page(
        "a.md", block("print(1)", "uno") + '```python exec="on" id="x"\n--8<-- "comun/x.py"\n```\n'
    )
    _recording(project, "b/otro")
    cfg = project.config
    pages = read_site(cfg)
    assert [p.rel for p in pages] == ["a.md", "b.md"]
    everything = [
        _finding(path)
        for path in (
            "docs/a.md",  # the page
            "snippets/a/viejo.cpu.txt",  # its folder of snippets: an orphan recording
            "snippets/comun/x.py",  # a snippet of one of its blocks, elsewhere
            "snippets/comun/y.py",  # beside that snippet, not the page's
            "docs/b.md",  # another page
            "snippets/b/otro.cpu.txt",  # the other page's snippets
            "mkdocs.yml",
        )
    ]
    root = project.root
    about_a = lint.select(cfg, everything, [str(root / "docs/a.md")], pages)
    assert [f.path for f in about_a] == [
        "docs/a.md",
        "snippets/a/viejo.cpu.txt",
        "snippets/comun/x.py",
    ]
    # A folder is no page: what lies under it, at any depth.
    in_snippets = lint.select(cfg, everything, [str(root / "snippets")], pages)
    assert [f.path for f in in_snippets] == [
        "snippets/a/viejo.cpu.txt",
        "snippets/comun/x.py",
        "snippets/comun/y.py",
        "snippets/b/otro.cpu.txt",
    ]
    # A file that is no page: that file only.
    assert lint.select(cfg, everything, [str(root / "snippets/comun/x.py")], pages) == [
        everything[2]
    ]
    missing = str(root / "docs/no-existe.md")
    expected = f"{missing}: no existe (pasa páginas, snippets o carpetas)."
    with pytest.raises(FileNotFoundError, match=f"^{re.escape(expected)}$"):
        lint.select(cfg, everything, [missing], pages)


def test_device_dependent_says_what_each_marked_block_needs_on_the_gpu_runner(
    project: Project,
) -> None:
    project.page(
        "a.md",
        block("print(1)", "fijo")  # recorded without marks
        # marked, but it never runs on gpu
        + block("print(1)", "solo", ' runner="cpu" reason="prueba"')
        # gpu only: its marked cpu recording is an orphan (lint reports it), compared with
        # nothing; no «puede compararse con la salida de CPU» about it
        + block("print(1)", "tarjeta", ' runner="gpu" reason="prueba"')
        + block("print(1)", "nada")  # no recording at all
        + block("print(1)", "azar")  # marked, without its gpu recording
        + block("print(1)", "propia")  # marked, with its gpu recording
        + block("print(1)", "libre", ' device_policy="as-written"'),  # can match the cpu one
    )
    project.page("b.md", block("print(1)", "ver"))
    for name in ("a/solo", "a/tarjeta", "a/azar", "a/propia", "a/libre"):
        _recording(project, name, marks="random")
    _recording(project, "a/fijo")
    _recording(project, "a/propia", "gpu")
    _recording(project, "b/ver", marks="device, accelerator")
    cfg = project.config
    pages = read_site(cfg)
    azar = (
        "  a/azar: depende de números aleatorios → necesita su propia grabación de GPU, que aún "
        "no tiene (azar.gpu.txt: docverify record --runner gpu docs/a.md en una máquina con GPU, "
        "o docverify accept con el informe del trabajo gpu de CI)"
    )
    propia = (
        "  a/propia: depende de números aleatorios → tiene su propia grabación de GPU "
        "(propia.gpu.txt)"
    )
    libre = (
        "  a/libre: depende de números aleatorios → puede compararse con la salida de CPU: con "
        'device_policy="as-written" sus tensores se crean en la CPU y sus números aleatorios '
        "también"
    )
    ver = (
        "  b/ver: pregunta por el acelerador y muestra un dispositivo → necesita su propia "
        "grabación de GPU, que aún no tiene (ver.gpu.txt: docverify record --runner gpu docs/b.md "
        "en una máquina con GPU, o docverify accept con el informe del trabajo gpu de CI)"
    )
    assert lint.device_dependent(cfg, pages) == [azar, propia, libre, ver]
    assert lint.device_dependent(cfg, pages, {"a/libre", "b/ver", "a/fijo"}) == [libre, ver]
    assert lint.device_dependent(cfg, pages, set()) == []
