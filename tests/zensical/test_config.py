"""Zensical's configuration is derived from mkdocs.yml at each build: what changes, what stays."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml
from conftest import ROOT
from docverify.output import markup
from docverify.zensical import zensical_config
from support.locale_c import ascii_locale

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


def _load(tmp_path: Path, text: str) -> dict[str, object]:
    (tmp_path / "mkdocs.yml").write_text(text, encoding="utf-8")
    return zensical_config.load(tmp_path / "mkdocs.yml")


def test_env_values_are_read_as_mkdocs_reads_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`!ENV NAME`, `!ENV [A, B, default]`: the first variable set, else the last item."""
    monkeypatch.delenv("DV_NINGUNA", raising=False)
    monkeypatch.delenv("DV_OTRA", raising=False)
    monkeypatch.setenv("DV_UNA", "uno")
    monkeypatch.setenv("DV_DOS", "dos")
    data = _load(
        tmp_path,
        "a: !ENV DV_UNA\n"
        "b: !ENV DV_NINGUNA\n"
        "c: !ENV [DV_NINGUNA, DV_DOS, por-defecto]\n"
        "d: !ENV [DV_NINGUNA, por-defecto]\n"
        "e: !ENV [DV_NINGUNA]\n"
        "f: !ENV [DV_UNA, DV_DOS, por-defecto]\n"
        "g: !ENV [DV_NINGUNA, DV_OTRA, por-defecto]\n",
    )
    assert data == {
        "a": "uno",
        "b": None,
        "c": "dos",
        "d": "por-defecto",
        "e": None,
        "f": "uno",
        "g": "por-defecto",
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- una\n- lista\n", "no es un diccionario de YAML."),
        (
            "INHERIT: base.yml\nsite_name: x\n",
            "INHERIT no está soportado por la construcción con Zensical; escribe la "
            "configuración en un solo archivo.",
        ),
    ],
)
def test_a_mkdocs_yml_this_path_cannot_use_is_refused(
    tmp_path: Path, text: str, message: str
) -> None:
    with pytest.raises(zensical_config.ConfigError) as caught:
        _load(tmp_path, text)
    assert str(caught.value) == f"{tmp_path / 'mkdocs.yml'}: {message}"


def test_mkdocs_yml_is_read_as_utf8_whatever_the_locale(tmp_path: Path) -> None:
    with ascii_locale():
        assert _load(tmp_path, "site_name: Año y canción\n") == {"site_name": "Año y canción"}


def test_a_missing_mkdocs_yml_is_a_spanish_error(tmp_path: Path) -> None:
    with pytest.raises(zensical_config.ConfigError, match="no se puede leer"):
        zensical_config.load(tmp_path / "mkdocs.yml")


FENCES = "pymdownx.superfences"


def test_a_small_source_is_derived_key_by_key(tmp_path: Path) -> None:
    """Written out by hand: the theme named by the source kept but for name and folder, its
    variant kept, search kept, extensions kept with their options, snippets made absolute."""
    source = {
        "site_name": "Prueba",
        "hooks": ["h.py"],
        "watch": ["w"],
        "theme": {"name": "mkdocs", "variant": "modern", "custom_dir": "x", "language": "es"},
        "plugins": [{"search": {"lang": "es"}}, "markdown-exec"],
        "not_in_nav": " Xborrador.md\n",  # a pattern may start with a space, or an X
        "nav": [{"Inicio": "index.md"}],
        "markdown_extensions": [
            "toc",
            {"admonition": None},
            {"pymdownx.snippets": {"base_path": "fragmentos", "check_paths": True}},
            {FENCES: {"custom_fences": [{"name": "mermaid", "class": "m", "format": str}]}},
        ],
    }
    kept = copy.deepcopy(source)
    derived = zensical_config.derive(source, tmp_path)
    assert source == kept  # the source is not changed, nor shares anything with the derived
    fences = derived["markdown_extensions"][3][FENCES]["custom_fences"]
    assert [f["name"] for f in fences] == ["mermaid", markup.OUTPUT_FENCE, markup.RAW_FENCE]
    assert derived == {
        "site_name": "Prueba",
        "theme": {
            "name": "material",
            "variant": "modern",
            "custom_dir": "overrides",
            "language": "es",
        },
        "plugins": ["search"],
        "not_in_nav": " Xborrador.md\n\n/cuadernos/\n",
        "nav": [{"Inicio": "index.md"}],
        "markdown_extensions": [
            "toc",
            "admonition",
            {
                "pymdownx.snippets": {
                    "base_path": [str((tmp_path / "fragmentos").resolve())],
                    "check_paths": True,
                }
            },
            {FENCES: {"custom_fences": fences}},
        ],
        "docs_dir": "docs",
        "site_dir": "site",
    }
    derived["nav"][0]["Inicio"] = "otra.md"
    assert source["nav"] == [{"Inicio": "index.md"}]


