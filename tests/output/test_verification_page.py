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
from docverify.core import device_marks, device_rule
from docverify.core.config import LABEL, RUNNERS
from docverify.core.dates import spanish_date, spanish_date_of
from docverify.core.markdown import md_escape
from docverify.core.policies import AS_WRITTEN, DEFAULT_CUDA, DEVICE_LABEL
from docverify.core.request import Request
from docverify.core.status import Status
from docverify.output import coverage_text, render, verification_page
from docverify.parsing.pages import Block, read_site
from docverify.running.executor import Executor
from docverify.site import navigation
from docverify.site.coverage import Coverage
from docverify.sources import fingerprint, freshness
from docverify.sources.model import Source
from docverify.verifying import baselines, recordings
from docverify.verifying.outcome import Outcome, Provenance, SeenIn, Verdict, Verification
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
    # A source's row: its age in days, «1 día» in the singular (a source verified the day before
    # the site's latest, e.g. once an author adds an article today).
    rows = [line for line in text.splitlines() if re.match(r"\| .* \| \d+ días? \| ", line)]
    if not cited:
        assert "Ninguna página cita fuentes." in text and not rows
    assert len(rows) == len(cited), rows
    for source in cited:  # grouped by article: each source in one row of its page's table
        review_by = expected_review_by(cfg, source)
        cells = [
            f"{md_escape(source.reference)} — {md_escape(source.title)}",
            spanish_date(source.verified),
            f"| {_days(day - source.verified)} |",
            spanish_date(review_by),
        ]
        assert any(all(cell in row for cell in cells) for row in rows), (source, cells)
    # Every executed block: what the page says of it, its row and what it says once together.
    told = report.said(text)
    assert len(told) == support_site.executed_fences(ROOT)
    for page in pages:
        for block in page.blocks:
            assert told[(page.rel, block.id)] == expected_facts(cfg, block), block.key


def _days(age: dt.timedelta) -> str:
    return "1 día" if age.days == 1 else f"{age.days} días"


def expected_facts(cfg: config_mod.Config, block: Block, now: str | None = None) -> dict[str, str]:
    """What the page must say of `block` (not run by this build unless `now` says its verdict),
    from the block's options and its recordings on disk."""
    runs = [r for r in RUNNERS if block.runs_on(r)]
    device = f" ({DEVICE_LABEL[block.device_policy]})" if "gpu" in runs else ""
    facts = {"Corre en": ", ".join(LABEL[r] for r in runs) + device}
    recs = {r: rec for r in RUNNERS if (rec := recordings.of_block(cfg, block).get(r))}
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


# The page's sentences, each written out here: a change in any of them is a change a reader sees.
DEVICE = (
    f" Sin grabación propia, el runner GPU compara con la de CPU ({device_rule.NAME}: "
    f"{device_rule.TEXT}), salvo en un bloque cuya salida en una GPU puede no ser la de CPU "
    f"({device_marks.any_text()}): ese necesita su propia grabación de GPU. No la necesita uno "
    "que solo depende de números aleatorios y corre en GPU con «dispositivos del código»: sus "
    "números los saca el generador de la CPU, como en CPU."
)
RUN_HERE = (
    "Cada bloque se ejecuta en cada construcción{}; de cada uno se dice cuándo se grabó su salida "
    "en cada runner, con qué grabación compara cada runner y si la salida de esta construcción "
    "coincide con ella." + DEVICE
)
RUN_ELSEWHERE = (
    "Cada bloque se ejecutó en la verificación de este commit (arriba, dónde); de cada uno se "
    "dice cuándo se grabó su salida en cada runner, con qué grabación compara cada runner y si la "
    "salida observada coincide con ella, comprobado en esta construcción." + DEVICE
)
POLICY = freshness.Policy(max_age_days=90, warn_days=7)
INTRO = (
    "Una fuente caduca 90 días después de verificarse (o antes, si tiene su propio intervalo): "
    "caducada, la construcción falla y el sitio no se publica; en los últimos 7 días se marca "
    "para revisar. Si el código citado de un paquete instalado cambia, la construcción falla "
    "igual."
)
NO_SOURCES, NO_BLOCKS = "Ninguna página cita fuentes.", "Ninguna página tiene bloques ejecutados."


def _fresh(*statuses: freshness.SourceStatus) -> freshness.Freshness:
    return freshness.Freshness(POLICY, TODAY, list(statuses), [])


