# The benchmark behind `docverify bench`: measures P1, P2 and P3 and prints ratios, never asserts.
"""Measure the build speed targets on this machine and print them, ending with one line:

    P1=<ratio> P2=<seconds>s/<speed-up>x/<MiB>MiB P3=<blocks re-run>/<ratio>

P1  full strict build of the site (cache off, every block runs) ÷ (build with execution off
    + every block run in one warm process). Target ≤ 1.5. The warm process is the naive design
    this engine must not lose much against: one process that imports torch once (that import
    is timed: the full build pays exactly one too, in its fork server) and then runs every
    block, with no isolation. The ratio without that import is printed as well.
P2  synthetic corpus in a temporary folder (200 pages × 10 blocks of small torch operations),
    recorded once, then verified with `docverify check --no-cache` with 1 and 2 workers:
    seconds with 2 workers, speed-up, peak memory (RSS summed over the process tree; PSS too).
    Targets ≤ 30 s, ≥ 1.6x, ≤ 1536 MiB.
P3  `mkdocs serve`-style rebuild after a prose edit, in one process with the cache on: blocks
    re-run (target 0) and time ÷ the same rebuild with execution off (target ≤ 1.2).

Everything runs on a copy of the site in a temporary folder (the author's docs/, snippets/ and
.cache/ are never touched) and in subprocesses, so every figure includes its own start-up.
Figures are medians of --repeat runs. Only this module measures time; tests never do.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docverify.core import config as config_mod

TARGETS = {
    "P1": 1.5,
    "P2_seconds": 30.0,
    "P2_speedup": 1.6,
    "P2_mib": 1536,
    "P3_blocks": 0,
    "P3_ratio": 1.2,
}
# What a copy of the site needs to build: pages, snippets, hooks, theme overrides, the verified
# texts of the sources' fingerprints, and the configuration.
SITE_PARTS = (
    "docs",
    "snippets",
    "hooks",
    "overrides",
    "fingerprints",
    "mkdocs.yml",
    "pyproject.toml",
)
CORPUS_PYPROJECT = """\
[project]
name = "bench-corpus"
version = "0"

