"""A tutorial ported with its code and comments unchanged, and an `origin:`, builds strict.

The small MkDocs site (support.mkdocs_site) with the real site's glossary: the block's English
comments («gradient», «loss», «forward pass», «backpropagation») are the glossary's avoided
phrases, which the lint lets stand on a page of quoted code and nowhere else. The page shows
the generated credit in both builds, and the notebook says it too.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import ROOT, docverify, mkdocs_build, zensical_build
from support.mkdocs_site import EPOCH, Site

pytestmark = pytest.mark.slow

SHA = "89abcdef0123456789abcdef0123456789abcdef"
ORIGIN = (
    "origin:\n"
    "  repository: https://example.org/docverify/tutorial-autograd.git\n"
    "  path: autograd_tutorial.py\n"
    f"  commit: {SHA}\n"
    "  license: MIT\n"
    f"  url: https://example.org/docverify/tutorial-autograd/blob/{SHA}/autograd_tutorial.py\n"
)
# Written by us, in the style of an English tutorial (a fixture: not taken from anywhere).
PORTED_CODE = """\
import torch

# inputs and weights of a tiny model
x = torch.ones(3)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
# forward pass: compute the loss
loss = (w * x).sum() ** 2
# backpropagation fills the gradient of w
loss.backward()
print(w.grad)
"""


def _built(site: Site, out: Path) -> BeautifulSoup:
    done = mkdocs_build(site.root, out, env={"SOURCE_DATE_EPOCH": EPOCH})
    assert done.returncode == 0, done.stdout + done.stderr
    html = (out / "articulos/a/index.html").read_text(encoding="utf-8")
    return BeautifulSoup(html, "html.parser")


def _credit(page: BeautifulSoup) -> tuple[str, set[str]]:
    [credit] = page.select(".dv-origen")
    return credit.get_text(" ", strip=True), {a["href"] for a in credit.find_all("a")}


def test_a_ported_tutorial_builds_strict_with_its_credit(
    tmp_path: Path, local_author: None
) -> None:
    site = Site(tmp_path / "site")
    site.edit(site.article, "---\ntitle:", f"---\n{ORIGIN}title:")
    shutil.copy(ROOT / "docs" / "glosario.yml", site.root / "docs" / "glosario.yml")
    site.edit(
        site.root / "mkdocs.yml", "  - articulos/a.md\n", "  - articulos/a.md\n  - glosario.md\n"
    )
    site.code.write_text(PORTED_CODE, encoding="utf-8")
    done = docverify(site.root, "record", "--runner", "cpu", "docs/articulos/a.md")
    assert done.returncode == 0, done.stdout + done.stderr

    text, links = _credit(_built(site, tmp_path / "out"))
    for part in ("autograd_tutorial.py", SHA[:12], "MIT"):
        assert part in text, text
    assert links == {
        f"https://example.org/docverify/tutorial-autograd/blob/{SHA}/autograd_tutorial.py",
        "https://spdx.org/licenses/MIT.html",
    }
    notebook = json.loads(next((tmp_path / "out").rglob("*.ipynb")).read_text(encoding="utf-8"))
    assert SHA[:12] in notebook["cells"][0]["source"]

    pytest.importorskip("zensical")
    done = zensical_build(site.root, tmp_path / "z", env={"SOURCE_DATE_EPOCH": EPOCH})
    assert done.returncode == 0, done.stdout + done.stderr
    other = (tmp_path / "z" / "site" / "articulos/a/index.html").read_text(encoding="utf-8")
    assert _credit(BeautifulSoup(other, "html.parser")) == (text, links)


def test_the_same_comments_without_origin_fail_the_strict_build(
    tmp_path: Path, local_author: None
) -> None:
    site = Site(tmp_path / "site")
    shutil.copy(ROOT / "docs" / "glosario.yml", site.root / "docs" / "glosario.yml")
    site.edit(
        site.root / "mkdocs.yml", "  - articulos/a.md\n", "  - articulos/a.md\n  - glosario.md\n"
    )
    site.code.write_text(PORTED_CODE, encoding="utf-8")
    done = mkdocs_build(site.root, tmp_path / "out", env={"SOURCE_DATE_EPOCH": EPOCH})
    assert done.returncode != 0
    assert "[expresion-a-evitar]" in done.stdout + done.stderr
