"""The local result cache: each part of the key invalidates; bad or missing files are rebuilt."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import docverify
import pytest
from conftest import NEW_PAGE, Project, mkdocs_build
from conftest import docverify as docverify_command
from docverify import build
from docverify.cli.main import main as cli_main
from docverify.core import config as config_mod
from docverify.core import request
from docverify.core.request import CacheUse
from docverify.parsing.pages import read_site
from docverify.running import executor as executor_mod
from docverify.running.executor import Executor, PageJob
from docverify.running.specs import spec
from docverify.verifying import cache as cache_mod
from docverify.verifying.cache import Cache
from docverify.verifying.verify import execute

PAGE_A = """\
# A

Un párrafo de prosa.

```python exec="on" id="primero" session="s"
import torch
x = torch.arange(3.0)
print(x)
```

```python exec="on" id="segundo" session="s"
print(x * 2)
```

```python exec="on" id="incluido"
--8<-- "a/incluido.py"
```
"""

PAGE_B = """\
# B

```python exec="on" id="solo"
print(sum(range(4)))
```
"""


@pytest.fixture
def site(project: Project) -> Project:
    project.page("a.md", PAGE_A)
    project.page("b.md", PAGE_B)
    project.snippet("a/incluido.py", "print('incluido', 1)\n")
    return project


def run(
    project: Project,
    executor: Executor,
    cache: Cache,
) -> tuple[dict[str, dict], list[str]]:
    """Execute the whole project through the cache; return results and the pages that ran."""
    before = dict(executor.__dict__)
    stored: list[str] = []
    real_store = cache.store

    def store(job: PageJob, results: dict, env: dict, raises: dict | None = None) -> bool:
        stored.append(job.page)
        return real_store(job, results, env, raises)

    cache.store = store  # type: ignore[method-assign]
    results, _ = execute(project.config, read_site(project.config), "cpu", executor, cache)
    assert executor.workers == before["workers"]
    return results, stored


def fresh(project: Project) -> Cache:
    return Cache.for_config(project.config)


def test_second_run_comes_from_the_cache(site: Project, executor: Executor) -> None:
    results, ran = run(site, executor, fresh(site))
    assert ran == ["a.md", "b.md"]
    assert results["a/segundo"]["output"] == "tensor([0., 2., 4.])\n"
    assert (site.root / ".cache/docverify/cpu/a.md.json").is_file()
    started = executor.executed
    cache = fresh(site)
    again, ran = run(site, executor, cache)
    assert ran == [] and executor.executed == started  # no block really ran
    assert (cache.hits, cache.misses, cache.rejected) == (4, 0, 0)
    assert {k: r["output"] for k, r in again.items()} == {
        k: r["output"] for k, r in results.items()
    }
    assert all(r["cached"] for r in again.values())


EVERY_KIND = """\
# Todos los tipos de bloque

```python exec="on" id="error" raises="ValueError: mal"
print("antes")
raise ValueError("mal")
```

```python exec="on" id="aviso"
import warnings
warnings.warn("cuidado")
print("después del aviso")
```

```python exec="on" id="estado" session="g"
import torch
x = torch.ones(2, requires_grad=True)
y = (x * 3).sum()
```

```python exec="on" id="grafo" session="g" graph="y"
print(type(y.grad_fn).__name__)
```

