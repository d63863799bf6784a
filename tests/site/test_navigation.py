"""site.navigation: reading the nav of mkdocs.yml with its lines, whatever tags it holds."""

from __future__ import annotations

from pathlib import Path

from docverify.site import navigation


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
