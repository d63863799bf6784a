"""The adapters' one door into the engine: hooks/mkdocs_hooks.py and zensical/ import
docverify.api (zensical/ its own modules too) and no other engine module.

Every import is read from the adapters' source, those inside functions and under
`if TYPE_CHECKING:` included: an adapter that reaches past the API for one name ties itself to
where the engine keeps it. And the API stays small: each name it exports is used by an adapter.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from docverify import api

HOOKS = Path(api.__file__).parents[1]
API = "docverify.api"
ZENSICAL = "docverify.zensical"


def adapters(hooks: Path = HOOKS) -> list[Path]:
    """The site generators' adapters: MkDocs' hook file and the Zensical path."""
    return [hooks / "mkdocs_hooks.py", *sorted((hooks / "docverify" / "zensical").glob("*.py"))]


def _allowed(module: str, path: Path) -> bool:
    own = ZENSICAL if path.parent.name == "zensical" else None
    return module == API or (own is not None and (module == own or module.startswith(own + ".")))


def internal_imports(paths: list[Path], hooks: Path = HOOKS) -> list[str]:
    """«file:line módulo» for each engine module an adapter imports other than the API."""
    found = []
    for path in paths:
        where = path.relative_to(hooks).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                # `from docverify import api` names the module in the imported name.
                inside = node.module in ("docverify", ZENSICAL)
                names = [
                    (
                        f"{node.module}.{a.name}" if inside else node.module,
                        f"{node.module}.{a.name}",
                    )
                    for a in node.names
                ]
            elif isinstance(node, ast.Import):
                names = [(a.name, a.name) for a in node.names]
            else:
                continue
            found += [
                f"{where}:{node.lineno} {shown}"
                for module, shown in names
                if module.split(".")[0] == "docverify" and not _allowed(module, path)
            ]
    return found


def test_the_adapters_import_only_the_api() -> None:
    assert len(adapters()) > 1 and all(p.is_file() for p in adapters())
    found = internal_imports(adapters())
    assert not found, (
        "un adaptador importa un módulo interno del motor (usa docverify.api, y añádele lo que "
        "falte):\n" + "\n".join(found)
    )


def test_an_adapter_importing_an_engine_module_is_found(tmp_path: Path) -> None:
    """The measure itself: each way of reaching past the API is caught, with its line."""
    zensical = tmp_path / "docverify" / "zensical"
    zensical.mkdir(parents=True)
    (tmp_path / "mkdocs_hooks.py").write_text(
        "from docverify import api\nfrom docverify.output import render\n"
        "from docverify.api import Site\n",
        encoding="utf-8",
    )
    (zensical / "adapter.py").write_text(
        "from docverify import build, api\n"
        "from docverify.zensical import docs_folder\n"
        "def f():\n"
        "    import docverify.running.executor\n",
        encoding="utf-8",
    )
    assert internal_imports(adapters(tmp_path), tmp_path) == [
        "mkdocs_hooks.py:2 docverify.output.render",
        "docverify/zensical/adapter.py:1 docverify.build",
        "docverify/zensical/adapter.py:4 docverify.running.executor",
    ]


def test_every_name_of_the_api_is_used_by_an_adapter() -> None:
    """Small by construction: a name no adapter uses is the engine's, not the API's."""
    used = {
        node.attr
        for path in adapters()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "api"
    }
    assert sorted(set(api.__all__) - used) == [], "nombres de docverify.api que no usa nadie"
    assert sorted(used - set(api.__all__)) == [], "nombres que usan los adaptadores sin exportar"


def test_notebook_html_cache_follows_the_environment_s_cache_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read (no CI, cache on): the folder of this root under .cache/mkdocs-jupyter/, made
    ready (an unreadable entry deleted); CI=true or DOCVERIFY_CACHE=0: no folder."""
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("DOCVERIFY_CACHE", raising=False)
    found = api.notebook_html_cache(tmp_path)
    assert found is not None and found.parent == tmp_path / ".cache" / "mkdocs-jupyter"
    found.mkdir(parents=True)
    (found / "roto.json").write_text("{", encoding="utf-8")
    assert api.notebook_html_cache(tmp_path) == found
    assert not (found / "roto.json").exists()
    monkeypatch.setenv("DOCVERIFY_CACHE", "0")
    assert api.notebook_html_cache(tmp_path) is None
    monkeypatch.delenv("DOCVERIFY_CACHE")
    monkeypatch.setenv("CI", "true")
    assert api.notebook_html_cache(tmp_path) is None
