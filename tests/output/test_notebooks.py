"""Article notebooks: made from the page's own blocks, and runnable as downloaded in Jupyter."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import Built, Project
from docverify.core import config as config_mod
from docverify.core.text import normalise
from docverify.output import notebook_cells, notebook_links, notebooks, search
from docverify.parsing.pages import read_page, read_site
from docverify.site import anatomy
from docverify.verifying import compare, recordings
from docverify.verifying.outcome import tolerance
from docverify.verifying.verify import verify
from support import browser
from support.notebook_script import run_cells
from support.site import broken_links

# The published notebooks, split so that both pytest-xdist workers run some, in pieces small
# enough that neither is left running the last of them alone.
NOTEBOOK_SHARDS = 4

ARTICLE = """\
---
title: "Un artículo"
description: "Frase inicial."
goals: ["Ver la acumulación"]
---

## Primera sección

Texto antes del bloque.

```python exec="on" id="suma"
--8<-- "articulos/uno/suma.py"
```

Texto entre bloques.

```python exec="on" id="falla" raises="ValueError: mal"
print("antes")
raise ValueError("mal")
```

## Última sección

Texto final.
"""


def _outputs_text(cell: dict[str, Any]) -> str:
    """What a code cell showed, as the engine records it: stream text, then the value of a bare
    last expression (last_value) or «Tipo: mensaje»."""
    parts = []
    for output in cell["outputs"]:
        if output["output_type"] == "stream":
            text = output["text"]
            parts.append(text if isinstance(text, str) else "".join(text))
        elif output["output_type"] == "execute_result":
            text = output["data"]["text/plain"]
            parts.append((text if isinstance(text, str) else "".join(text)) + "\n")
        elif output["output_type"] == "error":
            parts.append(f"{output['ename']}: {output['evalue']}\n")
    return normalise("".join(parts))


def test_notebook_is_made_from_the_page_blocks(tmp_path: Path, executor) -> None:
    project = Project(tmp_path)
    project.snippet("articulos/uno/suma.py", "print(1 + 1)  # Expectativa: 2\n")
    page_path = project.page("articulos/uno.md", ARTICLE)
    config = project.config
    page = read_page(config, page_path)
    report = verify(config, [page], "cpu", executor)
    notebook = notebooks.build(config, page, report, dt.date(2026, 11, 29))

    nbformat = pytest.importorskip("nbformat")
    nbformat.validate(nbformat.from_dict(notebook))
    code = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    # Each block without a session starts its own random stream from the seed, in sight.
    seeds = [f"{notebook_cells.STREAM_ID}_suma", f"{notebook_cells.STREAM_ID}_falla"]
    assert [c["id"] for c in code] == [notebook_cells.SETUP_ID, seeds[0], "suma", seeds[1], "falla"]
    assert all(c["source"].startswith("seed_stream()") for c in code if c["id"] in seeds)
    code = [c for c in code if c["id"] not in seeds]
    assert code[1]["source"] == "print(1 + 1)  # Expectativa: 2"  # the snippet, not a copy
    assert _outputs_text(code[1]) == "2"
    assert _outputs_text(code[2]) == "antes\nValueError: mal"
    assert code[2]["metadata"]["tags"] == ["raises-exception"]
    text = "\n".join(c["source"] for c in notebook["cells"] if c["cell_type"] == "markdown")
    for part in (
        "# Un artículo",
        "Frase inicial.",
        "Ver la acumulación",
        "## Primera sección",
        "Texto antes del bloque.",
        "Texto entre bloques.",
        "## Última sección",
        "Texto final.",
    ):
        assert part in text
    assert "```" not in text and "--8<--" not in text, "los bloques no se repiten como texto"
    assert notebook["metadata"]["docverify"]["runner"] == "cpu"
    assert notebooks.notebook_path(page) == "cuadernos/uno.ipynb"


DRAW = (
    "import random, numpy, torch\n"
    "print(torch.rand(2).tolist(), random.random(), numpy.random.random())"
)
STREAMS = "# Flujos\n\n" + "".join(
    f'```python exec="on" id="{block_id}"{session}\n{code}\n```\n\n'
    for block_id, session, code in [
        ("s-1", ' session="s"', DRAW),
        ("suelto-1", "", DRAW + "\ntorch.rand(50); random.random(); numpy.random.random(3)"),
        ("t-1", ' session="t"', DRAW),
        ("s-2", ' session="s"', DRAW),
        ("s-3", ' session="s"', DRAW),
        ("t-2", ' session="t"', DRAW),
        ("suelto-2", "", DRAW),
        # as many threads as the page's blocks had (on a machine of more than one core, a
        # kernel left alone would use them all, and a sum could change its last decimals)
        ("hilos", "", "import torch\nprint(torch.get_num_threads())"),
    ]
)


def test_notebook_cells_run_as_one_script_print_the_page(tmp_path: Path, executor) -> None:
    """The notebook's code cells, copied in order into one script (setup and stream cells
    included), print what the engine printed for each block: sessions interleaved with each
    other and with blocks without a session, each a random stream of its own."""
    project = Project(tmp_path / "proj")
    page = read_page(project.config, project.page("flujos.md", STREAMS))
    report = verify(project.config, [page], "cpu", executor)
    notebook = notebooks.build(project.config, page, report, dt.date(2026, 11, 29))
    printed = run_cells(notebook, tmp_path)
    for block in page.blocks:
        assert printed[block.id].strip() == report.outcomes[block.key].observed, block.id
    assert printed["s-2"] != printed["s-1"] and printed["suelto-2"] == printed["s-1"]


def test_notebook_html_drops_foreign_scripts_and_adds_links() -> None:
    html = (
        '<script src=""> </script><script src="https://cdn.example/mathjax.js"></script>'
        '<script src="../../assets/local.js"></script><div class="highlight-ipynb">x</div>'
        '<div class="highlight"><pre><span></span>licencia</pre></div>'
    )
    out = notebook_links.notebook_html(html, "uno.ipynb", "../../articulos/uno/", "Uno")
    assert "cdn.example" not in out and 'src=""' not in out
    assert "../../assets/local.js" in out
    assert '<a class="md-button md-button--primary" href="uno.ipynb" download>' in out
    assert 'tabindex="0" class="highlight-ipynb"' in out
    # code in a Markdown cell scrolls too: keyboard users reach it (axe scrollable-region-focusable)
    assert '<div class="highlight"><pre tabindex="0">' in out


def _material_site(tmp_path: Path) -> Path:
    """A site folder holding a copy of the installed Material's search worker."""
    import material  # noqa: PLC0415

    theme = Path(material.__file__).parent / "templates"
    (worker,) = theme.glob(search.MATERIAL_WORKER.pattern)
    copy = tmp_path / "site" / worker.relative_to(theme)
    copy.parent.mkdir(parents=True)
    shutil.copyfile(worker, copy)
    return tmp_path / "site"