@pytest.mark.parametrize(
    ("plugins", "expected"),
    [
        (None, ["search"]),  # no `plugins:`: MkDocs' default is search
        ([], []),
        (["markdown-exec", {"tags": None}], []),
        (["search"], ["search"]),
    ],
)
def test_search_is_the_only_plugin_and_only_where_the_source_has_it(
    tmp_path: Path, plugins: list[object] | None, expected: list[str]
) -> None:
    source: dict[str, object] = {"markdown_extensions": [FENCES]}
    if plugins is not None:
        source["plugins"] = plugins
    derived = zensical_config.derive(source, tmp_path)
    assert derived["plugins"] == expected
    # No theme in the source: Zensical's, with Material's look; no not_in_nav: the notebooks.
    assert derived["theme"] == {"custom_dir": "overrides", "name": "material", "variant": "classic"}
    assert derived["not_in_nav"] == "/cuadernos/\n"
    assert [_names([e])[0] for e in derived["markdown_extensions"]] == [FENCES]


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (None, ["."]),
        ({}, ["."]),
        ({"base_path": ["a", "b/c"]}, ["a", "b/c"]),
        ({"base_path": "a"}, ["a"]),
    ],
)
def test_snippets_are_found_from_any_working_folder(
    tmp_path: Path, options: dict[str, object] | None, expected: list[str]
) -> None:
    source = {"markdown_extensions": [{"pymdownx.snippets": options}, FENCES]}
    derived = zensical_config.derive(source, tmp_path)
    snippets = derived["markdown_extensions"][0]["pymdownx.snippets"]
    assert snippets == {"base_path": [str((tmp_path / p).resolve()) for p in expected]}


@pytest.mark.parametrize("extensions", [None, [], ["toc", {"pymdownx.snippets": None}]])
def test_without_superfences_the_outputs_could_not_show(
    tmp_path: Path, extensions: list[object] | None
) -> None:
    source = {} if extensions is None else {"markdown_extensions": extensions}
    with pytest.raises(zensical_config.ConfigError) as caught:
        zensical_config.derive(source, tmp_path)
    assert str(caught.value) == (
        "mkdocs.yml: markdown_extensions no incluye pymdownx.superfences, que muestra las "
        "salidas verificadas."
    )


def test_the_dump_keeps_the_order_the_accents_and_long_lines(tmp_path: Path) -> None:
    long = "palabra " * 20
    config = {"zeta": "canción", "alfa": long.strip()}
    text = zensical_config.dump(config, tmp_path / "sub" / "mkdocs.yml")
    header, body = text.split("\n", 2)[:2], text.split("\n", 2)[2]
    assert header == [
        "# Generado por «docverify zensical» a partir de "
        f"{(tmp_path / 'sub' / 'mkdocs.yml').as_posix()}: no lo edites, se vuelve a escribir",
        "# en cada construcción.",
    ]
    lines = body.splitlines()
    assert lines[0] == "zeta: canción"  # source order, unicode as is
    assert lines[1].startswith("alfa: palabra") and len(lines) == 3  # folded
    assert yaml.safe_load(body) == config


@pytest.mark.parametrize(("letters", "lines"), [(94, 1), (95, 2)])
def test_the_dump_folds_a_line_after_100_columns(tmp_path: Path, letters: int, lines: int) -> None:
    """PyYAML folds at the first space past the width: «alfa: » + 94 letters puts the space in
    column 101 (kept), 95 in column 102 (folded)."""
    value = "a" * letters + " b"
    text = zensical_config.dump({"alfa": value}, tmp_path / "mkdocs.yml")
    assert len(text.splitlines()) == 2 + lines
    assert yaml.safe_load(text) == {"alfa": value}
