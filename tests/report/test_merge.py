"""report/merge.py on small shard reports written here (nothing runs): which files it reads,
what it refuses and the exact words of each refusal, and the merged report's tables in the
plan's page order. tests/report/test_reports.py merges the shards of real runs.

The plan: three pages in an order that is not alphabetical, one in a sub-folder; shard 1/2 has
«intro.md» and «sub/d.md», shard 2/2 has «a.md».
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from docverify.core.status import Status
from docverify.report import merge
from docverify.report.report_json import Merged, ReportError

ALL = ["intro.md", "sub/d.md", "a.md"]
PLAN = [["intro.md", "sub/d.md"], ["a.md"]]
ENV = {"torch": "2.13.0", "python": "3.11.7"}
URL = "https://github.com/equipo/pytorch-es/actions/runs/99"
FIX_SAME_RUN = (
    "combina solo las partes de una misma ejecución (en CI, los artefactos docverify-<runner>-* "
    "de la misma ejecución), o vuelve a verificar todas las partes con este código"
)


def _finding(path: str, part: str, page: str | None, level: str = "error") -> dict[str, Any]:
    return {
        "kind": "divergence",
        "label": "divergencia",
        "level": level,
        "path": path,
        "line": 1,
        "message": f"algo en {path}",
        "fix": "arréglalo",
        "detail": "",
        "part": part,
        "page": page,
    }


def _entry(output: str) -> dict[str, Any]:
    return {
        "status": "ok",
        "output": output,
        "code_sha256": "c",
        "inputs_sha256": "i",
        "error": "",
        "spec_sha256": "s",
        "result": {},
    }


def _write(folder: Path, data: dict[str, Any]) -> Path:
    folder.mkdir(parents=True)
    (folder / "report.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return folder


def part(folder: Path, shard: str, **changes: Any) -> Path:
    """A shard's report in `folder`: by default shard 1/2 or 2/2 of PLAN, whose pages, blocks,
    observations, durations and findings follow from its index."""
    index = int(shard.split("/", maxsplit=1)[0])
    pages = PLAN[index - 1] if index <= len(PLAN) else []
    stems = [page.removesuffix(".md") for page in pages]
    head = _finding("pyproject.toml", "head", None, "warning")
    findings = [head] + [_finding(f"docs/{p}", "page", p) for p in reversed(pages)]
    findings += [
        _finding(f"snippets/{s}/x.py", "block", p) for s, p in zip(stems, pages, strict=True)
    ]
    if index == 1:
        findings.append(_finding("snippets/huerfana.cpu.txt", "tail", None))
    data = {
        "format": 4,
        "runner": "cpu",
        "env": ENV,
        "date": "2026-03-01",
        "run_url": URL,
        "pages": pages,
        "blocks": {f"{s}/x": "ok" for s in reversed(stems)},
        "errors": len(findings) - 1,
        "findings": findings,
        "observations": {f"{s}/x": _entry(f"salida de {s}") for s in reversed(stems)},
        "all_pages": ALL,
        "site_sha256": "abc",
        "shard": shard,
        "plan": "p1",
        "basis": "bloques",
        "plan_shards": PLAN,
        "durations": {p: float(len(p)) for p in reversed(pages)},
    }
    return _write(folder, data | changes)


def refused(paths: list[Path]) -> str:
    with pytest.raises(ReportError) as caught:
        merge.load(paths)
    return str(caught.value)


def json_of(folder: Path) -> Path:
    return folder / "report.json"


# --- find ---------------------------------------------------------------------------------------


def test_find_takes_a_folder_its_file_or_every_report_below(tmp_path: Path) -> None:
    one = part(tmp_path / "uno", "1/2")
    two = part(tmp_path / "todas" / "b" / "2", "2/2")
    first = part(tmp_path / "todas" / "a" / "1", "1/2")
    assert merge.find([one]) == [json_of(one)]
    assert merge.find([json_of(one)]) == [json_of(one)]
    # A folder without its own report: every report below it, in path order.
    assert merge.find([tmp_path / "todas"]) == [json_of(first), json_of(two)]
    # The same file named twice, or through its folder, counts once.
    assert merge.find([one, json_of(one), one]) == [json_of(one)]


def test_find_says_what_it_could_not_find(tmp_path: Path) -> None:
    (tmp_path / "vacia").mkdir()
    with pytest.raises(ReportError) as caught:
        merge.find([tmp_path / "vacia"])
    assert str(caught.value) == (
        f"{tmp_path / 'vacia'}: no hay ningún report.json en esta carpeta ni debajo. Cómo "
        "arreglarlo: pasa las carpetas que escribió docverify check --report (los artefactos de "
        "CI descomprimidos)."
    )
    with pytest.raises(ReportError) as caught:
        merge.find([tmp_path / "no-existe"])
    assert str(caught.value) == (
        f"{tmp_path / 'no-existe'}: no existe. Cómo arreglarlo: pasa las carpetas que escribió "
        "docverify check --report (los artefactos de CI descomprimidos)."
    )
    with pytest.raises(ReportError) as caught:
        merge.find([])
    assert str(caught.value) == "no se ha indicado ningún informe (carpetas de check --report)."


# --- the merged report ------------------------------------------------------------------------


def test_merge_puts_every_table_in_the_plans_page_order(tmp_path: Path) -> None:
    first = part(tmp_path / "1", "1/2", date="2026-03-01")
    second = part(tmp_path / "2", "2/2", date="2026-03-02")
    merged = merge.load([second, first])
    assert merge.load([first, second]) == merged
    assert merged.pages == ("intro.md", "sub/d.md", "a.md")
    assert merged.date == "2026-03-02"  # the later shard's day, whichever comes first
    assert list(merged.blocks.items()) == [
        ("a/x", Status.OK),
        ("intro/x", Status.OK),
        ("sub/d/x", Status.OK),
    ]
    # Observations and durations in the plan's order (a page's key: its stem, even «sub/d»).
    assert list(merged.observations) == ["intro/x", "sub/d/x", "a/x"]
    assert merged.observations["sub/d/x"].output == "salida de sub/d"
    assert merged.durations == {"intro.md": 8.0, "sub/d.md": 8.0, "a.md": 4.0}
    assert list(merged.durations) == ["intro.md", "sub/d.md", "a.md"]
    # Findings: the configuration's once, then the pages', the blocks' (in page order each),
    # then the whole site's.
    assert [(f.part, f.finding.path) for f in merged.findings] == [
        ("head", "pyproject.toml"),
        ("page", "docs/intro.md"),
        ("page", "docs/sub/d.md"),
        ("page", "docs/a.md"),
        ("block", "snippets/intro/x.py"),
        ("block", "snippets/sub/d/x.py"),
        ("block", "snippets/a/x.py"),
        ("tail", "snippets/huerfana.cpu.txt"),
    ]
    assert merged.errors == 7  # the warning of the head is no error
    assert merged.shard is None and merged.shards == "2"
    assert merged.merged == Merged(2, "p1", "bloques")
    assert merged.sources == (json_of(first), json_of(second))
    assert merged.runner == "cpu" and merged.env == ENV and merged.run_url == URL


def test_what_no_page_of_the_plan_owns_comes_last(tmp_path: Path) -> None:
    """A finding, observation or duration of a page the plan does not list: after the rest."""
    stray = _finding("docs/otra.md", "page", "otra.md")
    first = part(tmp_path / "1", "1/2")
    data = json.loads(json_of(first).read_text(encoding="utf-8"))
    data["findings"].insert(1, stray)
    data["observations"] = {"otra/y": _entry("fuera"), **data["observations"]}
    data["durations"] = {"otra.md": 1.0, **data["durations"]}
    json_of(first).write_text(json.dumps(data), encoding="utf-8")
    second = part(tmp_path / "2", "2/2", durations=None)  # a shard may keep no durations
    merged = merge.load([first, second])
    pages = [f.finding.path for f in merged.findings if f.part == "page"]
    assert pages == ["docs/intro.md", "docs/sub/d.md", "docs/a.md", "docs/otra.md"]
    assert list(merged.observations) == ["intro/x", "sub/d/x", "a/x", "otra/y"]
    assert list(merged.durations) == ["intro.md", "sub/d.md", "otra.md"]


def test_one_unsharded_report_is_read_as_it_is(tmp_path: Path) -> None:
    whole = part(tmp_path / "w", "1/1", plan_shards=[ALL])
    data = json.loads(json_of(whole).read_text(encoding="utf-8"))
    for key in ("shard", "plan", "basis", "plan_shards"):
        del data[key]
    json_of(whole).write_text(json.dumps(data), encoding="utf-8")
    report = merge.load([whole])
    assert report.shard is None and report.merged is None and report.sources == (json_of(whole),)


# --- refusals -----------------------------------------------------------------------------------


def test_a_report_that_cannot_be_merged_says_why(tmp_path: Path) -> None:
    first = part(tmp_path / "1", "1/2")
    old = part(tmp_path / "viejo", "2/2", format=2)
    assert refused([first, old]) == (
        f"{json_of(old)}: es un informe de formato 2, anterior al 3: no dice qué código verificó "
        "ni el orden de sus hallazgos, así que no se puede combinar con otros. Cómo arreglarlo: "
        "vuelve a ejecutar docverify check --shard I/N --report con esta versión del motor."
    )
    whole = part(tmp_path / "entero", "1/1")
    data = json.loads(json_of(whole).read_text(encoding="utf-8"))
    del data["shard"]
    json_of(whole).write_text(json.dumps(data), encoding="utf-8")
    two = part(tmp_path / "2", "2/2")
    assert refused([first, whole, two]) == (
        f"{json_of(whole)}: no es una parte de un reparto (docverify check --shard I/N), y se han "
        "indicado 3 informes. Cómo arreglarlo: pasa solo él, o solo las partes de una misma "
        "ejecución."
    )
    # A plan of two shards in a report that says «1/3».
    wrong = part(tmp_path / "mal", "1/3")
    assert refused([wrong, two]) == (
        f"{json_of(wrong)}: la parte «1/3» o su plan están mal escritos (1/3). Cómo arreglarlo: "
        "vuelve a ejecutar docverify check --shard I/N --report."
    )
    nonsense = part(tmp_path / "raro", "3/2")
    message = refused([nonsense, two])
    assert message.startswith(f"{json_of(nonsense)}: la parte «3/2» o su plan están mal escritos")
    assert "I debe estar entre 1 y N" in message


def _pair(tmp_path: Path, **changes: Any) -> list[Path]:
    return [part(tmp_path / "1", "1/2"), part(tmp_path / "2", "2/2", **changes)]


def _both(tmp_path: Path, a: str = "1/2", b: str = "2/2") -> str:
    one, two = json_of(tmp_path / "1"), json_of(tmp_path / "2")
    return f"{one} (parte {a}) y {two} (parte {b})"


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        (
            {"runner": "gpu"},
            "son de runners distintos (cpu y gpu): solo se combinan las partes de un mismo "
            f"runner. Cómo arreglarlo: {FIX_SAME_RUN}.",
        ),
        (
            {"plan": "p2"},
            "vienen de repartos distintos (plan p1 y plan p2): cada parte repartió las páginas "
            "de otra forma, así que juntas no cubren el sitio una vez. Cómo arreglarlo: verifica "
            "todas las partes con el mismo N y el mismo archivo de duraciones (o ninguno, como en "
            "CI).",
        ),
        (
            {"site_sha256": "def"},
            "verificaron código distinto (otras páginas, otros bloques, otro código u otras "
            "opciones de ejecución): no describen el mismo commit. Cómo arreglarlo: "
            f"{FIX_SAME_RUN}.",
        ),
        (
            {"env": {}},
            "son de entornos distintos (torch 2.13.0, python 3.11.7 y vacío): la procedencia de "
            f"la salida no sería una sola. Cómo arreglarlo: {FIX_SAME_RUN}.",
        ),
        (
            {"run_url": ""},
            f"son de ejecuciones de CI distintas ({URL} y ninguna): la procedencia de la salida "
            f"no sería una sola. Cómo arreglarlo: {FIX_SAME_RUN}.",
        ),
        (
            {"findings": [_finding("pyproject.toml", "head", None, "error")]},
            "no coinciden en los hallazgos de configuración ([tool.docverify]): no son del mismo "
            f"commit. Cómo arreglarlo: {FIX_SAME_RUN}.",
        ),
    ],
    ids=["runner", "plan", "code", "env", "run", "head"],
)
def test_shards_of_different_runs_are_refused_naming_both(
    tmp_path: Path, changes: dict[str, Any], says: str
) -> None:
    assert refused(_pair(tmp_path, **changes)) == f"{_both(tmp_path)} {says}"


def test_a_plan_of_another_size_is_another_plan(tmp_path: Path) -> None:
    three = [["intro.md"], ["sub/d.md"], ["a.md"]]
    folders = [part(tmp_path / "1", "1/2"), part(tmp_path / "2", "2/3", plan_shards=three)]
    assert refused(folders).startswith(f"{_both(tmp_path, b='2/3')} vienen de repartos distintos")


def test_the_same_shard_twice_is_named_in_path_order(tmp_path: Path) -> None:
    one = part(tmp_path / "1", "1/2")
    again = part(tmp_path / "2", "1/2")
    expected = (
        f"{_both(tmp_path, b='1/2')} son la misma parte: se solapan. Cómo arreglarlo: pasa cada "
        "parte una sola vez (una carpeta por parte)."
    )
    assert refused([again, one]) == expected
    assert refused([one, again]) == expected


def test_a_page_in_two_shards_is_refused(tmp_path: Path) -> None:
    one = part(tmp_path / "1", "1/2", pages=["intro.md", "sub/d.md", "a.md"])
    two = part(tmp_path / "2", "2/2")
    assert refused([one, two]) == (
        f"la página a.md está en {json_of(one)} y en {json_of(two)}: las partes se solapan. Cómo "
        "arreglarlo: pasa cada parte una sola vez."
    )


def test_missing_shards_and_pages_are_named(tmp_path: Path) -> None:
    plan = [["intro.md"], ["sub/d.md"], ["a.md"]]
    two = part(tmp_path / "2", "2/3", plan_shards=plan, pages=["sub/d.md"])
    three = part(tmp_path / "3", "3/3", plan_shards=plan, pages=["a.md"])
    fix = (
        "Cómo arreglarlo: pasa los informes de todas las partes (en CI, todos los artefactos "
        "docverify-<runner>-* de la ejecución)."
    )
    assert refused([three, two]) == (
        f"{json_of(two)}: faltan partes del reparto (plan p1, 3 partes): 1/3; quedan sin "
        f"verificar 1 página (intro.md). Se han indicado: {json_of(two)} (2/3), {json_of(three)} "
        f"(3/3). {fix}"
    )


def test_pages_left_out_by_a_complete_set_of_shards_are_named(tmp_path: Path) -> None:
    fix = (
        "Cómo arreglarlo: pasa los informes de todas las partes (en CI, todos los artefactos "
        "docverify-<runner>-* de la ejecución)."
    )
    for count, listed in (
        (5, "p1.md, p2.md, p3.md, p4.md, p5.md"),
        (6, "p1.md, p2.md, p3.md, p4.md, p5.md …"),
    ):
        extra = [f"p{n}.md" for n in range(1, count + 1)]
        folder = tmp_path / str(count)
        one = part(folder / "1", "1/2", all_pages=ALL + extra)
        two = part(folder / "2", "2/2", all_pages=ALL + extra)
        assert refused([one, two]) == (
            f"{json_of(one)}: faltan partes del reparto (plan p1, 2 partes); quedan sin "
            f"verificar {count} páginas ({listed}). Se han indicado: {json_of(one)} (1/2), "
            f"{json_of(two)} (2/2). {fix}"
        )


def test_a_missing_shard_without_pages_still_counts(tmp_path: Path) -> None:
    """More shards than the pages fill: the empty shard's report is still one of the run."""
    plan = [ALL, []]
    one = part(tmp_path / "1", "1/2", plan_shards=plan, pages=ALL)
    assert refused([one]) == (
        f"{json_of(one)}: faltan partes del reparto (plan p1, 2 partes): 2/2; quedan sin "
        f"verificar 0 páginas. Se han indicado: {json_of(one)} (1/2). Cómo arreglarlo: pasa los "
        "informes de todas las partes (en CI, todos los artefactos docverify-<runner>-* de la "
        "ejecución)."
    )


def test_the_one_shard_of_a_plan_of_one_is_merged(tmp_path: Path) -> None:
    """--shard 1/1: a shard's report all the same, which merging turns into a whole one."""
    only = part(tmp_path / "1", "1/1", plan_shards=[ALL], pages=ALL)
    merged = merge.load([only])
    assert merged.pages == ("intro.md", "sub/d.md", "a.md")
    assert merged.shard is None and merged.shards == "1"
    assert merged.merged == Merged(1, "p1", "bloques")