```python exec="on" id="valor" last_value="show" device_policy="as-written"
1 + 1
```
"""


def test_every_kind_of_block_is_cached(project: Project, executor: Executor) -> None:
    """An expected exception, a warning, a session, a graph, a shown last value: each page runs
    once, and a second run of the site takes every block from the cache."""
    project.page("todos.md", EVERY_KIND)
    first, ran = run(project, executor, fresh(project))
    assert ran == ["todos.md"], ran
    assert "ValueError: mal" in first["todos/error"]["exception"], first["todos/error"]
    started = executor.executed
    cache = fresh(project)
    again, ran = run(project, executor, cache)
    assert ran == [] and executor.executed == started  # no block really ran
    assert (cache.hits, cache.misses, cache.rejected) == (len(first), 0, 0)
    assert again.keys() == first.keys() and all(r["cached"] for r in again.values())


def test_a_prose_edit_reruns_nothing(site: Project, executor: Executor) -> None:
    run(site, executor, fresh(site))
    page = site.root / "docs/a.md"
    page.write_text(page.read_text().replace("Un párrafo", "Otro párrafo más largo"))
    _, ran = run(site, executor, fresh(site))
    assert ran == []


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.mark.parametrize(
    ("file", "old", "new", "reruns", "changed"),
    [
        # the block's code
        ("docs/a.md", "print(x * 2)", "print(x * 3)", ["a.md"], {"a/segundo"}),
        # a file the block includes
        ("snippets/a/incluido.py", "1)", "2)", ["a.md"], {"a/incluido"}),
        # an earlier block of the session: the later block sees the new state
        ("docs/a.md", "arange(3.0)", "arange(4.0)", ["a.md"], {"a/primero", "a/segundo"}),
        # another page: a.md is kept
        ("docs/b.md", "range(4)", "range(5)", ["b.md"], {"b/solo"}),
    ],
)
def test_a_code_edit_reruns_its_page_only(
    site: Project,
    executor: Executor,
    *,
    file: str,
    old: str,
    new: str,
    reruns: list[str],
    changed: set[str],
) -> None:
    first, _ = run(site, executor, fresh(site))
    _edit(site.root / file, old, new)
    results, ran = run(site, executor, fresh(site))
    assert ran == reruns
    assert set(results) == set(first)
    # What the edit changed, and only that; the blocks of the other pages come from the cache.
    assert {k for k in results if results[k]["output"] != first[k]["output"]} == changed
    rerun_keys = {k for k in results if f"{k.split('/')[0]}.md" in reruns}
    assert not [k for k in rerun_keys if results[k].get("cached")]
    assert all(results[k].get("cached") for k in set(results) - rerun_keys)


def _job(project: Project, runner: str = "cpu") -> PageJob:
    cfg = project.config
    page = next(p for p in read_site(cfg) if p.rel == "a.md")
    return PageJob(page.rel, runner, [spec(cfg, b) for b in page.blocks])


def _prime(project: Project, executor: Executor) -> PageJob:
    run(project, executor, fresh(project))
    job = _job(project)
    assert fresh(project).load(job) is not None
    return job


def test_the_runner_is_part_of_the_key(site: Project, executor: Executor) -> None:
    job = _prime(site, executor)
    cache = fresh(site)
    assert cache.key(_job(site, "gpu")) != cache.key(job)
    assert cache.load(_job(site, "gpu")) is None


@pytest.mark.parametrize("package", ["torch", "numpy"])
def test_library_versions_are_part_of_the_key(
    site: Project, executor: Executor, monkeypatch: pytest.MonkeyPatch, package: str
) -> None:
    job = _prime(site, executor)
    real = cache_mod._version
    monkeypatch.setattr(
        cache_mod, "_version", lambda name: "9.9.9" if name == package else real(name)
    )
    assert fresh(site).load(job) is None


@pytest.mark.parametrize(
    ("name", "other"),
    [("python_version", "3.99.0"), ("python_implementation", "PyPy"), ("machine", "riscv64")],
)
def test_the_python_and_the_machine_are_part_of_the_key(
    site: Project, executor: Executor, monkeypatch: pytest.MonkeyPatch, name: str, other: str
) -> None:
    """A cache folder shared with another interpreter or architecture (a synced or mounted
    project) replays nothing of theirs."""
    job = _prime(site, executor)
    monkeypatch.setattr(cache_mod.platform, name, lambda: other)
    assert fresh(site).load(job) is None


def test_the_engine_version_is_part_of_the_key(
    site: Project, executor: Executor, monkeypatch: pytest.MonkeyPatch
) -> None:
    job = _prime(site, executor)
    monkeypatch.setattr(docverify, "__version__", "99.0.0")
    cache_mod.engine_fingerprint.cache_clear()
    try:
        assert fresh(site).load(job) is None
    finally:
        monkeypatch.undo()
        cache_mod.engine_fingerprint.cache_clear()
    assert fresh(site).load(job) is not None


def test_the_engine_source_is_part_of_the_key(
    site: Project, executor: Executor, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Same version number, one edited engine file: the cache must not trust old results."""
    job = _prime(site, executor)
    package = Path(docverify.__file__).parent
    copy = tmp_path / "docverify"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    edited = copy / "running" / "child.py"
    assert edited.is_file()
    with edited.open("a", encoding="utf-8") as handle:
        handle.write("\n# an engine edit\n")
    monkeypatch.setattr(docverify, "__file__", str(copy / "__init__.py"))
    cache_mod.engine_fingerprint.cache_clear()
    try:
        assert fresh(site).load(job) is None
    finally:
        monkeypatch.undo()
        cache_mod.engine_fingerprint.cache_clear()


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _tamper(path: Path) -> None:  # a plausible edit that keeps the JSON valid
    path.write_text(
        path.read_text(encoding="utf-8").replace("tensor([0., 2., 4.])", "tensor([9., 9., 9.])")
    )


