"""`docverify bench --shards 1,2,4`: each shard's verification against the whole, and the site.

On the synthetic corpus (bench/corpus.py, 200 pages × 10 blocks by default), recorded once:

- the whole verification, `docverify check --runner cpu --no-cache --report`, as one CI job
  runs it today;
- for each N, every shard `docverify check … --shard I/N --report` in turn, each a new process
  as on its own CI machine (start-up, torch import and fork server included), without a
  durations file, as in CI; then `docverify reports merge` of the N reports, whose result must
  equal the whole report (observations, statuses, findings and diffs; only the seconds each
  block took differ between two runs): if not, the benchmark fails;
- the publishing build's engine part (`docverify.build.run` and the site's render, in a new
  process): executing every block, as the `site` job does today, and from the merged reports,
  executing none.

Figures are medians of --repeat runs; shards run one after another on this machine, so each
shard's time is what its own machine would take with this machine's cores.
"""

from __future__ import annotations

import dataclasses
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from docverify.bench.common import Bench, timed
from docverify.bench.corpus import make_corpus
from docverify.report import report_json
from docverify.report.report_json import Report


def comparable(report: Report) -> Report:
    """A report without what differs between two runs of the same code, or exists only in a
    shard's or a merged report: the shard, the merge, the seconds each page and block took, and
    where it was read from (its entries' order is compared apart: a dict's is not)."""
    observations = {
        key: dataclasses.replace(
            entry, result={k: v for k, v in (entry.result or {}).items() if k != "duration"}
        )
        for key, entry in report.observations.items()
    }
    return dataclasses.replace(
        report,
        shard=None,
        merged=None,
        durations=None,
        observations=observations,
        path=Path(),
        sources=(),
        shards="",
    )


def _folder_files(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p != report_json.path_in(folder)
    }


def _check(corpus: Path, out: Path, env: dict[str, str], shard: str | None) -> float:
    args = [sys.executable, "-m", "docverify.cli.main", "check", "--runner", "cpu", "--no-cache"]
    # The shards read no durations file, as in CI; the whole check writes its own elsewhere.
    durations = corpus / ("sin-duraciones.json" if shard else "duraciones.json")
    args += ["--report", str(out), "--durations", str(durations)]
    seconds, _ = timed([*args, *(["--shard", shard] if shard else [])], corpus, env)
    return seconds


def run(bench: Bench, counts: list[int], out: Any = print) -> str:
    """Measure and print the table; return one machine-readable line."""
    corpus = make_corpus(bench.work / "corpus", bench.pages, bench.blocks)
    timed(
        [sys.executable, "-m", "docverify.cli.main", "record", "--runner", "cpu"],
        corpus,
        bench.env(),
    )
    env = bench.env(CI="true")  # as in CI: no cache, nothing recorded
    reports = bench.work / "informes"
    whole: list[float] = []
    shards: dict[int, list[list[float]]] = {n: [] for n in counts}
    merges: dict[int, list[float]] = {n: [] for n in counts}
    for _ in range(bench.repeat):
        whole.append(_check(corpus, reports / "entero", env, None))
        for total in counts:
            shards[total].append(
                [
                    _check(corpus, reports / str(total) / str(i), env, f"{i}/{total}")
                    for i in range(1, total + 1)
                ]
            )
            merged = reports / f"combinado-{total}"
            args = [sys.executable, "-m", "docverify.cli.main", "reports", "merge"]
            seconds, _ = timed(
                [*args, str(reports / str(total)), "--out", str(merged)], corpus, env
            )
            merges[total].append(seconds)
            _same(reports / "entero", merged, total)
    site_run = statistics.median(_site(corpus, env, None) for _ in range(bench.repeat))
    last = reports / f"combinado-{counts[-1]}"
    site_reports = statistics.median(_site(corpus, env, last) for _ in range(bench.repeat))
    m_whole = statistics.median(whole)
    out(
        f"reparto · {bench.pages} páginas × {bench.blocks} bloques · docverify check --runner cpu "
        f"--no-cache, cada parte en un proceso nuevo · verificación entera {m_whole:.1f} s"
    )
    out("| Partes | Segundos de cada parte | La más lenta | Suma | Más lenta ÷ entera | Combinar |")
    out("|---|---|---|---|---|---|")
    line = [f"whole={m_whole:.1f}s"]
    for total in counts:
        each = [statistics.median(run[i] for run in shards[total]) for i in range(total)]
        slowest, merge = max(each), statistics.median(merges[total])
        listed = " + ".join(f"{s:.1f}" for s in each)
        out(
            f"| {total} | {listed} | {slowest:.1f} | {sum(each):.1f} | "
            f"{slowest / m_whole:.2f} | {merge:.1f} s |"
        )
        line.append(f"N{total}={slowest:.1f}s/{slowest / m_whole:.2f}")
    out(
        f"reparto · informes combinados iguales al informe entero (N = "
        f"{', '.join(map(str, counts))}) · construcción del sitio, parte de docverify: "
        f"ejecutando {site_run:.1f} s · desde los informes {site_reports:.1f} s"
    )
    line.append(f"site={site_run:.1f}s/{site_reports:.1f}s")
    return "SHARDS " + " ".join(line)


def _same(whole: Path, merged: Path, total: int) -> None:
    a, b = report_json.read(whole), report_json.read(merged)
    same = comparable(a) == comparable(b) and list(a.observations) == list(b.observations)
    if not same or _folder_files(whole) != _folder_files(merged):
        raise RuntimeError(
            f"el informe combinado de {total} partes ({merged}) no es igual al entero ({whole})"
        )


def _site(corpus: Path, env: dict[str, str], reports: Path | None) -> float:
    args = [sys.executable, "-m", "docverify.bench.sharding", "site", str(corpus)]
    seconds, done = timed([*args, *([str(reports)] if reports else [])], corpus, env)
    data = json.loads(done.stdout.strip().splitlines()[-1])
    if data["errors"]:
        raise RuntimeError(f"la construcción del corpus tuvo {data['errors']} errores")
    if reports is not None and data["executed"]:
        raise RuntimeError(f"la construcción desde informes ejecutó {data['executed']} bloques")
    return seconds


def site(root: Path, reports: Path | None) -> dict[str, Any]:
    """The publishing build's engine part on the project at `root`, in this (new) process."""
    from docverify import build  # noqa: PLC0415
    from docverify.core import config  # noqa: PLC0415
    from docverify.core.request import Request  # noqa: PLC0415
    from docverify.output import render  # noqa: PLC0415
    from docverify.parsing.pages import read_site  # noqa: PLC0415
    from docverify.running import executor  # noqa: PLC0415

    started = time.perf_counter()
    cfg = config.load(root)
    asked = Request(runner="cpu", from_reports=(reports,) if reports else None)
    result = build.run(cfg, read_site(cfg), asked, executor.shared())
    render.site(result)  # what the site generates from it: verification page, notebooks
    return {
        "seconds": time.perf_counter() - started,
        "errors": len(result.errors),
        "executed": executor.blocks_started(),
    }


if __name__ == "__main__" and sys.argv[1:2] == ["site"]:
    print(json.dumps(site(Path(sys.argv[2]), Path(sys.argv[3]) if sys.argv[3:] else None)))
