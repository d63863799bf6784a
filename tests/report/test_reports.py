"""Reports of shards merged into the unsharded report, and a build from reports (nothing runs).

The project is the benchmark's synthetic corpus (docverify.bench.corpus), small, plus a page
whose blocks exercise what a panel shows besides the output (an expected error, an expectation,
a block that fails, a shown last value, an unknown option) and a few problems that make every
part of a report's findings non-empty: a mistake in [tool.docverify] (every shard reports it),
a divergence (a diff file), a page's own finding and an orphan recording (only shard 1).
Every check is a real run of `docverify check`, in this process (support.inprocess).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import _shared, as_local_author, docverify
from docverify import build
from docverify.bench import sharding
from docverify.bench.corpus import make_corpus
from docverify.core import config as config_mod
from docverify.core.kinds import Kind
from docverify.core.request import Request
from docverify.output import panel, render, verification_page
from docverify.parsing.pages import read_site
from docverify.report import merge
from docverify.running import executor as executor_mod
from docverify.running.executor import Executor
from docverify.verifying import summary
from docverify.verifying.record import record
from support.relabel import relabel

CI_RUN = {
    "GITHUB_SERVER_URL": "https://github.com",
    "GITHUB_REPOSITORY": "equipo/pytorch-es",
    "GITHUB_RUN_ID": "99",
}
EXTRA = """\
# Extra

```python exec="on" id="lanza" raises="ValueError: no"
raise ValueError("no se puede")
```

```python exec="on" id="espera"
x = 2 + 2
print(x)  # Expectativa: 4
```

```python exec="on" id="roto"
print(1 +)
```

```python exec="on" id="valor" last_value="show"
y = [1, 2]
len(y) + 1
```

