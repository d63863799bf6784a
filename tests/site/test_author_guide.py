"""The author guide: every option it teaches is one of its own executed, recorded blocks."""

from __future__ import annotations

import re

import pytest
from conftest import ROOT, Built
from docverify import build
from docverify.core import config as config_mod
from docverify.parsing.options import OUR_OPTIONS
from docverify.parsing.pages import read_page
from docverify.report import canary
from support.site import text_of

GUIDE = ROOT / "docs/guia-autores.md"


def test_guide_examples_are_real_blocks() -> None:
    """Every option the guide teaches is used by one of its executed, recorded blocks."""
    cfg = config_mod.load(ROOT)
    page = read_page(cfg, GUIDE)
    assert page.findings == []
    assert len(page.blocks) >= 6, [b.id for b in page.blocks]
    used = {name for b in page.blocks for name in b.options}
    # own= is valid only on a page of quoted code (origin:), which the guide is not: it is shown
    # in its port from start to finish, and tests/fixtures/portado uses it on a real block.
    taught = (OUR_OPTIONS - {"reason", "own"}) | {"session"}
    assert 'own="true"' in GUIDE.read_text(encoding="utf-8")
    assert taught <= used, f"opciones sin ejemplo ejecutado: {sorted(taught - used)}"
    assert all(b.snippet and b.snippet.startswith("guia-autores/") for b in page.blocks)
    assert not [
        f
        for f in build.lint(cfg)
        if f.path in {"docs/guia-autores.md"} or f.path.startswith("snippets/guia-autores/")
    ]
    text = GUIDE.read_text(encoding="utf-8")
    for needle in (
        "# Expectativa:",
        "[..]",
        "docverify record",
        "CI=true",
        "git diff",
        "fingerprint:",
        "sha256",
        "docverify sources --reverify",
        "docverify check --runner gpu",
        "docverify record --runner gpu",
        "GPU: pendiente",
        "con salida propia",
        "# device-dependent: random",
        "marcas-de-dispositivo",
        "docverify new",
        "docverify lint",
        "docverify canary --torch",
        "docverify canary --python",
        "docverify accept /tmp/canario",
        "DOCVERIFY_CANARY_REPORT=",
    ):
        assert needle in text, needle
    placeholder = [
        b
        for b in page.blocks
        if (cfg.snippets_dir / "guia-autores" / f"{b.id}.cpu.txt").read_text().count("[..]")
    ]
    assert placeholder, "ningún ejemplo tiene un marcador [..] en su grabación"
    # The canary's section shows what a warning looks like in a recording: one of its blocks.
    warned = [
        b
        for b in page.blocks
        if canary.warning_lines((cfg.snippets_dir / "guia-autores" / f"{b.id}.cpu.txt").read_text())
    ]
    assert warned, "ningún ejemplo graba un aviso («FutureWarning: …»), el que cuenta el canario"


@pytest.mark.slow
def test_guide_is_built_and_verified(built: Built) -> None:
    """The built guide is in the navigation, shows each block's verified output (what
    site/test_site_build.py checks for every page) and the reason of each runner-only block."""
    cfg = config_mod.load(built.root)
    page = read_page(cfg, built.root / "docs/guia-autores.md")
    html = (built.site / "guia-autores/index.html").read_text(encoding="utf-8")
    assert 'href="guia-autores/"' in (built.site / "index.html").read_text(encoding="utf-8")
    verified = [b for b in page.blocks if b.runs_on("cpu")]
    # One verified mark per block, in the line under its output (the guide's prose quotes
    # marks too): with output, without output, or the error it must raise.
    marks = re.findall(
        r'(?:<summary>|class="dv-(?:check|no-output)">)'
        r"(?:Sin salida · )?CPU(?: ✓|: Error esperado ✓)",
        html,
    )
    assert len(marks) == len(verified) > 0
    text = text_of(built.site, "guia-autores")
    for block in page.blocks:
        if block.only:
            reason = re.sub(r"\s+", " ", str(block.options["reason"]))
            assert f"Solo {block.only.upper()}: {reason}" in text, block.key


def test_guide_first_command_works_from_a_fresh_clone() -> None:
    """The guide's first commands create the environment (tasks.py install) and run docverify
    from it: activated first, or by its path in .venv/bin (a fresh clone has no docverify on
    PATH)."""
    text = GUIDE.read_text(encoding="utf-8")
    blocks = re.findall(r"^```bash\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    first = next(b for b in blocks if re.search(r"\bdocverify\b", b))
    lines = [line.split("#")[0].strip() for line in first.splitlines()]
    lines = [line for line in lines if line]
    assert lines[0] == "python3 tasks.py install", first
    run = next(i for i, line in enumerate(lines) if re.match(r"(\.venv/bin/)?docverify ", line))
    activated = "source .venv/bin/activate" in lines[:run]
    assert activated or lines[run].startswith(".venv/bin/docverify "), first
