"""site.scaffold in process: the nav line it inserts, each refusal, what it writes and how.

`docverify new` end to end (command, record, build) is tested in tests/cli/test_new.py."""

from __future__ import annotations

import datetime as dt
import stat

import pytest
from conftest import Project
from docverify.parsing import frontmatter
from docverify.site import scaffold
from support.clock import epoch
from support.locale_c import ascii_locale

NAV = "site_name: x\nnav:\n  - Inicio: index.md\n  - Artículos:\n      - articulos/a.md\n"


def _project(project: Project, mkdocs: str = NAV) -> Project:
    (project.root / "mkdocs.yml").write_text(mkdocs, encoding="utf-8")
    return project


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # `nav:` with a comment; a blank line and a comment inside the section are skipped.
        (
            "nav:  # el índice\n  - Artículos:  # todos\n      - a.md\n\n      # b.md\n"
            "      - c.md\n",
            "nav:  # el índice\n  - Artículos:  # todos\n      - a.md\n\n      # b.md\n"
            "      - c.md\n      - nuevo.md\n",
        ),
        # Comments at any column between `nav:` and the last child are skipped, not an end.
        (
            "nav:\n# arriba\n  - Artículos:\n      - a.md\n  # nota\n      - b.md\n",
            "nav:\n# arriba\n  - Artículos:\n      - a.md\n  # nota\n      - b.md\n"
            "      - nuevo.md\n",
        ),
        # An empty section: its children go 4 columns deeper than its own item.
        (
            "nav:\n  - Artículos:\n  - Otra: o.md\n",
            "nav:\n  - Artículos:\n      - nuevo.md\n  - Otra: o.md\n",
        ),
        # Children deeper than 4 columns keep their column; a double-quoted section name.
        (
            'nav:\n- "Artículos":\n        - a.md\n        - b.md\ncopyright: x\n',
            'nav:\n- "Artículos":\n        - a.md\n        - b.md\n        - nuevo.md\n'
            "copyright: x\n",
        ),
    ],
)
def test_the_entry_goes_last_in_its_section(text: str, expected: str) -> None:
    assert scaffold.add_to_nav(text, "nuevo.md") == expected


def test_another_section_name() -> None:
    text = "nav:\n  - Artículos:\n      - a.md\n  - Guías:\n      - g.md\n"
    assert scaffold.add_to_nav(text, "h.md", "Guías") == text + "      - h.md\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "site_name: x\nnavegación:\n  - a.md\n",
            "mkdocs.yml no tiene «nav:»; añade el artículo a mano o crea el nav.",
        ),
        (
            # The section after the nav is over does not count.
            "nav:\n  - Inicio: index.md\nextra:\n  - Artículos:\n      - a.md\n",
            "el nav de mkdocs.yml no tiene la sección «Artículos:»; añádela (por ejemplo "
            "«  - Artículos:») y vuelve a ejecutar.",
        ),
        ("nav:\n  - Artículos extra:\n      - a.md\n", "el nav de mkdocs.yml no tiene la sección"),
    ],
)
def test_add_to_nav_refusals(text: str, message: str) -> None:
    with pytest.raises(scaffold.ScaffoldError) as refused:
        scaffold.add_to_nav(text, "nuevo.md")
    assert str(refused.value).startswith(message)


def test_new_article_writes_the_page_snippet_and_nav_line(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch(dt.date(2031, 4, 5)))
    cfg = _project(project).config
    mkdocs = project.root / "mkdocs.yml"
    article = scaffold.new_article(cfg, "nuevo-1", '  Un "título"  ', mkdocs)
    assert article.page == project.root / "docs/articulos/nuevo-1.md"
    assert article.snippet == project.root / "snippets/articulos/nuevo-1/primer_bloque.py"
    assert article.mkdocs_file == mkdocs
    assert article.mkdocs_text == NAV + "      - articulos/nuevo-1.md\n"
    assert article.snippet_text == scaffold.SNIPPET_TEXT
    meta = frontmatter.compose(article.page_text.split("---\n")[1])
    assert meta is not None
    front = article.page_text.split("---\n")[1]
    assert 'title: "Un \\"título\\""\n' in front  # stripped, quoted as YAML
    assert 'verified: "2031-04-05"' in front
    assert '--8<-- "articulos/nuevo-1/primer_bloque.py"' in article.page_text
    assert '```python exec="on" id="primer-bloque"' in article.page_text
    # Nothing is written before apply; apply writes exactly that.
    assert not article.page.exists() and mkdocs.read_text(encoding="utf-8") == NAV
    mkdocs.chmod(0o640)
    (project.root / "docs" / "articulos").mkdir()  # a folder that is there already is fine
    scaffold.apply(article)
    assert article.page.read_text(encoding="utf-8") == article.page_text
    assert article.snippet.read_text(encoding="utf-8") == scaffold.SNIPPET_TEXT
    assert mkdocs.read_text(encoding="utf-8") == article.mkdocs_text
    assert stat.S_IMODE(mkdocs.stat().st_mode) == 0o640
    with pytest.raises(FileExistsError):  # never over an existing file
        scaffold.apply(article)


