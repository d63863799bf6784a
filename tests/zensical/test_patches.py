"""The search patches: they apply to the pinned Zensical, and refuse loudly when it changed."""

from __future__ import annotations

import importlib.machinery
import importlib.metadata
import importlib.util
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from docverify.zensical import patches
from support.locale_c import ascii_locale

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


# What each patched script must read, written out here: (English or old text, what replaces it).
WORKER_TEXTS = [
    (
        'function Pt(t){return t.normalize("NFKD").toLowerCase()}',
        'function Pt(t){return t.normalize("NFKD").replace(/\\p{M}/gu,"").toLowerCase()}',
    ),
    (
        "J=yield Zt(t.data.items,",
        "J=yield Zt((self.dvBoost=t.data.items.map(n=>n.boost||1),t.data.items),",
    ),
    (
        "d.get(x).matches.push({id:y,field:n[v].name,value:{text:m},score:0})",
        "d.get(x).matches.push({id:y,field:n[v].name,value:{text:m},score:0,"
        "dvBoost:self.dvBoost[x]})",
    ),
    (
        "if(o.length!==u.length)return u.length-o.length;let i=n(o)",
        "if(o.length!==u.length)return u.length-o.length;"
        "if(s.dvBoost!==a.dvBoost)return a.dvBoost-s.dvBoost;let i=n(o)",
    ),
]
BUNDLE_TEXTS = [
    ('"aria-label":"Search results"', '"aria-label":"Resultados de la búsqueda"'),
    ('"aria-label":"Close search"', '"aria-label":"Cerrar la búsqueda"'),
    ('"aria-label":"Search"', '"aria-label":"Buscar"'),
    ('placeholder:"Search"', 'placeholder:"Buscar"'),
    ('children:"Tags"', 'children:"Etiquetas"'),
    ('children:"Filters"', 'children:"Filtros"'),
    ('"aria-label":"Filters"', '"aria-label":"Filtros"'),
    (
        '"Search is unavailable. Reload the page to try again."',
        '"La búsqueda no está disponible. Recarga la página y vuelve a intentarlo."',
    ),
    ('"No results"', '"Sin resultados"'),
    ('"Loading search\\u2026"', '"Cargando la búsqueda\\u2026"'),
    (
        "Use Up and Down arrow keys to move between tags. Press Space or Enter to toggle a tag.",
        "Muévete entre las etiquetas con las flechas arriba y abajo; Espacio o Intro marca o "
        "desmarca una.",
    ),
    ('new Intl.NumberFormat("en-US")', 'new Intl.NumberFormat("es-ES")'),
    ('i===1?"result":"results"', 'i===1?"resultado":"resultados"'),
    ('"Clipboard access is unavailable"', '"No se puede acceder al portapapeles"'),
    ('title:"Toggle line selection"', 'title:"Marcar o desmarcar la línea"'),
    ("color:rgb(var(--color-foreground)/.45)", "color:rgb(var(--color-foreground)/.66)"),
    ('"aria-labelledby":`${e.id}-${s.id}-title`,', ""),
]


def test_the_patched_scripts_read_exactly_as_written_here() -> None:
    """Each script patched is the installed one with exactly these replacements (str.replace
    here, in the order of the patches)."""
    theme = patches.templates()
    files = patches.patched(theme)
    for pattern, texts in [
        ("assets/javascripts/workers/search.*.min.js", WORKER_TEXTS),
        ("assets/javascripts/bundle.*.min.js", BUNDLE_TEXTS),
    ]:
        (installed,) = theme.glob(pattern)
        expected = installed.read_text(encoding="utf-8")
        for old, new in texts:
            expected = expected.replace(old, new)
        assert files[installed.relative_to(theme).as_posix()] == expected, pattern
    assert [p.name for p in patches.PATCHES] == [
        "búsqueda sin tildes",
        "artículos primero en la búsqueda",
        "diálogo de búsqueda en español",
        "diálogo de búsqueda accesible",
    ]


def test_the_search_label_appears_twice_and_every_other_text_once() -> None:
    counts = {c.old: c.count for c in patches.BUNDLE_SPANISH.changes}
    assert counts.pop('"aria-label":"Search"') == 2
    assert set(counts.values()) == {1}
    assert all(
        c.count == 1 for p in patches.PATCHES if p is not patches.BUNDLE_SPANISH for c in p.changes
    )


