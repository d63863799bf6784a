"""Authoring: `docverify new` → `docverify record` → strict build; the structure lint; the guide."""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from conftest import BIN, ROOT, mkdocs_build
from docverify.cli import main as cli
from docverify.core import config as config_mod
from docverify.core.findings import Finding
from docverify.parsing.pages import OUR_OPTIONS, read_page, read_site
from docverify.site import lint, navigation, scaffold

SLUG = "tensores-basicos"
TITLE = "Tensores básicos: crear y operar"
PAGE = f"docs/articulos/{SLUG}.md"
EXERCISE = "docs/articulos/primer-ejercicio.md"


def docverify(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    return subprocess.run(
        [str(BIN / "docverify"), *args],
        cwd=root,
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=300,
    )


def lint_findings(root: Path) -> list[Finding]:
    return lint.run(config_mod.load(root))


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} no está en {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# --- docverify new -> record -> strict build ------------------------------------------------


@pytest.mark.slow
def test_new_record_then_strict_build(site_copy: Callable[[], Path], tmp_path: Path) -> None:
    root = site_copy()
    mkdocs_before = (root / "mkdocs.yml").read_text(encoding="utf-8")
    mode_before = (root / "mkdocs.yml").stat().st_mode

    new = docverify(root, "new", SLUG, TITLE)
    assert new.returncode == 0, new.stderr
    assert f"docverify record --runner cpu {PAGE}" in new.stdout  # the next step, spelled out
    # The nav gained exactly one line; the rest of mkdocs.yml is untouched.
    after = (root / "mkdocs.yml").read_text(encoding="utf-8").split("\n")
    before = mkdocs_before.split("\n")
    added = [line for line in after if line not in before]
    assert added == [f"      - articulos/{SLUG}.md"]
    assert [line for line in after if line not in added] == before
    assert (root / "mkdocs.yml").stat().st_mode == mode_before

    # Before recording, lint names the one missing recording and the command that records it.
    missing = lint_findings(root)
    assert [f.kind for f in missing] == ["grabacion-ausente"], missing
    assert f"docverify record --runner cpu {PAGE}" in missing[0].fix

    record = docverify(root, "record", "--runner", "cpu", PAGE)
    assert record.returncode == 0, record.stdout + record.stderr
    assert "1 grabaciones escritas" in record.stdout
    assert lint_findings(root) == []

    site = tmp_path / "site"
    build = mkdocs_build(root, site)
    assert build.returncode == 0, build.stderr
    assert "WARNING" not in build.stderr and "ERROR" not in build.stderr, build.stderr

    home = (site / "index.html").read_text(encoding="utf-8")
    assert f'href="articulos/{SLUG}/"' in home  # in the navigation (and the article list)
    assert TITLE in home
    index = json.loads((site / "search/search_index.json").read_text(encoding="utf-8"))
    titles = {d["location"]: d["title"] for d in index["docs"]}
    assert titles.get(f"articulos/{SLUG}/") == TITLE
    article = (site / f"articulos/{SLUG}/index.html").read_text(encoding="utf-8")
    for part in (
        "Qué aprenderás",
        "Antes de empezar",
        "Conclusiones clave",
        "Cómo elegir",
        "Pasos de implementación",
        "Ejemplo para copiar",
        "Preguntas frecuentes",
        "Fuentes",
        "tensor(6.)",
        "CPU ✓",
    ):
        assert part in article, part
    assert f"Fuente verificada {config_mod.today().isoformat()}" in article


def test_new_article_has_every_part(mini: Path) -> None:
    """The scaffold passes the anatomy check as written, with today's date on its source."""
    root = mini
    assert cli.main(["new", SLUG, TITLE]) == 0
    cfg = config_mod.load(root)
    page = read_page(cfg, root / PAGE)
    assert [b.id for b in page.blocks] == [scaffold.FIRST_BLOCK_ID]
    assert page.blocks[0].snippet == f"articulos/{SLUG}/{scaffold.FIRST_SNIPPET}"
    assert page.meta["title"] == TITLE
    assert page.meta["sources"][0]["verified"] == config_mod.today().isoformat()
    # Only the recording is missing: every other check passes (a.md is a bare stub, not ours).
    pages = read_site(cfg)
    mine = lint.select(cfg, lint.run(cfg, pages), [PAGE], pages)
    assert [f.kind for f in mine] == ["grabacion-ausente"], mine
    assert "pagina-fuera-del-nav" not in {f.kind for f in lint.run(cfg, pages)}


@pytest.mark.parametrize("existing", ["page", "snippet", "nav"])
def test_new_refuses_to_overwrite(
    mini: Path, existing: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = mini
    target = {
        "page": root / PAGE,
        "snippet": root / f"snippets/articulos/{SLUG}/{scaffold.FIRST_SNIPPET}",
        "nav": root / "mkdocs.yml",
    }[existing]
    if existing == "nav":
        edit(
            target, "      - articulos/a.md", f"      - articulos/a.md\n      - articulos/{SLUG}.md"
        )
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("texto del autor\n", encoding="utf-8")
    before = _snapshot(root)
    assert cli.main(["new", SLUG, TITLE]) != 0
    assert _snapshot(root) == before, "no debe escribir nada"
    err = capsys.readouterr().err
    assert "docverify new:" in err and ("ya existe" in err or "ya está" in err), err


@pytest.mark.parametrize("slug", ["Con_Mayusculas", "guion_bajo", "con espacio", "acentuación"])
def test_new_rejects_bad_slugs(mini: Path, slug: str, capsys: pytest.CaptureFixture[str]) -> None:
    root = mini
    before = _snapshot(root)
    assert cli.main(["new", slug, TITLE]) == 2
    assert _snapshot(root) == before
    assert "slug" in capsys.readouterr().err


def test_new_without_articles_section_writes_nothing(mini: Path) -> None:
    root = mini
    (root / "mkdocs.yml").write_text("site_name: x\nnav:\n  - Inicio: index.md\n", encoding="utf-8")
    before = _snapshot(root)
    assert cli.main(["new", SLUG, TITLE]) == 2
    assert _snapshot(root) == before


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Material-style nav, indented, with a section after «Artículos» and a comment.
        (
            "nav:\n  - Inicio: index.md\n  - Artículos:\n      - articulos/a.md  # primero\n"
            "  - Guía: guia.md\nextra: !!python/name:os.getcwd\n",
            "nav:\n  - Inicio: index.md\n  - Artículos:\n      - articulos/a.md  # primero\n"
            "      - articulos/nuevo.md\n  - Guía: guia.md\nextra: !!python/name:os.getcwd\n",
        ),
        # Items at column 0, titled children, and the section last in the file.
        (
            "site_name: x\nnav:\n- index.md\n- 'Artículos':\n  - A: articulos/a.md\n",
            "site_name: x\nnav:\n- index.md\n- 'Artículos':\n  - A: articulos/a.md\n"
            "  - articulos/nuevo.md\n",
        ),
    ],
)
def test_add_to_nav_is_a_one_line_text_edit(text: str, expected: str) -> None:
    assert scaffold.add_to_nav(text, "articulos/nuevo.md") == expected


