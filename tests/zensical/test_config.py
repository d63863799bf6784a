"""Zensical's configuration is derived from mkdocs.yml at each build: what changes, what stays."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from conftest import ROOT
from docverify.output import markup
from docverify.zensical import zensical_config

CHANGED = {"hooks", "watch", "docs_dir", "site_dir", "plugins", "theme", "markdown_extensions"}


def _names(extensions: list[object]) -> list[str]:
    return [e if isinstance(e, str) else next(iter(e)) for e in extensions]  # type: ignore[arg-type]


def test_the_derived_configuration_of_the_site(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SITE_URL", "https://ejemplo.org/pytorch-es/")
    source = zensical_config.load(ROOT / "mkdocs.yml")
    derived = zensical_config.derive(source, ROOT)
    # Zensical would ignore hooks silently, and execute blocks if markdown-exec were a plugin.
    assert "hooks" not in derived and "watch" not in derived
    assert derived["plugins"] == ["search"]
    assert "markdown-exec" not in zensical_config.dump(derived, ROOT / "mkdocs.yml")
    assert (derived["docs_dir"], derived["site_dir"]) == (
        zensical_config.DOCS,
        zensical_config.SITE,
    )
    assert derived["theme"]["custom_dir"] == zensical_config.OVERRIDES
    assert derived["theme"]["name"] == "material" and derived["theme"]["variant"] == "classic"
    assert derived["site_url"] == "https://ejemplo.org/pytorch-es/"  # !ENV, as MkDocs reads it
    assert "/cuadernos/" in derived["not_in_nav"]
    # Everything else is the source's: nothing kept by hand.
    for key in set(source) - CHANGED:
        assert derived[key] == source[key], key
    assert {k: v for k, v in derived["theme"].items() if k not in ("custom_dir", "variant")} == {
        **{k: v for k, v in source["theme"].items() if k != "custom_dir"},
        "name": "material",
    }
    assert _names(derived["markdown_extensions"]) == _names(source["markdown_extensions"])
    extensions = {_names([e])[0]: e for e in derived["markdown_extensions"]}
    snippets = extensions["pymdownx.snippets"]["pymdownx.snippets"]
    assert all(Path(p).is_absolute() and Path(p).is_dir() for p in snippets["base_path"])
    fences = extensions["pymdownx.superfences"]["pymdownx.superfences"]["custom_fences"]
    assert [(f["name"], f["format"]) for f in fences] == [
        (markup.OUTPUT_FENCE, markup.format_output),
        (markup.RAW_FENCE, markup.format_raw),
    ]


def test_the_written_configuration_names_the_output_formatter(tmp_path: Path) -> None:
    """Zensical reads YAML with PyYAML's full loader: the formatter goes by its Python name."""
    text = zensical_config.dump(
        zensical_config.derive(zensical_config.load(ROOT / "mkdocs.yml"), ROOT), ROOT / "mkdocs.yml"
    )
    assert text.startswith("# Generado por «docverify zensical»"), text[:80]
    assert "!!python/name:docverify.output.markup.format_output" in text
    loaded = yaml.load(text, Loader=yaml.Loader)  # what Zensical does
    extensions = {_names([e])[0]: e for e in loaded["markdown_extensions"]}
    fence = extensions["pymdownx.superfences"]["pymdownx.superfences"]["custom_fences"][0]
    assert fence["format"] is markup.format_output


def test_an_unreadable_mkdocs_yml_is_a_spanish_error(tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: [sin cerrar\n", encoding="utf-8")
    with pytest.raises(zensical_config.ConfigError, match="no se puede leer"):
        zensical_config.load(tmp_path / "mkdocs.yml")