def test_the_exception_of_the_device_rule_is_the_judge_s(project: Project) -> None:
    """A block marked only `random` under «dispositivos del código» can match its CPU output on
    a GPU (device_marks.can_match_cpu): the page must not say every block that depends on
    random numbers needs its own GPU recording."""
    assert device_marks.can_match_cpu([device_marks.RANDOM], AS_WRITTEN)
    assert not device_marks.can_match_cpu([device_marks.RANDOM], DEFAULT_CUDA)
    page = verification_page.render(project.config, [], None, _fresh())
    assert (
        "No la necesita uno que solo depende de números aleatorios y corre en GPU con "
        f"«{DEVICE_LABEL[AS_WRITTEN]}»" in page
    )


def test_the_intro_says_what_a_changed_cited_code_does_under_each_drift_policy() -> None:
    """drift="error" (the default) fails the build like an expired source: the page must not
    say it is only flagged; drift="report" only flags it."""
    assert verification_page.sources_intro(_fresh()) == INTRO
    reported = freshness.Policy(max_age_days=90, warn_days=7, drift="report")
    said = verification_page.sources_intro(freshness.Freshness(reported, TODAY, [], []))
    assert said.endswith(
        "Si el código citado de un paquete instalado cambia, se marca también, sin que falle la "
        "construcción."
    ), said


def _ran(runner: str, env: dict[str, str], **kw: object) -> Verification:
    return Verification(runner, env, [], kw.pop("outcomes", {}), [], **kw)  # type: ignore[arg-type]


def test_the_whole_page_of_a_site_without_sources_or_blocks(project: Project) -> None:
    """Nothing ran and nothing is cited: the heading, the date, how to read it, and both «none»."""
    page = verification_page.render(project.config, [], None, _fresh())
    said = ["Generado el 1 de enero de 2026 al construir el sitio.", "## Cómo leer este informe"]
    parts = ["# Informe de verificación", *said, INTRO, RUN_HERE.format(""), NO_SOURCES, NO_BLOCKS]
    assert page == "\n\n".join(parts) + "\n"


@pytest.mark.parametrize(
    ("runner", "env", "named"),
    [
        ("cpu", {"torch": "2.4.1"}, "CPU con torch 2.4.1"),
        ("gpu", {}, "GPU con torch ?"),
        ("tpu", {"torch": "9"}, "tpu con torch 9"),
    ],
)
def test_a_build_that_ran_names_its_runner_and_torch(
    project: Project, runner: str, env: dict[str, str], named: str
) -> None:
    page = verification_page.render(project.config, [], _ran(runner, env), _fresh())
    lines = page.split("\n\n")
    assert (
        lines[1] == f"Generado el 1 de enero de 2026 al construir el sitio, en el runner {named}."
    )
    assert lines[2:5] == ["## Cómo leer este informe", INTRO, RUN_HERE.format("")]


def _seen(runner: str, run_url: str = "", **kw: object) -> Provenance:
    return Provenance(
        runner, "2.3.0", "Tarjeta *rápida*", "2026-02-03", SeenIn.REPORT, run_url, **kw
    )  # type: ignore[arg-type]


OBSERVED = (
    "las salidas de {0} son las que observó el runner {0} (Tarjeta \\*rápida\\*, torch 2.3.0) el "
    "3 de febrero de 2026 en {1}"
)


@pytest.mark.parametrize(
    ("runner", "run_url", "shards", "where", "split"),
    [
        (
            "gpu",
            "https://ci.example/run/7",
            "3",
            "la ejecución de CI https://ci.example/run/7",
            " repartida en 3 partes",
        ),
        ("cpu", "", "1", "un informe local", ""),
        ("tpu", "", "", "un informe local", ""),
    ],
)
def test_a_build_from_reports_says_it_ran_nothing_and_who_observed(
    project: Project, runner: str, run_url: str, shards: str, where: str, split: str
) -> None:
    """A build from reports names no runner of its own: the report's (by its label, else its
    name), its run or a local report, its shards (more than one), its files (escaped)."""
    named = {"gpu": "GPU", "cpu": "CPU"}.get(runner, runner)
    origin = _seen(runner, run_url, reports=("a.json", "b_c.json"), shards=shards)
    page = verification_page.render(project.config, [], _ran("cpu", {}, origin=origin), _fresh())
    lines = page.split("\n\n")
    assert lines[1] == "Generado el 1 de enero de 2026 al construir el sitio."
    assert lines[2] == (
        f"Esta construcción no ejecutó ningún bloque: {OBSERVED.format(named, where)}{split}, "
        "para este mismo código (informes: a.json, b\\_c.json), comparadas aquí con sus "
        "grabaciones."
    )
    assert lines[3:6] == ["## Cómo leer este informe", INTRO, RUN_ELSEWHERE]


