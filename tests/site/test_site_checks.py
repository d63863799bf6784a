"""site.checks: what the build, `docverify lint` and `docverify check` share.

Throwaway projects: the exact finding for each page name the build reserves, the day the
sources are judged on, which pages get the checks of an article, and the articles' order.
"""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import Project
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_site
from docverify.site import checks, navigation
from support.glossary import GLOSSARY

REPORT_MESSAGE = (
    "docs/verificacion.md es el nombre del informe de verificación, que se genera al construir: "
    "esta página no se publicaría."
)
GLOSSARY_MESSAGE = (
    "docs/glosario.md es el nombre del glosario, que se genera al construir a partir de "
    "docs/glosario.yml: esta página no se publicaría."
)


def test_each_reserved_name_has_its_own_finding(project: Project) -> None:
    project.page("verificacion.md", "# Mi informe\n")
    project.page("glosario.md", "# Mi glosario\n")
    project.page("otra.md", "# Otra\n")
    cfg = project.config
    by_path = {f.path: f for f in checks.reserved(cfg, read_site(cfg))}
    assert by_path == {
        "docs/verificacion.md": Finding(
            Kind.RESERVED_PAGE,
            REPORT_MESSAGE,
            "docs/verificacion.md",
            1,
            "renombra la página (y su entrada del nav).",
        ),
        "docs/glosario.md": Finding(
            Kind.RESERVED_PAGE,
            GLOSSARY_MESSAGE,
            "docs/glosario.md",
            1,
            "renombra la página (y su entrada del nav); los términos van en docs/glosario.yml.",
        ),
    }


def test_a_page_with_another_name_is_not_reserved(project: Project) -> None:
    project.page("verificacion-local.md", "# Otra\n")
    project.page("articulos/glosario.md", "# Otra\n")
    cfg = project.config
    assert checks.reserved(cfg, read_site(cfg)) == []


ARTICLE = """\
---
title: "A"
sources:
  - title: "X"
---

## Cuerpo

Un gráfico computacional.
"""


def _site(project: Project) -> None:
    """An article (missing parts, an incomplete source, an avoided phrase), a home page that
    is no article (a build word, a malformed origin) and a build word in the glossary."""
    project.page("glosario.yml", GLOSSARY.replace("Registro de las", "Registro grabado de las"))
    project.page("index.md", "---\norigin: 3\n---\n\n# Inicio\n\nEl runner.\n")
    project.page("articulos/a.md", ARTICLE)


def test_every_check_of_each_page_in_page_order(project: Project) -> None:
    _site(project)
    cfg = project.config
    found = checks.per_page(cfg, read_site(cfg), dt.date(2030, 1, 2))
    article = "docs/articulos/a.md"
    assert [(f.kind, f.path, f.line) for f in found.findings] == [
        *[(Kind.MISSING_PART, article, 1)] * 6,
        *[(Kind.MISSING_PART, article, 7)] * 3,
        (Kind.INCOMPLETE_SOURCE, article, 4),
        (Kind.AVOIDED_PHRASE, article, 9),
        (Kind.BUILD_WORD, "docs/index.md", 7),
        (Kind.BUILD_WORD, "docs/glosario.yml", 4),
        (Kind.MALFORMED_ORIGIN, "docs/index.md", 2),
    ]
    # Only the article has an anatomy: its own parts, and the notebook's names check with them.
    assert list(found.anatomy) == ["articulos/a.md"]
    assert found.anatomy["articulos/a.md"] == found.findings[:9]
    assert [t.term for t in found.glossary.terms] == [
        "grafo",
        "retropropagación",
        "hoja",
        "backward",
        "grad_fn",
    ]


def test_a_site_without_a_glossary_file_has_none(project: Project) -> None:
    project.page("index.md", "# Inicio\n")
    cfg = project.config
    assert checks.per_page(cfg, read_site(cfg)).glossary is None


def test_sources_are_judged_on_the_day_given(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "86400")
    project.page("index.md", "# Inicio\n")
    cfg = project.config
    assert checks.per_page(cfg, read_site(cfg), dt.date(2030, 1, 2)).fresh.today == dt.date(
        2030, 1, 2
    )


def test_without_a_day_sources_are_judged_today(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "86400")  # one day after 1970-01-01, UTC
    project.page("index.md", "# Inicio\n")
    cfg = project.config
    assert checks.per_page(cfg, read_site(cfg)).fresh.today == dt.date(1970, 1, 2)


def test_articles_follow_the_navigation_when_there_is_one(project: Project) -> None:
    for rel in ("index.md", "articulos/a.md", "articulos/b.md"):
        project.page(rel, "# Página\n")
    (project.root / "mkdocs.yml").write_text(
        "site_name: x\nnav:\n  - index.md\n  - articulos/b.md\n  - articulos/a.md\n", "utf-8"
    )
    cfg = project.config
    pages = read_site(cfg)
    assert [p.rel for p in checks.articles(pages)] == ["articulos/a.md", "articulos/b.md"]
    # Without a navigation, the order the pages were given in.
    backwards = checks.articles(pages[::-1])
    assert [p.rel for p in backwards] == ["articulos/b.md", "articulos/a.md"]
    in_nav = checks.articles(pages, navigation.of_project(cfg))
    assert [p.rel for p in in_nav] == ["articulos/b.md", "articulos/a.md"]


def test_the_whole_site_joins_nav_unused_reserved_and_orphans(project: Project) -> None:
    project.page("verificacion.md", "# Mío\n")
    project.page("index.md", "# Inicio\n")
    project.snippet("suelto.py", "print(1)\n")
    project.snippet("viejo/x.cpu.txt", "1\n")
    (project.root / "mkdocs.yml").write_text("site_name: x\nnav:\n  - index.md\n", "utf-8")
    cfg = project.config
    found = checks.site_wide(cfg, read_site(cfg), navigation.of_project(cfg))
    assert [(f.kind, f.path) for f in found] == [
        (Kind.PAGE_NOT_IN_NAV, "docs/verificacion.md"),
        (Kind.UNUSED_SNIPPET, "snippets/suelto.py"),
        (Kind.RESERVED_PAGE, "docs/verificacion.md"),
        (Kind.ORPHAN_RECORDING, "snippets/viejo/x.cpu.txt"),
    ]
