"""The ceiling probe of `docverify bench`: it really runs every block of every page; no timings."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import time
from multiprocessing.connection import Connection
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from docverify import running
from docverify.bench import ceiling
from docverify.bench.corpus import make_corpus
from docverify.running import protocol


def _probe(corpus: Path, scratch: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The probe run on `corpus`, with `scratch` as its temporary folder when given."""
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    return subprocess.run(
        [sys.executable, "-m", "docverify.bench.ceiling", str(corpus), "cpu"],
        cwd=corpus,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        env=env | ({"TMPDIR": str(scratch)} if scratch else {}),
    )


def test_the_probe_forks_every_page_and_runs_every_block(tmp_path: Path) -> None:
    corpus = make_corpus(tmp_path / "corpus", pages=3, blocks=4)
    done = _probe(corpus)
    assert done.returncode == 0, done.stderr
    spans = json.loads(done.stdout.strip().splitlines()[-1])
    assert spans["blocks"] == 3 * 4  # each probe checks it ran them all, or fails
    assert spans["alone"] > 0 and spans["together"] > 0


def test_a_probe_whose_blocks_fail_to_report_is_an_error(tmp_path: Path) -> None:
    corpus = make_corpus(tmp_path / "corpus", pages=2, blocks=2)
    page = corpus / "docs" / "p000.md"
    # A block that ends its page process: its page reports fewer blocks than it has.
    page.write_text(
        page.read_text(encoding="utf-8").replace(
            "import torch\n", "import os, torch\nos._exit(0)\n", 1
        ),
        encoding="utf-8",
    )
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    done = _probe(corpus, scratch)
    assert done.returncode != 0
    assert "la sonda del techo ejecutó" in done.stderr  # the probe's own reason
    assert list(scratch.iterdir()) == []  # the page's working folder too, as the engine's worker
    assert "falló 1 de 1 sondas del techo" in done.stderr  # the first measure stops the run


# --- In this process: the probe's subprocess, its forks and its page processes stood in --------


def test_the_measure_runs_the_probe_module_and_reads_its_last_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []

    def run(args: list[str], **kwargs: Any) -> SimpleNamespace:
        calls.append((args, kwargs))
        return SimpleNamespace(
            returncode=0,
            stdout='importando\ncalentando\n{"alone": 2.5, "together": 3.0, "blocks": 4}\n',
        )

    monkeypatch.setattr(ceiling, "subprocess", SimpleNamespace(run=run))
    assert ceiling.measure(tmp_path, {"A": "1"}) == (2.5, 3.0)
    assert calls == [
        (
            [sys.executable, "-m", "docverify.bench.ceiling", str(tmp_path), "cpu"],
            {
                "cwd": tmp_path,
                "env": {"A": "1"},
                "capture_output": True,
                "text": True,
                "check": False,
                "timeout": 3600,
            },
        )
    ]


def test_a_failed_probe_process_is_an_error_with_the_end_of_its_stderr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    done = SimpleNamespace(returncode=1, stdout="", stderr="a" + "b" * 4000)
    monkeypatch.setattr(ceiling, "subprocess", SimpleNamespace(run=lambda *_, **__: done))
    with pytest.raises(RuntimeError) as raised:
        ceiling.measure(tmp_path, {})
    assert str(raised.value) == "la sonda del techo falló:\n" + "b" * 4000


