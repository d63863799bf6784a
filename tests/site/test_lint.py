"""site.lint: one located finding per structural problem, on the new article of a copy of the site.

Each test edits the article that `docverify new` wrote (conftest's `authored`), so what is edited
is the scaffold's, whatever the site's own articles say, in a copy of the site reduced to that
article, the home page and the verification page (conftest's `small`: the lint of the whole
site again for each test found nothing more). The copy starts with no error; INFO (a source due
for review soon) is never a problem here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import NEW_PAGE, NEW_SLUG
from docverify import build
from docverify.core import config as config_mod
from docverify.core.findings import Finding, errors
from docverify.core.kinds import Kind
from docverify.site import scaffold

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
    # The unknown key is no part; the missing one is located at line 1 of the page.
    finding = _one(site_root, Kind.MISSING_PART)
    assert finding.where == f"{NEW_PAGE}:1" and "approach" in finding.message


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