def test_material_search_worker_is_patched_once_in_the_built_site(tmp_path: Path) -> None:
    """Each text appears in the installed Material's worker as often as written; the copy in the
    site gets every change, and a second build of the same folder leaves it as it is."""
    site = _material_site(tmp_path)
    (worker,) = site.glob(search.MATERIAL_WORKER.pattern)
    original = worker.read_text(encoding="utf-8")
    for change in search.MATERIAL_WORKER.changes:
        assert original.count(change.old) == change.count, change.old
    search.patch_material_worker(site)
    patched = worker.read_text(encoding="utf-8")
    for change in search.MATERIAL_WORKER.changes:
        assert patched.count(change.new) == change.count, change.new
    assert patched.count("self.dvFoldText") == 3  # defined once, used on words and on queries
    search.patch_material_worker(site)
    assert worker.read_text(encoding="utf-8") == patched
    search.patch_material_worker(tmp_path / "sin-busqueda")  # the search plugin off: nothing


def test_a_changed_material_worker_stops_the_build_naming_the_text(tmp_path: Path) -> None:
    """A Material release whose worker no longer has a text: the error names the patch, the
    file, the text and the pinned version, and the file is left as it was."""
    site = _material_site(tmp_path)
    (worker,) = site.glob(search.MATERIAL_WORKER.pattern)
    change = search.MATERIAL_WORKER.changes[1]
    changed = worker.read_text(encoding="utf-8").replace(change.old, change.old.replace("e", "q"))
    worker.write_text(changed, encoding="utf-8")
    with pytest.raises(search.script_patch.PatchError) as caught:
        search.patch_material_worker(site)
    message = str(caught.value)
    assert "búsqueda sin tildes" in message and change.old in message, message
    assert str(worker) in message and "aparece 0 veces" in message, message
    assert search.MATERIAL.written_for in message and "pyproject.toml" in message, message
    assert worker.read_text(encoding="utf-8") == changed
    shutil.copyfile(worker, worker.with_name("search.0000.min.js"))
    with pytest.raises(search.script_patch.PatchError) as caught:
        search.patch_material_worker(site)
    assert str(caught.value) == (
        "el parche «búsqueda sin tildes» busca un archivo "
        f"assets/javascripts/workers/search.*.min.js en {site} y hay 2: ¿restos de otra versión "
        "de Material? Borra la carpeta y construye de nuevo."
    )


