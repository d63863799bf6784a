"""The pipeline's small decisions (build.py): which runner and cache a request gets, the day
it judges on, which checks `check` adds, the terminal's notes and the errors' summary line.
Small projects without blocks, or stand-ins for the executor: nothing runs."""

from __future__ import annotations

import dataclasses
import datetime as dt
from types import SimpleNamespace

import pytest
from conftest import Project
from docverify import build
from docverify.core.findings import Finding, Level
from docverify.core.kinds import Kind
from docverify.core.request import CacheUse, Request
from docverify.parsing.pages import read_site
from docverify.verifying.outcome import Verification
from support.blocks import block
from support.sources import source_page


class Resolver:
    """An executor that only picks runners, and says when it was asked."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def resolve_runner(self, asked: str) -> str:
        self.asked.append(asked)
        return "gpu" if asked == "auto" else asked


@pytest.mark.parametrize(
    ("runner", "execute", "resolved", "asked"),
    [
        ("auto", True, "gpu", ["auto"]),
        ("auto", False, "cpu", []),  # nothing runs: no fork server to pick a runner
        ("gpu", False, "gpu", ["gpu"]),
        ("cpu", True, "cpu", ["cpu"]),
    ],
)
def test_prepare_picks_the_runner_only_when_it_must(
    project: Project, runner: str, execute: bool, resolved: str, asked: list[str]
) -> None:
    executor = Resolver()
    route = build.prepare(project.config, Request(runner=runner, execute=execute), executor)
    assert (route.runner, executor.asked, route.reports) == (resolved, asked, None)


@pytest.mark.parametrize(
    ("cache", "read"), [(CacheUse.OFF, None), (CacheUse.WRITE, False), (CacheUse.READ, True)]
)
def test_prepare_makes_the_cache_the_request_asks_for(
    project: Project, cache: CacheUse, read: bool | None
) -> None:
    route = build.prepare(project.config, Request(runner="cpu", cache=cache), Resolver())
    if read is None:
        assert route.cache is None
    else:
        assert route.cache is not None and route.cache.read is read
        assert route.cache.folder == project.root.resolve() / ".cache" / "docverify"


def _verification(runner: str = "cpu") -> Verification:
    return Verification(runner, {"torch": "2.13.0"}, [], {}, [])


def test_the_notes_say_what_ran_and_the_cache_hits_only_when_read() -> None:
    plain = "docverify: runner cpu · torch 2.13.0 · 0/0 bloques ejecutados en 0 páginas"
    assert build._notes(_verification(), None, None) == (plain,)
    unread = SimpleNamespace(hits=4, read=False)
    assert build._notes(_verification(), None, unread) == (plain,)
    read = SimpleNamespace(hits=4, read=True)
    assert build._notes(_verification(), None, read) == (
        "docverify: runner cpu · torch 2.13.0 · 0/0 bloques ejecutados (4 desde la caché) en "
        "0 páginas",
    )


@pytest.mark.parametrize(
    ("changes", "stale", "said"),
    [
        (1, 0, "cambiaría 1 bloque; 0 con código posterior al informe"),
        (2, 1, "cambiarían 2 bloques; 1 con código posterior al informe"),
        (0, 2, "cambiarían 0 bloques; 2 con código posterior al informe"),
    ],
)
def test_the_canary_s_note_counts_its_changes(changes: int, stale: int, said: str) -> None:
    view = SimpleNamespace(
        changes=["x"] * changes,
        stale=["y"] * stale,
        report=SimpleNamespace(date="2026-03-01"),
        torch="2.14.0",
        variant="CUDA 13.0",
    )
    notes = build._notes(_verification(), view, None)
    assert notes[1:] == (f"docverify: canario del 2026-03-01: con torch 2.14.0 (CUDA 13.0) {said}",)


def _finding(kind: Kind, line: int = 1) -> Finding:
    return Finding(kind, "mal", "docs/a.md", line, "arréglalo")


def test_the_summary_counts_the_errors_by_kind_in_order_of_first_appearance() -> None:
    one = build.summary([_finding(Kind.DIVERGENCE)])
    assert one == (
        "1 error de verificación: divergencia (1). Cada uno está descrito arriba, con su archivo "
        "y su línea."
    )
    many = build.summary(
        [_finding(Kind.MISSING_RECORDING), _finding(Kind.DIVERGENCE), _finding(Kind.DIVERGENCE, 9)]
    )
    assert many == (
        "3 errores de verificación: grabacion-ausente (1), divergencia (2). Cada uno está "
        "descrito arriba, con su archivo y su línea."
    )


def test_run_judges_on_the_request_s_day_or_today(project: Project) -> None:
    project.page("a.md", "# A\n\nSin bloques.\n")
    cfg = project.config
    pages = read_site(cfg)
    day = dt.date(2027, 5, 4)
    asked = build.run(cfg, pages, Request(runner="cpu", execute=False, day=day), Resolver())
    assert asked.today == day
    default = build.run(cfg, pages, Request(runner="cpu", execute=False), Resolver())
    assert default.today == build.today()
    assert default.notes == (
        "docverify: runner cpu · torch ? · 0/0 bloques ejecutados en 1 página",
    )
    assert list(default.pages) == ["a.md"] and default.pages["a.md"] is pages[0]


def test_check_adds_the_page_checks_only_when_asked_and_the_site_s_only_when_whole(
    project: Project,
) -> None:
    """A stale source (a page check) and a snippet no page uses (a whole-site check):
    `checked=None` reports neither, `whole=False` the page's only, `whole=True` both."""
    source_page(project, '"2020-01-01"', name="a.md")
    project.snippet("a/suelto.py", "print(1)\n")
    cfg = project.config
    pages = read_site(cfg)
    request = Request(runner="cpu", execute=False)
    route = build.prepare(cfg, request, Resolver())

    def kinds(**kwargs: object) -> set[Kind]:
        found = build.check(cfg, pages, request, route, Resolver(), **kwargs).findings
        return {f.kind for f in found if f.level is not Level.INFO}

    blocks_only = kinds()  # the blocks' findings (execution is off here)
    everything = kinds(checked=pages, whole=True) - blocks_only
    page_only = kinds(checked=pages) - blocks_only
    assert Kind.UNUSED_SNIPPET not in blocks_only and Kind.STALE_SOURCE not in blocks_only
    assert Kind.UNUSED_SNIPPET in everything and Kind.UNUSED_SNIPPET not in page_only
    assert Kind.STALE_SOURCE in page_only and page_only < everything


