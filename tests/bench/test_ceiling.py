"""The ceiling probe of `docverify bench`: it really runs every block of every page; no timings."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from docverify.bench.corpus import make_corpus


def _probe(corpus: Path, scratch: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The probe run on `corpus`, with `scratch` as its temporary folder when given."""
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    return subprocess.run(
        [sys.executable, "-m", "docverify.bench.ceiling", str(corpus), "cpu"],
        cwd=corpus,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        env=env | ({"TMPDIR": str(scratch)} if scratch else {}),
    )


def test_the_probe_forks_every_page_and_runs_every_block(tmp_path: Path) -> None:
    corpus = make_corpus(tmp_path / "corpus", pages=3, blocks=4)
    done = _probe(corpus)
    assert done.returncode == 0, done.stderr
    spans = json.loads(done.stdout.strip().splitlines()[-1])
    assert spans["blocks"] == 3 * 4  # each probe checks it ran them all, or fails
    assert spans["alone"] > 0 and spans["together"] > 0


def test_a_probe_whose_blocks_fail_to_report_is_an_error(tmp_path: Path) -> None:
    corpus = make_corpus(tmp_path / "corpus", pages=2, blocks=2)
    page = corpus / "docs" / "p000.md"
    # A block that ends its page process: its page reports fewer blocks than it has.
    page.write_text(
        page.read_text(encoding="utf-8").replace(
            "import torch\n", "import os, torch\nos._exit(0)\n", 1
        ),
        encoding="utf-8",
    )
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    done = _probe(corpus, scratch)
    assert done.returncode != 0
    assert "la sonda del techo ejecutó" in done.stderr  # the probe's own reason
    assert list(scratch.iterdir()) == []  # the page's working folder too, as the engine's worker
    assert "falló 1 de 1 sondas del techo" in done.stderr  # the first measure stops the run
