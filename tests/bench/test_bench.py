"""docverify bench: the corpus it generates, its memory probe, its last line; never its timings."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import NEW_PAGE, mkdocs_build
from docverify.bench.corpus import make_corpus
from docverify.bench.memory import tree_memory
from docverify.core import config
from docverify.parsing.pages import read_site
from docverify.verifying import recordings
from support.site import text_of

LINE = re.compile(
    r"^P1=\d+\.\d\d P2=\d+\.\ds/(?P<speedup>\d+\.\d\d)x/\d+MiB P3=(?P<blocks>\d+)/\d+\.\d\d"
    r" ceiling=(?P<ceiling>\d+\.\d\d)x record=(?P<record>\d+\.\d\d)x$"
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
def test_execution_off_renders_recordings_and_never_passes(small: Path, tmp_path: Path) -> None:
    """DOCVERIFY_EXECUTE=0 (what P1 times as its baseline): pages show their recordings, marked
    as such, and the build refuses to pass, even without --strict (a strict one can only fail
    more)."""
    root = small
    off = {"DOCVERIFY_EXECUTE": "0"}
    loose = mkdocs_build(root, tmp_path / "loose", strict=False, env=off)
    assert loose.returncode != 0  # an error fails the build whatever strict says
    assert "[ejecucion-desactivada]" in loose.stderr
    cfg = config.load(root)
    page = next(p for p in read_site(cfg) if p.rel == NEW_PAGE.removeprefix("docs/"))
    text = text_of(tmp_path / "loose", page.rel.removesuffix(".md"))
    assert "Salida grabada, no ejecutada ahora" in text
    for block in page.blocks:  # the recording, shown as such
        assert recordings.of_block(cfg, block).get("cpu").body.strip() in text, block.key


@pytest.mark.slow
def test_bench_ends_with_one_machine_readable_line(small_copy: Path) -> None:
    """`docverify bench --smoke`: every measure once, on the one-article site (conftest
    `small`), leaving nothing in the temporary folder it was given. The benchmark itself is run
    by hand, never by the test suite."""
    root = small_copy
    # Short: the fork servers' sockets go under it (AF_UNIX paths: 107 bytes at most).
    scratch = Path(tempfile.mkdtemp(prefix="dv-"))
    try:
        _smoke(root, scratch)
    finally:
        left = sorted(p.name for p in scratch.iterdir())
        shutil.rmtree(scratch, ignore_errors=True)
    assert left == [], f"la prueba de humo dejó carpetas temporales: {left}"


def _smoke(root: Path, scratch: Path) -> None:
    done = subprocess.run(
        [
            str(Path(sys.executable).parent / "docverify"),
            "bench",
            "--repeat",
            "1",
            "--pages",
            "2",
            "--blocks",
            "1",
            "--smoke",
        ],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "TMPDIR": str(scratch)},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    match = LINE.match(lines[-1])
    assert match, lines[-1]
    assert match.group("blocks") == "0"  # a prose edit re-ran no block
    assert float(match.group("ceiling")) > 0
    assert float(match.group("record")) > 0  # what record costs, against a check
    assert sum(1 for line in lines if "dos veces" in line) == 1
    assert sum(1 for line in lines if "del techo" in line) == 1  # the speed-up against it
    assert sum(1 for line in lines if line.startswith("P1=")) == 1
    assert not (root / "docs" / ".cache").exists()