def test_run_site_reads_the_pages_given_and_the_navigation_file(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a generator calls: the project at root, only the pages it lists, its nav when it
    names a file; the request from the environment (here: cpu, nothing executed)."""
    a = project.page("a.md", "# A\n\nSin bloques.\n")
    project.page("b.md", "# B\n\nSin bloques.\n")
    mkdocs = project.root / "mkdocs.yml"
    mkdocs.write_text("site_name: x\nnav:\n  - Inicio: a.md\n", encoding="utf-8")
    monkeypatch.setenv("DOCVERIFY_RUNNER", "cpu")
    monkeypatch.setenv("DOCVERIFY_EXECUTE", "0")
    monkeypatch.delenv("CI", raising=False)
    executor = Resolver()
    result = build.run_site(project.root, [a], executor, mkdocs)
    assert list(result.pages) == ["a.md"] and result.config.root == project.root.resolve()
    assert result.nav is not None and result.nav == build.navigation.read(mkdocs)
    assert executor.asked == ["cpu"] and result.verification.runner == "cpu"
    assert build.run_site(project.root, [a], executor).nav is None


@pytest.fixture
def two_pages(project: Project) -> Project:
    project.page("a.md", "# A\n\nSin bloques.\n")
    project.page("b.md", "# B\n\nSin bloques.\n")
    (project.root / "mkdocs.yml").write_text(
        "site_name: x\nnav:\n  - Inicio: a.md\n", encoding="utf-8"
    )
    return project


def test_run_checks_the_site_against_the_navigation_it_is_given(two_pages: Project) -> None:
    cfg = two_pages.config
    pages = read_site(cfg)
    request = Request(runner="cpu", execute=False)
    nav = build.navigation.read(two_pages.root / "mkdocs.yml")
    with_nav = build.run(cfg, pages, request, Resolver(), nav=nav)
    outside = [f for f in with_nav.findings if f.kind is Kind.PAGE_NOT_IN_NAV]
    assert [f.path for f in outside] == ["docs/b.md"] and with_nav.nav is nav
    without = build.run(cfg, pages, request, Resolver())
    assert Kind.PAGE_NOT_IN_NAV not in {f.kind for f in without.findings}


def test_run_keeps_the_glossary_and_judges_coverage_on_its_day(
    two_pages: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    glossary, judged = object(), []
    per_page = build.checks.per_page
    monkeypatch.setattr(
        build.checks,
        "per_page",
        lambda *a: dataclasses.replace(per_page(*a), glossary=glossary),
    )
    of = build.coverage.of
    monkeypatch.setattr(build.coverage, "of", lambda *a: judged.append(a) or of(*a))
    cfg = two_pages.config
    day = dt.date(2027, 5, 4)
    result = build.run(
        cfg, read_site(cfg), Request(runner="cpu", execute=False, day=day), Resolver()
    )
    assert result.glossary is glossary
    [(verification, fresh, on)] = judged
    assert (verification, fresh, on) == (result.verification, result.fresh, day)


def test_run_notes_the_cache_hits_and_the_canary(
    two_pages: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = SimpleNamespace(
        changes=["x"],
        stale=[],
        report=SimpleNamespace(date="2026-03-01"),
        torch="2.14.0",
        variant="CPU",
    )
    attached: list[tuple] = []
    monkeypatch.setattr(build.canary, "attach", lambda *a: attached.append(a) or (view, []))
    cfg = two_pages.config
    request = Request(
        runner="cpu", execute=False, cache=CacheUse.READ, canary_report=two_pages.root / "c"
    )
    result = build.run(cfg, read_site(cfg), request, Resolver())
    assert result.notes == (
        "docverify: runner cpu · torch ? · 0/0 bloques ejecutados (0 desde la caché) en 2 páginas",
        "docverify: canario del 2026-03-01: con torch 2.14.0 (CPU) cambiaría 1 bloque; 0 con "
        "código posterior al informe",
    )
    assert result.canary is view and attached[0][2] == two_pages.root / "c"


def test_check_of_the_whole_site_reads_its_navigation_and_of_some_pages_does_not(
    two_pages: Project,
) -> None:
    cfg = two_pages.config
    pages = read_site(cfg)
    request = Request(runner="cpu", execute=False)
    route = build.prepare(cfg, request, Resolver())
    whole = build.check(cfg, pages, request, route, Resolver(), checked=pages, whole=True)
    assert [f.path for f in whole.findings if f.kind is Kind.PAGE_NOT_IN_NAV] == ["docs/b.md"]
    # Some pages only: mkdocs.yml is not even read (here it is not YAML at all).
    (two_pages.root / "mkdocs.yml").write_text("nav: [\n", encoding="utf-8")
    some = build.check(cfg, pages[:1], request, route, Resolver(), checked=pages[:1])
    assert Kind.PAGE_NOT_IN_NAV not in {f.kind for f in some.findings}
    with pytest.raises(ValueError, match="YAML no válido"):
        build.check(cfg, pages, request, route, Resolver(), checked=pages, whole=True)


def test_a_build_from_reports_takes_their_runner_and_no_cache(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    source, loaded = SimpleNamespace(runner="gpu"), []
    monkeypatch.setattr(build.from_reports, "load", lambda *a: loaded.append(a) or source)
    folder = project.root / "informes"
    executor = Resolver()
    request = Request(runner="auto", cache=CacheUse.READ, from_reports=(folder,))
    route = build.prepare(project.config, request, executor)
    assert (route.runner, route.reports, route.cache, executor.asked) == ("gpu", source, None, [])
    assert [a[1:] for a in loaded] == [([folder], "auto")]


def test_lint_of_given_pages_reads_no_other(project: Project) -> None:
    project.page("a.md", "# A\n\nSin bloques.\n")
    project.page("b.md", block("print(1)", "uno"))  # no recording: an error of b.md
    cfg = project.config
    everything = build.lint(cfg)
    assert [f.path for f in everything if f.kind is Kind.MISSING_RECORDING] == ["docs/b.md"]
    only_a = [p for p in read_site(cfg) if p.rel == "a.md"]
    assert [f for f in build.lint(cfg, only_a) if f.path == "docs/b.md"] == []