```python exec="on" id="opcion" colour="red"
print("opción desconocida")
```
"""
# What only a shard's report, or only a merged one, holds; and what each run measures anew.
NOT_COMPARED = {"shard", "plan", "basis", "plan_shards", "merged", "durations"}
PROVENANCE = re.compile(r'<span class="dv-provenance">.*?</span>', re.DOTALL)


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """The corpus, recorded, with its problems; then one unsharded check and the shards of
    N = 2 and 3, each with its report. Made once for the whole run (both workers read it);
    tests copy what they change."""
    made = _shared(tmp_path_factory, worker_id, "reports-corpus", _make_corpus)
    return Path(made["root"])


def _make_corpus(folder: Path) -> dict[str, Any]:
    root = make_corpus(folder / "c", pages=7, blocks=4)
    (root / "docs" / "extra.md").write_text(EXTRA, encoding="utf-8")
    cfg = config_mod.load(root)
    executor = executor_mod.shared(2)
    with as_local_author():
        recorded = record(cfg, read_site(cfg), "cpu", executor)
    assert not [f for f in recorded.findings if f.kind is Kind.REFUSED], recorded.findings
    for stem in ("p004", "p001"):  # in different shards, so that merging must reorder them
        divergent = root / "snippets" / stem / "b0.cpu.txt"
        divergent.write_text(divergent.read_text(encoding="utf-8") + "una línea de más\n", "utf-8")
    shutil.copy(
        root / "snippets" / "p001" / "b0.cpu.txt", root / "snippets" / "p001" / "zz.cpu.txt"
    )
    pyproject = root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text(encoding="utf-8") + "timeot = 5\n", "utf-8")
    check(root, "whole")
    for total in (2, 3):
        for index in range(1, total + 1):
            check(root, f"parts{total}/{index}", f"{index}/{total}")
    return {"root": str(root)}


def check(root: Path, out: str, shard: str | None = None, **env: str) -> Any:
    """`docverify check --runner cpu --report ROOT/reports/OUT [--shard I/N]` (it fails: the
    corpus has errors on purpose). The shards read no durations file, as in CI (an unsharded
    check writes its own elsewhere): the plan comes from the block counts alone."""
    durations = root / ("sin-duraciones.json" if shard else "duraciones.json")
    args = ["check", "--runner", "cpu", "--no-cache", "--workers", "2"]
    args += ["--report", str(root / "reports" / out), "--durations", str(durations)]
    done = docverify(root, *args, *(["--shard", shard] if shard else []), env={**CI_RUN, **env})
    assert done.returncode == 1, done.stderr  # the errors of the corpus, not a crash
    assert (root / "reports" / out / "report.json").is_file(), done.stderr
    assert not shard or report(root / "reports" / out)["basis"] == "bloques"
    return done


def report(folder: Path) -> dict[str, Any]:
    return json.loads((folder / "report.json").read_text(encoding="utf-8"))


def files(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != "report.json"
    }


def comparable(data: dict[str, Any]) -> dict[str, Any]:
    """A report without what differs between two runs of the same code: the shard keys and
    the seconds each block and page took (measured anew by every run)."""
    observations = {
        key: {**item, "result": {k: v for k, v in item["result"].items() if k != "duration"}}
        for key, item in data["observations"].items()
    }
    kept = {k: v for k, v in data.items() if k not in NOT_COMPARED}
    return kept | {"observations": list(observations.items())}  # in order


@pytest.mark.parametrize("total", [2, 3])
def test_merged_shards_equal_the_unsharded_report(corpus: Path, total: int, tmp_path: Path) -> None:
    whole = corpus / "reports" / "whole"
    parts = sorted((corpus / "reports" / f"parts{total}").iterdir())
    # Each shard holds only part of it: merging is what makes them whole.
    assert all(comparable(report(p)) != comparable(report(whole)) for p in parts)
    done = docverify(corpus, "reports", "merge", *map(str, reversed(parts)), "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    merged = report(tmp_path)
    assert comparable(merged) == comparable(report(whole))
    assert merged["merged"]["shards"] == total
    assert files(tmp_path) == files(whole)  # findings.txt and every diff
    # The findings are in the unsharded order: configuration, pages, blocks, the whole site.
    order = [f["part"] for f in merged["findings"]]
    assert order == sorted(order, key=["head", "page", "block", "tail"].index)
    assert set(order) == {"head", "page", "block", "tail"}, order
    diverge = [f["page"] for f in merged["findings"] if f["kind"] == Kind.DIVERGENCE]
    owners = [
        next(n for n, p in enumerate(parts) if page in report(p)["pages"]) for page in diverge
    ]
    assert len(set(owners)) == 2, owners  # the divergences came from two shards
    kinds = {f["kind"] for f in merged["findings"]}
    assert {Kind.CONFIG, Kind.DIVERGENCE, Kind.ORPHAN_RECORDING, Kind.UNKNOWN_OPTION} <= kinds
    # A folder holding the artifacts side by side (as CI downloads them) merges the same.
    again = docverify(
        corpus, "reports", "merge", str(parts[0].parent), "--out", str(tmp_path / "b")
    )
    assert again.returncode == 0, again.stderr
    assert comparable(report(tmp_path / "b")) == comparable(report(whole))


def test_format_3_keeps_every_key_of_format_2(corpus: Path) -> None:
    """docverify accept and older readers find what they read, with the same meaning."""
    data = report(corpus / "reports" / "whole")
    for key in ("format", "runner", "env", "date", "run_url", "pages", "blocks", "errors"):
        assert key in data
    for item in data["observations"].values():
        assert {"status", "output", "code_sha256", "inputs_sha256", "error"} <= set(item)
        result = item["result"]
        assert "output" not in result  # the observation's own output stands for it
        assert item["error"] == str(result.get("error") or result.get("exception") or "")
    assert data["observations"]["extra/valor"]["result"]["value"].strip() == "3"
    assert data["observations"]["extra/espera"]["result"]["expectations"][0]["expected"] == "4"


def _copy_parts(corpus: Path, tmp_path: Path, total: int) -> list[Path]:
    dest = tmp_path / "partes"
    shutil.copytree(corpus / "reports" / f"parts{total}", dest)
    return sorted(dest.iterdir())


def _edit_report(folder: Path, **changes: Any) -> None:
    data = report(folder) | changes
    (folder / "report.json").write_text(json.dumps(data, ensure_ascii=False), "utf-8")


def _other_code(corpus: Path, tmp_path: Path) -> list[Path]:
    """Shard 2 of the same plan, run after a block's code changed on a page of shard 1."""
    root = Path(shutil.copytree(corpus, tmp_path / "otra"))
    plan = report(root / "reports" / "parts2" / "1")["plan_shards"]
    page = next(root / "docs" / rel for rel in plan[0] if rel.startswith("p"))
    text = page.read_text(encoding="utf-8")
    assert "torch.arange(" in text
    page.write_text(text.replace("torch.arange(", "torch.arange(0, ", 1), "utf-8")
    check(root, "nueva/2", "2/2")
    return [root / "reports" / "parts2" / "1", root / "reports" / "nueva" / "2"]