# --- structure lint: one located finding per problem ----------------------------------------


@pytest.fixture
def site_root(site_copy: Callable[[], Path]) -> Path:
    root = site_copy()
    assert lint_findings(root) == [], "la copia del sitio debe empezar sin problemas"
    return root


def _one(root: Path, kind: str) -> Finding:
    findings = lint_findings(root)
    assert [f.kind for f in findings] == [kind], [f.format() for f in findings]
    finding = findings[0]
    assert (root / finding.path).is_file() and finding.line >= 1
    return finding


def test_lint_removed_required_part(site_root: Path) -> None:
    page = site_root / EXERCISE
    edit(page, "## Pasos de implementación\n", "")
    finding = _one(site_root, "parte-ausente")
    assert finding.path == EXERCISE and "Pasos de implementación" in finding.message
    lines = page.read_text(encoding="utf-8").split("\n")
    assert lines[finding.line - 1].startswith("## ")  # located at the nearest heading


def test_lint_removed_front_matter_part(site_root: Path) -> None:
    edit(site_root / EXERCISE, "approach:", "enfoque:")
    # The unknown key is no part; the missing one is located at line 1 of the page.
    finding = _one(site_root, "parte-ausente")
    assert finding.where == f"{EXERCISE}:1" and "approach" in finding.message


def test_lint_duplicated_id(site_root: Path) -> None:
    page = site_root / EXERCISE
    block = (
        '```python exec="on" id="derivada"\n--8<-- "articulos/primer-ejercicio/derivada.py"\n```'
    )
    edit(page, "## Observar la acumulación", f"{block}\n\n## Observar la acumulación")
    finding = _one(site_root, "id-duplicado")
    lines = page.read_text(encoding="utf-8").split("\n")
    assert finding.path == EXERCISE
    assert lines[finding.line - 1] == '```python exec="on" id="derivada"'
    assert lines.index(lines[finding.line - 1]) + 1 < finding.line  # the second one


