"""String hashing fixed for the processes that run blocks: hash_seed of [tool.docverify].

A set of strings is iterated in the order of their hashes, and Python salts them with a secret
drawn when the interpreter starts: every page process must be a fork of a fork server that
started with PYTHONHASHSEED=hash_seed. What a block sees is compared with what a fresh
interpreter started with that value computes.
"""

from __future__ import annotations

import os
import subprocess
import sys
from multiprocessing import Pipe
from pathlib import Path

from conftest import PYPROJECT, Project
from docverify.core import hashing
from docverify.parsing.pages import read_site
from docverify.running import child
from docverify.running.executor import Executor, PageJob
from docverify.running.specs import setup_text, spec
from docverify.verifying.cache import Cache
from support.blocks import block
from support.blocks import spec as bare_spec
from support.hashing import fresh_hash

CODE = 'import os\nprint(hash("docverify"), os.environ.get("PYTHONHASHSEED"))\n'


def with_hash_seed(project: Project, seed: int | None) -> Project:
    extra = f"hash_seed = {seed}\n" if seed is not None else ""
    (project.root / "pyproject.toml").write_text(PYPROJECT + extra, encoding="utf-8")
    project.page("a.md", block(CODE, "hash"))
    return project


def printed(project: Project, executor: Executor) -> str:
    cfg = project.config
    [page] = read_site(cfg)
    jobs = [PageJob(page.rel, "cpu", [spec(cfg, b) for b in page.blocks])]
    [result] = executor.run(jobs).values()
    assert result["error"] is None, result
    return result["output"].strip()


def test_blocks_hash_strings_as_an_interpreter_started_with_the_setting(
    tmp_path, executor: Executor
) -> None:
    """Another hash_seed than the one the process's fork server runs with starts a new server
    (a fork keeps its parent's secret); back to the default, its blocks hash as before."""
    chosen = with_hash_seed(Project(tmp_path / "elegida"), 12345)
    assert printed(chosen, executor) == f"{fresh_hash(12345)} 12345"
    default = with_hash_seed(Project(tmp_path / "por-defecto"), None)
    assert default.config.hash_seed == 0
    assert printed(default, executor) == f"{fresh_hash(0)} 0"


def test_a_page_process_that_did_not_start_with_the_seed_runs_nothing(tmp_path) -> None:
    """The page process itself checks: a block whose seed is not the one its interpreter
    started with fails, saying so, instead of printing an order that changes run to run."""
    other = (int(hashing.STARTED_WITH or 0) + 1) % hashing.MAXIMUM
    receiver, sender = Pipe(duplex=False)
    here = Path.cwd()
    try:
        child.run_page(
            sender, {"runner": "cpu", "blocks": [bare_spec("print(1)", hash_seed=other)]}
        )
    finally:
        os.chdir(here)
    messages = []
    while receiver.poll(1):
        try:
            messages.append(receiver.recv())
        except EOFError:
            break
    [result] = [m[2] for m in messages if m[0] == "done"]
    assert result["output"] == "" and result.get("engine") is True
    assert f"PYTHONHASHSEED={other}" in result["error"], result["error"]
    assert "no se ejecutó" in result["error"]


def test_the_seed_is_part_of_the_cache_key_and_of_the_setup(project: Project) -> None:
    """A result observed with one hash_seed is never served for another, and a report made
    with another is stale (its setup digest differs)."""
    with_hash_seed(project, 3)
    [page] = read_site(project.config)
    three = spec(project.config, page.blocks[0])
    with_hash_seed(project, 4)
    four = spec(project.config, page.blocks[0])
    assert three["hash_seed"] == 3 and four["hash_seed"] == 4
    cache = Cache(project.root / "cache")
    assert cache.key(PageJob(page.rel, "cpu", [three])) != cache.key(
        PageJob(page.rel, "cpu", [four])
    )
    assert '"hash_seed": 4' in setup_text(project.config, page.blocks[0])


# Two executors in one process: the first keeps an idle worker forked from the fork server of
# one seed while the second needs another. multiprocessing's own stop waits for the server,
# which lives while any process forked from it does: that wait never ended.
TWO_EXECUTORS = """
from docverify.running.executor import Executor, PageJob
from support.blocks import spec

first, second = Executor(workers=1), Executor(workers=1)
for executor, seed in ((first, 0), (second, 5), (first, 0)):
    job = PageJob("p.md", "cpu", [spec("print(hash('docverify'))", hash_seed=seed)])
    [result] = executor.run([job]).values()
    assert result["error"] is None, result
    print(seed, result["output"].strip())
"""


def test_another_seed_while_another_executor_keeps_an_idle_worker() -> None:
    tests = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, "-c", TWO_EXECUTORS],
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(tests), *sys.path])},
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[:3] == [
        f"0 {fresh_hash(0)}",
        f"5 {fresh_hash(5)}",
        f"0 {fresh_hash(0)}",
    ]