def test_zensical_index_gets_each_pages_boost_on_every_entry(tmp_path: Path) -> None:
    """Zensical reads no page's meta: the build writes each page's boost into its index, on the
    page's entry and on each of its sections', as Material's index has it; other pages' entries
    are left as they are, and a site without an index gets none."""
    items = [
        {"location": "", "title": "Inicio", "text": "a"},
        {"location": "articulos/a/", "title": "A", "text": "b"},
        {"location": "articulos/a/#seccion", "title": "Sección", "text": "c"},
        {"location": "articulos/a/b/", "title": "B", "text": "d"},  # another page, below it
    ]
    path = tmp_path / search.ZENSICAL_INDEX
    path.write_text(json.dumps({"config": {"lang": ["es"]}, "items": items}), encoding="utf-8")
    search.boost_zensical_index(path, {"articulos/a/": 4.0})
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written["config"] == {"lang": ["es"]}
    assert [item.get("boost") for item in written["items"]] == [None, 4.0, 4.0, None]
    assert [item["text"] for item in written["items"]] == ["a", "b", "c", "d"]
    search.boost_zensical_index(tmp_path / "sin" / search.ZENSICAL_INDEX, {"": 2.0})
    assert not (tmp_path / "sin").exists()


def test_zensical_index_is_written_back_as_zensical_writes_it(tmp_path: Path) -> None:
    """Compact, its accents as they are (not \\u escapes), UTF-8 whatever the locale; a
    location with two «#» is still its page's; an index without items stays as it is."""
    path = tmp_path / search.ZENSICAL_INDEX
    items = [{"location": "a/#x#y", "title": "Sección", "text": "ñ"}]
    path.write_bytes(json.dumps({"items": items}, indent=2).encode())
    search.boost_zensical_index(path, {"a/": 4.0, "a/#x": 9.0})
    assert path.read_bytes().decode() == (
        '{"items":[{"location":"a/#x#y","title":"Sección","text":"ñ","boost":4.0}]}'
    )
    path.write_text('{"config": {}}', encoding="utf-8")
    search.boost_zensical_index(path, {"": 1.0})
    assert json.loads(path.read_text(encoding="utf-8")) == {"config": {}}


def test_a_notebook_page_keeps_its_articles_links_pointing_where_they_point() -> None:
    """The article `articulos/b.md` links `a.md#x`: from the notebook page, at another depth,
    the link must still reach articulos/a.md (HTML from nbconvert, or Markdown for a generator
    that resolves .md links); other hosts and the page's own anchors are left alone."""
    urls = {"articulos/a.md": "articulos/a/", "img/f.png": "img/f.png"}
    html = (
        '<a href="a.md#x">A</a> <img src="x"> <a href="../img/f.png">F</a> '
        '<a href="https://pytorch.org/">P</a> <a href="#arriba">Arriba</a> <a href="zz.md">Z</a>'
    )
    shown = notebook_links.relink_html(
        html, "articulos/b.md", lambda p: urls.get(p) and "../../" + urls[p]
    )
    assert shown == (
        '<a href="../../articulos/a/#x">A</a> <img src="x"> <a href="../../img/f.png">F</a> '
        '<a href="https://pytorch.org/">P</a> <a href="#arriba">Arriba</a> <a href="zz.md">Z</a>'
    )
    markdown = "Ver [A](a.md#x), ![f](../img/f.png), [P](https://pytorch.org/) y [B](#y)."
    assert notebook_links.relink_markdown(markdown, "articulos/b.md", "cuadernos/b.md") == (
        "Ver [A](../articulos/a.md#x), ![f](../img/f.png), [P](https://pytorch.org/) y [B](#y)."
    )


