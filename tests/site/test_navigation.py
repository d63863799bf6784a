"""site.navigation: reading the nav of mkdocs.yml with its lines, whatever tags it holds."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import Project
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_site
from docverify.site import navigation
from support.locale_c import ascii_locale


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


def _nav(project: Project, body: str) -> navigation.Nav:
    (project.root / "mkdocs.yml").write_text(f"site_name: x\n{body}", encoding="utf-8")
    nav = navigation.of_project(project.config)
    assert nav is not None
    return nav


def test_entries_skip_links_anchors_and_empty_values_and_are_normalised(tmp_path: Path) -> None:
    text = (
        "nav:\n"
        "  - ./a/../b.md\n"  # line 2
        "  - Inicio: index.md\n"
        "  - Correo: mailto:alguien@example.org\n"
        "  - Ancla: '#seccion'\n"
        "  - Raíz: /absoluta.md\n"
        "  - Web: http://example.org/a.md\n"
        "  - Vacía: ''\n"
        "  - Grupo:\n"
        "      - Dentro: grupo/c.md\n"  # line 10
        "not_in_nav:\n"
        "  - una lista no es un patrón\n"
    )
    nav = navigation.parse(text, tmp_path / "mkdocs.yml")
    assert nav == navigation.Nav(
        tmp_path / "mkdocs.yml",
        (
            navigation.NavEntry("b.md", None, 2),
            navigation.NavEntry("index.md", "Inicio", 3),
            navigation.NavEntry("grupo/c.md", "Dentro", 10),
        ),
        (),
    )


def test_not_in_nav_patterns_drop_blank_lines_and_spaces(tmp_path: Path) -> None:
    text = "nav:\n  - index.md\nnot_in_nav: |\n\n  a/*.md  \n\n  b.md\n  mis notas/*.md\n"
    nav = navigation.parse(text, tmp_path / "mkdocs.yml")
    assert nav is not None and nav.not_in_nav == ("a/*.md", "b.md", "mis notas/*.md")


def test_the_file_is_read_as_utf8_whatever_the_locale(project: Project) -> None:
    _nav(project, "nav:\n  - Artículos:\n      - Qué es: articulos/qué.md\n")
    with ascii_locale():
        nav = navigation.of_project(project.config)
    assert nav is not None and nav.entries == (
        navigation.NavEntry("articulos/qué.md", "Qué es", 4),
    )


def test_what_is_not_a_navigation(tmp_path: Path) -> None:
    path = tmp_path / "mkdocs.yml"
    assert navigation.parse("- una\n- lista\n", path) is None
    with pytest.raises(ValueError, match=r"mkdocs\.yml: YAML no válido: ") as bad:
        navigation.parse("nav: [a\n", path)
    assert str(bad.value).startswith(f"{path}: YAML no válido: ")
    assert navigation.of_project(Project(tmp_path / "sin").config) is None


def test_pages_in_reading_order() -> None:
    pages = [SimpleNamespace(rel=r) for r in ("z.md", "c.md", "a.md", "b.md", "y.md")]
    nav = navigation.Nav(
        Path("mkdocs.yml"),
        tuple(
            navigation.NavEntry(t, None, i)
            for i, t in enumerate(["b.md", "fuera.md", "a.md", "b.md"])
        ),
    )
    # Listed pages first, in nav order (a page listed twice keeps its first place), then the
    # others by path.
    ordered = navigation.in_order(pages, nav)  # type: ignore[arg-type]
    assert [p.rel for p in ordered] == ["b.md", "a.md", "c.md", "y.md", "z.md"]
    by_path = navigation.in_order(pages, None)  # type: ignore[arg-type]
    assert [p.rel for p in by_path] == ["a.md", "b.md", "c.md", "y.md", "z.md"]


def test_check_finds_dangling_entries_and_pages_left_out(project: Project) -> None:
    for rel in (
        "index.md",
        "suelto.md",
        "borradores/x.md",
        "notas/LEEME.md",
        "otros/y.md",
        "XLA/z.md",
    ):
        project.page(rel, "# P\n")
    nav = _nav(
        project,
        "nav:\n"
        "  - index.md\n"
        "  - Falta: falta.md\n"  # line 4 of mkdocs.yml
        "  - verificacion.md\n"
        "  - glosario.md\n"  # line 6: no docs/glosario.yml
        "not_in_nav: |\n"
        "  /borradores/*.md\n"
        "  /XLA/*.md\n"  # only the leading slash goes
        "  LEEME.md\n",
    )
    cfg = project.config
    found = navigation.check(cfg, nav, read_site(cfg))
    assert [(f.kind, f.path, f.line, f.message, f.fix) for f in found] == [
        (
            Kind.DANGLING_NAV_ENTRY,
            "mkdocs.yml",
            4,
            "la navegación enlaza «falta.md», que no existe en docs/.",
            "crea docs/falta.md o corrige la entrada del nav de mkdocs.yml "
            '(`docverify new <slug> "<título>"` crea un artículo).',
        ),
        (
            Kind.DANGLING_NAV_ENTRY,
            "mkdocs.yml",
            6,
            "la navegación enlaza «glosario.md», que se genera de docs/glosario.yml, y ese "
            "archivo no existe.",
            "crea docs/glosario.yml (su formato está en la guía de autores) o quita la entrada "
            "del nav de mkdocs.yml.",
        ),
        (
            Kind.PAGE_NOT_IN_NAV,
            "docs/otros/y.md",
            1,
            "la página «otros/y.md» no está en la navegación: los lectores no la encontrarán.",
            "añade «- otros/y.md» al nav de mkdocs.yml (los artículos, bajo «Artículos»).",
        ),
        (
            Kind.PAGE_NOT_IN_NAV,
            "docs/suelto.md",
            1,
            "la página «suelto.md» no está en la navegación: los lectores no la encontrarán.",
            "añade «- suelto.md» al nav de mkdocs.yml (los artículos, bajo «Artículos»).",
        ),
    ]
    # With its data file the glossary entry holds; without a nav nothing is checked.
    (project.root / "docs" / "glosario.yml").write_text("términos: []\n", encoding="utf-8")
    assert [f.line for f in navigation.check(cfg, nav, read_site(cfg))] == [4, 1, 1]
    assert navigation.check(cfg, None, read_site(cfg)) == []
