"""Zensical's configuration, derived from the project's mkdocs.yml at every build, never kept.

Zensical reads mkdocs.yml itself but ignores `hooks:` and most plugins, and would execute
fences if `markdown-exec` were listed: so it gets a copy that builds the rendered docs
(docs_folder.py) as they are. Changed from the source: docs, site and theme overrides in the
generated folder (Zensical wants them inside the config's folder), no hooks and no `watch`
(the generated docs are watched instead), only the search plugin, snippets found from any
working folder, the output fence of the engine's panels, the notebook pages out of the nav,
Zensical's own theme (the only one its templates support; what `material` names) with Material's
look (`variant: classic`) unless the source names a variant. Everything else
(site_name, site_url, theme, palette, nav, extra, CSS and JavaScript) is the source's.
"""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any

import yaml

from docverify import api

DOCS, SITE, OVERRIDES = "docs", "site", "overrides"
_FENCES = "pymdownx.superfences"
_SNIPPETS = "pymdownx.snippets"
HEADER = (
    "# Generado por «docverify zensical» a partir de {source}: no lo edites, se vuelve a escribir\n"
    "# en cada construcción.\n"
)


class ConfigError(ValueError):
    """mkdocs.yml cannot be read or has a shape this path does not know (Spanish message)."""


class _Loader(yaml.SafeLoader):
    """mkdocs.yml as MkDocs reads it: `!ENV NAME` or `!ENV [NAME, …, default]`."""


def _env(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    if isinstance(node, yaml.SequenceNode):
        items = loader.construct_sequence(node)
        names, default = (items[:-1], items[-1]) if len(items) > 1 else (items, None)
    else:
        names, default = [loader.construct_scalar(node)], None  # type: ignore[arg-type]
    return next((os.environ[n] for n in names if n in os.environ), default)


_Loader.add_constructor("!ENV", _env)


def load(mkdocs_yml: Path) -> dict[str, Any]:
    """The project's mkdocs.yml, with its `!ENV` values resolved."""
    try:
        data = yaml.load(mkdocs_yml.read_text(encoding="utf-8"), Loader=_Loader)
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"{mkdocs_yml}: no se puede leer ({exc}).") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{mkdocs_yml}: no es un diccionario de YAML.")
    if "INHERIT" in data:
        raise ConfigError(
            f"{mkdocs_yml}: INHERIT no está soportado por la construcción con Zensical; "
            "escribe la configuración en un solo archivo."
        )
    return data


def _name(entry: Any) -> str:
    return entry if isinstance(entry, str) else next(iter(entry))


def derive(source: dict[str, Any], root: Path) -> dict[str, Any]:
    """The configuration Zensical builds the rendered docs with (see the module's text)."""
    config = copy.deepcopy(source)
    for key in ("hooks", "watch"):
        config.pop(key, None)
    config["docs_dir"], config["site_dir"] = DOCS, SITE
    theme = dict(config.get("theme") or {})
    theme["custom_dir"] = OVERRIDES
    theme["name"] = "material"  # Zensical's own theme, whatever MkDocs theme the source names
    theme.setdefault("variant", "classic")
    config["theme"] = theme
    plugins = [_name(p) for p in config.get("plugins") or []]
    config["plugins"] = ["search"] if "search" in plugins or "plugins" not in source else []
    hidden = f"/{api.NOTEBOOK_FOLDER}/\n"
    config["not_in_nav"] = (str(config.get("not_in_nav") or "") + "\n" + hidden).lstrip("\n")
    extensions = []
    for entry in config.get("markdown_extensions") or []:
        name = _name(entry)
        options = dict(entry[name] or {}) if isinstance(entry, dict) else {}
        if name == _SNIPPETS:
            paths = options.get("base_path", ["."])
            paths = [paths] if isinstance(paths, str) else paths
            options["base_path"] = [str((root / p).resolve()) for p in paths]
        if name == _FENCES:
            options["custom_fences"] = api.custom_fences(options.get("custom_fences") or [])
        extensions.append({name: options} if options else name)
    if _FENCES not in [_name(e) for e in extensions]:
        raise ConfigError(
            "mkdocs.yml: markdown_extensions no incluye pymdownx.superfences, que muestra las "
            "salidas verificadas."
        )
    config["markdown_extensions"] = extensions
    return config


def dump(config: dict[str, Any], source: Path) -> str:
    """The derived configuration as YAML (the output fence's formatter by its Python name)."""
    text = yaml.dump(config, allow_unicode=True, sort_keys=False, width=100)
    return HEADER.format(source=source.as_posix()) + text