def _theme(root: Path, workers: int = 1) -> Path:
    for i in range(workers):
        worker = root / "assets" / "javascripts" / "workers" / f"search.{i}.min.js"
        worker.parent.mkdir(parents=True, exist_ok=True)
        worker.write_text("", encoding="utf-8")
    return root


@pytest.mark.parametrize("workers", [0, 2])
def test_a_theme_without_exactly_one_worker_stops_the_build(tmp_path: Path, workers: int) -> None:
    theme = _theme(tmp_path, workers)
    with pytest.raises(patches.PatchError) as caught:
        patches.patched(theme)
    version = importlib.metadata.version("zensical")
    assert str(caught.value) == (
        f"zensical {version}: el parche «búsqueda sin tildes» busca un archivo "
        f"assets/javascripts/workers/search.*.min.js en {theme} y hay {workers}. Los parches "
        "están escritos para zensical 0.0.73 (docverify/zensical/patches.py)."
    )


def test_a_text_not_found_names_the_module_that_holds_the_patches(tmp_path: Path) -> None:
    with pytest.raises(patches.PatchError) as caught:
        patches.patched(_theme(tmp_path))  # one worker, empty: the first text is not there
    version = importlib.metadata.version("zensical")
    assert str(caught.value).startswith(
        f"zensical {version}: el parche «búsqueda sin tildes» no se puede aplicar: en "
        f"{tmp_path / 'assets/javascripts/workers/search.0.min.js'} el texto "
    ), caught.value
    assert "Los parches de docverify/zensical/patches.py están escritos para zensical 0.0.73" in (
        str(caught.value)
    )


def test_the_theme_folder_is_the_installed_zensical_s() -> None:
    import zensical  # noqa: PLC0415

    assert patches.templates() == Path(zensical.__file__).parent / "templates"
    assert patches.version() == importlib.metadata.version("zensical")


@pytest.mark.parametrize("locations", [None, []])
def test_without_zensical_the_build_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, locations: list[str] | None
) -> None:
    spec = importlib.machinery.ModuleSpec("zensical", None, is_package=locations is not None)
    spec.submodule_search_locations = locations
    for found in (None, spec):
        monkeypatch.setattr(importlib.util, "find_spec", lambda name, found=found: found)
        with pytest.raises(patches.PatchError) as caught:
            patches.templates()
        assert str(caught.value) == (
            "Zensical no está instalado: python3 tasks.py build --zensical lo instala (grupo "
            "«zensical» de pyproject.toml)."
        )


def test_a_folder_named_zensical_on_the_path_is_not_an_installed_zensical(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """This suite's own tests/zensical/ (on sys.path under pytest) is found as a namespace
    package named zensical where Zensical is not installed: the build says to install it
    instead of looking for the theme's scripts in the tests' folder."""
    (tmp_path / "zensical" / "templates").mkdir(parents=True)
    spec = importlib.machinery.PathFinder.find_spec("zensical", [str(tmp_path)])
    assert spec is not None and spec.submodule_search_locations  # a namespace package
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: spec)
    with pytest.raises(patches.PatchError, match=r"^Zensical no está instalado"):
        patches.templates()


def test_the_scripts_are_read_as_utf8_whatever_the_locale(tmp_path: Path) -> None:
    """A theme whose scripts hold non-ASCII text (the installed ones happen not to)."""
    for patch in patches.PATCHES:
        path = tmp_path / patch.pattern.replace("*", "x")
        path.parent.mkdir(parents=True, exist_ok=True)
        before = path.read_text(encoding="utf-8") if path.exists() else "/* año */"
        olds = ";".join(";".join([c.old] * c.count) for c in patch.changes)
        path.write_text(before + olds, encoding="utf-8")
    with ascii_locale():
        files = patches.patched(tmp_path)
    worker = files["assets/javascripts/workers/search.x.min.js"]
    assert worker.startswith("/* año */function Pt(t){return t.normalize(") and "dvBoost" in worker
    assert files["assets/javascripts/bundle.x.min.js"].startswith('/* año */"aria-label":"Buscar"')