@pytest.mark.parametrize("slug", ["Mayus", "-guion", "con_bajo", "con espacio", "ñu", "a/b", ""])
def test_bad_slugs_are_refused(project: Project, slug: str) -> None:
    cfg = _project(project).config
    with pytest.raises(scaffold.ScaffoldError) as refused:
        scaffold.new_article(cfg, slug, "T", project.root / "mkdocs.yml")
    assert str(refused.value) == (
        f"slug «{slug}» no válido: usa minúsculas, cifras y guiones "
        "(por ejemplo «tensores-basicos»)."
    )


def test_good_slugs_pass(project: Project) -> None:
    cfg = _project(project).config
    for slug in ("b", "0-x", "tensores-basicos-2"):
        scaffold.new_article(cfg, slug, "T", project.root / "mkdocs.yml")


def test_each_refusal_of_new_article(project: Project) -> None:
    cfg = _project(project).config
    mkdocs = project.root / "mkdocs.yml"

    def refusal(slug: str, title: str = "T", path=mkdocs) -> str:  # type: ignore[no-untyped-def]
        with pytest.raises(scaffold.ScaffoldError) as refused:
            scaffold.new_article(cfg, slug, title, path)
        return str(refused.value)

    assert refusal("x", " \t") == 'falta el título: docverify new <slug> "<título>".'
    project.page("articulos/hecho.md", "# Ya\n")
    assert refusal("hecho") == (
        "docs/articulos/hecho.md ya existe: no se sobrescribe. Elige otro slug o edita el "
        "archivo existente."
    )
    project.snippet("articulos/suelto/primer_bloque.py", "print(1)\n")
    assert refusal("suelto").startswith("snippets/articulos/suelto/primer_bloque.py ya existe")
    assert refusal("x", path=project.root / "otro.yml") == (
        "no existe otro.yml: ejecuta docverify new en la raíz del proyecto."
    )
    mkdocs.write_text(NAV + "  - Viejo: articulos/viejo.md  \n", encoding="utf-8")
    assert refusal("viejo") == "articulos/viejo.md ya está en el nav de mkdocs.yml."
    # A longer name that merely ends the same way is another entry.
    mkdocs.write_text(NAV + "  - articulos/viejo.md.bak\n", encoding="utf-8")
    scaffold.new_article(cfg, "viejo", "T", mkdocs)


@pytest.mark.parametrize(
    "section",
    [
        "      texto\n",  # a plain scalar: the new line would continue it, not be an entry
        "      Uno: a.md\n",  # a mapping: the new line would make the YAML invalid
    ],
)
def test_a_nav_the_insertion_would_break_is_refused(project: Project, section: str) -> None:
    """The section header is found as text, but its children are no list: the new line would
    not be a nav entry. A refusal of `new`, never a YAML error about a file nobody wrote."""
    cfg = _project(project, "nav:\n  - Artículos:\n" + section).config
    with pytest.raises(scaffold.ScaffoldError) as refused:
        scaffold.new_article(cfg, "x", "T", project.root / "mkdocs.yml")
    assert str(refused.value) == (
        "no se pudo añadir articulos/x.md al nav de mkdocs.yml; añádelo a mano bajo «Artículos»."
    )


def test_files_are_read_and_written_as_utf8_whatever_the_locale(project: Project) -> None:
    cfg = _project(project).config
    mkdocs = project.root / "mkdocs.yml"
    with ascii_locale():
        article = scaffold.new_article(cfg, "nuevo", "Qué es un tensor", mkdocs)
        scaffold.apply(article)
    assert article.page.read_text(encoding="utf-8") == article.page_text
    assert "Qué es un tensor" in article.page_text
    assert mkdocs.read_text(encoding="utf-8") == NAV + "      - articulos/nuevo.md\n"