def test_lint_orphan_snippet(site_root: Path) -> None:
    (site_root / "snippets/articulos/primer-ejercicio/olvidado.py").write_text("print(1)\n")
    finding = _one(site_root, "snippet-sin-uso")
    assert finding.where == "snippets/articulos/primer-ejercicio/olvidado.py:1"


def test_lint_orphan_recording(site_root: Path) -> None:
    edit(site_root / EXERCISE, 'id="ejemplo"', 'id="ejemplo-renombrado"')
    findings = lint_findings(site_root)
    kinds = sorted(f.kind for f in findings)
    # The renamed block has no recording; the old recording has no block.
    assert kinds == ["grabacion-ausente", "grabacion-huerfana"], findings
    orphan = next(f for f in findings if f.kind == "grabacion-huerfana")
    assert orphan.path == "snippets/articulos/primer-ejercicio/ejemplo.cpu.txt"


def test_lint_invalid_source_date(site_root: Path) -> None:
    page = site_root / EXERCISE
    edit(page, 'verified: "2026-09-23"', 'verified: "2026-02-30"')
    finding = _one(site_root, "fecha-invalida")
    lines = page.read_text(encoding="utf-8").split("\n")
    assert "2026-02-30" in lines[finding.line - 1]


def test_lint_navigation(site_root: Path) -> None:
    (site_root / "docs/suelto.md").write_text("# Suelto\n", encoding="utf-8")
    finding = _one(site_root, "pagina-fuera-del-nav")
    assert finding.where == "docs/suelto.md:1"
    (site_root / "docs/suelto.md").unlink()
    edit(
        site_root / "mkdocs.yml", "articulos/arquitectura-autograd.md", "articulos/arquitectura.md"
    )
    findings = lint_findings(site_root)
    assert sorted(f.kind for f in findings) == ["nav-entrada-inexistente", "pagina-fuera-del-nav"]
    entry = next(f for f in findings if f.kind == "nav-entrada-inexistente")
    lines = (site_root / "mkdocs.yml").read_text(encoding="utf-8").split("\n")
    assert entry.path == "mkdocs.yml" and "articulos/arquitectura.md" in lines[entry.line - 1]


def test_lint_command_on_paths(site_root: Path) -> None:
    """`docverify lint PATHS` (what pre-commit runs) reports the problems of those files, and
    for a page those of its snippets and recordings; it exits non-zero only for them."""
    edit(site_root / EXERCISE, 'id="ejemplo"', 'id="ejemplo-renombrado"')
    (site_root / "snippets/articulos/arquitectura-autograd/olvidado.py").write_text("x = 1\n")
    page = docverify(site_root, "lint", EXERCISE)
    assert page.returncode == 1
    assert "[grabacion-huerfana]" in page.stderr and "[grabacion-ausente]" in page.stderr
    assert "olvidado.py" not in page.stderr
    other = docverify(site_root, "lint", "docs/articulos/arquitectura-autograd.md")
    assert other.returncode == 1 and "[snippet-sin-uso]" in other.stderr
    assert "ejemplo" not in other.stderr
    index = docverify(site_root, "lint", "docs/index.md")
    assert index.returncode == 0 and "0 errores" in index.stdout
    whole = docverify(site_root, "lint")
    assert whole.returncode == 1 and "3 errores" in whole.stdout


@pytest.mark.slow
def test_build_reports_navigation_and_unused_snippets(
    site_copy: Callable[[], Path], tmp_path: Path
) -> None:
    """The build runs the same site-wide checks as the lint."""
    root = site_copy()
    (root / "snippets/articulos/primer-ejercicio/olvidado.py").write_text("print(1)\n")
    (root / "docs/suelto.md").write_text("# Suelto\n", encoding="utf-8")
    build = mkdocs_build(root, tmp_path / "site")
    assert build.returncode != 0
    assert "snippets/articulos/primer-ejercicio/olvidado.py:1: [snippet-sin-uso]" in build.stderr
    assert "docs/suelto.md:1: [pagina-fuera-del-nav]" in build.stderr


# --- the author guide -----------------------------------------------------------------------

GUIDE = ROOT / "docs/guia-autores.md"