def test_main_warms_up_once_then_times_one_probe_and_two(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = make_corpus(tmp_path / "corpus", pages=2, blocks=3)
    page = corpus / "docs" / "p001.md"
    gpu = '\n```python exec="on" id="g" runner="gpu" reason="usa CUDA"\nprint(1)\n```\n'
    page.write_text(page.read_text(encoding="utf-8") + gpu, encoding="utf-8")
    events: list[Any] = []
    # The warm-up imports torch: a stand-in module, found before the real one is imported.
    monkeypatch.setitem(
        sys.modules,
        "docverify.running.warm",
        SimpleNamespace(warm_up=lambda: events.append("warm")),
    )
    monkeypatch.delattr(running, "warm", raising=False)

    def together(jobs: list[dict[str, Any]], count: int) -> float:
        events.append((count, [(j["runner"], [s["key"] for s in j["blocks"]]) for j in jobs]))
        return {1: 4.0, 2: 5.0}[count]

    monkeypatch.setattr(ceiling, "_together", together)
    pages = [
        ("cpu", ["p000/b0", "p000/b1", "p000/b2"]),
        ("cpu", ["p001/b0", "p001/b1", "p001/b2"]),
    ]
    assert ceiling.main(corpus, "cpu") == {"alone": 4.0, "together": 5.0, "blocks": 6}
    assert events == ["warm", (1, pages), (2, pages)]
    events.clear()  # the runner's own blocks: a gpu run has one more
    pages = [
        ("gpu", ["p000/b0", "p000/b1", "p000/b2"]),
        ("gpu", ["p001/b0", "p001/b1", "p001/b2", "p001/g"]),
    ]
    assert ceiling.main(corpus, "gpu") == {"alone": 4.0, "together": 5.0, "blocks": 7}
    assert events == ["warm", (1, pages), (2, pages)]


def _counting_probe(counter: Path, fail: tuple[int, ...] = ()) -> Any:
    """A probe for `_together`'s forks: the n-th to start (n from a locked counter file) spans
    10·n + 1 to 10·n + 5; those numbered in `fail` raise, and so does one that runs in the
    test's own process (it would end it)."""
    test_process = os.getpid()

    def probe(jobs: list[dict[str, Any]]) -> dict[str, float]:
        if os.getpid() == test_process:
            raise RuntimeError("la sonda corre en el proceso de la prueba")
        fd = os.open(counter, os.O_RDWR | os.O_CREAT)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            n = os.fstat(fd).st_size
            os.pwrite(fd, b"x", n)
        finally:
            os.close(fd)
        if jobs != [{"runner": "cpu", "blocks": []}] or n in fail:
            raise RuntimeError(f"sonda {n}")
        return {"start": 10.0 * n + 1, "end": 10.0 * n + 5}

    return probe


def test_the_probes_span_from_the_first_start_to_the_last_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    counter = tmp_path / "contador"
    monkeypatch.setattr(ceiling, "probe", _counting_probe(counter))
    jobs = [{"runner": "cpu", "blocks": []}]
    assert ceiling._together(jobs, 2) == 15.0 - 1.0
    assert counter.read_bytes() == b"xx"  # each probe ran once
    assert ceiling._together(jobs, 1) == 25.0 - 21.0
    assert counter.read_bytes() == b"xxx"


def test_a_probe_that_fails_fails_the_measure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(ceiling, "probe", _counting_probe(tmp_path / "contador", fail=(1,)))
    with pytest.raises(RuntimeError) as raised:
        ceiling._together([{"runner": "cpu", "blocks": []}], 2)
    assert str(raised.value) == "falló 1 de 2 sondas del techo (ver arriba)"
    assert "RuntimeError: sonda 1" in capfd.readouterr().err  # its traceback, on stderr
    monkeypatch.setattr(ceiling, "probe", _counting_probe(tmp_path / "otro", fail=(0, 1)))
    with pytest.raises(RuntimeError) as raised:
        ceiling._together([{"runner": "cpu", "blocks": []}], 2)
    assert str(raised.value) == "falló 2 de 2 sondas del techo (ver arriba)"


class _Pages:
    """worker.fork_page and worker.still_running stood in: each page is a process that ends at
    once and a pipe already holding the messages `script` gives for its job."""

    def __init__(self, tmp_path: Path, script: Any, linger: float) -> None:
        self.tmp_path, self.script, self.linger = tmp_path, script, linger
        self.pids: list[int] = []
        self.polled: list[list[int]] = []
        self.folders: list[Path] = []

    def fork_page(self, job: dict[str, Any]) -> tuple[int, int, str]:
        pid = os.fork()
        if pid == 0:
            time.sleep(self.linger)  # still running when the probe ends: reaped by waiting
            os._exit(0)
        self.pids.append(pid)
        folder = self.tmp_path / f"page-{len(self.pids)}"
        messages, exists = self.script(job)
        if exists:
            folder.mkdir()
        self.folders.append(folder)
        read_fd, write_fd = os.pipe()
        with Connection(write_fd, readable=False) as out:
            for message in messages:
                out.send(message)
        return pid, read_fd, str(folder)

    def still_running(self, pids: list[int]) -> list[int]:
        self.polled.append(list(pids))
        for pid in pids[:1]:  # the oldest has ended: reaped here; the rest at the probe's end
            os.waitpid(pid, 0)
        return pids[1:]


def _page(job: dict[str, Any], end: bool = True) -> list[tuple[Any, ...]]:
    messages: list[tuple[Any, ...]] = [(protocol.PID, 1)]
    for spec in job["blocks"]:
        messages += [(protocol.START, spec), (protocol.DONE, {"output": ""})]
    return [*messages, (protocol.END,)] if end else messages


def _probe_with(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    script: Any,
    jobs: list[dict[str, Any]],
    linger: float = 0.0,
) -> tuple[_Pages, Any]:
    pages = _Pages(tmp_path, script, linger)
    monkeypatch.setattr(
        ceiling,
        "worker",
        SimpleNamespace(fork_page=pages.fork_page, still_running=pages.still_running),
    )
    ticks = iter([100.0, 107.5])
    monkeypatch.setattr(ceiling, "time", SimpleNamespace(monotonic=lambda: next(ticks)))
    try:
        return pages, ceiling.probe(jobs)
    except RuntimeError as error:
        return pages, error


JOBS = [
    {"runner": "cpu", "blocks": [{"key": "a/1"}, {"key": "a/2"}]},
    {"runner": "cpu", "blocks": [{"key": "b/1"}]},
    {"runner": "cpu", "blocks": [{"key": "c/1"}, {"key": "c/2"}, {"key": "c/3"}]},
]


def _reaped(pid: int) -> bool:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def test_a_probe_forks_each_page_in_turn_and_counts_its_blocks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pages, span = _probe_with(
        tmp_path, monkeypatch, lambda job: (_page(job), True), JOBS, linger=0.05
    )
    assert span == {"start": 100.0, "end": 107.5, "blocks": 6}
    first, second, _ = pages.pids
    # Before each fork, the pages that ended are reaped without waiting (here: the oldest).
    assert pages.polled == [[], [first], [second]]
    assert all(_reaped(pid) for pid in pages.pids)  # the rest, once the probe's time is taken
    assert all(folder.is_dir() for folder in pages.folders)  # a page that ended removes its own


def test_a_page_that_did_not_end_has_its_folder_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def script(job: dict[str, Any]) -> tuple[list[tuple[Any, ...]], bool]:
        first = job["blocks"][0]["key"]
        # Neither b nor c ended; c's folder is already gone: removing it is no error.
        return _page(job, end=first == "a/1"), first != "c/1"

    pages, span = _probe_with(tmp_path, monkeypatch, script, JOBS[:2])
    assert span == {"start": 100.0, "end": 107.5, "blocks": 3}
    assert [folder.is_dir() for folder in pages.folders] == [True, False]
    pages, span = _probe_with(tmp_path / "c", monkeypatch, script, JOBS[2:])
    assert span == {"start": 100.0, "end": 107.5, "blocks": 3}


def test_a_probe_that_ran_fewer_blocks_than_its_pages_have_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def script(job: dict[str, Any]) -> tuple[list[tuple[Any, ...]], bool]:
        return _page({"blocks": job["blocks"][:1]}, end=False), True

    pages, error = _probe_with(tmp_path, monkeypatch, script, JOBS)
    assert str(error) == "la sonda del techo ejecutó 3 de 6 bloques"
    assert all(_reaped(pid) for pid in pages.pids)
    assert [folder.is_dir() for folder in pages.folders] == [False, False, False]