[tool.docverify]
docs_dir = "docs"
snippets_dir = "snippets"
"""
# Small torch operations, a few sharing a session: what a tutorial page does, minus the prose.
CORPUS_BLOCKS = [
    "import torch\nx = torch.arange({n}.0)\nprint(x.sum().item())",
    "import torch\nprint(torch.ones(2, 3).mul({n}).mean().item())",
    "import torch\nw = torch.tensor({n}.0, requires_grad=True)\n(w * w).backward()\n"
    "print(w.grad.item())",
    "import torch\nm = torch.eye(3) * {n}\nprint(torch.linalg.det(m).item())",
    "import torch\nprint(torch.linspace(0, {n}, 5).tolist())",
    "import torch\nprint(torch.stack([torch.zeros(2), torch.full((2,), {n}.0)]).shape)",
    "import torch\nprint(torch.manual_seed(0) is not None, torch.rand(2).shape)",
    "import torch\ny = torch.arange(6.0).reshape(2, 3) + {n}\nprint(y.t().contiguous().sum(0))",
    "import torch\nwith torch.no_grad():\n    print(torch.relu(torch.tensor([-{n}.0, {n}.0])))",
    "import torch\nprint(torch.nn.functional.softmax(torch.tensor([0.0, {n}.0]), 0).sum().item())",
]


@dataclass
class Bench:
    """Where to measure, how often, and what was measured (filled in as it goes)."""

    root: Path
    repeat: int = 3
    pages: int = 200
    blocks: int = 10
    runner: str = "cpu"
    work: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="docverify-bench-")))
    figures: dict[str, Any] = field(default_factory=dict)

    def env(self, **extra: str) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("CI", "DOCVERIFY_CACHE", "DOCVERIFY_EXECUTE")
        }
        return {**env, "NO_MKDOCS_2_WARNING": "1", "DOCVERIFY_RUNNER": self.runner, **extra}


def run(bench: Bench, out: Any = print) -> str:
    """Measure everything, print as it goes, and return the machine-readable line."""
    out(f"docverify bench · {describe_machine()}")
    out(f"repeticiones: {bench.repeat} (se da la mediana) · runner {bench.runner}")
    try:
        isolation(bench, out)
        p1(bench, out)
        p2(bench, out)
        p3(bench, out)
    finally:
        shutil.rmtree(bench.work, ignore_errors=True)
    f = bench.figures
    return (
        f"P1={f['P1']:.2f} P2={f['P2_seconds']:.1f}s/{f['P2_speedup']:.2f}x/"
        f"{f['P2_mib']:.0f}MiB P3={f['P3_blocks']}/{f['P3_ratio']:.2f}"
    )


def describe_machine() -> str:
    cpus = os.cpu_count() or 1
    try:
        model = next(
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        )
    except (OSError, StopIteration):
        model = "CPU desconocida"
    try:
        kib = int(
            next(
                line.split()[1]
                for line in Path("/proc/meminfo").read_text().splitlines()
                if line.startswith("MemTotal")
            )
        )
        memory = f"{kib / 1024 / 1024:.0f} GiB de RAM"
    except (OSError, StopIteration):
        memory = "RAM desconocida"
    return (
        f"{cpus} núcleos ({model}) · {memory} · Python {sys.version.split()[0]} · "
        f"torch {_version('torch')}"
    )


def _version(package: str) -> str:
    from docverify.verifying.cache import _version as version  # noqa: PLC0415

    return version(package)


def _verdict(value: float, target: float, lower_is_better: bool = True) -> str:
    ok = value <= target if lower_is_better else value >= target
    return f"{'✓' if ok else '✗'} (objetivo {'≤' if lower_is_better else '≥'} {target:g})"


def isolation(bench: Bench, out: Any) -> None:
    """What page isolation costs per page: fork from the warm server vs a fresh interpreter."""
    from docverify.core import policies  # noqa: PLC0415
    from docverify.running.executor import Executor, PageJob  # noqa: PLC0415

    def page(n: int) -> PageJob:
        return PageJob(
            f"p{n}",
            bench.runner,
            [
                {
                    "key": f"p{n}/b",
                    "code": "import torch\nprint(torch.ones(2).sum())\n",
                    "filename": "bench.py",
                    "first_line": 1,
                    "session": None,
                    "timeout": 120,
                    "output_limit": 10000,
                    "seed": 0,
                    "device_policy": policies.DEFAULT_CUDA,
                    "show_last_value": False,
                }
            ],
        )

    executor = Executor(1)
    executor.run([page(-1)])  # warm-up: the fork server imports torch once, a worker starts
    count = 20
    started = time.perf_counter()
    results = executor.run([page(n) for n in range(count)])
    costs = {"forkserver": (time.perf_counter() - started) / count}
    assert all(r["output"] == "tensor(2.)\n" for r in results.values()), results
    # The alternative: a fresh interpreter per page, which must import torch again.
    fresh = [sys.executable, "-c", "import docverify.running.child"]
    started = time.perf_counter()
    for _ in range(3):
        subprocess.run(fresh, check=True, capture_output=True)
    costs["spawn"] = (time.perf_counter() - started) / 3
    bench.figures["fork_ms"] = costs["forkserver"] * 1000
    bench.figures["spawn_ms"] = costs["spawn"] * 1000
    out(
        f"aislamiento por página: fork desde el servidor caliente {costs['forkserver'] * 1000:.0f}"
        f" ms · intérprete nuevo (spawn, importa torch) {costs['spawn'] * 1000:.0f} ms"
    )


def copy_site(root: Path, dest: Path) -> Path:
    """Copy what the site needs to build (SITE_PARTS) from `root` into a new folder `dest`."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in SITE_PARTS:
        source = root / name
        if source.is_dir():
            shutil.copytree(
                source, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
            )
        else:
            shutil.copy2(source, dest / name)
    return dest