def test_guide_examples_are_real_blocks() -> None:
    """Every option the guide teaches is used by one of its executed, recorded blocks."""
    cfg = config_mod.load(ROOT)
    page = read_page(cfg, GUIDE)
    assert page.findings == []
    assert len(page.blocks) >= 6, [b.id for b in page.blocks]
    used = {name for b in page.blocks for name in b.options}
    taught = (OUR_OPTIONS - {"reason"}) | {"session"}
    assert taught <= used, f"opciones sin ejemplo ejecutado: {sorted(taught - used)}"
    assert all(b.snippet and b.snippet.startswith("guia-autores/") for b in page.blocks)
    assert not [
        f
        for f in lint.run(cfg)
        if f.path in {"docs/guia-autores.md"} or f.path.startswith("snippets/guia-autores/")
    ]
    text = GUIDE.read_text(encoding="utf-8")
    for needle in (
        "# Expectativa:",
        "[..]",
        "docverify record",
        "CI=true",
        "git diff",
        "fingerprint:",
        "sha256",
        "docverify sources --reverify",
        "docverify check --runner gpu",
        "docverify record --runner gpu",
        "GPU: pendiente",
        "docverify new",
        "docverify lint",
    ):
        assert needle in text, needle
    placeholder = [
        b
        for b in page.blocks
        if (cfg.snippets_dir / "guia-autores" / f"{b.id}.cpu.txt").read_text().count("[..]")
    ]
    assert placeholder, "ningún ejemplo tiene un marcador [..] en su grabación"


@pytest.mark.slow
def test_guide_is_built_and_verified(built_site: Path) -> None:
    html = (built_site / "guia-autores/index.html").read_text(encoding="utf-8")
    assert "Guía para autores" in (built_site / "index.html").read_text(encoding="utf-8")
    assert "Esperado 27 · Observado <code>27.0</code> ✓" in html
    assert "RuntimeError: The size of tensor a (2) must match" in html
    assert "dirección de memoria: 0x" in html  # observed, matched against «[..]»
    assert "Solo CPU:" in html
    assert html.count("Salida · CPU ✓") >= 6


# --- helpers --------------------------------------------------------------------------------


@pytest.fixture
def mini(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A minimal project (pyproject, docs, mkdocs.yml with «Artículos»), as the cwd."""
    root = tmp_path / "mini"
    (root / "docs/articulos").mkdir(parents=True)
    (root / "snippets").mkdir()
    (root / "pyproject.toml").write_text('[tool.docverify]\ndocs_dir = "docs"\n', encoding="utf-8")
    (root / "docs/articulos/a.md").write_text("# A\n", encoding="utf-8")
    (root / "mkdocs.yml").write_text(
        "site_name: x\nnav:\n  - Artículos:\n      - articulos/a.md\n", encoding="utf-8"
    )
    monkeypatch.chdir(root)
    return root


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


# --- navigation parsing and pre-commit ------------------------------------------------------


def test_navigation_reads_lines_and_tolerates_tags(tmp_path: Path) -> None:
    text = (
        "site_name: x\n"
        "markdown_extensions:\n"
        "  - pymdownx.emoji:\n"
        "      emoji_index: !!python/name:material.extensions.emoji.twemoji\n"
        "not_in_nav: |\n"
        "  /borradores/*.md\n"
        "nav:\n"
        "  - index.md\n"
        "  - Artículos:\n"
        "      - Uno: articulos/uno.md\n"
        "  - Fuera: https://pytorch.org/\n"
        "  - Env: !ENV [NAV_PAGE, 'otra.md']\n"
    )
    nav = navigation.parse(text, tmp_path / "mkdocs.yml")
    assert nav is not None
    assert [(e.target, e.title, e.line) for e in nav.entries] == [
        ("index.md", None, 8),
        ("articulos/uno.md", "Uno", 10),
    ]
    assert nav.not_in_nav == ("/borradores/*.md",)
    assert navigation.parse("site_name: x\n", tmp_path / "mkdocs.yml") is None


def test_pre_commit_runs_ruff_and_docverify_lint() -> None:
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    hooks = {h["id"]: h for repo in config["repos"] for h in repo["hooks"]}
    assert {"ruff-check", "ruff-format", "docverify-lint"} <= set(hooks)
    assert hooks["ruff-format"]["entry"].startswith("ruff format")
    assert hooks["docverify-lint"]["entry"] == "docverify lint"
    for hook in hooks.values():  # every tool comes from the project's environment
        assert (BIN / hook["entry"].split()[0]).is_file(), hook["entry"]
    files = re.compile(hooks["docverify-lint"]["files"])
    for path in ("docs/articulos/x.md", "snippets/articulos/x/a.py", "mkdocs.yml"):
        assert files.search(path), path
    for path in ("hooks/docverify/lint.py", "tests/test_site.py", "docs.md"):
        assert not files.search(path), path
    if (BIN / "pre-commit").is_file():
        check = subprocess.run(
            [str(BIN / "pre-commit"), "validate-config", str(ROOT / ".pre-commit-config.yaml")],
            capture_output=True,
            text=True,
            check=False,
        )
        assert check.returncode == 0, check.stdout + check.stderr
