"""output.verification_page: «Informe de verificación» lists every source with its dates, and
every block."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from conftest import ROOT, Built, Project
from docverify import build
from docverify.core import config as config_mod
from docverify.core.config import LABEL, RUNNERS
from docverify.core.dates import spanish_date, spanish_date_of
from docverify.core.markdown import md_escape
from docverify.core.policies import DEVICE_LABEL
from docverify.core.request import Request
from docverify.core.status import Status
from docverify.output import render, verification_page
from docverify.parsing.pages import Block, read_site
from docverify.running.executor import Executor
from docverify.site import navigation
from docverify.sources import freshness
from docverify.verifying import baselines, recordings
from docverify.verifying.record import record
from docverify.verifying.verify import unrun, verify
from support import blocks, clock, report, report_page
from support import site as support_site
from support.site import text_of
from support.sources import QUOTED, VERIFIED, expected_review_by, source_page

TODAY = dt.date(2026, 1, 1)
ONLY_CPU = blocks.block("print(2)", "solo-cpu", ' runner="cpu" reason="r"')


def test_report_lists_every_source_with_its_dates() -> None:
    cfg = config_mod.load(ROOT)
    pages = read_site(cfg)
    day = clock.site_day(ROOT)
    text = report_page.markdown(cfg, pages, unrun(cfg, pages, "cpu"), day)
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
    # Every executed block: what the page says of it, its row and what it says once together.
    told = report.said(text)
    assert len(told) == support_site.executed_fences(ROOT)
    for page in pages:
        for block in page.blocks:
            assert told[(page.rel, block.id)] == expected_facts(cfg, block), block.key


def expected_facts(cfg: config_mod.Config, block: Block, now: str | None = None) -> dict[str, str]:
    """What the page must say of `block` (not run by this build unless `now` says its verdict),
    from the block's options and its recordings on disk."""
    runs = [r for r in RUNNERS if block.runs_on(r)]
    device = f" ({DEVICE_LABEL[block.device_policy]})" if "gpu" in runs else ""
    facts = {"Corre en": ", ".join(LABEL[r] for r in runs) + device}
    recs = {r: rec for r in RUNNERS if (rec := recordings.load(cfg, block, r))}
    for runner in runs:
        if runner in recs:
            recorded = spanish_date_of(recs[runner].header.get("date"))
        elif baselines.reference(cfg, block, runner, recs).needed != runner:
            recorded = "sin grabación propia"
        else:
            recorded = "aún sin grabación"
        facts[f"Grabada en {LABEL[runner]}"] = recorded
    for runner in runs:
        facts[f"{LABEL[runner]} compara con"] = md_escape(baselines.describe(cfg, block, runner))
    facts["Esta construcción"] = now or f"CPU: {Status.NOT_RUN.label}"
    return facts


def test_no_row_repeats_what_every_row_says() -> None:
    """What every block row would say is said once: no facet of a row is in every row, not even
    with each block's own id in it (`x.cpu.txt` in the row of block x)."""
    cfg = config_mod.load(ROOT)
    pages = read_site(cfg)
    text = report_page.markdown(cfg, pages, unrun(cfg, pages, "cpu"), clock.site_day(ROOT))
    rows = [
        {(label, value.replace(md_escape(block_id), "<id>")) for label, value in said.items()}
        for block_id, said in report.rows(text)
    ]
    if len(rows) < 2:
        return
    assert not set.intersection(*rows), set.intersection(*rows)


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
    # A strict build: every block that runs on CPU matched its recording, and the page says so
    # (once for all the blocks, or in a row) and names no block with a problem.
    assert f"Esta construcción: CPU: {Status.OK.label} {Status.OK.mark}" in report
    for status in (Status.DIVERGE, Status.MISSING, Status.ERROR, Status.NOT_RUN):
        assert f"Esta construcción: CPU: {status.label}" not in report, status
    assert "Bloques con problemas" not in report


def alike(project: Project, n: int) -> str:
    """The verification page of a page with `n` blocks alike but for their ids, and one that
    runs only on CPU."""
    same = [blocks.block("print(1)", f"igual-{i}") for i in range(n)]
    project.page("a.md", "# A\n\n" + "\n".join([*same, ONLY_CPU]))
    cfg = project.config
    pages = read_site(cfg)
    return report_page.markdown(cfg, pages, unrun(cfg, pages, "cpu"), TODAY)


def test_blocks_alike_add_only_their_names(project: Project) -> None:
    """What blocks share is said once: three more blocks like the others add their names (and
    the count), nothing else."""
    three, six = alike(project, 3), alike(project, 6)
    assert all(f"`igual-{i}`" in six for i in range(6)), six
    shrunk = re.sub(r",? ?`igual-[345]`", "", six).replace("(7)", "(4)")
    assert shrunk == three