@pytest.mark.slow
def test_every_relative_link_of_the_built_site_leads_somewhere(built: Built) -> None:
    """Every page's relative links, the notebook pages' included: a notebook shows its article's
    text, whose links are relative to the article (`otro-articulo.md#seccion`); on the notebook
    page they must still lead to that page and section, not to a 404."""
    pages = browser.site_pages(built.site)
    notebook_pages = [p for p in pages if p.startswith(f"{notebooks.FOLDER}/")]
    assert notebook_pages, "la construcción no tiene páginas de cuadernos"
    assert not broken_links(built.site, pages), "\n".join(broken_links(built.site, pages))


@pytest.mark.slow
def test_built_search_index_finds_every_article(built: Built) -> None:
    """Each article is found by each word of its title, also typed without accents."""
    if built.generator != "mkdocs":
        pytest.skip("el índice de Material; la búsqueda de Zensical: tests/browser, tests/zensical")
    index = json.loads((built.site / "search/search_index.json").read_text(encoding="utf-8"))
    assert index["config"]["lang"] == ["es"]
    docs = index["docs"]
    assert not [d for d in docs if d["location"].startswith("cuadernos/")], (
        "los cuadernos repiten el artículo: no van en la búsqueda"
    )

    titles = {d["location"].rstrip("/"): set(re.findall(r"\w+", d["title"].lower())) for d in docs}
    articles = [p for p in read_site(config_mod.load(built.root)) if anatomy.is_article(p)]
    assert articles
    for page in articles:
        words = set(re.findall(r"\w+", str(page.meta["title"]).lower()))
        assert words <= titles[page.rel.removesuffix(".md")], page.rel
    # Found also without accents: the built site's worker folds them (test_browser.py searches).
    (worker,) = built.site.glob(search.MATERIAL_WORKER.pattern)
    assert search.script_patch.is_applied(
        worker.read_text(encoding="utf-8"), search.MATERIAL_WORKER
    )


@pytest.mark.slow
@pytest.mark.parametrize("shard", range(NOTEBOOK_SHARDS))
def test_downloaded_notebook_runs_as_is_and_prints_what_the_page_shows(
    built: Built, tmp_path: Path, shard: int
) -> None:
    """Each published .ipynb (this shard's share, so that pytest-xdist workers share them), run
    in a fresh python3 kernel, prints the verified outputs."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    config = config_mod.load(built.root)
    articles = {p.rel: p for p in read_site(config) if anatomy.is_article(p)}
    published = sorted(built.site.glob("cuadernos/*/*.ipynb"))
    assert len(published) == len(articles) > 0, published
    for path in published[shard::NOTEBOOK_SHARDS]:
        stored = nbformat.read(path, as_version=4)
        page = articles[stored.metadata["docverify"]["page"]]
        ran = nbformat.read(path, as_version=4)
        for cell in ran.cells:
            if cell.cell_type == "code":
                cell.outputs = []
        workdir = tmp_path / path.stem
        workdir.mkdir()
        for rel in stored.metadata["docverify"].get("data_files", []):
            # what the reader downloads from the site and keeps beside the notebook
            shutil.copyfile(built.site / rel, workdir / Path(rel).name)
        client = nbclient.NotebookClient(
            ran,
            kernel_name="python3",
            timeout=300,
            resources={"metadata": {"path": str(workdir)}},
            # Once every output is in, the kernel is stopped (SIGKILL) instead of asked to shut
            # down: its interpreter tearing torch down cost ~0.7 s of CPU per notebook.
            shutdown_kernel="immediate",
        )
        client.execute()
        blocks = {b.id: b for b in page.blocks}
        code = [
            (s, r)
            for s, r in zip(stored.cells, ran.cells, strict=True)
            if s.cell_type == "code" and s.id in blocks
        ]
        assert [s.id for s, _ in code] == list(blocks), f"{path.name}: faltan bloques"
        for shown, executed in code:
            block = blocks[shown.id]
            assert shown.source == block.code.rstrip("\n"), f"{block.key}: código distinto"
            tol = tolerance(config, block)
            got, expected = _outputs_text(executed), _outputs_text(shown)
            recording = recordings.of_block(config, block).get("cpu")
            assert recording is not None, f"{block.key}: sin grabación cpu"
            # What the page shows and what Jupyter printed are two runs: they agree as check
            # compares, through the recording ([..] markers, volatile values, tolerance).
            for label, text in (("página (cuaderno publicado)", expected), ("Jupyter", got)):
                assert compare.matches(recording.body, text, tol), (
                    f"{block.key}: {label} no coincide con la grabación\n"
                    + compare.diff(recording.body, text, str(recording.path), label)
                )


def test_articles_get_the_search_boost_and_keep_an_authors_own(tmp_path: Path) -> None:
    """Every article carries Material's per-page boost; a page that is no article does not;
    a boost the author wrote in the front matter wins."""
    from docverify.output import page_parts  # noqa: PLC0415

    project = Project(tmp_path)
    project.snippet("articulos/uno/suma.py", "print(1 + 1)\n")
    article = read_page(project.config, project.page("articulos/uno.md", ARTICLE))
    home = read_page(project.config, project.page("index.md", "# Inicio\n"))
    result = SimpleNamespace(pages={p.rel: p for p in (article, home)})
    boosted = page_parts.search_meta(result, article.rel, article.meta)  # type: ignore[arg-type]
    assert boosted == {"search": {"boost": search.ARTICLE_BOOST}} and search.ARTICLE_BOOST > 1
    assert page_parts.search_meta(result, home.rel, home.meta) == {}  # type: ignore[arg-type]
    own = {**article.meta, "search": {"boost": 0.5}}
    assert page_parts.search_meta(result, article.rel, own) == {"search": {"boost": 0.5}}  # type: ignore[arg-type]


FULL = """\
---
title: "Un a*b"
description: "Frase inicial."
goals: ["Ver la acumulación"]
prerequisites: ["Saber sumar"]
approach: "Enfoque."
takeaways: ["Una conclusión."]
faq:
  - question: "¿Pregunta?"
    answer: "Respuesta."
  - "no es una pregunta"
  - question: "¿Otra?"
    answer: "Sí."
  - question: "¿Sin respuesta?"
  - answer: "Sin pregunta."
