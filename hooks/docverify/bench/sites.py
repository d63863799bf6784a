"""P1 and P3: builds of a copy of the real site, and the warm single process P1 compares with."""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from docverify.bench.common import TARGETS, Bench, timed, verdict
from docverify.bench.corpus import copy_site, page_specs
from docverify.core.kinds import Kind


def _mkdocs(site: Path, out_dir: Path, *, strict: bool) -> list[str]:
    args = [
        sys.executable,
        "-m",
        "mkdocs",
        "build",
        "-q",
        "-f",
        str(site / "mkdocs.yml"),
        "-d",
        str(out_dir),
    ]
    return [*args, "--strict"] if strict else args


def p1(bench: Bench, out: Any) -> None:
    site = copy_site(bench.root, bench.work / "p1")
    full, off, warm_runs = [], [], []
    blocks = 0  # pragma: no mutate; equivalent: each repetition sets it; with none, medians fail
    for n in range(bench.repeat):
        seconds, _ = timed(
            _mkdocs(site, bench.work / f"p1-full-{n}", strict=True),
            site,
            bench.env(DOCVERIFY_CACHE="0"),
        )
        full.append(seconds)
        # Execution off never passes (its own error fails the build): time it, expect that error.
        seconds, done = timed(
            _mkdocs(site, bench.work / f"p1-off-{n}", strict=False),
            site,
            bench.env(DOCVERIFY_EXECUTE="0", DOCVERIFY_CACHE="0"),
            expect_ok=False,
        )
        if f"1 error de verificación: {Kind.EXECUTION_DISABLED.label}" not in done.stdout:
            raise RuntimeError(
                f"el build sin ejecución falló por otra causa:\n{done.stderr[-4000:]}"
            )
        off.append(seconds)
        _, done = timed(
            [sys.executable, "-m", "docverify.bench.sites", "warm", str(site), bench.runner],
            site,
            bench.env(),
        )
        data = json.loads(done.stdout.strip().splitlines()[-1])
        warm_runs.append((data["import"], data["seconds"]))
        blocks = data["blocks"]
    m_full, m_off = statistics.median(full), statistics.median(off)
    m_import = statistics.median(w[0] for w in warm_runs)
    m_blocks = statistics.median(w[1] for w in warm_runs)
    ratio = m_full / (m_off + m_import + m_blocks)
    bench.figures.update(
        P1=ratio,
        p1_full=m_full,
        p1_off=m_off,
        p1_import=m_import,
        p1_blocks=m_blocks,
        p1_without_import=m_full / (m_off + m_blocks),
    )
    out(
        f"P1 · build --strict completo {m_full:.2f} s · build sin ejecución {m_off:.2f} s · "
        f"proceso caliente: importar torch {m_import:.2f} s + {blocks} bloques {m_blocks:.2f} s"
        f" → {ratio:.2f} {verdict(ratio, TARGETS['P1'])} (sin contar la importación: "
        f"{m_full / (m_off + m_blocks):.2f})"
    )


def p3(bench: Bench, out: Any) -> None:
    site = copy_site(bench.root, bench.work / "p3")
    pages = sorted((site / "docs").rglob("*.md"))
    page = next((p for p in pages if "```python" in p.read_text(encoding="utf-8")), pages[0])
    # Rebuilds take a fraction of a second: five pairs per repetition steady the medians. Even
    # a smoke run makes two, so that a cached rebuild follows one with execution off.
    pairs = max(2, bench.count(5) * bench.repeat)
    _, done = timed(
        [
            sys.executable,
            str(site / "hooks" / "serve_rebuild.py"),
            str(site),
            str(pairs),
            str(page),
        ],
        site,
        bench.env(),
    )
    data = json.loads(done.stdout.strip().splitlines()[-1])
    cached, off = statistics.median(data["cached"]), statistics.median(data["off"])
    blocks = max(data["blocks"])
    ratio = cached / off
    bench.figures.update(P3_blocks=blocks, P3_ratio=ratio, p3_cached=cached, p3_off=off)
    out(
        f"P3 · reconstrucción tras editar prosa de {page.relative_to(site).as_posix()}: "
        f"{blocks} bloques re-ejecutados {verdict(blocks, TARGETS['P3_blocks'])} "
        f"(la primera construcción ejecutó {data['warmup_blocks'][0]}) · con caché "
        f"{cached:.2f} s · sin ejecución {off:.2f} s → {ratio:.2f} "
        f"{verdict(ratio, TARGETS['P3_ratio'])}"
    )


def warm(root: Path, runner: str) -> dict[str, float]:
    """Import torch once, then run every block of a site in this one process: P1's baseline."""
    jobs = page_specs(root, runner)
    with tempfile.TemporaryDirectory(prefix="docverify-warm-") as folder:
        os.chdir(folder)
        try:
            return _warm(jobs)
        finally:
            os.chdir(root)


def _warm(jobs: list[list[dict[str, Any]]]) -> dict[str, float]:
    started = time.perf_counter()
    from docverify.running import child  # noqa: PLC0415 - imports torch: this process is the warm one

    imported = time.perf_counter() - started
    started = time.perf_counter()
    for specs in jobs:
        sessions: dict[str, dict[str, Any]] = {}
        for block in specs:
            namespace = sessions.setdefault(block["session"], {}) if block["session"] else {}
            child.run_block(block, namespace)
    return {
        "import": imported,
        "seconds": time.perf_counter() - started,
        "blocks": sum(len(j) for j in jobs),
    }


if __name__ == "__main__" and sys.argv[1:2] == ["warm"]:
    print(json.dumps(warm(Path(sys.argv[2]), sys.argv[3])))
