"""The search patches: they apply to the pinned Zensical, and refuse loudly when it changed."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from docverify.zensical import patches

HERE = Path(__file__).resolve().parent
SEPARATOR = '[\\s\\-_,:!=\\[\\]()\\\\"`/]+|\\.(?!\\d)'


def test_every_patch_applies_to_the_installed_zensical() -> None:
    """Each text appears as often as written, and only the copies change."""
    theme = patches.templates()
    files = patches.patched(theme)
    assert set(files) == {
        next(theme.glob(patch.pattern)).relative_to(theme).as_posix() for patch in patches.PATCHES
    }
    for patch in patches.PATCHES:
        (installed,) = theme.glob(patch.pattern)
        original = installed.read_text(encoding="utf-8")
        text = files[installed.relative_to(theme).as_posix()]
        for change in patch.changes:
            assert original.count(change.old) == change.count, change.old  # untouched
            assert change.old not in text and (not change.new or change.new in text), change


def test_a_changed_text_stops_the_build_naming_it(tmp_path: Path) -> None:
    """An upgrade that renames the worker's function (a minifier does) fails with the text, the
    file and what to do: never a site with Spanish search half patched."""
    theme = Path(shutil.copytree(patches.templates() / "assets", tmp_path / "assets")).parent
    (worker,) = theme.glob(patches.WORKER.pattern)
    change = patches.WORKER.changes[0]
    worker.write_text(
        worker.read_text(encoding="utf-8").replace(change.old, change.old.replace("Pt", "Qt")),
        encoding="utf-8",
    )
    with pytest.raises(patches.PatchError) as caught:
        patches.patched(theme)
    message = str(caught.value)
    assert "búsqueda sin tildes" in message and change.old in message, message
    assert str(worker) in message and "aparece 0 veces" in message, message
    assert patches.WRITTEN_FOR in message and "pyproject.toml" in message, message


@pytest.mark.parametrize("twice", [False, True])
def test_a_text_found_more_often_than_written_stops_too(twice: bool) -> None:
    patch = patches.Patch("prueba", "x", (patches.Change("a", "b", 1),))
    text = "a a" if twice else "a"
    if twice:
        with pytest.raises(patches.PatchError, match="aparece 2 veces, y debería aparecer 1"):
            patches.apply(text, patch, "archivo")
    else:
        assert patches.apply(text, patch, "archivo") == "b"


def _search(worker: Path, index: Path, *queries: str) -> list[list[str]]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("hace falta node (Node.js) para ejecutar el trabajador de búsqueda")
    done = subprocess.run(
        [node, str(HERE / "search_worker.js"), str(worker), str(index), *queries],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def _index(path: Path, items: list[tuple[str, str, str, float | None]]) -> Path:
    """A search.json as Zensical writes it (`boost`: what the build adds, output/search.py)."""
    path.write_text(
        json.dumps(
            {
                # The separator Zensical writes for this site's search.json.
                "config": {"lang": ["es"], "separator": SEPARATOR},
                "items": [
                    {"location": loc, "level": 1, "title": t, "text": x, "path": [], "tags": []}
                    | ({} if boost is None else {"boost": boost})
                    for loc, t, x, boost in items
                ],
            }
        ),
        encoding="utf-8",
    )
    return path


def _workers(tmp_path: Path) -> tuple[Path, Path]:
    """The installed search worker, and a copy with every patch applied."""
    theme = patches.templates()
    (installed,) = theme.glob(patches.WORKER.pattern)
    patched = tmp_path / installed.name
    patched.write_text(
        patches.patched(theme)[installed.relative_to(theme).as_posix()], encoding="utf-8"
    )
    return installed, patched


def test_the_patched_worker_finds_words_typed_without_accents(tmp_path: Path) -> None:
    """An index where «acumulacion» is also written as such (a name in code, as on the site): the
    installed worker then finds only that entry; the patched one finds the accented ones too."""
    index = _index(
        tmp_path / "search.json",
        [
            ("a/", "Acumulación de gradientes", "La acumulación suma cada gradiente.", None),
            ("b/", "Otra sección", "Un nombre sin tilde: acumulacion_total.", None),
            ("c/", "Tensores", "Un tensor es una matriz.", None),
        ],
    )
    installed, patched = _workers(tmp_path)
    stock = _search(installed, index, "acumulacion", "acumulación")
    folded = _search(patched, index, "acumulacion", "acumulación")
    assert "a/" not in stock[0], stock  # what the patch is for
    assert "a/" in folded[0] and "b/" in folded[0] and "c/" not in folded[0], folded
    assert "a/" in folded[1], folded  # typed with its accent, found as before


# A home page whose title starts with an article's, and whose text repeats its words; an
# article with the boost the build gives articles, one of its sections, another article.
RANKED = [
    ("", "Tensores en PyTorch: un recorrido", "Los tensores en PyTorch, tensores y más.", None),
    ("articulos/a/", "Tensores en PyTorch", "Un artículo.", 4.0),
    ("articulos/a/#seccion", "Otra sección", "Tensores en PyTorch, en el texto.", 4.0),
    ("articulos/b/", "Tensores", "Una palabra del título; el recorrido, en el texto.", 4.0),
]


def test_the_patched_worker_puts_the_boosted_page_first_among_equal_matches(
    tmp_path: Path,
) -> None:
    """Material's boost, as Zensical's patched search applies it: the query matches the home
    page's title and the article's equally (the same words, in the title): the article first,
    where the installed worker puts the home page first. A title with more of the query's words
    still comes before a boosted one with fewer, and a title before a boosted text."""
    index = _index(tmp_path / "search.json", RANKED)
    installed, patched = _workers(tmp_path)
    (stock,) = _search(installed, index, "Tensores en PyTorch")
    (boosted,) = _search(patched, index, "Tensores en PyTorch")
    assert stock[:2] == ["", "articulos/a/"], stock  # what the patch is for
    assert boosted[:3] == ["articulos/a/", "", "articulos/a/#seccion"], boosted
    # Both words in the home page's title; one in the boosted article's, the other in its text.
    (fewer,) = _search(patched, index, "tensores recorrido")
    assert fewer[:2] == ["", "articulos/b/"], fewer
    unboosted = _index(tmp_path / "sin.json", [(*item[:3], None) for item in RANKED])
    (plain,) = _search(patched, unboosted, "Tensores en PyTorch")
    assert plain == stock, plain  # without boosts, the patched worker ranks as the installed