data_files: ["datos/d.csv"]
sources:
  - title: "Fuente"
    reference: "PyTorch / README.md"
    url: "https://pytorch.org/"
    verified: "2026-05-01"
  - title: "Otra"
    reference: "Libro"
    verified: "2026-06-02"
---

## Texto

Antes.

```python exec="on" id="uno"
print(1)
```

Entre.

```python exec="on" id="dos"
print(2)
```

Final.
"""
HEADER_END = (
    "La primera celda prepara el núcleo como el verificador prepara cada bloque, y las celdas "
    "`seed_stream()` empiezan los números aleatorios de cada sesión (y de cada bloque sin "
    "sesión) con la semilla, como un script; al ejecutar el cuaderno verás las salidas de tu "
    "máquina."
)


def _nothing_ran(runner: str, env: dict[str, str]) -> Any:
    """A verification that observed no block (the notebook's code cells have no outputs)."""
    return SimpleNamespace(runner=runner, env=env, outcomes={})


def _full_notebook(tmp_path: Path, **kw: Any) -> tuple[dict[str, Any], Any]:
    project = Project(tmp_path / "proj")
    data = project.root / "docs" / "datos" / "d.csv"
    data.parent.mkdir(parents=True)
    data.write_text("1,2\n", encoding="utf-8")
    page = read_page(project.config, project.page("articulos/tema/a.md", FULL))
    verification = kw.pop("verification", _nothing_ran("cpu", {"torch": "2.1"}))
    notebook = notebooks.build(project.config, page, verification, dt.date(2026, 11, 29), **kw)
    return notebook, project.config


def _cell(notebook: dict[str, Any], cell_id: str) -> dict[str, Any]:
    [cell] = [c for c in notebook["cells"] if c["id"] == cell_id]
    return cell


def test_the_notebooks_header_says_each_part_of_the_article(tmp_path: Path) -> None:
    notebook, config = _full_notebook(tmp_path)
    assert _cell(notebook, "docverify_cabecera")["source"] == (
        "# Un a\\*b\n\nFrase inicial.\n\n**Qué aprenderás**\n\n- Ver la acumulación\n\n"
        "**Antes de empezar**\n\n- Saber sumar\n\n*Enfoque.*\n\n"
        "**Conclusiones clave**\n\n- Una conclusión.\n\n"
        "> Cuaderno generado al construir el sitio a partir de los mismos bloques que el "
        "artículo. Las salidas guardadas son las que se comprobaron en CPU (torch 2.1, 29 de "
        f"noviembre de 2026). {HEADER_END}\n\n"
        + notebooks.hashing_note(config.hash_seed)
        + "\n\n> El código de este cuaderno lee [`d.csv`](../../datos/d.csv): descárgalo y "
        "guárdalo junto al cuaderno."
    )


def test_the_header_names_an_unknown_runner_and_where_the_version_ran(tmp_path: Path) -> None:
    verification = _nothing_ran("tpu", {})
    coverage = SimpleNamespace()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(notebooks.coverage_text, "notebook", lambda c: "Dónde corrió." if c else "")
        notebook, _ = _full_notebook(tmp_path, verification=verification, coverage=coverage)
    header = _cell(notebook, "docverify_cabecera")["source"]
    assert f"en tpu (torch ?, 29 de noviembre de 2026). Dónde corrió. {HEADER_END}" in header
    assert notebook["metadata"]["docverify"]["torch"] == "?"


def test_the_hashing_note() -> None:
    assert notebooks.hashing_note(7) == (
        "> El orden en que Python recorre un `set` de cadenas (o un `dict` hecho con uno) "
        "cambia en cada arranque del intérprete, salvo que `PYTHONHASHSEED` lo fije: las "
        "salidas de la página se obtuvieron con `PYTHONHASHSEED=7`. Para ver las mismas, "
        "arranca Jupyter así: `PYTHONHASHSEED=7 jupyter lab` (o `jupyter notebook`); la "
        "primera celda avisa si el núcleo arrancó sin ese valor."
    )


def test_the_notebooks_cells_metadata_and_numbering(tmp_path: Path) -> None:
    notebook, config = _full_notebook(tmp_path)
    assert (notebook["nbformat"], notebook["nbformat_minor"]) == (4, 5)
    assert notebook["metadata"] == {
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"},
        "docverify": {
            "page": "articulos/tema/a.md",
            "runner": "cpu",
            "torch": "2.1",
            "date": "2026-11-29",
            "data_files": ["datos/d.csv"],
        },
    }
    assert [c["id"] for c in notebook["cells"]] == [
        "docverify_cabecera",
        "docverify_preparacion",
        "docverify_texto_1",
        "docverify_semilla_uno",
        "uno",
        "docverify_texto_2",
        "docverify_semilla_dos",
        "dos",
        "docverify_texto_final",
        "docverify_preguntas",
        "docverify_fuentes",
    ]
    code = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    assert [c["execution_count"] for c in code] == [1, 2, 3, 4, 5]
    assert _cell(notebook, "docverify_texto_1")["source"] == "## Texto\n\nAntes."
    assert _cell(notebook, "docverify_texto_2")["source"] == "Entre."
    assert _cell(notebook, "docverify_texto_final")["source"] == "Final."
    setup = _cell(notebook, "docverify_preparacion")
    assert setup["metadata"] == {"docverify": {"setup": True}} and setup["outputs"] == []
    source = setup["source"]
    assert "torch.set_num_threads(1)\n" in source and 'RUNNER = "cpu"\n' in source
    assert f"\nSEED = {config.seed}\n" in source
    assert f'os.environ.get("PYTHONHASHSEED") != "{config.hash_seed}"' in source
    assert source.endswith('torch.set_default_device("cuda")')  # every block on the GPU


def test_the_questions_and_the_sources_close_the_notebook(tmp_path: Path) -> None:
    notebook, _ = _full_notebook(tmp_path)
    assert _cell(notebook, "docverify_preguntas")["source"] == (
        "## Preguntas frecuentes\n\n**¿Pregunta?**\n\nRespuesta.\n\n**¿Otra?**\n\nSí.\n\n"
        "**¿Sin respuesta?**\n\n\n\n****\n\nSin pregunta."
    )
    fuentes = (
        "## Fuentes\n\n"
        "- **[PyTorch / README.md](https://pytorch.org/)**: Fuente (verificada el 1 de mayo de "
        "2026)\n- **Libro**: Otra (verificada el 2 de junio de 2026)"
    )
    assert _cell(notebook, "docverify_fuentes")["source"] == fuentes  # read from the page
    given, _ = _full_notebook(tmp_path / "dada", sources=[])
    assert "docverify_fuentes" not in [c["id"] for c in given["cells"]]  # the caller's: none


def test_a_notebook_without_questions_sources_or_data(tmp_path: Path) -> None:
    project = Project(tmp_path)
    page = read_page(project.config, project.page("articulos/b.md", "Solo texto.\n"))
    notebook = notebooks.build(project.config, page, _nothing_ran("cpu", {}), dt.date(2026, 1, 2))
    assert [c["id"] for c in notebook["cells"]] == [
        "docverify_cabecera",
        "docverify_preparacion",
        "docverify_texto_final",
    ]
    assert "data_files" not in notebook["metadata"]["docverify"]
    header = notebook["cells"][0]["source"]
    assert header.startswith("# articulos/b\n\n> Cuaderno generado")  # its path for a title
    assert "lee [" not in header


def test_a_page_at_the_docs_root_links_its_data_files_from_there(tmp_path: Path) -> None:
    project = Project(tmp_path)
    (project.root / "docs" / "d.csv").write_text("1\n", encoding="utf-8")
    text = '---\ndata_files: ["d.csv"]\n---\n\nTexto.\n'
    page = read_page(project.config, project.page("guia.md", text))
    notebook = notebooks.build(project.config, page, _nothing_ran("cpu", {}), dt.date(2026, 1, 2))
    assert notebook["cells"][0]["source"].endswith(
        " lee [`d.csv`](d.csv): descárgalo y guárdalo junto al cuaderno."
    )


def test_a_seed_articles_notebook_credits_its_origin(tmp_path: Path) -> None:
    project = Project(tmp_path)
    sha = "0123456789abcdef" * 2 + "01234567"
    text = (
        "---\norigin:\n  repository: duena/tut\n  path: a.py\n"
        f"  commit: {sha}\n  license: BSD-3-Clause\n---\n\nTexto.\n"
    )
    page = read_page(project.config, project.page("articulos/s.md", text))
    notebook = notebooks.build(project.config, page, _nothing_ran("cpu", {}), dt.date(2026, 1, 2))
    header = notebook["cells"][0]["source"]
    assert (
        "\n\nEl código de esta página viene de [duena/tut](https://github.com/duena/tut/" in header
    )
    assert header.endswith("salvo los bloques que la página presenta como propios.")


def _ids(project: Project, text: str, **changed: dict[str, int]) -> list[str]:
    """The ids of the cells of page `text`'s notebook; `changed`: block id → Block fields to
    change, as a parse that could not place a block leaves them."""
    page = read_page(project.config, project.page("articulos/c.md", text))
    page.blocks = [dataclasses.replace(b, **changed.get(b.id, {})) for b in page.blocks]
    notebook = notebooks.build(project.config, page, _nothing_ran("cpu", {}), dt.date(2026, 1, 2))
    return [c["id"] for c in notebook["cells"]][2:]


TWO = (
    'Antes.\n\n```python exec="on" id="uno"\nprint(1)\n```\n'
    '```python exec="on" id="dos"\nprint(2)\n```\n'
)


def test_blocks_one_right_after_the_other_are_both_cells(tmp_path: Path) -> None:
    project = Project(tmp_path)
    cells = ["docverify_semilla_uno", "uno", "docverify_semilla_dos", "dos"]
    assert _ids(project, TWO) == ["docverify_texto_1", *cells]


def test_a_block_the_parse_could_not_place_is_not_a_cell(tmp_path: Path) -> None:
    project = Project(tmp_path)
    unknown_end = _ids(project, TWO, uno={"fence_end": 0})
    assert unknown_end == ["docverify_texto_2", "docverify_semilla_dos", "dos"]
    inside_another = _ids(project, TWO, dos={"fence_line": 4})
    assert inside_another == [
        "docverify_texto_1",
        "docverify_semilla_uno",
        "uno",
        "docverify_texto_final",  # the other block's lines stay text
    ]


@pytest.mark.parametrize(
    ("rel", "path"),
    [
        ("articulos/uno.md", "cuadernos/uno.ipynb"),
        ("articulos/tema/dos.md", "cuadernos/tema-dos.ipynb"),
        ("guia.md", "cuadernos/guia.ipynb"),
    ],
)
def test_where_an_articles_notebook_goes(rel: str, path: str) -> None:
    assert notebooks.notebook_path(SimpleNamespace(rel=rel)) == path  # type: ignore[arg-type]


def test_the_notebooks_json_as_jupyter_writes_it() -> None:
    assert notebooks.dumps({"a": ["é", 1]}) == '{\n "a": [\n  "é",\n  1\n ]\n}\n'