def _garbage(path: Path) -> None:
    path.write_bytes(b"\x00\xff not a cache file")


def test_a_result_without_device_marks_is_not_replayed(site: Project, executor: Executor) -> None:
    """An entry whose results lack `device_dependent` (stored by an engine that did not detect
    the marks) would replay a random block as unmarked: rejected, its page run again."""
    first, _ = run(site, executor, fresh(site))
    assert first["a/primero"]["device_dependent"] == []
    path = site.root / ".cache/docverify/cpu/a.md.json"
    head, body = path.read_text(encoding="utf-8").split("\n", 1)
    data = json.loads(body)
    for result in data["results"].values():
        del result["device_dependent"]
    body = json.dumps(data, ensure_ascii=False, sort_keys=True)  # a valid file, checksum and all
    magic, version, _ = head.split(" ")
    path.write_text(f"{magic} {version} {hashlib.sha256(body.encode()).hexdigest()}\n{body}")
    cache = fresh(site)
    again, ran = run(site, executor, cache)
    assert ran == ["a.md"] and cache.rejected == 1
    assert again["a/primero"]["device_dependent"] == []


@pytest.mark.parametrize(
    "damage",
    [Path.unlink, _truncate, _tamper, _garbage],
    ids=["deleted", "truncated", "tampered", "garbage"],
)
def test_a_missing_or_corrupt_file_is_rebuilt_not_trusted(
    site: Project, executor: Executor, damage: Callable[[Path], None]
) -> None:
    _prime(site, executor)
    path = site.root / ".cache/docverify/cpu/a.md.json"
    damage(path)
    cache = fresh(site)
    results, ran = run(site, executor, cache)
    assert ran == ["a.md"]
    assert results["a/segundo"]["output"] == "tensor([0., 2., 4.])\n"
    assert cache.rejected == (0 if damage is Path.unlink else 1)
    assert fresh(site).load(_job(site)) is not None  # rebuilt and trusted again


def test_the_whole_cache_folder_is_safe_to_delete(site: Project, executor: Executor) -> None:
    _prime(site, executor)
    shutil.rmtree(site.root / ".cache")
    _, ran = run(site, executor, fresh(site))
    assert ran == ["a.md", "b.md"]


def test_a_timeout_is_not_cached(project: Project, executor: Executor) -> None:
    project.page(
        "t.md",
        """\
        # T

        ```python exec="on" id="lento" timeout="0.5"
        import time
        time.sleep(30)
        ```
        """,
    )
    cache = fresh(project)
    results, _ = run(project, executor, cache)
    assert "tiempo límite" in results["t/lento"]["error"]
    assert not (project.root / ".cache/docverify/cpu/t.md.json").exists()


@pytest.mark.parametrize(
    ("env", "use"),
    [
        ({}, CacheUse.READ),
        ({"CI": "true"}, CacheUse.OFF),
        ({"DOCVERIFY_CACHE": "0"}, CacheUse.WRITE),
        ({"CI": "false"}, CacheUse.READ),
    ],
)
def test_ci_turns_the_cache_off_and_the_switch_stops_reading_it(
    project: Project, executor: Executor, env: dict[str, str], use: CacheUse
) -> None:
    """Under CI no cache at all (neither read nor written); DOCVERIFY_CACHE=0 one that is
    written but not read (core/request.py reads them; build.prepare makes the cache)."""
    asked = request.from_env(env, runner="cpu")
    assert asked.cache is use
    cache = build.prepare(project.config, asked, executor).cache
    assert (None if cache is None else cache.read) is {"off": None, "write": False}.get(use, True)
    if use is not CacheUse.OFF:  # --no-cache: written, never read
        assert request.from_env(env, runner="cpu", no_cache=True).cache is CacheUse.WRITE


