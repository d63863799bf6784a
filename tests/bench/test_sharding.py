"""bench/sharding.py (`docverify bench --shards`): what a report keeps when compared, the checks,
merges and builds it runs, the figures and lines it prints, with every command stood in, and the
site's engine part with the build and the executor stood in. Nothing is built or timed."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from docverify import build
from docverify.bench import sharding
from docverify.bench.common import Bench
from docverify.core import config
from docverify.core.request import Request
from docverify.core.status import Status
from docverify.output import render
from docverify.report import report_json
from docverify.report.report_json import Entry, Merged, Report, Sharded
from docverify.running import executor as executor_mod
from support.locale_c import ascii_locale

MODULE = [sys.executable, "-m", "docverify.cli.main"]


def _entry(key: str, result: dict[str, Any] | None, output: str = "1\n") -> Entry:
    return Entry(key, Status.OK, output, "c" * 64, "i" * 64, result=result)


def _report(**fields: Any) -> Report:
    observations = {
        "a/1": _entry("a/1", {"duration": 0.5, "exit": 0}),
        "a/2": _entry("a/2", None),
    }
    base = Report(Path("entero/report.json"), "cpu", {}, "2026-01-01", "", observations)
    return dataclasses.replace(base, **fields)


def test_two_runs_compare_equal_whatever_their_seconds_shard_and_files() -> None:
    whole = _report()
    merged = _report(
        path=Path("combinado/report.json"),
        shard=Sharded(shard="1/2", plan="p", basis="blocks", plan_shards=[["a"], ["b"]]),
        merged=Merged(shards=2, plan="p", basis="blocks"),
        durations={"a.md": 3.0},
        sources=(Path("1/report.json"), Path("2/report.json")),
        shards="2",
        observations={
            "a/1": _entry("a/1", {"duration": 9.25, "exit": 0}),
            "a/2": _entry("a/2", None),
        },
    )
    assert whole != merged
    assert sharding.comparable(whole) == sharding.comparable(merged)
    kept = sharding.comparable(whole)
    assert kept.observations["a/1"].result == {"exit": 0}  # only the seconds go
    assert kept.observations["a/2"].result == {}
    assert (kept.path, kept.sources, kept.shards) == (Path(), (), "")
    assert (kept.shard, kept.merged, kept.durations) == (None, None, None)
    assert (kept.runner, kept.date, kept.env) == ("cpu", "2026-01-01", {})


@pytest.mark.parametrize(
    "change",
    [
        {"errors": 1},
        {"pages": ("a.md",)},
        {"observations": {"a/1": _entry("a/1", {"duration": 0.5, "exit": 1})}},
        {"observations": {"a/1": _entry("a/1", {"duration": 0.5}, output="2\n")}},
    ],
)
def test_what_the_verification_decided_still_differs(change: dict[str, Any]) -> None:
    assert sharding.comparable(_report()) != sharding.comparable(_report(**change))


def test_a_report_folder_is_its_files_but_the_report(tmp_path: Path) -> None:
    (tmp_path / "cuadernos" / "a").mkdir(parents=True)
    (tmp_path / "cuadernos" / "a" / "p.ipynb").write_text("{}", encoding="utf-8")
    (tmp_path / "z.txt").write_text("ñ", encoding="utf-8")
    report_json.path_in(tmp_path).write_text("{}", encoding="utf-8")
    (tmp_path / "vacia").mkdir()
    with ascii_locale():  # read as UTF-8 whatever the locale
        files = sharding._folder_files(tmp_path)
    assert files == {"cuadernos/a/p.ipynb": "{}", "z.txt": "ñ"}
    assert list(files) == ["cuadernos/a/p.ipynb", "z.txt"]


def _reports(monkeypatch: pytest.MonkeyPatch, table: dict[Path, Report]) -> None:
    reading = SimpleNamespace(read=table.__getitem__, path_in=report_json.path_in)
    monkeypatch.setattr(sharding, "report_json", reading)


def _folders(tmp_path: Path) -> tuple[Path, Path]:
    whole, merged = tmp_path / "entero", tmp_path / "combinado-2"
    for folder in (whole, merged):
        folder.mkdir()
        (folder / "nota.txt").write_text("igual", encoding="utf-8")
        report_json.path_in(folder).write_text(folder.name, encoding="utf-8")  # never compared
    return whole, merged


def test_a_merged_report_equal_to_the_whole_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole, merged = _folders(tmp_path)
    _reports(monkeypatch, {whole: _report(), merged: _report(shards="2", durations={})})
    sharding._same(whole, merged, 2)


def _refused(whole: Path, merged: Path) -> None:
    with pytest.raises(RuntimeError) as raised:
        sharding._same(whole, merged, 2)
    assert str(raised.value) == (
        f"el informe combinado de 2 partes ({merged}) no es igual al entero ({whole})"
    )


def test_a_merged_report_that_differs_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole, merged = _folders(tmp_path)
    _reports(monkeypatch, {whole: _report(), merged: _report(errors=1)})
    _refused(whole, merged)


def test_a_merged_report_in_another_order_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole, merged = _folders(tmp_path)
    swapped = dict(reversed(_report().observations.items()))
    _reports(monkeypatch, {whole: _report(), merged: _report(observations=swapped)})
    _refused(whole, merged)


def test_a_merged_folder_with_other_files_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole, merged = _folders(tmp_path)
    (merged / "nota.txt").write_text("otra", encoding="utf-8")
    _reports(monkeypatch, {whole: _report(), merged: _report()})
    _refused(whole, merged)


class _Timed:
    """common.timed stood in: notes each command and answers (seconds, what it printed)."""

    def __init__(self, answer: Any) -> None:
        self.answer, self.calls = answer, []

    def __call__(
        self, args: list[str], cwd: Path, env: dict[str, str]
    ) -> tuple[float, SimpleNamespace]:
        self.calls.append((args, cwd, env))
        return self.answer(args)


def test_a_check_writes_its_report_and_reads_no_durations_when_a_shard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    timed = _Timed(lambda args: (4.5, None))
    monkeypatch.setattr(sharding, "timed", timed)
    corpus, out = tmp_path / "corpus", tmp_path / "informe"
    assert sharding._check(corpus, out, {"CI": "true"}, None) == 4.5
    assert sharding._check(corpus, out, {"CI": "true"}, "2/4") == 4.5
    check = [*MODULE, "check", "--runner", "cpu", "--no-cache", "--report", str(out)]
    assert timed.calls == [
        ([*check, "--durations", str(corpus / "duraciones.json")], corpus, {"CI": "true"}),
        (
            [*check, "--durations", str(corpus / "sin-duraciones.json"), "--shard", "2/4"],
            corpus,
            {"CI": "true"},
        ),
    ]


def _printed(data: dict[str, int]) -> Any:
    printed = f"importando\nconstruyendo\n{json.dumps(data)}\n"
    return lambda args: (7.5, SimpleNamespace(stdout=printed))


def test_the_site_build_is_timed_in_its_own_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    timed = _Timed(_printed({"errors": 0, "executed": 12}))
    monkeypatch.setattr(sharding, "timed", timed)
    corpus = tmp_path / "corpus"
    assert sharding._site(corpus, {"A": "1"}, None) == 7.5  # executing: it may run all
    site = [sys.executable, "-m", "docverify.bench.sharding", "site", str(corpus)]
    assert timed.calls == [(site, corpus, {"A": "1"})]
    timed.answer = _printed({"errors": 0, "executed": 0})
    assert sharding._site(corpus, {}, tmp_path / "informes") == 7.5
    assert timed.calls[1][0] == [*site, str(tmp_path / "informes")]


@pytest.mark.parametrize(
    ("data", "reports", "message"),
    [
        ({"errors": 2, "executed": 0}, None, "la construcción del corpus tuvo 2 errores"),
        ({"errors": 1, "executed": 0}, "r", "la construcción del corpus tuvo 1 errores"),
        ({"errors": 0, "executed": 3}, "r", "la construcción desde informes ejecutó 3 bloques"),
    ],
)
def test_a_site_build_with_errors_or_runs_from_reports_fails(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    data: dict[str, int],
    reports: str | None,
    message: str,
) -> None:
    monkeypatch.setattr(sharding, "timed", _Timed(_printed(data)))
    with pytest.raises(RuntimeError) as raised:
        sharding._site(tmp_path, {}, reports and tmp_path / reports)
    assert str(raised.value) == message


def test_the_site_engine_part_builds_and_renders_in_this_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\nversion = "0"\n\n[tool.docverify]\ndocs_dir = "docs"\n',
        encoding="utf-8",
    )
    (tmp_path / "docs" / "a.md").write_text("# A\n", encoding="utf-8")
    built: list[Any] = []
    result = SimpleNamespace(errors=["e1", "e2"])

    def run(cfg: Any, pages: list[Any], asked: Request, executor: Any) -> Any:
        built.append((cfg.root, [p.rel for p in pages], asked, executor))
        return result

    rendered: list[Any] = []
    monkeypatch.setattr(build, "run", run)
    monkeypatch.setattr(render, "site", rendered.append)
    monkeypatch.setattr(executor_mod, "shared", lambda: "el ejecutor")
    monkeypatch.setattr(executor_mod, "blocks_started", lambda: 5)
    ticks = iter([2.0, 2.75, 4.0, 4.5])
    monkeypatch.setattr(sharding, "time", SimpleNamespace(perf_counter=lambda: next(ticks)))
    assert sharding.site(tmp_path, None) == {"seconds": 0.75, "errors": 2, "executed": 5}
    assert sharding.site(tmp_path, tmp_path / "inf") == {"seconds": 0.5, "errors": 2, "executed": 5}
    assert built == [
        (config.load(tmp_path).root, ["a.md"], Request(runner="cpu"), "el ejecutor"),
        (
            config.load(tmp_path).root,
            ["a.md"],
            Request(runner="cpu", from_reports=(tmp_path / "inf",)),
            "el ejecutor",
        ),
    ]
    assert rendered == [result, result]


def test_the_run_checks_each_shard_merges_and_builds_the_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    bench = Bench(tmp_path, repeat=3, pages=4, blocks=3, work=tmp_path / "w")
    corpus, reports = tmp_path / "corpus", tmp_path / "w" / "informes"
    events: list[Any] = []

    def make_corpus(dest: Path, pages: int, blocks: int) -> Path:
        events.append(("corpus", dest, pages, blocks))
        return corpus

    merges = {1: iter([0.5, 0.7, 0.6]), 2: iter([1.0, 1.2, 1.1])}

    def timed(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, None]:
        events.append(("timed", args, cwd, env.get("CI")))
        return (next(merges[int(args[-1][-1])]) if "merge" in args else 30.0), None

    # Each shard's seconds per repetition; the medians: whole 11, 1/1 9.5, 1/2 6, 2/2 4.5.
    checks = {
        None: iter([10.0, 12.0, 11.0]),
        "1/1": iter([9.0, 9.5, 10.0]),
        "1/2": iter([5.0, 6.0, 7.0]),
        "2/2": iter([4.0, 8.0, 4.5]),  # the slowest in one repetition, not in the median
    }

    def check(where: Path, out: Path, env: dict[str, str], shard: str | None) -> float:
        events.append(("check", where, out, env.get("CI"), shard))
        return next(checks[shard])

    sites = {None: iter([20.0, 22.0, 21.0]), reports / "combinado-2": iter([3.0, 5.0, 4.0])}

    def site(where: Path, env: dict[str, str], merged: Path | None) -> float:
        events.append(("site", where, env.get("CI"), merged))
        return next(sites[merged])

    monkeypatch.setattr(sharding, "make_corpus", make_corpus)
    monkeypatch.setattr(sharding, "timed", timed)
    monkeypatch.setattr(sharding, "_check", check)
    monkeypatch.setattr(sharding, "_site", site)
    monkeypatch.setattr(sharding, "_same", lambda *args: events.append(("same", *args)))
    lines: list[str] = []
    line = sharding.run(bench, [1, 2], lines.append)

    def merge(total: int) -> list[Any]:
        folder = reports / f"combinado-{total}"
        args = [*MODULE, "reports", "merge", str(reports / str(total)), "--out", str(folder)]
        return [("timed", args, corpus, "true"), ("same", reports / "entero", folder, total)]

    repetition = [
        ("check", corpus, reports / "entero", "true", None),
        ("check", corpus, reports / "1" / "1", "true", "1/1"),
        *merge(1),
        ("check", corpus, reports / "2" / "1", "true", "1/2"),
        ("check", corpus, reports / "2" / "2", "true", "2/2"),
        *merge(2),
    ]
    assert events == [
        ("corpus", tmp_path / "w" / "corpus", 4, 3),
        ("timed", [*MODULE, "record", "--runner", "cpu"], corpus, None),  # recorded, not in CI
        *repetition * 3,
        *[("site", corpus, "true", None)] * 3,
        *[("site", corpus, "true", reports / "combinado-2")] * 3,
    ]
    assert lines == [
        "reparto · 4 páginas × 3 bloques · docverify check --runner cpu --no-cache, cada parte "
        "en un proceso nuevo · verificación entera 11.0 s",
        "| Partes | Segundos de cada parte | La más lenta | Suma | Más lenta ÷ entera | Combinar |",
        "|---|---|---|---|---|---|",
        "| 1 | 9.5 | 9.5 | 9.5 | 0.86 | 0.6 s |",
        "| 2 | 6.0 + 4.5 | 6.0 | 10.5 | 0.55 | 1.1 s |",
        "reparto · informes combinados iguales al informe entero (N = 1, 2) · construcción del "
        "sitio, parte de docverify: ejecutando 21.0 s · desde los informes 4.0 s",
    ]
    assert line == "SHARDS whole=11.0s N1=9.5s/0.86 N2=6.0s/0.55 site=21.0s/4.0s"


def test_the_site_is_built_from_the_reports_merged_from_the_most_shards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = Bench(tmp_path, repeat=1, pages=2, blocks=1, work=tmp_path / "w")
    built: list[Path | None] = []

    def site(where: Path, env: dict[str, str], merged: Path | None) -> float:
        built.append(merged)
        return 2.0

    monkeypatch.setattr(sharding, "make_corpus", lambda *_: tmp_path / "corpus")
    monkeypatch.setattr(sharding, "timed", lambda *_: (1.0, None))
    monkeypatch.setattr(sharding, "_check", lambda *_: 1.0)
    monkeypatch.setattr(sharding, "_site", site)
    monkeypatch.setattr(sharding, "_same", lambda *_: None)
    line = sharding.run(bench, [3], lambda _: None)
    assert built == [None, tmp_path / "w" / "informes" / "combinado-3"]
    assert line == "SHARDS whole=1.0s N3=1.0s/1.00 site=2.0s/2.0s"