def _one_page_short(parts: list[Path]) -> list[Path]:
    """Every shard of the plan, the second without one of its pages (as if it skipped it)."""
    data = report(parts[1])
    gone = data["pages"][0]
    stem = gone.removesuffix(".md") + "/"
    observations = {k: v for k, v in data["observations"].items() if not k.startswith(stem)}
    _edit_report(parts[1], pages=data["pages"][1:], observations=observations)
    return parts


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (
            lambda c, t: [*(p := _copy_parts(c, t, 2))[:1], relabel(p[1], "gpu") or p[1]],
            "son de runners distintos (cpu y gpu)",
        ),
        (
            lambda c, t: [c / "reports" / "parts2" / "1", c / "reports" / "parts3" / "2"],
            "vienen de repartos distintos",
        ),
        (_other_code, "verificaron código distinto"),
        (
            lambda c, t: [*(p := _copy_parts(c, t, 2))[:1], _edit_report(p[1], env={}) or p[1]],
            "son de entornos distintos",
        ),
        (
            lambda c, t: [*(p := _copy_parts(c, t, 2))[:1], _edit_report(p[1], run_url="") or p[1]],
            "son de ejecuciones de CI distintas",
        ),
        (
            lambda c, t: [
                c / "reports" / "parts2" / "1",
                Path(shutil.copytree(c / "reports" / "parts2" / "1", t / "copia")),
            ],
            "son la misma parte: se solapan",
        ),
        (lambda c, t: [c / "reports" / "parts3" / "1", c / "reports" / "parts3" / "3"], "2/3"),
        (lambda c, t: _one_page_short(_copy_parts(c, t, 2)), "quedan sin verificar 1 página ("),
        (
            lambda c, t: [*(p := _copy_parts(c, t, 2))[:1], _edit_report(p[1], format=2) or p[1]],
            "anterior al 3",
        ),
        (lambda c, t: [c / "reports" / "whole", c / "reports" / "parts2" / "1"], "no es una parte"),
    ],
    ids=[
        "runner",
        "plan",
        "code",
        "env",
        "run",
        "overlap",
        "uncovered",
        "page-uncovered",
        "format",
        "unsharded",
    ],
)
def test_reports_that_do_not_belong_together_are_refused(
    corpus: Path, tmp_path: Path, make: Any, says: str
) -> None:
    folders = make(corpus, tmp_path)
    out = tmp_path / "combinado"
    done = docverify(corpus, "reports", "merge", *map(str, folders), "--out", str(out))
    assert done.returncode == 2, done.stdout
    assert says in done.stderr, done.stderr
    assert "Cómo arreglarlo" in done.stderr and "no se escribe nada" in done.stderr
    named = [str(f) for f in folders if str(f) in done.stderr]
    assert named, f"el error no nombra ningún informe: {done.stderr}"
    assert not out.exists()


def test_missing_shards_name_the_pages_left_unverified(corpus: Path, tmp_path: Path) -> None:
    first = corpus / "reports" / "parts3" / "1"
    done = docverify(corpus, "reports", "merge", str(first), "--out", str(tmp_path / "x"))
    assert done.returncode == 2
    left = [rel for part in report(first)["plan_shards"][1:] for rel in part]
    assert "2/3, 3/3" in done.stderr and f"sin verificar {len(left)} páginas" in done.stderr
    assert left[0] in done.stderr


def test_a_merged_report_is_dated_by_its_latest_shard(corpus: Path, tmp_path: Path) -> None:
    """The shards of one run may end on either side of midnight: the merged report carries
    the later day, whichever part comes first."""
    parts = _copy_parts(corpus, tmp_path, 2)
    _edit_report(parts[0], date="2026-03-02")
    _edit_report(parts[1], date="2026-03-01")
    assert merge.load(parts).date == "2026-03-02"
    assert merge.load(list(reversed(parts))).date == "2026-03-02"


# --- a build from reports ---------------------------------------------------------------------


def panels(result: build.BuildResult) -> dict[str, str]:
    """Every block's Markdown on its page (panel, marks, error box), provenance lines aside."""
    return {
        block.key: PROVENANCE.sub(
            "", panel.markdown(result.verification.outcomes[block.key], result.canary)
        )
        for page in result.pages.values()
        for block in page.blocks
    }