def _outcome(runner: str, verdicts: dict[str, Provenance | None]) -> Outcome:
    return Outcome(
        None,  # type: ignore[arg-type]
        runner,
        {},
        {r: Verdict(r, Status.OK, None, provenance=p) for r, p in verdicts.items()},  # type: ignore[arg-type]
    )


def test_the_other_runners_observations_are_said_once_each(project: Project) -> None:
    """A report of the other runner is said once however many blocks it observed; the build's
    own runner and a verdict without provenance say nothing."""
    gpu = _seen("gpu", "https://ci.example/run/9")
    outcomes = {
        "a/x": _outcome("cpu", {"cpu": _seen("cpu"), "gpu": gpu}),
        "a/y": _outcome("cpu", {"cpu": None, "gpu": gpu}),
        "a/z": _outcome("cpu", {"gpu": None}),
    }
    verification = _ran("cpu", {"torch": "2.4.1"}, outcomes=outcomes)
    lines = verification_page.render(project.config, [], verification, _fresh()).split("\n\n")
    peer = OBSERVED.format("GPU", "la ejecución de CI https://ci.example/run/9")
    assert lines[2:4] == [f"L{peer[1:]}, para este mismo código.", "## Cómo leer este informe"]


def _coverage(cached: int) -> Coverage:
    return Coverage("cpu", "2.4.1", 4, 4, cached, False, None, 0, (), 0, 0)


@pytest.mark.parametrize(
    ("cached", "clause"),
    [
        (0, ""),
        (
            2,
            ", salvo los que la caché local de docverify ya observó con este mismo código y estas "
            "versiones (2 en esta, con la fecha en que se observaron)",
        ),
    ],
)
def test_the_counts_open_the_page_and_the_cache_is_said(
    project: Project, cached: int, clause: str
) -> None:
    cov = _coverage(cached)
    verification = _ran("cpu", {"torch": "2.4.1"})
    page = verification_page.render(project.config, [], verification, _fresh(), cov)
    head = "Generado el 1 de enero de 2026 al construir el sitio, en el runner CPU con torch 2.4.1."
    opening = coverage_text.verification_opening(cov)
    told = ["## Cómo leer este informe", INTRO, RUN_HERE.format(clause)]
    assert page.startswith("\n\n".join(["# Informe de verificación", head, opening, *told]))


def _status(page: str, n: int, verified: dt.date, age: int, review_by: dt.date, status: str, **kw):  # type: ignore[no-untyped-def]
    source_kw = {k: kw.pop(k) for k in ("owner", "fingerprint") if k in kw}
    source = Source(page, n, kw.pop("title"), kw.pop("reference"), verified, **source_kw)
    return freshness.SourceStatus(source, age, review_by, status, **kw)


PRINT = fingerprint.Fingerprint("torch", "object", "torch.nn_x", "2.4.1", "0" * 64)
# Given out of order: by review-by date, then by page (S1 and S3 share theirs).
S3 = _status(
    "b.md",
    3,
    dt.date(2025, 12, 31),
    1,
    dt.date(2026, 1, 6),
    "ok",
    title="Tres",
    reference="R3",
    fingerprint=PRINT,
    installed=object(),
)
S4 = _status(
    "b.md",
    4,
    dt.date(2025, 12, 1),
    31,
    dt.date(2026, 3, 1),
    "ok",
    title="Cuatro",
    reference="R4",
    fingerprint=PRINT,
)
S1 = _status(
    "a.md",
    1,
    dt.date(2025, 10, 1),
    92,
    dt.date(2026, 1, 6),
    "soon",
    title="Uno_x",
    reference="Ref|1",
    installed=object(),
)
S2 = _status(
    "a.md",
    2,
    dt.date(2025, 7, 1),
    184,
    dt.date(2025, 12, 29),
    "stale",
    title="Dos",
    reference="R2",
    owner="@ana_b",
    drift_note="cambió *x*",
)
ROW = {  # each source's cells but the page's and the owner's
    "S2": "R2 — Dos | 1 de julio de 2025 | 184 días | 29 de diciembre de 2025 | "
    "caducada: cambió \\*x\\*",
    "S1": "Ref\\|1 — Uno\\_x | 1 de octubre de 2025 | 92 días | 6 de enero de 2026 | "
    "revisar pronto (faltan 5 días)",
    "S3": "R3 — Tres | 31 de diciembre de 2025 | 1 día | 6 de enero de 2026 | "
    "al día; huella de torch.nn\\_x intacta",
    "S4": "R4 — Cuatro | 1 de diciembre de 2025 | 31 días | 1 de marzo de 2026 | al día",
}
OWNER = {"S2": "@ana\\_b", "S1": "—", "S3": "—", "S4": "—"}
HEAD = "Fuente | Verificada | Edad | Revisar a más tardar | Estado"


