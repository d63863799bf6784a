"""`docverify new` (site.scaffold): a new article with every part, its nav line; record; build."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import NEW_PAGE, NEW_SLUG, Authored, Built
from docverify import build
from docverify.cli import main as cli
from docverify.core import config as config_mod
from docverify.core.findings import errors
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_page, read_site
from docverify.site import anatomy, lint, scaffold
from support.site import text_of

SLUG = "tensores-basicos"
TITLE = "Tensores básicos: crear y operar"
PAGE = f"docs/articulos/{SLUG}.md"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} no está en {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# --- docverify new -> record -> strict build (the session's shared build, see conftest) -------


def test_new_then_record_in_a_copy_of_the_site(authored: Authored) -> None:
    """`docverify new` adds one nav line and names the next step; before recording, lint names
    only the missing recording; `record` writes it."""
    new = authored.steps["new"]
    assert f"docverify record --runner cpu {NEW_PAGE}" in new["stdout"]  # the next step
    after = (authored.root / "mkdocs.yml").read_text(encoding="utf-8").split("\n")
    before = authored.mkdocs_before.split("\n")
    added = [line for line in after if line not in before]
    assert added == [f"      - articulos/{NEW_SLUG}.md"]
    assert [line for line in after if line not in added] == before
    assert [f["kind"] for f in authored.lint_before_record] == ["missing-recording"]
    assert f"docverify record --runner cpu {NEW_PAGE}" in authored.lint_before_record[0]["fix"]
    assert "1 grabación escrita" in authored.steps["record"]["stdout"]
    assert errors(build.lint(config_mod.load(authored.root))) == []


@pytest.mark.slow
def test_new_article_is_built_verified_and_found(built: Built, authored: Authored) -> None:
    site = built.site
    home = (site / "index.html").read_text(encoding="utf-8")
    assert f'href="articulos/{NEW_SLUG}/"' in home  # in the navigation (and the article list)
    assert authored.title in home
    index = json.loads((site / "search/search_index.json").read_text(encoding="utf-8"))
    titles = {d["location"]: d["title"] for d in index["docs"]}
    assert titles.get(f"articulos/{NEW_SLUG}/") == authored.title
    article = (site / f"articulos/{NEW_SLUG}/index.html").read_text(encoding="utf-8")
    labels = ("Qué aprenderás", "Antes de empezar", "Conclusiones clave", "Preguntas frecuentes")
    for part in (*labels, *anatomy.BODY_SECTIONS, scaffold.FIRST_SECTION, "Fuentes", "CPU ✓"):
        assert part in article, part
    assert f"Fuente verificada {config_mod.today().isoformat()}" in text_of(
        site, f"articulos/{NEW_SLUG}"
    )
    # The scaffold's block printed what its own expectation says.
    code = (built.root / f"snippets/articulos/{NEW_SLUG}/{scaffold.FIRST_SNIPPET}").read_text()
    expected = code.split("# Expectativa:")[1].strip()
    assert f"Esperado {expected} · Observado" in text_of(site, f"articulos/{NEW_SLUG}")


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
    mine = errors(lint.select(cfg, build.lint(cfg, pages), [PAGE], pages))
    assert [f.kind for f in mine] == [Kind.MISSING_RECORDING], mine
    assert Kind.PAGE_NOT_IN_NAV not in {f.kind for f in build.lint(cfg, pages)}


def test_new_article_list_items_are_text(mini: Path) -> None:
    """Each item of the scaffold's goals, prerequisites and takeaways is a string, and each FAQ
    and source entry holds strings: an unquoted «- Primer objetivo: …» would be read as a
    mapping and shown as «{'Primer objetivo': …}» on the home page and the article."""
    assert cli.main(["new", SLUG, TITLE]) == 0
    meta = read_page(config_mod.load(mini), mini / PAGE).meta
    for key in anatomy.LIST_PARTS:
        assert meta[key], key
        for item in meta[key]:
            values = list(item.values()) if key in ("faq", "sources") else [item]
            assert all(isinstance(v, str) for v in values), (key, item)


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


# --- the author guide -----------------------------------------------------------------------


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


# --- what `docverify new` says ------------------------------------------------------------


def test_new_says_what_it_made_and_the_next_steps(
    mini: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["new", SLUG, TITLE]) == 0
    assert capsys.readouterr().out == (
        f"creado: {PAGE}\n"
        f"creado: snippets/articulos/{SLUG}/primer_bloque.py\n"
        "añadido al nav: mkdocs.yml (sección «Artículos»)\n\n"
        "Siguientes pasos:\n"
        f"  1. Escribe el artículo y sus bloques: {PAGE}\n"
        f"  2. Graba las salidas y revisa el diff: docverify record --runner cpu {PAGE}\n"
        f"  3. Revisa la estructura: docverify lint {PAGE}\n"
        "  4. Previsualiza: mkdocs serve\n"
    )


def test_a_refusal_is_one_line_on_stderr_and_exit_2(
    mini: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (mini / PAGE).write_text("texto del autor\n", encoding="utf-8")
    assert cli.main(["new", SLUG, TITLE]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"docverify new: {PAGE} ya existe: no se sobrescribe. Elige otro slug o edita el "
        "archivo existente.\n"
    )


def test_new_help_names_its_two_arguments() -> None:
    sub = next(a for a in cli.build_parser()._actions if a.dest == "command")
    parser = sub.choices["new"]
    helps = {a.dest: a.help for a in parser._actions}
    assert helps["slug"] == "nombre del archivo, p. ej. tensores-basicos"
    assert helps["title"] == "título del artículo, entre comillas"
    assert parser.description == (
        "crea un artículo con todas sus partes, su primer bloque y su entrada en el nav"
    )
    assert parser.parse_args(["x-y", "Un título"]).title == "Un título"
