"""The Zensical build path on a one-article site: the same panels as MkDocs, the same failures.

A smoke test of the default suite (seconds): the full site on Zensical, with the browser audit,
is `python3 tasks.py test tests/browser --generador=zensical` (docs-dev/zensical.md).
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import docverify, mkdocs_build, zensical_build
from support.mkdocs_site import EPOCH, Site
from support.site import executed_fences

ENV = {"SOURCE_DATE_EPOCH": EPOCH, "CI": "false", "DOCVERIFY_CACHE": "1"}
PANEL = re.compile(r'class="admonition [a-z]+ dv-output"|class="dv-no-output"')
PREFIX = re.compile(r"^(?:ERROR|WARNING|INFO)\s+-\s+")  # MkDocs' log prefix
FINDING = re.compile(r"^\S+: \[[a-z-]+\] |^  → Cómo arreglarlo: ")
SUMMARY = re.compile(r"^\d+ errore?s? de verificación: .+$", re.MULTILINE)


def panels(site: Path) -> dict[str, int]:
    """Output panels (and «Sin salida» lines) of each built page."""
    return {
        p.relative_to(site).as_posix(): len(PANEL.findall(p.read_text(encoding="utf-8")))
        for p in sorted(site.rglob("index.html"))
    }


def findings(output: str) -> list[str]:
    """The lines of the findings a build printed (what, where, how to fix), in order."""
    lines = (PREFIX.sub("", line) for line in output.splitlines())
    return [line for line in lines if FINDING.match(line)]


@dataclass
class Both:
    site: Site
    mkdocs: subprocess.CompletedProcess[str]
    zensical: subprocess.CompletedProcess[str]
    out: Path


# A page of blocks in every place and shape a panel can take: inside an admonition and a list
# item (indented), each layout of markdown-exec's `source` with its tabs and title, a graph and
# a curve, an expected error, an expectation, a block that prints nothing, a block pinned to one
# runner, a session. Its recordings are made by `docverify record`, as an author makes them.
SHAPES = """\
# Bloques

!!! note "Dentro de un recuadro"

    ```python exec="on" id="grafo" graph="Grafo de y = x * x"
    print("[0] MulBackward0 → [1], [1]")
    print("[1] torch::autograd::AccumulateGrad (hoja x)")
    ```

1. En una lista:

    ```python exec="on" id="curva" curve="Pérdida"
    for epoca, perdida in enumerate([0.9, 0.5, 0.3], 1):
        print(f"época {epoca}: pérdida {perdida}")
    ```

```python exec="on" id="pestanas" source="tabbed-left" tabs="Fuente|Resultado"
print(1)
```

```python exec="on" id="debajo" source="below" title="debajo.py"
print("debajo")
```

```python exec="on" id="bloque" source="material-block" session="s"
valor = 2 + 2
print(valor)  # Expectativa: 4
```

```python exec="on" id="sigue" session="s"
print(valor * 10)
```

```python exec="on" id="error" raises="ValueError: no"
raise ValueError("no se puede")
```

```python exec="on" id="calla"
x = 1
```

