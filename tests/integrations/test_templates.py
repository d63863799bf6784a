"""Builds in one process compile the theme's templates once (docverify/integrations/templates.py):
what `mkdocs serve` does on every edit. An edited template is compiled again."""

from __future__ import annotations

from pathlib import Path

from conftest import NEW_PAGE, mkdocs_build
from docverify.integrations import templates

ARTICLE = NEW_PAGE.removeprefix("docs/").removesuffix(".md")


def test_a_second_build_compiles_no_template_again_but_an_edited_one(
    small_copy: Path, tmp_path: Path
) -> None:
    root = small_copy
    assert mkdocs_build(root, tmp_path / "uno").returncode == 0
    hits = templates.CACHE.hits
    assert mkdocs_build(root, tmp_path / "dos").returncode == 0
    reused = templates.CACHE.hits - hits
    assert reused > 10, reused  # the theme's templates, not compiled again
    first = (tmp_path / "uno" / ARTICLE / "index.html").read_text(encoding="utf-8")
    assert (tmp_path / "dos" / ARTICLE / "index.html").read_text(encoding="utf-8") == first

    override = root / "overrides" / "main.html"
    override.write_text(
        override.read_text(encoding="utf-8")
        + "{% block footer %}PLANTILLA-EDITADA{% endblock %}\n",
        encoding="utf-8",
    )
    hits = templates.CACHE.hits
    assert mkdocs_build(root, tmp_path / "tres").returncode == 0
    assert 0 < templates.CACHE.hits - hits < reused  # all but what the edit touched
    assert "PLANTILLA-EDITADA" in (tmp_path / "tres" / ARTICLE / "index.html").read_text("utf-8")