def provenances(result: build.BuildResult) -> list[str]:
    """Where the runner the build judged (CPU) observed each output, from each panel's line."""
    return [
        line
        for page in result.pages.values()
        for block in page.blocks
        for line in PROVENANCE.findall(
            panel.markdown(result.verification.outcomes[block.key], result.canary)
        )
    ]


@pytest.mark.parametrize("reports", ["whole", "parts3"])
def test_a_build_from_reports_shows_what_an_executed_build_shows(
    corpus: Path, executor: Executor, reports: str
) -> None:
    cfg = config_mod.load(corpus)
    pages = read_site(cfg)
    executed = build.run(cfg, pages, Request(runner="cpu"), executor)
    folders = sorted((corpus / "reports" / reports).glob("**/report.json"))
    asked = Request(runner="cpu", from_reports=tuple(f.parent for f in folders))
    started = executor_mod.blocks_started()
    replayed = build.run(config_mod.load(corpus), read_site(cfg), asked, executor)
    assert executor_mod.blocks_started() == started  # nothing ran
    assert replayed.verification.origin is not None and replayed.verification.origin.run_url
    # Same errors (the corpus's), same panels, marks, expectations and error boxes.
    assert [f.format() for f in replayed.findings] == [f.format() for f in executed.findings]
    shown, expected = panels(replayed), panels(executed)
    assert shown == expected
    assert "Error esperado ✓" in shown["extra/lanza"] and "Esperado 4" in shown["extra/espera"]
    assert "<strong>Error:</strong>" in shown["extra/roto"] and "[divergencia]" in shown["p004/b0"]
    # Only the provenance differs: where the output was observed.
    here, there = provenances(executed), provenances(replayed)
    assert len(here) == len(there) > 0
    assert not any("en CI" in line for line in here)
    assert all("en CI" in line for line in there)
    if reports == "parts3":
        assert all("(3 partes)" in line for line in there)
    assert "ninguno ejecutado aquí" in summary.line(replayed.verification)
    site = render.site(replayed)
    assert "observed_in" in json.loads(site.files[render.JSON_NAME])
    assert "Esta construcción no ejecutó ningún bloque" in site.files[verification_page.URI]


def _replayed(root: Path, folders: list[Path], requested: str = "auto") -> build.BuildResult:
    cfg = config_mod.load(root)
    asked = Request(runner=requested, from_reports=tuple(folders))
    return build.run(cfg, read_site(cfg), asked, executor_mod.shared(2))


def test_a_stale_or_incomplete_report_fails_the_build_and_says_why(
    corpus: Path, tmp_path: Path
) -> None:
    root = Path(shutil.copytree(corpus, tmp_path / "copia"))
    whole = root / "reports" / "whole"
    snippet = root / "docs" / "p002.md"
    snippet.write_text(snippet.read_text(encoding="utf-8").replace("Texto 3.", "Texto 3.\n"))
    assert not {Kind.STALE_REPORT} & {f.kind for f in _replayed(root, [whole]).errors}  # prose
    snippet.write_text(snippet.read_text(encoding="utf-8").replace("print(", "print( ", 1))
    (root / "docs" / "nueva.md").write_text('# N\n\n```python exec="on" id="n"\nprint(5)\n```\n')
    page = root / "docs" / "p003.md"
    page.write_text(page.read_text(encoding="utf-8").replace('id="b1" session="s"', 'id="b1"'))
    result = _replayed(root, [whole])
    stale = [f for f in result.errors if f.kind == Kind.STALE_REPORT]
    assert {f.path for f in stale} >= {"docs/p002.md", "docs/p003.md"}, stale
    assert any("opciones de ejecución" in f.message for f in stale)  # the session changed
    missing = [f for f in result.errors if f.kind == Kind.INCOMPLETE_REPORT]
    assert [f.path for f in missing] == ["docs/nueva.md"]
    # The block shows its recording, "not run now", with the error under it.
    outcome = result.verification.outcome("nueva.md", "n")
    assert outcome is not None
    text = panel.markdown(outcome, result.canary)
    assert "Salida grabada, no ejecutada ahora" in text and "[informe-incompleto]" in text