```python exec="on" id="solo" runner="cpu" reason="muestra la CPU"
print("cpu")
```
"""


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Both:
    folder = tmp_path_factory.mktemp("zensical")
    site = Site(folder / "src")
    (site.root / "docs/bloques.md").write_text(SHAPES, encoding="utf-8")
    nav = "  - articulos/a.md\n"
    site.edit(site.root / "mkdocs.yml", nav, nav + "  - bloques.md\n")
    recorded = docverify(site.root, "record", "--runner", "cpu", "docs/bloques.md")
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    # Both builds run every block (and refresh the cache the other tests' copies read): the
    # same observations, so that their pages can be compared character by character.
    fresh = {**ENV, "DOCVERIFY_CACHE": "0"}
    built = mkdocs_build(site.root, folder / "mkdocs-site", strict=False, env=fresh)
    done = zensical_build(site.root, folder / "z", env=fresh)
    return Both(site, built, done, folder)


def test_every_executed_block_shows_its_panel_as_in_the_mkdocs_build(clean: Both) -> None:
    assert clean.mkdocs.returncode == 0, clean.mkdocs.stderr
    assert clean.zensical.returncode == 0, clean.zensical.stdout + clean.zensical.stderr
    on_zensical = panels(clean.out / "z" / "site")
    on_mkdocs = panels(clean.out / "mkdocs-site")
    assert sum(on_zensical.values()) == executed_fences(clean.site.root) > 0, on_zensical
    assert {p: n for p, n in on_zensical.items() if n} == {p: n for p, n in on_mkdocs.items() if n}
    # Zensical never executes: the page shows the output the engine observed and verified.
    page = (clean.out / "z/site/articulos/a/index.html").read_text(encoding="utf-8")
    assert "<samp>12</samp>" in page and "CPU ✓" in page, page
    assert "dv-banner" not in page and not SUMMARY.search(clean.zensical.stderr)


# Everything the engine puts under a block: its panel (or «Sin salida» line), its picture, the
# box of its errors, the canary's box.
UNDER_A_BLOCK = (
    "div.dv-output, p.dv-no-output, figure.dv-graph, figure.dv-curve, div.dv-problem, "
    "details.dv-canary"
)
ADDRESS = re.compile(r"0x[0-9a-f]{6,16}")


def under_blocks(page: Path) -> list[str]:
    """What the engine shows under each block of a built page, in order, as HTML."""
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    return [ADDRESS.sub("0x…", str(found)) for found in soup.select(UNDER_A_BLOCK)]


def test_every_block_shows_the_same_panel_in_both_builds(clean: Both) -> None:
    """One render for both generators (output/render.py): under every block of every page, the
    same HTML, wherever the block is (an admonition, a list, a tab) and whatever its layout."""
    assert clean.mkdocs.returncode == 0 and clean.zensical.returncode == 0
    for rel in ("bloques/index.html", "articulos/a/index.html"):
        on_mkdocs = under_blocks(clean.out / "mkdocs-site" / rel)
        on_zensical = under_blocks(clean.out / "z/site" / rel)
        assert on_mkdocs == on_zensical, rel
    shapes = under_blocks(clean.out / "mkdocs-site/bloques/index.html")
    assert sum('class="admonition' in html for html in shapes) >= 7, shapes
    for shape in ("dv-no-output", "dv-only", "dv-graph", "dv-curve"):
        assert sum(f'class="{shape}' in html for html in shapes) == 1, shape
    # A picture or a paragraph of the engine's is never wrapped in a paragraph of its own.
    page = (clean.out / "mkdocs-site/bloques/index.html").read_text(encoding="utf-8")
    assert not re.search(r"<p>\s*<(figure|p)\b", page)


def test_the_code_reads_as_in_the_mkdocs_build_with_the_same_lighter_highlighting(
    clean: Both,
) -> None:
    """Zensical has no hooks: the engine rewrites its built pages as the MkDocs hook rewrites
    content (the render's Site.finish, through docs_folder.finish), so a page's code has the same
    characters and spans."""
    rel = "articulos/a/index.html"
    on_zensical = code_spans((clean.out / "z/site" / rel).read_text(encoding="utf-8"))
    on_mkdocs = code_spans((clean.out / "mkdocs-site" / rel).read_text(encoding="utf-8"))
    assert on_zensical, "el artículo de prueba no tiene código resaltado"
    assert on_zensical == on_mkdocs
    assert not {"n", "w"} & {c for _, classes in on_zensical for c in classes}, on_zensical


def code_spans(page: str) -> list[tuple[str, list[str]]]:
    """Each highlighted block's characters and the classes of its spans, in order."""
    blocks = re.findall(r'<div class="highlight"><pre>.*?</pre>', page, re.DOTALL)
    return [(re.sub(r"<[^>]+>", "", b), re.findall(r'<span class="([\w-]+)">', b)) for b in blocks]


@pytest.mark.parametrize(
    ("kind", "old", "new"),
    [
        ("divergencia", "12", "13"),
        ("fuente-caducada", '"2026-05-01"', '"2020-01-01"'),
        ("tipo-incorrecto", "  - Una conclusión.", "  - Forma: una conclusión."),
    ],
)
def test_a_verification_error_fails_with_the_findings_of_mkdocs_build(
    clean: Both, tmp_path: Path, kind: str, old: str, new: str
) -> None:
    """A diverging recording, a stale source, a takeaway YAML reads as a mapping: the command
    exits non-zero with the same findings and summary as a plain `mkdocs build`, and Zensical
    builds nothing."""
    site = clean.site.copy(tmp_path / "src")
    site.edit(site.recording if kind == "divergencia" else site.article, old, new)
    built = mkdocs_build(site.root, tmp_path / "mkdocs-site", strict=False, env=ENV)
    done = zensical_build(site.root, tmp_path / "z", env=ENV)
    assert built.returncode != 0 and done.returncode != 0, done.stdout + done.stderr
    expected = findings(built.stdout + built.stderr)
    assert any(f"[{kind}]" in line for line in expected), built.stderr
    assert findings(done.stdout + done.stderr) == expected
    assert SUMMARY.findall(done.stderr) == SUMMARY.findall(built.stdout + built.stderr)
    assert not (tmp_path / "z" / "site").exists(), "Zensical construyó un sitio sin verificar"