def _timed(
    args: list[str], cwd: Path, env: dict[str, str], expect_ok: bool = True
) -> tuple[float, subprocess.CompletedProcess[str]]:
    started = time.perf_counter()
    done = subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, check=False, timeout=1800
    )
    seconds = time.perf_counter() - started
    if expect_ok and done.returncode != 0:
        raise RuntimeError(
            f"falló «{' '.join(args)}» en {cwd} (código {done.returncode}):\n"
            f"{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
        )
    return seconds, done


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
    full, off, warm = [], [], []
    blocks = 0
    for n in range(bench.repeat):
        seconds, _ = _timed(
            _mkdocs(site, bench.work / f"p1-full-{n}", strict=True),
            site,
            bench.env(DOCVERIFY_CACHE="0"),
        )
        full.append(seconds)
        # Execution off never passes (its own error fails the build): time it, expect that error.
        seconds, done = _timed(
            _mkdocs(site, bench.work / f"p1-off-{n}", strict=False),
            site,
            bench.env(DOCVERIFY_EXECUTE="0", DOCVERIFY_CACHE="0"),
            expect_ok=False,
        )
        if "1 error de verificación: ejecucion-desactivada" not in done.stdout:
            raise RuntimeError(
                f"el build sin ejecución falló por otra causa:\n{done.stderr[-4000:]}"
            )
        off.append(seconds)
        _, done = _timed(
            [sys.executable, "-m", "docverify.bench.measure", "warm", str(site), bench.runner],
            site,
            bench.env(),
        )
        data = json.loads(done.stdout.strip().splitlines()[-1])
        warm.append((data["import"], data["seconds"]))
        blocks = data["blocks"]
    m_full, m_off = statistics.median(full), statistics.median(off)
    m_import = statistics.median(w[0] for w in warm)
    m_blocks = statistics.median(w[1] for w in warm)
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
        f" → {ratio:.2f} {_verdict(ratio, TARGETS['P1'])} (sin contar la importación: "
        f"{m_full / (m_off + m_blocks):.2f})"
    )


def make_corpus(dest: Path, pages: int, blocks: int) -> Path:
    """A throwaway docverify project: `pages` pages of `blocks` small torch blocks each."""
    (dest / "docs").mkdir(parents=True)
    (dest / "snippets").mkdir()
    (dest / "pyproject.toml").write_text(CORPUS_PYPROJECT, encoding="utf-8")
    for p in range(pages):
        parts = [f"# Página {p}\n"]
        for b in range(blocks):
            code = CORPUS_BLOCKS[b % len(CORPUS_BLOCKS)].format(n=(p + b) % 7 + 1)
            session = ' session="s"' if b % 5 in (1, 2) else ""
            if b % 5 == 2:  # reads what the previous block of the session defined
                code = "print(type(torch).__name__)\n" + code
            parts.append(f'Texto {b}.\n\n```python exec="on" id="b{b}"{session}\n{code}\n```\n')
        (dest / "docs" / f"p{p:03d}.md").write_text("\n".join(parts), encoding="utf-8")
    return dest


class PeakMemory:
    """Samples RSS and PSS summed over a process and all its descendants, from /proc.

    Each sample walks /proc and every process's page tables (smaps_rollup): at 20 Hz that took
    a noticeable share of the 2 cores it was timing, so it samples at 5 Hz; the peak is the
    steady state of the fork server and its workers, which lasts the whole run.
    """

    def __init__(self, pid: int, interval: float = 0.2) -> None:
        self.pid, self.interval = pid, interval
        self.rss = self.pss = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def __enter__(self) -> PeakMemory:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def _loop(self) -> None:
        while not self._stop.is_set():
            rss, pss = tree_memory(self.pid)
            self.rss, self.pss = max(self.rss, rss), max(self.pss, pss)
            self._stop.wait(self.interval)


def tree_memory(root: int) -> tuple[int, int]:
    """(RSS, PSS) in bytes of `root` and its descendants. RSS counts shared pages once per
    process (pessimistic for forked children); PSS splits them (what the tree really uses)."""
    children: dict[int, list[int]] = defaultdict(list)
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                stat = Path(f"/proc/{entry.name}/stat").read_text()
            except OSError:
                continue
            children[int(stat.rsplit(")", 1)[1].split()[1])].append(int(entry.name))
    pids, rss, pss = [root], 0, 0
    for pid in pids:
        pids.extend(children.get(pid, []))
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Rss:"):
                    rss += int(line.split()[1]) * 1024
                elif line.startswith("Pss:"):
                    pss += int(line.split()[1]) * 1024
        except OSError:
            continue
    return rss, pss


