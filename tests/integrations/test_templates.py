"""Builds in one process compile the theme's templates once (docverify/integrations/templates.py):
what `mkdocs serve` does on every edit. An edited template is compiled again."""

from __future__ import annotations

from pathlib import Path

import jinja2
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


def _render(cache: templates.MemoryBytecodeCache, sources: dict[str, str], name: str) -> str:
    """A fresh environment, as MkDocs makes one per build, sharing `cache`."""
    environment = jinja2.Environment(
        loader=jinja2.DictLoader(sources), bytecode_cache=cache, autoescape=True
    )
    return environment.get_template(name).render(x="equis")


def test_the_memory_cache_gives_back_only_what_was_compiled_from_the_same_source() -> None:
    cache = templates.MemoryBytecodeCache()
    sources = {"a.html": "A {{ x }}", "b.html": "B {{ x }}"}
    assert _render(cache, sources, "a.html") == "A equis"
    assert cache.hits == 0  # compiled the first time
    assert _render(cache, sources, "a.html") == "A equis"
    assert cache.hits == 1  # not compiled again
    assert _render(cache, sources, "b.html") == "B equis"
    assert cache.hits == 1  # another template: compiled
    sources["a.html"] = "A editada {{ x }}"
    assert _render(cache, sources, "a.html") == "A editada equis"  # never the stale code
    assert cache.hits == 1
    assert _render(cache, sources, "a.html") == "A editada equis"
    assert cache.hits == 2  # the edited one, kept in its turn
    cache.clear()
    assert _render(cache, sources, "b.html") == "B equis"
    assert cache.hits == 2  # cleared: compiled again


def test_an_empty_bucket_is_not_kept() -> None:
    cache = templates.MemoryBytecodeCache()
    bucket = jinja2.bccache.Bucket(jinja2.Environment(), "clave", "suma")
    cache.dump_bytecode(bucket)  # nothing compiled in it
    cache.load_bytecode(bucket)
    assert bucket.code is None and cache.hits == 0
    assert isinstance(templates.CACHE, templates.MemoryBytecodeCache)
