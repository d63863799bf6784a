"""Where mkdocs-jupyter keeps each notebook page's HTML between builds
(output/notebook_html_cache.py), and the builds that use it."""

from __future__ import annotations

import json
import os
import platform
import shutil
from pathlib import Path

import pytest
from conftest import mkdocs_build
from docverify.core import versions
from docverify.core.request import CacheUse, cache_use
from docverify.output import notebook_html_cache
from support import locale_c

# Written here, not read from the module: the packages whose upgrade may change a notebook page.
WRITERS = (
    "mkdocs-jupyter",
    "nbconvert",
    "nbformat",
    "jinja2",
    "mistune",
    "pygments",
    "jupyterlab_pygments",
    "beautifulsoup4",
    "markdown",
)


@pytest.mark.parametrize("cache", [CacheUse.OFF, CacheUse.WRITE])
def test_no_folder_when_the_run_reads_no_cache(tmp_path: Path, cache: CacheUse) -> None:
    assert notebook_html_cache.folder(tmp_path, cache) is None


def test_the_folder_is_in_the_projects_cache_and_stable(tmp_path: Path) -> None:
    first = notebook_html_cache.folder(tmp_path, CacheUse.READ)
    assert first is not None
    assert first.parent == tmp_path / ".cache" / "mkdocs-jupyter"
    assert len(first.name) == 16 and int(first.name, 16) >= 0
    assert notebook_html_cache.folder(tmp_path, CacheUse.READ) == first
    other = tmp_path / "otro"
    assert notebook_html_cache.folder(other, CacheUse.READ) == other / first.relative_to(tmp_path)


@pytest.mark.parametrize("package", WRITERS)
def test_each_upgrade_of_a_package_that_writes_the_html_starts_another_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, package: str
) -> None:
    before = notebook_html_cache.folder(tmp_path, CacheUse.READ)
    real = versions.installed
    monkeypatch.setattr(
        versions, "installed", lambda name: "999.0" if name == package else real(name)
    )
    after = notebook_html_cache.folder(tmp_path, CacheUse.READ)
    assert after is not None and after != before
    assert after.parent == before.parent


def test_another_python_starts_another_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = notebook_html_cache.folder(tmp_path, CacheUse.READ)
    monkeypatch.setattr(platform, "python_version", lambda: "3.99.0")
    after = notebook_html_cache.folder(tmp_path, CacheUse.READ)
    assert after is not None and after != before