@pytest.mark.parametrize(
    ("args", "env", "written", "read"),
    [
        ([], {}, True, True),
        (["--no-cache"], {}, True, False),
        ([], {"DOCVERIFY_CACHE": "0"}, True, False),
        ([], {"CI": "true"}, False, False),
    ],
)
def test_check_uses_the_cache_locally_only(
    site: Project,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    *,
    args: list[str],
    env: dict[str, str],
    written: bool,
    read: bool,
) -> None:
    monkeypatch.chdir(site.root)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("DOCVERIFY_CACHE", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    code = cli_main(["check", "--runner", "cpu", "--workers", "2", *args])
    assert code == 1  # no recordings in this project: the check itself must fail
    # .cache/docverify/ also holds the shard durations; the cache itself is <runner>/.
    assert (site.root / ".cache/docverify/cpu").exists() is written
    started = executor_mod.blocks_started()
    cli_main(["check", "--runner", "cpu", "--workers", "2", *args])
    summary = capsys.readouterr().out.strip().splitlines()[-1]
    assert ("(4 desde la caché)" in summary) is read, summary
    assert executor_mod.blocks_started() - started == (0 if read else 4)  # really ran again


FAILURES = {
    "undeclared": ('print("antes")\nraise ValueError("mal")', ""),
    "other-exception": ('raise KeyError("x")', ' raises="ValueError: mal"'),
    "other-message": ('raise ValueError("otro")', ' raises="ValueError: mal"'),
    "missing-exception": ('print("sin error")', ' raises="ValueError: mal"'),
    "syntax": ("def f(:\n    pass", ""),
    "exit": ("import sys\nsys.exit(2)", ""),
}


@pytest.mark.parametrize("failure", sorted(FAILURES))
def test_a_page_that_failed_is_never_stored(
    project: Project, executor: Executor, failure: str
) -> None:
    """A page with one failed block (an exception raises= does not declare, a declared one that
    did not come, an engine error) is not stored, and its earlier entry is dropped: the next run
    runs it again instead of replaying the failure. Its blocks that passed change nothing."""
    code, options = FAILURES[failure]
    ok = '```python exec="on" id="bien"\nprint(1)\n```\n\n'
    project.page("f.md", f'# F\n\n{ok}```python exec="on" id="falla"{options}\n{code}\n```\n')
    path = project.root / ".cache/docverify/cpu/f.md.json"
    run(project, executor, fresh(project))
    assert not path.exists()
    project.page("f.md", f"# F\n\n{ok}")  # the same page without the failing block...
    _, ran = run(project, executor, fresh(project))
    assert ran == ["f.md"] and path.is_file()  # ...is stored


def test_a_failure_drops_the_entry_a_refresh_would_keep(
    project: Project, executor: Executor, tmp_path: Path
) -> None:
    """A run that does not read the cache (--no-cache) still refreshes it: when the page that
    passed before now fails (a file outside the key is gone), its old entry goes too, so a
    later plain run does not replay the old success."""
    flag = tmp_path / "bandera.txt"
    flag.write_text("hola", encoding="utf-8")
    project.page(
        "f.md",
        f'# F\n\n```python exec="on" id="lee"\nfrom pathlib import Path\n'
        f"print(Path({str(flag)!r}).read_text())\n```\n",
    )
    first, _ = run(project, executor, fresh(project))
    assert first["f/lee"]["output"] == "hola\n"
    flag.unlink()
    results, ran = run(project, executor, Cache.for_config(project.config, read=False))
    assert ran == ["f.md"] and "FileNotFoundError" in results["f/lee"]["exception"]
    _, ran = run(project, executor, fresh(project))
    assert ran == ["f.md"]  # not replayed from the old entry


@pytest.mark.slow
def test_a_serve_style_rebuild_after_a_prose_edit_reruns_no_block(
    small_copy: Path, tmp_path: Path
) -> None:
    """The hook uses the cache outside CI: a second build after a prose edit re-stores nothing."""
    root = small_copy
    local = {"DOCVERIFY_CACHE": "1", "CI": "false"}
    first = mkdocs_build(root, tmp_path / "one", env=local)
    assert first.returncode == 0, first.stderr
    files = sorted((root / cache_mod.FOLDER / "cpu").rglob("*.json"))
    assert len(files) == sum(1 for p in read_site(config_mod.load(root)) if p.blocks)
    stamps = [f.stat().st_mtime_ns for f in files]
    _edit(root / NEW_PAGE, "Explica aquí la idea", "Explica aquí, con calma, la idea")
    second = mkdocs_build(root, tmp_path / "two", env=local)
    assert second.returncode == 0, second.stderr
    assert [f.stat().st_mtime_ns for f in files] == stamps
    html = tmp_path / f"two/articulos/{NEW_PAGE.split('/')[-1].removesuffix('.md')}/index.html"
    assert "Explica aquí, con calma, la idea" in html.read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_missing_package_fails_until_installed_then_check_and_build_pass(
    small_copy: Path, tmp_path: Path
) -> None:
    """A block imports a package that is not installed: `docverify check` and the build fail
    (and store nothing); once it is installed, the next plain check and build pass, with
    nothing cleared by hand. "Installed" here: a module file in a folder the block puts on
    sys.path, outside the project and outside the cache key, like a package in site-packages."""
    root = small_copy
    packages = tmp_path / "paquetes"
    packages.mkdir()
    module = packages / "dvfaltante.py"
    page = next(p for p in read_site(config_mod.load(root)) if p.rel == NEW_PAGE.split("/", 1)[1])
    (block,) = page.blocks
    block.origin.write_text(
        f"import sys\n\nsys.path.insert(0, {str(packages)!r})\nimport dvfaltante\n\n"
        "print(dvfaltante.VALOR)\n",
        encoding="utf-8",
    )
    local = {"DOCVERIFY_CACHE": "1", "CI": "false"}
    module.write_text("VALOR = 42\n", encoding="utf-8")
    recorded = docverify_command(root, "record", "--runner", "cpu", NEW_PAGE)
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    module.unlink()  # a new machine, without the package
    checked = docverify_command(root, "check", "--runner", "cpu", env=local)
    assert checked.returncode == 1 and "ModuleNotFoundError" in checked.stderr, checked.stderr
    built = mkdocs_build(root, tmp_path / "sin", env=local)
    assert built.returncode != 0 and "ModuleNotFoundError" in built.stderr, built.stderr
    assert not (root / cache_mod.FOLDER / "cpu" / page.rel).with_suffix(".md.json").exists()
    module.write_text("VALOR = 42\n", encoding="utf-8")  # installed
    checked = docverify_command(root, "check", "--runner", "cpu", env=local)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    built = mkdocs_build(root, tmp_path / "con", env=local)
    assert built.returncode == 0, built.stderr


# Unit tests on a synthetic page: no block runs, every file is written by the cache itself.


def _result(**fields: object) -> dict:
    from docverify.running.protocol import STORED_FIELDS  # noqa: PLC0415

    result: dict = dict.fromkeys(STORED_FIELDS)
    result.update({"error": None, "exception": None, "engine": None, "output": "1\n"})
    result.update(fields)
    return result


SYNTHETIC = PageJob("guía/ñandú.md", "cpu", [{"key": "guía/ñandú/a", "code": "print(1)"}])


def _stored(tmp_path: Path) -> tuple[Cache, Path]:
    cache = Cache(tmp_path)
    assert cache.store(SYNTHETIC, {"guía/ñandú/a": _result()}, {"torch": "9.9"}) is True
    return cache, cache.path(SYNTHETIC)


def _rewrite(path: Path, edit: Callable[[dict], object], head: str | None = None) -> None:
    """Rewrite a stored file with a valid checksum: what only the shape checks can refuse."""
    magic, version, _ = path.read_text(encoding="utf-8").split("\n", 1)[0].split(" ")
    data = json.loads(path.read_text(encoding="utf-8").split("\n", 1)[1])
    edit(data)
    body = json.dumps(data, ensure_ascii=False, sort_keys=True)
    checksum = hashlib.sha256(body.encode()).hexdigest()
    path.write_text(f"{head or f'{magic} {version}'} {checksum}\n{body}", encoding="utf-8")


def test_failed_is_the_cache_policy() -> None:
    assert cache_mod.failed(None, None)
    assert cache_mod.failed(_result(engine="timeout"), None)
    assert cache_mod.failed(_result(error=True), None)
    assert cache_mod.failed(_result(exception="ValueError: x"), None)
    assert not cache_mod.failed(_result(), None)


def test_a_package_that_is_not_installed_is_a_part_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(cache_mod.versions, "installed", lambda package: None)
    assert cache_mod._version("torch") == "absent"
    monkeypatch.setattr(cache_mod.versions, "installed", lambda package: f"{package}-1.2")
    assert cache_mod._version("numpy") == "numpy-1.2"


def test_the_stored_file_is_a_checksummed_canonical_json(tmp_path: Path) -> None:
    """One header line «docverify-cache 1 <SHA-256 of the rest>», then the page's JSON with
    sorted keys and its text as written (a file a person can read and diff)."""
    _, path = _stored(tmp_path)
    assert path == tmp_path / "cpu" / "guía/ñandú.md.json"
    head, body = path.read_text(encoding="utf-8").split("\n", 1)
    assert head == f"docverify-cache 1 {hashlib.sha256(body.encode()).hexdigest()}"
    assert body == json.dumps(json.loads(body), ensure_ascii=False, sort_keys=True)
    data = json.loads(body)
    assert (data["format"], data["page"], data["env"]) == (1, "guía/ñandú.md", {"torch": "9.9"})
    assert "ñandú" in body


def test_load_replays_the_results_the_environment_and_the_day_they_were_stored(
    tmp_path: Path,
) -> None:
    cache, path = _stored(tmp_path)
    loaded = cache.load(SYNTHETIC)
    assert loaded is not None
    results, env = loaded
    assert env == {"torch": "9.9"} and results["guía/ñandú/a"]["output"] == "1\n"
    stored = json.loads(path.read_text(encoding="utf-8").split("\n", 1)[1])["stored"]
    assert results["guía/ñandú/a"]["cached"] == stored
    assert (cache.hits, cache.misses, cache.rejected) == (1, 0, 0)
    _rewrite(path, lambda data: (data.pop("stored"), data.pop("env")))
    results, env = cache.load(SYNTHETIC) or ({}, {"x": "y"})
    assert results["guía/ñandú/a"]["cached"] == "" and env == {}


def test_store_says_whether_it_stored(tmp_path: Path) -> None:
    cache, path = _stored(tmp_path)
    assert cache.store(SYNTHETIC, {"guía/ñandú/a": _result(error=True)}, {}) is False
    assert not path.exists()


def test_every_miss_and_every_rejection_is_counted(tmp_path: Path) -> None:
    cache, path = _stored(tmp_path)
    unread = Cache(tmp_path, read=False)
    for _ in range(2):
        assert unread.load(SYNTHETIC) is None
    assert (unread.misses, unread.hits) == (2, 0)
    other = PageJob(SYNTHETIC.page, SYNTHETIC.runner, [{"key": "guía/ñandú/a", "code": "2"}])
    for _ in range(2):
        assert cache.load(other) is None  # another key
    assert (cache.misses, cache.rejected) == (2, 0)
    _rewrite(path, lambda data: data["results"].update(otro=_result()))  # a block too many
    for _ in range(2):
        assert cache.load(SYNTHETIC) is None
    assert (cache.misses, cache.rejected) == (4, 2)
    path.write_bytes(b"garbage")
    for _ in range(2):
        assert cache.load(SYNTHETIC) is None
    assert (cache.misses, cache.rejected) == (6, 4)


@pytest.mark.parametrize(
    "head",
    ["otro-cache 1", "docverify-cache 2", "docverify-cache\t1", "docverify-cache  1"],
    ids=["magic", "format", "tab", "two-spaces"],
)
def test_a_header_not_written_by_this_format_is_rejected(tmp_path: Path, head: str) -> None:
    cache, path = _stored(tmp_path)
    _rewrite(path, lambda data: None, head=head)
    assert cache.load(SYNTHETIC) is None and cache.rejected == 1


def test_results_that_are_not_a_table_are_rejected(tmp_path: Path) -> None:
    cache, path = _stored(tmp_path)
    _rewrite(path, lambda data: data.update(results=["guía/ñandú/a"]))
    assert cache.load(SYNTHETIC) is None and cache.rejected == 1


def test_the_key_ignores_the_order_of_a_spec_and_reads_paths(tmp_path: Path) -> None:
    cache = Cache(tmp_path)
    forward = PageJob("a.md", "cpu", [{"key": "a/b", "code": "1", "file": Path("x.py")}])
    backward = PageJob("a.md", "cpu", [{"file": Path("x.py"), "code": "1", "key": "a/b"}])
    assert cache.key(forward) == cache.key(backward)
    moved = PageJob("a.md", "cpu", [{"key": "a/b", "code": "1", "file": Path("y.py")}])
    assert cache.key(moved) != cache.key(forward)
