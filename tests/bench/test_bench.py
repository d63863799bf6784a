"""docverify bench: the corpus it generates, its memory probe, its last line; never its timings."""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, copy_site, mkdocs_build
from docverify.bench.corpus import make_corpus
from docverify.bench.memory import tree_memory
from docverify.core import config
from docverify.parsing.pages import read_site

LINE = re.compile(
    r"^P1=\d+\.\d\d P2=\d+\.\ds/(?P<speedup>\d+\.\d\d)x/\d+MiB P3=(?P<blocks>\d+)/\d+\.\d\d"
    r" ceiling=(?P<ceiling>\d+\.\d\d)x$"
)


def test_the_synthetic_corpus_has_every_page_and_block(tmp_path: Path) -> None:
    corpus = make_corpus(tmp_path / "corpus", pages=200, blocks=10)
    pages = read_site(config.load(corpus))
    assert len(pages) == 200
    assert sum(len(p.blocks) for p in pages) == 2000
    assert not [f for p in pages for f in p.findings]
    assert {b.session for p in pages for b in p.blocks} == {None, "s"}


def test_tree_memory_counts_this_process_and_its_children() -> None:
    alone, _ = tree_memory(os.getpid())
    child = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE
    )
    try:
        with_child, pss = tree_memory(os.getpid())
    finally:
        child.communicate(b"")
    assert alone > 0 and pss > 0
    assert with_child > alone


@pytest.mark.slow
def test_execution_off_renders_recordings_and_never_passes_strict(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "copy")
    off = {"DOCVERIFY_EXECUTE": "0"}
    strict = mkdocs_build(root, tmp_path / "strict", env=off)
    assert strict.returncode != 0
    assert "ejecucion-desactivada" in strict.stderr
    loose = mkdocs_build(root, tmp_path / "loose", strict=False, env=off)
    assert loose.returncode != 0  # not even without --strict
    raw = (tmp_path / "loose/articulos/primer-ejercicio/index.html").read_text(encoding="utf-8")
    page = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", raw)))
    assert "Salida grabada, no ejecutada ahora" in page
    assert "tensor(12.) tensor(6.)" in page  # the recording, shown as such


@pytest.mark.slow
def test_bench_ends_with_one_machine_readable_line() -> None:
    done = subprocess.run(
        [
            str(Path(sys.executable).parent / "docverify"),
            "bench",
            "--repeat",
            "1",
            "--pages",
            "3",
            "--blocks",
            "2",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    match = LINE.match(lines[-1])
    assert match, lines[-1]
    assert match.group("blocks") == "0"  # a prose edit re-ran no block
    assert float(match.group("ceiling")) > 0
    assert sum(1 for line in lines if "del techo" in line) == 1  # the speed-up against it
    assert sum(1 for line in lines if line.startswith("P1=")) == 1
    assert not (ROOT / "docs" / ".cache").exists()
