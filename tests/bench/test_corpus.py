"""bench/corpus.py: the copy of the site the benchmark builds, the synthetic corpus page by page,
and the block specs its ceiling probe runs. Nothing here runs a block."""

from __future__ import annotations

from pathlib import Path

from docverify.bench.corpus import copy_site, make_corpus, page_specs
from docverify.core import config
from docverify.parsing.pages import read_site
from support.locale_c import ascii_locale

# p001.md of a corpus of 3 blocks a page, written out by hand: page 1's blocks take n = 2, 3, 4
# (the page plus the block, modulo 7, plus 1); the second and third share the session «s», and
# the third first reads what the session already has.
PAGE_1 = (
    "# Página 1\n"
    "\n"
    "Texto 0.\n"
    "\n"
    '```python exec="on" id="b0"\n'
    "import torch\n"
    "x = torch.arange(2.0)\n"
    "print(x.sum().item())\n"
    "```\n"
    "\n"
    "Texto 1.\n"
    "\n"
    '```python exec="on" id="b1" session="s"\n'
    "import torch\n"
    "print(torch.ones(2, 3).mul(3).mean().item())\n"
    "```\n"
    "\n"
    "Texto 2.\n"
    "\n"
    '```python exec="on" id="b2" session="s"\n'
    "print(type(torch).__name__)\n"
    "import torch\n"
    "w = torch.tensor(4.0, requires_grad=True)\n"
    "(w * w).backward()\n"
    "print(w.grad.item())\n"
    "```\n"
)


def test_a_corpus_page_is_its_title_and_its_blocks(tmp_path: Path) -> None:
    corpus = make_corpus(tmp_path / "corpus", pages=2, blocks=3)
    assert corpus == tmp_path / "corpus"
    assert sorted(p.name for p in (corpus / "docs").iterdir()) == ["p000.md", "p001.md"]
    assert (corpus / "docs" / "p001.md").read_text(encoding="utf-8") == PAGE_1
    assert (corpus / "snippets").is_dir()
    cfg = config.load(corpus)
    assert (cfg.docs_dir, cfg.snippets_dir) == (corpus / "docs", corpus / "snippets")
    project = (corpus / "pyproject.toml").read_text(encoding="utf-8")
    assert 'name = "bench-corpus"' in project


def test_the_pages_are_utf_8_whatever_the_locale(tmp_path: Path) -> None:
    with ascii_locale():
        corpus = make_corpus(tmp_path / "corpus", pages=2, blocks=3)
    assert (corpus / "docs" / "p001.md").read_bytes() == PAGE_1.encode("utf-8")  # «Página»


def test_the_blocks_go_round_the_ten_kinds_and_five_sessions(tmp_path: Path) -> None:
    corpus = make_corpus(tmp_path / "corpus", pages=12, blocks=12)
    pages = read_site(config.load(corpus))
    assert [p.rel for p in pages][10:] == ["p010.md", "p011.md"]  # three digits, in order
    blocks = pages[11].blocks
    assert [b.session for b in blocks] == [None, "s", "s", None, None] * 2 + [None, "s"]
    # Block 10 is the first kind again, block 11 the second; n = (11 + b) % 7 + 1.
    assert "x = torch.arange(1.0)" in blocks[10].code  # n = 21 % 7 + 1
    assert "torch.ones(2, 3).mul(2)" in blocks[11].code  # n = 22 % 7 + 1
    assert [b.code.startswith("print(type(torch)") for b in blocks].count(True) == 2  # b 2, 7
    assert blocks[7].code.startswith("print(type(torch).__name__)\nimport torch\n")
    assert not [f for p in pages for f in p.findings]


def test_the_site_copy_has_only_what_a_build_needs(tmp_path: Path) -> None:
    root = tmp_path / "sitio"
    for folder in ("docs", "snippets", "hooks", "overrides", "fingerprints", "tests/site/semillas"):
        (root / folder / "__pycache__").mkdir(parents=True)
        (root / folder / "__pycache__" / "m.pyc").write_text("x")
        (root / folder / "a.egg-info").mkdir()
        (root / folder / "a.egg-info" / "PKG-INFO").write_text("x")
        (root / folder / "dentro.txt").write_text(folder)
    for name in ("mkdocs.yml", "pyproject.toml", "README.md"):
        (root / name).write_text(name)
    (root / "tests" / "otra.py").write_text("no")
    dest = tmp_path / "copia" / "del" / "sitio"
    assert copy_site(root, dest) == dest
    copied = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file())
    assert copied == [
        "docs/dentro.txt",
        "fingerprints/dentro.txt",
        "hooks/dentro.txt",
        "mkdocs.yml",
        "overrides/dentro.txt",
        "pyproject.toml",
        "snippets/dentro.txt",
        "tests/site/semillas/dentro.txt",
    ]
    assert (dest / "tests/site/semillas/dentro.txt").read_text() == "tests/site/semillas"
    assert (dest / "mkdocs.yml").read_text() == "mkdocs.yml"


def test_a_copy_into_an_existing_folder_is_allowed(tmp_path: Path) -> None:
    root = tmp_path / "sitio"
    for folder in ("docs", "snippets", "hooks", "overrides", "fingerprints", "tests/site/semillas"):
        (root / folder).mkdir(parents=True)
    for name in ("mkdocs.yml", "pyproject.toml"):
        (root / name).write_text(name)
    (tmp_path / "ya").mkdir()
    assert copy_site(root, tmp_path / "ya") == tmp_path / "ya"
    assert (tmp_path / "ya" / "pyproject.toml").read_text() == "pyproject.toml"


def test_the_specs_are_each_page_blocks_for_the_runner(tmp_path: Path) -> None:
    corpus = make_corpus(tmp_path / "corpus", pages=2, blocks=2)
    page = corpus / "docs" / "p001.md"
    page.write_text(
        page.read_text(encoding="utf-8")
        + '\n```python exec="on" id="g" runner="gpu" reason="usa CUDA"\nprint(1)\n```\n',
        encoding="utf-8",
    )
    cpu = page_specs(corpus, "cpu")
    assert [[s["key"] for s in specs] for specs in cpu] == [
        ["p000/b0", "p000/b1"],
        ["p001/b0", "p001/b1"],
    ]
    assert cpu[1][1]["session"] == "s"
    assert cpu[1][0]["code"] == "import torch\nx = torch.arange(2.0)\nprint(x.sum().item())\n"
    gpu = page_specs(corpus, "gpu")
    assert [[s["key"] for s in specs] for specs in gpu] == [
        ["p000/b0", "p000/b1"],
        ["p001/b0", "p001/b1", "p001/g"],
    ]