def test_articles_follow_the_reading_order(project: Project, executor: Executor) -> None:
    """The pages in the order of the navigation (not by name); a page it leaves out, after:
    on the page alone and on the page the site's render generates from a build."""
    listed = ["zeta", "alfa", "media"]
    for name in [*listed, "fuera"]:
        project.page(f"{name}.md", f"# {name}\n\n" + blocks.block("print(1)", "b"))
    nav = "".join(f"  - {name}.md\n" for name in listed)
    (project.root / "mkdocs.yml").write_text(f"site_name: x\nnav:\n{nav}", encoding="utf-8")
    cfg = project.config
    pages = read_site(cfg)
    alone = report_page.markdown(cfg, pages, unrun(cfg, pages, "cpu"), TODAY)
    result = build.run(
        cfg, pages, Request(runner="cpu", execute=False), executor, nav=navigation.of_project(cfg)
    )
    rendered = render.site(result).files[verification_page.URI]
    for text in (alone, rendered):
        shown = re.findall(r"^## \[.*\]\((.*)\)$", text, re.MULTILINE)
        assert shown == [f"{name}.md" for name in [*listed, "fuera"]]


@pytest.mark.usefixtures("local_author")
def test_a_block_with_a_problem_is_named_first_and_keeps_its_verdict(
    project: Project, executor: Executor, tmp_path: Path
) -> None:
    """A block that no longer matches its recording is named at the top of the page, and its
    row says its verdict in bold, also when no block matches (a failure is never «the common»)."""
    data = [tmp_path / f"dato-{i}.txt" for i in range(3)]
    for i, path in enumerate(data):
        path.write_text(f"valor {i}", encoding="utf-8")
    code = [
        blocks.block(f"print(open({str(path)!r}).read())", f"b{i}") for i, path in enumerate(data)
    ]
    project.page("a.md", "# A\n\n" + "\n".join(code))
    cfg = project.config
    assert record(cfg, read_site(cfg), "cpu", executor).written
    diverge = f"CPU: {Status.DIVERGE.label} {Status.DIVERGE.mark}"
    for changed in (data[1:2], data):
        for path in changed:
            path.write_text("otro valor", encoding="utf-8")
        pages = read_site(cfg)
        text = report_page.markdown(cfg, pages, verify(cfg, pages, "cpu", executor), TODAY)
        top = text.split("## Cómo leer este informe")[0]
        assert "!!! failure" in top, top
        named = re.findall(r"^    - \[.*\]\(a\.md\), `(b\d)`: (.*)$", top, re.MULTILINE)
        assert named == [(f"b{data.index(p)}", diverge) for p in changed], top
        told = report.said(text)
        for path in data:
            block_id = f"b{data.index(path)}"
            assert (told[("a.md", block_id)]["Esta construcción"] == diverge) == (path in changed)
        in_rows = {block_id for block_id, _ in report.rows(text)}
        assert {f"b{data.index(p)}" for p in changed} <= in_rows, text
        for block_id in in_rows:
            problem = f"b{data.index(changed[0])}" == block_id or len(changed) == len(data)
            assert (f"**Esta construcción: {diverge}**" in _row_line(text, block_id)) == problem


def _row_line(text: str, block_id: str) -> str:
    return next(line for line in text.split("\n") if line.startswith(f"| `{block_id}` |"))


def test_the_owner_column_is_there_only_where_a_source_names_one(project: Project) -> None:
    """A page whose sources name no owner gets no column of dashes; one with an owner gets it,
    with «—» for its sources that name none."""
    source_page(project, QUOTED, name="sin-dueno.md")
    project.page(
        "con-dueno.md",
        '---\ntitle: "Con dueño"\nsources:\n'
        f'  - title: "Una"\n    reference: "Ref A"\n    verified: {QUOTED}\n    owner: "@ana"\n'
        f'  - title: "Otra"\n    reference: "Ref B"\n    verified: {QUOTED}\n'
        "---\n\nTexto.\n",
    )
    cfg = project.config
    pages = read_site(cfg)
    fresh = freshness.evaluate(cfg, pages, VERIFIED)
    parts = verification_page.by_article(pages, fresh, None)
    tables = {
        part.split("]")[0].removeprefix("## [").strip(): parts[i + 2]
        for i, part in enumerate(parts)
        if part.startswith("## [")
    }
    heads = {title: _table_rows(table)[0] for title, table in tables.items()}
    base = ["Fuente", "Verificada", "Edad", "Revisar a más tardar", "Estado"]
    assert heads == {"Guía": base, "Con dueño": [*base, "Responsable"]}
    owners = sorted(row[-1] for row in _table_rows(tables["Con dueño"])[2:])
    assert owners == ["@ana", "—"]
    assert all(len(row) == len(base) for row in _table_rows(tables["Guía"])[2:])


def _table_rows(markdown: str) -> list[list[str]]:
    return [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in markdown.splitlines()
        if line.startswith("|")
    ]