def _check_corpus(corpus: Path, workers: int, env: dict[str, str]) -> tuple[float, int, int]:
    args = [
        sys.executable,
        "-m",
        "docverify.cli.main",
        "check",
        "--runner",
        "cpu",
        "--no-cache",
        "--workers",
        str(workers),
    ]
    started = time.perf_counter()
    process = subprocess.Popen(
        args, cwd=corpus, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    with PeakMemory(process.pid) as memory:
        stdout, stderr = process.communicate(timeout=1800)
    seconds = time.perf_counter() - started
    if process.returncode != 0:
        raise RuntimeError(
            f"docverify check falló en el corpus sintético:\n{stdout[-2000:]}\n{stderr[-4000:]}"
        )
    return seconds, memory.rss, memory.pss


def p2(bench: Bench, out: Any) -> None:
    corpus = make_corpus(bench.work / "corpus", bench.pages, bench.blocks)
    env = bench.env()
    _timed([sys.executable, "-m", "docverify.cli.main", "record", "--runner", "cpu"], corpus, env)
    times: dict[int, list[float]] = {1: [], 2: []}
    rss = pss = 0
    for _ in range(bench.repeat):
        for workers in (1, 2):
            seconds, peak_rss, peak_pss = _check_corpus(corpus, workers, env)
            times[workers].append(seconds)
            if workers == 2:
                rss, pss = max(rss, peak_rss), max(pss, peak_pss)
    one, two = statistics.median(times[1]), statistics.median(times[2])
    speedup = one / two
    mib = rss / 2**20
    bench.figures.update(
        P2_seconds=two, P2_speedup=speedup, P2_mib=mib, p2_one=one, p2_pss_mib=pss / 2**20
    )
    total = bench.pages * bench.blocks
    out(
        f"P2 · {bench.pages} páginas × {bench.blocks} bloques ({total}): 1 worker {one:.1f} s · "
        f"2 workers {two:.1f} s {_verdict(two, TARGETS['P2_seconds'])} · aceleración "
        f"{speedup:.2f}x {_verdict(speedup, TARGETS['P2_speedup'], lower_is_better=False)} · "
        f"pico RSS {mib:.0f} MiB {_verdict(mib, TARGETS['P2_mib'])} (PSS {pss / 2**20:.0f} MiB)"
    )


def p3(bench: Bench, out: Any) -> None:
    site = copy_site(bench.root, bench.work / "p3")
    pages = sorted((site / "docs").rglob("*.md"))
    page = next((p for p in pages if "```python" in p.read_text(encoding="utf-8")), pages[0])
    # Rebuilds take a fraction of a second: five pairs per repetition steady the medians.
    _, done = _timed(
        [
            sys.executable,
            str(site / "hooks" / "serve_rebuild.py"),
            str(site),
            str(5 * bench.repeat),
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
        f"{blocks} bloques re-ejecutados {_verdict(blocks, TARGETS['P3_blocks'])} "
        f"(la primera construcción ejecutó {data['warmup_blocks'][0]}) · con caché "
        f"{cached:.2f} s · sin ejecución {off:.2f} s → {ratio:.2f} "
        f"{_verdict(ratio, TARGETS['P3_ratio'])}"
    )


def warm(root: Path, runner: str) -> dict[str, float]:
    """Import torch once, then run every block of a site in this one process: P1's baseline."""
    from docverify.parsing.pages import read_site  # noqa: PLC0415
    from docverify.verifying.specs import spec  # noqa: PLC0415

    cfg = config_mod.load(root)
    pages = read_site(cfg)
    jobs = [[spec(cfg, b) for b in p.blocks if b.runs_on(runner)] for p in pages]
    os.chdir(tempfile.mkdtemp(prefix="docverify-warm-"))
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
