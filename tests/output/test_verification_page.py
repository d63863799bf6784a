"""output.verification_page: «Informe de verificación» lists every source with its dates, and
every block."""

from __future__ import annotations

import pytest
from conftest import ROOT, Built
from docverify.core import config as config_mod
from docverify.core.dates import spanish_date
from docverify.core.markdown import md_escape
from docverify.core.status import Status
from docverify.output import verification_page
from docverify.parsing.pages import read_site
from docverify.verifying.verify import unrun
from support import clock
from support import site as support_site
from support.site import text_of
from support.sources import expected_review_by


def test_report_lists_every_source_with_its_dates() -> None:
    cfg = config_mod.load(ROOT)
    pages = read_site(cfg)
    day = clock.site_day(ROOT)
    text = verification_page.build(cfg, pages, unrun(cfg, pages, "cpu"), day)
    cited = clock.sources(ROOT)
    rows = [line for line in text.splitlines() if line.startswith("| ") and " días | " in line]
    if not cited:
        assert "Ninguna página cita fuentes." in text and not rows
    assert len(rows) == len(cited), rows
    for source in cited:  # grouped by article: each source in one row of its page's table
        review_by = expected_review_by(cfg, source)
        cells = [
            f"{md_escape(source.reference)} — {md_escape(source.title)}",
            spanish_date(source.verified),
            f"| {(day - source.verified).days} días |",
            spanish_date(review_by),
        ]
        assert any(all(cell in row for cell in cells) for row in rows), (source, cells)
    # The blocks' table: one row per executed block, with the runners it runs on.
    both = sum(1 for p in pages for b in p.blocks if b.only is None)
    cpu_only = sum(1 for p in pages for b in p.blocks if b.only == "cpu")
    gpu_only = sum(1 for p in pages for b in p.blocks if b.only == "gpu")
    assert both + cpu_only + gpu_only == support_site.executed_fences(ROOT)
    rows = [line for line in text.splitlines() if "`" in line]
    assert sum("| CPU, GPU (" in line for line in rows) == both
    assert sum("| CPU |" in line for line in rows) == cpu_only
    assert sum("| GPU |" in line for line in rows) == gpu_only


@pytest.mark.slow
def test_built_site_shows_dates_and_report(built: Built) -> None:
    cfg = config_mod.load(built.root)
    cited = clock.sources(built.root)
    assert cited, "el sitio construido cita fuentes (al menos la del artículo nuevo)"
    for source in cited:
        text = text_of(built.site, source.page.removesuffix(".md"))
        # Its review-by date is the report's; the article shows it only when it is near.
        shown = f"Fuente verificada {source.verified.isoformat()}"
        assert shown in text, (source.page, shown)
        # The verification date is shown once: not again in words beside the seed's form.
        assert f"verificada el {spanish_date(source.verified)}" not in text, source.page
    report = text_of(built.site, "verificacion")
    assert "Informe de verificación" in report
    for source in cited:
        assert spanish_date(expected_review_by(cfg, source)) in report
        if source.fingerprint is not None:
            assert f"huella de {source.fingerprint.target} intacta" in report
    for page in read_site(cfg):
        for block in page.blocks:
            assert block.id in report, block.key
    runs_on_cpu = sum(1 for p in read_site(cfg) for b in p.blocks if b.runs_on("cpu"))
    assert report.count(f"CPU: {Status.OK.label} {Status.OK.mark}") == runs_on_cpu
