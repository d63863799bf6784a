"""Search in Spanish on Zensical: patches applied at build time to copies of its search scripts.

Zensical 0.0.73's search has no setting for what this site needs, so the build copies two of
its minified scripts into the generated theme overrides (theme.custom_dir: a file there replaces
the theme's file of the same path) and changes them there. The installed package is never
written, and no script of Zensical is kept in the repository: only the short texts to find and
what replaces each one.

- The search worker folds diacritics: «acumulacion» finds «acumulación». Its fields are fixed
  (title, text, path, tags), so the extra unaccented field of the MkDocs site cannot be added.
- The search worker ranks by each page's boost, which the build writes into its index
  (output/search.py: Material reads it from the page's meta, Zensical reads no meta): of two
  results whose matches are in fields of the same weight (two titles) and hold as many of the
  query's words, the boosted one comes first; a title still comes before a text, and more of the
  query's words before fewer.
- The search dialog speaks Spanish (its texts are English whatever `theme.language` says).
- The dialog with results passes axe-core: the breadcrumbs of each result at 4.5:1 contrast
  (they were 3.36:1 on white), and each result named by its whole text (it was named by its
  title alone: `label-content-name-mismatch`).

Each text must appear exactly as often as written here; if a Zensical release changes one, the
build stops and says which (`PatchError`), instead of shipping a site with a part unpatched.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from docverify import api

script_patch = api.script_patch
Change, Patch, PatchError, Pinned = (
    script_patch.Change,
    script_patch.Patch,
    script_patch.PatchError,
    script_patch.Pinned,
)

WRITTEN_FOR = "0.0.73"  # the version these texts were read from (pyproject.toml pins it)
PINNED = Pinned("zensical", WRITTEN_FOR, "docverify/zensical/patches.py")
__all__ = ["PATCHES", "WRITTEN_FOR", "Change", "Patch", "PatchError", "apply", "patched"]


WORKER = Patch(
    "búsqueda sin tildes",
    "assets/javascripts/workers/search.*.min.js",
    (
        Change(
            'function Pt(t){return t.normalize("NFKD").toLowerCase()}',
            'function Pt(t){return t.normalize("NFKD").replace(/\\p{M}/gu,"").toLowerCase()}',
        ),
    ),
)
WORKER_BOOST = Patch(
    "artículos primero en la búsqueda",
    WORKER.pattern,
    (
        # Each item's boost (1 without one), by its index among the search index's items.
        Change(
            "J=yield Zt(t.data.items,",
            "J=yield Zt((self.dvBoost=t.data.items.map(n=>n.boost||1),t.data.items),",
        ),
        # Each match of a query in an item's field carries the item's boost.
        Change(
            "d.get(x).matches.push({id:y,field:n[v].name,value:{text:m},score:0})",
            "d.get(x).matches.push({id:y,field:n[v].name,value:{text:m},score:0,"
            "dvBoost:self.dvBoost[x]})",
        ),
        # Two matches in fields of the same weight: the one with more of the query's words
        # first, as before; with as many, the boosted one; then as before (the words closer
        # together, then earlier in the field).
        Change(
            "if(o.length!==u.length)return u.length-o.length;let i=n(o)",
            "if(o.length!==u.length)return u.length-o.length;"
            "if(s.dvBoost!==a.dvBoost)return a.dvBoost-s.dvBoost;let i=n(o)",
        ),
    ),
)
_DIALOG = {  # English of the search dialog → Spanish, and how many times each appears
    '"aria-label":"Search"': ('"aria-label":"Buscar"', 2),
    'placeholder:"Search"': ('placeholder:"Buscar"', 1),
    'children:"Tags"': ('children:"Etiquetas"', 1),
    'children:"Filters"': ('children:"Filtros"', 1),
    '"aria-label":"Filters"': ('"aria-label":"Filtros"', 1),
    '"Search is unavailable. Reload the page to try again."': (
        '"La búsqueda no está disponible. Recarga la página y vuelve a intentarlo."',
        1,
    ),
    '"No results"': ('"Sin resultados"', 1),
    '"Loading search\\u2026"': ('"Cargando la búsqueda\\u2026"', 1),
    '"aria-label":"Search results"': ('"aria-label":"Resultados de la búsqueda"', 1),
    '"aria-label":"Close search"': ('"aria-label":"Cerrar la búsqueda"', 1),
    "Use Up and Down arrow keys to move between tags. Press Space or Enter to toggle a tag.": (
        "Muévete entre las etiquetas con las flechas arriba y abajo; Espacio o Intro marca o "
        "desmarca una.",
        1,
    ),
    'new Intl.NumberFormat("en-US")': ('new Intl.NumberFormat("es-ES")', 1),
    'i===1?"result":"results"': ('i===1?"resultado":"resultados"', 1),
    '"Clipboard access is unavailable"': ('"No se puede acceder al portapapeles"', 1),
    'title:"Toggle line selection"': ('title:"Marcar o desmarcar la línea"', 1),
}
BUNDLE_SPANISH = Patch(
    "diálogo de búsqueda en español",
    "assets/javascripts/bundle.*.min.js",
    tuple(Change(old, new, count) for old, (new, count) in _DIALOG.items()),
)
BUNDLE_ACCESSIBLE = Patch(
    "diálogo de búsqueda accesible",
    "assets/javascripts/bundle.*.min.js",
    (
        # Breadcrumbs of a result: foreground at 66 % (4.5:1 on white and on slate), not 45 %.
        Change("color:rgb(var(--color-foreground)/.45)", "color:rgb(var(--color-foreground)/.66)"),
        # A result's name is its whole text (title, breadcrumbs, excerpt), as axe asks.
        Change('"aria-labelledby":`${e.id}-${s.id}-title`,', ""),
    ),
)
PATCHES = (WORKER, WORKER_BOOST, BUNDLE_SPANISH, BUNDLE_ACCESSIBLE)


def templates() -> Path:
    """The installed Zensical's theme folder (without importing Zensical). A folder named
    zensical without an __init__.py (a namespace package: the test suite's tests/zensical/, on
    sys.path under pytest) is not Zensical: its spec has no origin."""
    spec = importlib.util.find_spec("zensical")
    if spec is None or spec.origin is None or not spec.submodule_search_locations:
        raise PatchError(
            "Zensical no está instalado: python3 tasks.py build --zensical lo instala (grupo "
            "«zensical» de pyproject.toml)."
        )
    return Path(next(iter(spec.submodule_search_locations))) / "templates"


def version() -> str:
    return script_patch.version(PINNED.package)


def apply(text: str, patch: Patch, where: str) -> str:
    """`text` (the file `where`) with every change of `patch` (core/script_patch.py)."""
    return script_patch.apply(text, patch, where, PINNED)


def patched(theme: Path | None = None) -> dict[str, str]:
    """Every patched script, by its path relative to the theme folder (the override's path)."""
    theme = theme or templates()
    files: dict[str, str] = {}
    for patch in PATCHES:
        matches = sorted(theme.glob(patch.pattern))
        if len(matches) != 1:
            raise PatchError(
                f"zensical {version()}: el parche «{patch.name}» busca un archivo "
                f"{patch.pattern} en {theme} y hay {len(matches)}. Los parches están escritos "
                f"para zensical {WRITTEN_FOR} (docverify/zensical/patches.py)."
            )
        rel = matches[0].relative_to(theme).as_posix()
        text = files.get(rel) or matches[0].read_text(encoding="utf-8")
        files[rel] = apply(text, patch, str(matches[0]))
    return files
