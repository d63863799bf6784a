"""sources.canary_sources: the fingerprinted sources whose cited code differs under another
interpreter's packages (what `docverify canary` reports), read from its path, never imported."""

from __future__ import annotations

from pathlib import Path

from conftest import Project
from docverify.parsing.frontmatter import LineDict
from docverify.parsing.pages import Page, read_site
from docverify.sources import canary_sources
from docverify.sources import fingerprint as fp_mod

OLD = "def f():\n    return 'antes'\n"  # the verified text
NEW = "def f():\n    return 'otro'\n"  # the other interpreter's


def _other_site(root: Path) -> Path:
    """Another interpreter's site-packages, not on sys.path: dvother 2.5."""
    (root / "dvother").mkdir(parents=True)
    (root / "dvother" / "__init__.py").write_text("raise RuntimeError('no se importa')\n\n" + NEW)
    meta = root / "dvother-2.5.dist-info"
    meta.mkdir()
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: dvother\nVersion: 2.5\n")
    return root


def _source(ref: str, fingerprint: str = "") -> str:
    return f'  - title: "Título {ref}"\n    reference: "{ref}"\n    verified: "2026-09-23"\n' + (
        f"    fingerprint:\n{fingerprint}" if fingerprint else ""
    )


def _fp(package: str, kind: str, target: str, version: str | None, sha: str | None) -> str:
    lines = [f"      package: {package}\n"]
    if version:
        lines.append(f'      version: "{version}"\n')
    lines.append(f"      {kind}: {target}\n")
    if sha:
        lines.append(f'      sha256: "{sha}"\n')
    return "".join(lines)


def _line(text: str, ref: str, key: str) -> int:
    """The line of the first `key` after the source `ref` (counted here, not by the engine)."""
    lines = text.split("\n")
    start = lines.index(f'    reference: "{ref}"')
    return next(n for n, line in enumerate(lines, 1) if n > start and line.strip().startswith(key))


def test_changes_under_another_interpreter(project: Project, tmp_path: Path) -> None:
    path = [str(_other_site(tmp_path / "other-site"))]
    old, new = fp_mod.digest(OLD), fp_mod.digest(NEW)
    sources = "".join(
        [
            _source("A"),  # no fingerprint
            _source("B", _fp("dvother", "object", "dvother.f", "2.4", None)),  # incomplete
            _source("C", _fp("dvother", "object", "dvother.f", None, old)),  # incomplete
            _source("D", _fp("dvother", "object", "dvother.f", "2.4", new)),  # the same there
            _source("E", _fp("dvother", "object", "dvother.f", "2.4", old)),  # changed
            _source("F", _fp("dvgone", "object", "dvgone.g", "1.0", old)),  # no package there
            _source("G", _fp("dvother", "file", "dvother/nada.py", "2.4", old)),  # no file there
        ]
    )
    text = f'---\ntitle: "Guía"\nsources:\n{sources}---\n\nTexto.\n'
    project.page("guia/pagina.md", text)
    project.page("otra.md", '---\ntitle: "Otra"\nsources:\n' + _source("A") + "---\n\nTexto.\n")
    store = project.root / "fingerprints"
    store.mkdir()
    (store / f"{old}.txt").write_text(OLD, encoding="utf-8")
    cfg = project.config
    found = canary_sources.changes(cfg, read_site(cfg), path)
    common = {"page": "guia/pagina.md", "path": "docs/guia/pagina.md", "sha256": old}
    assert [c.data() for c in found] == [
        common
        | {
            "line": _line(text, "E", "object:"),
            "reference": "E",
            "title": "Título E",
            "package": "dvother",
            "target": "dvother.f",
            "verified_version": "2.4",
            "version": "2.5",
            "new_sha256": new,
            "problem": "",
            "diff": "--- dvother.f (dvother 2.4), verificado\n"
            "+++ dvother.f (dvother 2.5), instalado\n"
            "@@ -1,2 +1,2 @@\n def f():\n-    return 'antes'\n+    return 'otro'\n",
        },
        common
        | {
            "line": _line(text, "F", "object:"),
            "reference": "F",
            "title": "Título F",
            "package": "dvgone",
            "target": "dvgone.g",
            "verified_version": "1.0",
            "version": None,
            "new_sha256": None,
            "problem": "el paquete «dvgone» no está instalado",
            "diff": "",
        },
        common
        | {
            "line": _line(text, "G", "file:"),
            "reference": "G",
            "title": "Título G",
            "package": "dvother",
            "target": "dvother/nada.py",
            "verified_version": "2.4",
            "version": "2.5",  # the package is there, the file is not
            "new_sha256": None,
            "problem": "el archivo «dvother/nada.py» no existe en el paquete instalado",
            "diff": "",
        },
    ]
    assert all(isinstance(c, canary_sources.SourceChange) for c in found)


def test_a_fingerprint_without_key_lines_is_placed_on_its_own_line(
    project: Project, tmp_path: Path
) -> None:
    """Front matter made in code has no key lines: the change names the fingerprint's line (here
    the one `sources:` stands for)."""
    fingerprint = {"package": "dvgone", "version": "1.0", "object": "dvgone.g", "sha256": "0" * 64}
    meta = LineDict(
        sources=[
            {"title": "T", "reference": "R", "verified": "2026-09-23", "fingerprint": fingerprint}
        ]
    )
    meta.key_lines = {"sources": 3}
    cfg = project.config
    page = Page(cfg.docs_dir / "a.md", "a.md", meta, "", 1)
    [change] = canary_sources.changes(cfg, [page], [str(tmp_path / "vacío")])
    assert (change.reference, change.line, change.new_sha256) == ("R", 3, None)