def _entry(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_ready_keeps_readable_entries_and_deletes_the_rest_and_other_versions(
    tmp_path: Path,
) -> None:
    current = notebook_html_cache.folder(tmp_path, CacheUse.READ)
    assert current is not None
    good = {"content": "<p>hola</p>", "toc_tokens": [], "title": None}
    kept = _entry(current, "bueno.json", json.dumps(good))
    unreadable = [
        _entry(current, "cortado.json", json.dumps(good)[:20]),
        _entry(current, "lista.json", "[]"),
        _entry(current, "sin-html.json", json.dumps({"toc_tokens": []})),
        _entry(current, "html-no-texto.json", json.dumps({"content": 3, "toc_tokens": []})),
        _entry(current, "sin-indice.json", json.dumps({"content": "<p></p>"})),
        _entry(current, "indice-no-lista.json", json.dumps({"content": "", "toc_tokens": {}})),
    ]
    (current / "latin1.json").write_bytes(b'{"content": "\xe1"}')
    unreadable.append(current / "latin1.json")
    old = _entry(current.parent / "0123456789abcdef", "viejo.json", json.dumps(good)).parent
    other_file = _entry(current.parent, "nota.txt", "no es una carpeta")

    assert notebook_html_cache.ready(tmp_path, CacheUse.READ) == current
    assert kept.is_file()
    assert [p.name for p in unreadable if p.exists()] == []
    assert not old.exists()
    assert other_file.is_file()  # only folders are other versions


def test_an_entry_is_read_as_utf8_whatever_the_locale(tmp_path: Path) -> None:
    entry = _entry(
        tmp_path,
        "a.json",
        json.dumps({"content": "<p>¿Qué?</p>", "toc_tokens": []}, ensure_ascii=False),
    )
    with locale_c.ascii_locale():
        assert notebook_html_cache.readable(entry)


def test_a_folder_or_entry_that_cannot_go_stops_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another build deletes an entry first, or an old folder cannot be deleted: the clean-up
    goes on, and the build with it."""
    current = notebook_html_cache.folder(tmp_path, CacheUse.READ)
    assert current is not None
    gone = _entry(current, "cortado.json", "{")
    stuck = _entry(current.parent / "0123456789abcdef", "viejo.json", "{}")
    real_readable, real_unlink = notebook_html_cache.readable, os.unlink

    def readable_while_another_build_deletes(entry: Path) -> bool:
        entry.unlink()
        return real_readable(entry)

    def unlink(path: object, *args: object, **kwargs: object) -> None:
        if Path(str(path)).name == stuck.name or str(path) == stuck.name:
            raise PermissionError(13, "no se puede borrar", str(path))
        real_unlink(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(notebook_html_cache, "readable", readable_while_another_build_deletes)
    monkeypatch.setattr(os, "unlink", unlink)
    assert notebook_html_cache.ready(tmp_path, CacheUse.READ) == current
    assert not gone.exists()
    assert stuck.is_file()


@pytest.mark.parametrize("cache", [CacheUse.OFF, CacheUse.WRITE])
def test_ready_touches_nothing_when_the_run_reads_no_cache(tmp_path: Path, cache: CacheUse) -> None:
    current = notebook_html_cache.folder(tmp_path, CacheUse.READ)
    assert current is not None
    broken = _entry(current, "cortado.json", "{")
    old = _entry(current.parent / "0123456789abcdef", "viejo.json", "{}")
    assert notebook_html_cache.ready(tmp_path, cache) is None
    assert broken.is_file() and old.is_file()


def test_ready_with_no_cache_yet_makes_nothing(tmp_path: Path) -> None:
    assert notebook_html_cache.ready(tmp_path, CacheUse.READ) is not None
    assert not (tmp_path / ".cache").exists()


def test_a_package_that_writes_no_html_keeps_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = notebook_html_cache.folder(tmp_path, CacheUse.READ)
    real = versions.installed
    monkeypatch.setattr(
        versions, "installed", lambda name: "999.0" if name == "torch" else real(name)
    )
    assert notebook_html_cache.folder(tmp_path, CacheUse.READ) == before


@pytest.mark.parametrize(
    ("env", "no_cache", "expected"),
    [
        ({}, False, CacheUse.READ),
        ({"DOCVERIFY_CACHE": "1"}, False, CacheUse.READ),
        ({"DOCVERIFY_CACHE": " Off "}, False, CacheUse.WRITE),
        ({"DOCVERIFY_CACHE": "0"}, False, CacheUse.WRITE),
        ({}, True, CacheUse.WRITE),
        ({"CI": "true"}, False, CacheUse.OFF),
        ({"CI": "true", "DOCVERIFY_CACHE": "0"}, True, CacheUse.OFF),
    ],
)
def test_cache_use_of_an_environment(
    env: dict[str, str], no_cache: bool, expected: CacheUse
) -> None:
    assert cache_use(env, no_cache=no_cache) is expected


@pytest.mark.slow
def test_a_rebuild_takes_each_unchanged_notebook_page_from_the_cache_and_ci_never(
    small_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two builds in one process, as `mkdocs serve` makes them: the second converts no notebook
    again and publishes the same pages, an entry cut short is converted again, and a build under
    CI converts every one and keeps none."""
    import mkdocs_jupyter.convert  # noqa: PLC0415 - only the builds of this test need it

    root = small_copy
    shutil.rmtree(root / ".cache" / "mkdocs-jupyter", ignore_errors=True)
    converted: list[str] = []
    real = mkdocs_jupyter.convert.nb2html

    def counting(path: str, **options: object) -> str:
        converted.append(Path(path).name)
        return real(path, **options)

    monkeypatch.setattr(mkdocs_jupyter.convert, "nb2html", counting)
    local = {"DOCVERIFY_CACHE": "1", "CI": "false"}
    first = mkdocs_build(root, tmp_path / "uno", env=local)
    assert first.returncode == 0, first.stderr
    notebooks = sorted(p.name for p in (tmp_path / "uno" / "cuadernos").rglob("*.ipynb"))
    assert notebooks and sorted(converted) == notebooks
    kept = sorted((root / ".cache" / "mkdocs-jupyter").rglob("*.json"))
    assert len(kept) == len(notebooks)
    # in the folder of today's versions, not in the plugin's own (unversioned) one
    assert {p.parent for p in kept} == {notebook_html_cache.folder(root, CacheUse.READ)}

    converted.clear()
    second = mkdocs_build(root, tmp_path / "dos", env=local)
    assert second.returncode == 0, second.stderr
    assert converted == []
    for page in (tmp_path / "uno" / "cuadernos").rglob("index.html"):
        again = tmp_path / "dos" / page.relative_to(tmp_path / "uno")
        assert again.read_bytes() == page.read_bytes(), page

    # An entry cut short (a build stopped while writing it) is converted again, not fatal.
    cut = kept[0]
    cut.write_text(cut.read_text(encoding="utf-8")[:1000], encoding="utf-8")
    converted.clear()
    third = mkdocs_build(root, tmp_path / "tres", env=local)
    assert third.returncode == 0, third.stderr
    assert len(converted) == 1
    assert json.loads(cut.read_text(encoding="utf-8"))["content"]

    shutil.rmtree(root / ".cache" / "mkdocs-jupyter")
    converted.clear()
    # Under CI the cache stays off even where DOCVERIFY_CACHE asks for it.
    ci = mkdocs_build(root, tmp_path / "ci", env={"CI": "true", "DOCVERIFY_CACHE": "1"})
    assert ci.returncode == 0, ci.stderr
    assert sorted(converted) == notebooks
    assert not (root / ".cache" / "mkdocs-jupyter").exists()
