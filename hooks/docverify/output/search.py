"""Search: accent-insensitive matches, and articles first for their titles, in both generators.

Material's Spanish search indexes words as written (its pipeline keeps no stemmer and no
folding), so a reader who types without tildes finds nothing. Its search worker, patched in the
built site (`patch_material_worker`, after each build), folds diacritics on both sides: every
word of the index (titles and texts, each keeping its own weight) and every query, so
«acumulacion» finds «acumulación», and an unaccented title ranks as its accented form does. The
results still show, and highlight, the entry's own words. (Extra unaccented fields in the index
could not do that: an unaccented field of the title either weighed as a text, and «un articulo
de prueba» put a page whose title shares only «un» above «Un artículo de prueba», or as a title,
and a word counted twice when the query's beginning matched both forms: «en» finding «entropía»
and «entropia».)

The home page introduces the whole site: its title and text share words with every article's
title («Qué es PyTorch: tensores…» and «Tensores en PyTorch»), and its long text matches them
often, so it could rank above the article whose exact title a reader typed. Every article gets
Material's per-page search boost (`search: boost:` in the page's meta): among pages that match a
query equally, an article comes first; between articles nothing changes. An author's own
`search:` settings in the front matter are kept.

Zensical's search reads no page's meta: the build writes each page's boost into its index
(`boost_zensical_index`, every entry of the page, as Material does), and its search worker,
patched (zensical/patches.py), folds diacritics too and puts the boosted entry first between two
that match the query equally (in fields of the same weight, two titles, with as many of its
words).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from docverify.core import script_patch

ZENSICAL_INDEX = "search.json"  # Zensical's search index, in its site folder
# Material's document boost for every article (1.0: none). 2 already put «Tensores en PyTorch» above
# the home page; 4 leaves room for a home page that grows.
ARTICLE_BOOST = 4.0
MATERIAL = script_patch.Pinned("mkdocs-material", "9.8.2", "docverify/output/search.py")
# Each text without its diacritics (á→a, ü→u, ñ→n), in the worker's JavaScript (lunr lower-cases
# words and queries).
_FOLD_JS = 'self.dvFoldText=t=>t.normalize("NFD").replace(/\\p{M}/gu,"")'
MATERIAL_WORKER = script_patch.Patch(
    "búsqueda sin tildes",
    "assets/javascripts/workers/search.*.min.js",
    (
        # Each word of the index, and each word of a query that lunr runs through its pipeline,
        # folded after the stop words are gone (the index's fields keep their weights).
        script_patch.Change(
            'this.ref("location");',
            f"{_FOLD_JS},self.dvFold=t=>t.update(self.dvFoldText),"
            'lunr.Pipeline.registerFunction(self.dvFold,"dvFold"),this.pipeline.add(self.dvFold),'
            'this.searchPipeline.add(self.dvFold),this.ref("location");',
        ),
        # The query as typed, folded before Material adds its wildcards (a word with a wildcard
        # skips lunr's pipeline).
        script_patch.Change(
            'search(e){if(e=e.replace(new RegExp("\\\\p{sc=Han}+","gu")',
            'search(e){if(e=self.dvFoldText(e),e=e.replace(new RegExp("\\\\p{sc=Han}+","gu")',
        ),
    ),
)


def patch_material_worker(site_dir: Path) -> None:
    """Fold diacritics in the search worker of a site that Material built in `site_dir`
    (nothing without one: the search plugin off); a worker patched by an earlier build of the
    same folder (`mkdocs serve`, `--dirty`) is left as it is. PatchError if the installed
    Material's worker no longer has a text to patch."""
    workers = sorted(site_dir.glob(MATERIAL_WORKER.pattern))
    if not workers:
        return
    if len(workers) > 1:
        raise script_patch.PatchError(
            f"el parche «{MATERIAL_WORKER.name}» busca un archivo {MATERIAL_WORKER.pattern} en "
            f"{site_dir} y hay {len(workers)}: ¿restos de otra versión de Material? Borra la "
            "carpeta y construye de nuevo."
        )
    text = workers[0].read_bytes().decode()  # UTF-8, whatever the machine's locale
    if not script_patch.is_applied(text, MATERIAL_WORKER):
        patched = script_patch.apply(text, MATERIAL_WORKER, str(workers[0]), MATERIAL)
        workers[0].write_bytes(patched.encode())


def article_meta(meta: dict[str, Any]) -> dict[str, Any]:
    """The `search` meta of an article: Material's boost, unless the author set one."""
    search = dict(meta.get("search") or {})
    search.setdefault("boost", ARTICLE_BOOST)
    return {"search": search}


def boost_zensical_index(path: Path, boosts: dict[str, object]) -> None:
    """Give each entry of Zensical's search index at `path` its page's boost (`boosts`: by the
    page's URL, site-relative), as Material's index has it; nothing without an index."""
    if not path.is_file():
        return
    data = json.loads(path.read_bytes())  # UTF-8, whatever the machine's locale
    for item in data.get("items", []):
        boost = boosts.get(item["location"].partition("#")[0])
        if boost is not None:
            item["boost"] = boost
    path.write_bytes(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode())