def test_the_sources_table_of_the_sources_command() -> None:
    """By review-by date then page; the status with its days left, the drift or the intact
    fingerprint; the owner column only when a source names one."""
    fresh = _fresh(S3, S4, S1, S2)
    rows = [f"| {ROW[s]} | {OWNER[s]} |" for s in ("S2", "S1", "S3", "S4")]
    table = [f"| {HEAD} | Responsable |", "|---|---|---|---|---|---|", *rows]
    said = verification_page.sources_markdown(fresh)
    assert said == INTRO + "\n\n" + "\n".join(table)
    rows = [f"| {ROW[s]} |" for s in ("S1", "S3", "S4")]
    table = [f"| {HEAD} |", "|---|---|---|---|---|", *rows]
    assert verification_page.sources_markdown(_fresh(S3, S4, S1)) == INTRO + "\n\n" + "\n".join(
        table
    )
    assert verification_page.sources_markdown(_fresh()) == INTRO + "\n\n" + NO_SOURCES


def _sections_pages(project: Project) -> list:  # type: ignore[type-arg]
    project.page("a.md", '---\ntitle: "Página *A*"\n---\n\nTexto.\n')
    project.page("b.md", '---\ntitle: "B"\n---\n\n' + blocks.block("print(1)", "b1"))
    project.page("c.md", "# C\n\nTexto.\n")
    return read_site(project.config)


def test_each_page_with_sources_gets_its_section_and_its_table(project: Project) -> None:
    """A section per page with sources or blocks: its linked title, how many sources and their
    table (the owner column only where one names an owner); a page with neither, none."""
    pages = _sections_pages(project)
    parts = verification_page.by_article(pages, _fresh(S3, S4, S1, S2), None)

    def stacked(*lines: str) -> str:
        return (
            '<div class="dv-report dv-report-fuentes" markdown>\n\n'
            + "\n".join(lines)
            + "\n\n</div>"
        )

    own = [f"| {ROW[s]} | {OWNER[s]} |" for s in ("S2", "S1")]
    assert parts == [
        "## [Página \\*A\\*](a.md)",
        "**Fuentes** (2)",
        stacked(f"| {HEAD} | Responsable |", "|---|---|---|---|---|---|", *own),
        "## [B](b.md)",
        "**Fuentes** (2)",
        stacked(f"| {HEAD} |", "|---|---|---|---|---|", f"| {ROW['S3']} |", f"| {ROW['S4']} |"),
    ]


def test_without_sources_or_blocks_the_page_says_so(project: Project) -> None:
    pages = _sections_pages(project)
    assert verification_page.by_article(pages, _fresh(), None) == ["## [B](b.md)", NO_SOURCES]
    alone = [p for p in pages if p.rel == "a.md"]
    assert verification_page.by_article(alone, _fresh(S1), None)[-1] == NO_BLOCKS
    assert verification_page.by_article(alone, _fresh(), None) == [NO_SOURCES, NO_BLOCKS]


def test_what_blocks_share_is_said_once_before_the_pages(project: Project) -> None:
    """With blocks alike, how to read the page says the common facets once, and how each page
    lists what differs."""
    parts = alike(project, 3).split("\n\n")
    start = parts.index(RUN_HERE.format(""))
    assert parts[start + 1] == (
        "Lo más común entre todos los bloques se dice aquí una vez (`<id>` es el id de cada "
        "bloque):"
    )
    assert parts[start + 3] == (
        "Las páginas siguen el orden de lectura del sitio. Bajo cada una, «Común en este "
        "artículo» dice lo más común en ella cuando no es lo de arriba; «Sin diferencias», los "
        "bloques que no difieren en nada de eso, y la fila de cada uno de los demás, solo lo que "
        "difiere."
    )


def test_a_build_without_results_still_lists_the_pages_with_blocks(project: Project) -> None:
    pages = _sections_pages(project)
    page = verification_page.render(project.config, pages, None, _fresh())
    assert page.endswith("\n\n## [B](b.md)\n\n" + NO_SOURCES + "\n")