def test_reports_of_another_runner_or_format_are_errors(corpus: Path, tmp_path: Path) -> None:
    whole = Path(shutil.copytree(corpus / "reports" / "whole", tmp_path / "w"))
    result = _replayed(corpus, [whole], "gpu")
    assert [f.kind for f in result.errors if f.kind != Kind.CONFIG][:1] == [
        Kind.WRONG_REPORT_RUNNER
    ]
    data = report(whole)
    for item in data["observations"].values():
        del item["result"], item["spec_sha256"]
    (whole / "report.json").write_text(json.dumps(data), "utf-8")
    old = [f for f in _replayed(corpus, [whole]).errors if f.kind == Kind.INVALID_REPORT]
    assert old and "formato 2" in old[0].message and "docverify check --report" in old[0].fix
    parts = sorted((corpus / "reports" / "parts2").iterdir())
    one = [f for f in _replayed(corpus, parts[:1]).errors if f.kind == Kind.INVALID_REPORT]
    assert one and "faltan partes" in one[0].message


def test_a_gpu_report_in_shards_is_merged_before_it_is_attached(
    corpus: Path, tmp_path: Path
) -> None:
    """DOCVERIFY_GPU_REPORT with the shards of one run (real CPU reports, relabelled as gpu)."""
    parts = [Path(shutil.copytree(p, tmp_path / p.name)) for p in _parts(corpus, 2)]
    for part in parts:
        relabel(part, "gpu")
    cfg = config_mod.load(corpus)
    whole = (corpus / "reports" / "whole",)
    asked = Request(runner="cpu", from_reports=whole, gpu_reports=tuple(parts))
    result = build.run(cfg, read_site(cfg), asked, executor_mod.shared(2))
    kinds = {f.kind for f in result.errors}
    assert Kind.INCOMPLETE_REPORT not in kinds and Kind.INVALID_REPORT not in kinds, kinds
    ran = [o for o in result.verification.outcomes.values() if o.status.ran]
    assert ran and all(o.reported("gpu") for o in ran)
    # One shard alone is not the whole run: the build says which shards are missing.
    asked = Request(runner="cpu", from_reports=whole, gpu_reports=tuple(parts[:1]))
    alone = build.run(cfg, read_site(cfg), asked, executor_mod.shared(2))
    invalid = [f for f in alone.errors if f.kind == Kind.INVALID_REPORT]
    assert invalid and "faltan partes" in invalid[0].message and "2/2" in invalid[0].message


def test_accept_reads_the_shards_of_a_run_from_their_parent_folder(
    corpus: Path, tmp_path: Path
) -> None:
    root = Path(shutil.copytree(corpus, tmp_path / "copia"))
    pyproject = root / "pyproject.toml"  # accept stops at a mistake in [tool.docverify]
    pyproject.write_text(pyproject.read_text(encoding="utf-8").replace("timeot = 5\n", ""))
    parent = root / "reports" / "parts3"
    done = docverify(root, "accept", str(parent))
    # It read the merged report of the three shards: the block that failed, in whichever shard
    # ran it, is refused by name.
    assert done.returncode == 2, done.stderr
    assert "«extra/roto» falló" in done.stderr, done.stderr
    assert f"informe {parent / '1' / 'report.json'}" in done.stdout
    shutil.rmtree(parent / "2")
    missing = docverify(root, "accept", str(parent))
    assert missing.returncode == 2 and "faltan partes" in missing.stderr, missing.stderr


def _parts(corpus: Path, total: int) -> list[Path]:
    return sorted((corpus / "reports" / f"parts{total}").iterdir())


def test_the_benchmark_refuses_a_merge_that_differs_from_the_whole(
    corpus: Path, tmp_path: Path
) -> None:
    merged = tmp_path / "combinado"
    done = docverify(corpus, "reports", "merge", *map(str, _parts(corpus, 3)), "--out", str(merged))
    assert done.returncode == 0, done.stderr
    sharding._same(corpus / "reports" / "whole", merged, 3)  # equal: no error
    data = report(merged)
    first = next(iter(data["observations"].values()))
    first["output"] += "\notra línea"
    (merged / "report.json").write_text(json.dumps(data), "utf-8")
    with pytest.raises(RuntimeError, match="no es igual al entero"):
        sharding._same(corpus / "reports" / "whole", merged, 3)


def test_merge_never_writes_over_one_of_its_parts(corpus: Path, tmp_path: Path) -> None:
    parts = _copy_parts(corpus, tmp_path, 2)
    before = {p: files(p) | {"report.json": report(p)} for p in parts}
    done = docverify(corpus, "reports", "merge", *map(str, parts), "--out", str(parts[0]))
    assert done.returncode == 2 and "se sobrescribiría" in done.stderr, done.stderr
    assert {p: files(p) | {"report.json": report(p)} for p in parts} == before
