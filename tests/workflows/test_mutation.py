"""`python3 tasks.py mutate` (tools/mutation.py): which modules (paths, --changed, --shard), with
which tests (the mirror), how its results are read (line, diff, equivalent mutants), the summary
line, and the ratchet the weekly job fails on. Throwaway repositories and texts written here;
tests/workflows/test_mutation_run.py runs mutmut itself on a small engine."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from support.tools import load

ROOT = Path(__file__).resolve().parents[2]
mutation = load("mutation")
order = load("mutation_order")


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


# --- Which modules --------------------------------------------------------------------------------


def test_paths_name_modules_and_sub_packages_from_the_root_or_the_engine(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "hooks/docverify/site/a.py": "",
            "hooks/docverify/site/b.py": "",
            "hooks/docverify/site/datos.yml": "",
            "hooks/docverify/core/c.py": "",
            "tasks.py": "",
        },
    )
    assert mutation.resolve(["site"], tmp_path) == [
        "hooks/docverify/site/a.py",
        "hooks/docverify/site/b.py",
    ]
    assert mutation.resolve(["hooks/docverify/core/c.py", "core/c.py", "site/b.py"], tmp_path) == [
        "hooks/docverify/core/c.py",
        "hooks/docverify/site/b.py",
    ]
    for wrong, why in [
        ("tasks.py", "no es código del motor"),
        ("site/z.py", "no existe"),
        ("site/datos.yml", "no es un módulo"),
    ]:
        with pytest.raises(mutation.Refused, match=why):
            mutation.resolve([wrong], tmp_path)


def test_changed_names_the_engine_modules_changed_since_the_merge_base(tmp_path: Path) -> None:
    """Committed on the branch, unstaged, untracked: in; deleted, outside the engine, not
    Python, or changed on the base branch after the branch left it: out."""
    write(
        tmp_path,
        {
            f"hooks/docverify/{name}": "x = 1\n"
            for name in ("a.py", "b.py", "gone.py", "site/c.py", "site/d.py", "datos.yml")
        }
        | {"tasks.py": "x = 1\n"},
    )
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "base")
    git(tmp_path, "checkout", "-q", "-b", "rama")
    write(tmp_path, {"hooks/docverify/a.py": "x = 2\n", "hooks/docverify/datos.yml": "y\n"})
    git(tmp_path, "commit", "-q", "-am", "a")
    (tmp_path / "hooks/docverify/gone.py").unlink()
    write(
        tmp_path,
        {
            "hooks/docverify/site/c.py": "x = 3\n",  # unstaged
            "hooks/docverify/site/nuevo.py": "x = 4\n",  # untracked
            "tasks.py": "x = 5\n",
        },
    )
    git(tmp_path, "checkout", "-q", "main")
    git(tmp_path, "stash", "-q", "-u")  # the working tree's changes belong to rama
    write(tmp_path, {"hooks/docverify/b.py": "x = 6\n"})
    git(tmp_path, "commit", "-q", "-am", "b on main")
    git(tmp_path, "checkout", "-q", "rama")
    git(tmp_path, "stash", "pop", "-q")
    assert mutation.changed("main", tmp_path) == [
        "hooks/docverify/a.py",
        "hooks/docverify/site/c.py",
        "hooks/docverify/site/nuevo.py",
    ]
    with pytest.raises(mutation.Refused, match="git merge-base"):
        mutation.changed("no-such-branch", tmp_path)


def test_git_names_outside_the_engine_are_dropped(tmp_path: Path) -> None:
    write(tmp_path, {"hooks/docverify/a.py": "", "hooks/docverifyx/b.py": "", "hooks/c.py": ""})
    names = [
        "hooks/docverify/a.py\n",
        "hooks/docverifyx/b.py",
        "hooks/c.py",
        "hooks/docverify/z.py",
    ]
    assert mutation.engine_modules(names, tmp_path) == ["hooks/docverify/a.py"]


def test_shards_split_every_module_once_in_runs_of_similar_size(tmp_path: Path) -> None:
    sizes = {"core/a": 90, "core/b": 50, "core/c": 40, "site/d": 30, "site/e": 20, "site/f": 70}
    write(tmp_path, {f"hooks/docverify/{m}.py": "x\n" * n for m, n in sizes.items()})
    write(tmp_path, {"tests/core/test_x.py": "", "tests/site/test_x.py": ""})
    modules = mutation.resolve(["hooks/docverify"], tmp_path)
    shards = [mutation.shard(modules, i, 3, tmp_path) for i in (1, 2, 3)]
    names = [[m.removeprefix("hooks/docverify/").removesuffix(".py") for m in s] for s in shards]
    # In the order of their tests, then of their paths (core/a, b, c, site/d, e, f: 300 lines),
    # cut where each module's middle line falls: before 100, before 200, the rest.
    assert names == [["core/a"], ["core/b", "core/c", "site/d"], ["site/e", "site/f"]]
    assert mutation.shard(modules, 1, 1, tmp_path) == modules
    with pytest.raises(mutation.Refused, match="de 1 a 3"):
        mutation.shard(modules, 4, 3, tmp_path)


def test_the_engines_shards_cover_it_once() -> None:
    modules = mutation.resolve([mutation.ENGINE])
    shards = [mutation.shard(modules, i, 7) for i in range(1, 8)]
    assert sorted(m for s in shards for m in s) == modules
    assert all(shards)


# --- With which tests -----------------------------------------------------------------------------


def test_a_module_is_judged_by_its_sub_packages_tests_or_by_those_that_import_it(
    tmp_path: Path,
) -> None:
    write(
        tmp_path,
        {
            "hooks/docverify/site/a.py": "",
            "hooks/docverify/report/merge.py": "",
            "hooks/docverify/build.py": "",
            "tests/site/test_a.py": "",
            "tests/cli/test_uno.py": "import docverify.report.merge\n",
            "tests/cli/test_dos.py": "from docverify.report import accept, merge\n",
            "tests/output/test_tres.py": "from docverify.report.merge import Merged\n",
            "tests/output/test_otro.py": (
                "from docverify.report import mergers\n'docverify.report.merge'\n"
            ),
            "tests/verifying/test_cuatro.py": "from docverify import build\n",
            "tests/verifying/test_cinco.py": "from . import merge\nimport docverify.builds\n",
        },
    )
    assert mutation.mirror("hooks/docverify/site/a.py", tmp_path) == ["tests/site/"]
    assert mutation.mirror("hooks/docverify/report/merge.py", tmp_path) == [
        "tests/cli/test_dos.py",
        "tests/cli/test_uno.py",
        "tests/output/test_tres.py",
    ]
    assert mutation.mirror("hooks/docverify/build.py", tmp_path) == [
        "tests/verifying/test_cuatro.py"
    ]
    modules = ["hooks/docverify/build.py", "hooks/docverify/site/a.py"]
    assert mutation.groups([*modules, "hooks/docverify/site/b.py"], tmp_path) == {
        ("tests/verifying/test_cuatro.py",): ["hooks/docverify/build.py"],
        ("tests/site/",): ["hooks/docverify/site/a.py", "hooks/docverify/site/b.py"],
    }


def test_every_engine_module_with_a_function_has_tests() -> None:
    """The weekly job measures the whole engine: a module without tests would stop its shard."""
    lonely = [
        m
        for m in mutation.resolve([mutation.ENGINE])
        if re.search(r"^\s*(async\s+)?def ", (ROOT / m).read_text(encoding="utf-8"), re.M)
        and not mutation.mirror(m)
    ]
    assert not lonely, lonely


def test_the_run_settings_complete_pyprojects_section() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    staged = mutation.settings(
        text, ["hooks/docverify/site/a.py"], ["tests/site/"], ["docs", "hooks"]
    )
    section = tomllib.loads(staged)["tool"]["mutmut"]
    assert section["only_mutate"] == ["src/docverify/site/a.py"]
    assert section["pytest_add_cli_args_test_selection"] == ["tests/site/"]
    assert section["also_copy"] == ["docs", "hooks"]
    assert section["source_paths"] == ["src"]
    assert section["process_isolation"] == "forkserver"
    args = section["pytest_add_cli_args"]
    assert args[args.index("-m") + 1] == "not slow"
    # Left out: only the tests that read the engine's files, which mutmut rewrites, or compare
    # them with a subprocess's (pyproject.toml says why, for each).
    left_out = [args[i + 1] for i, a in enumerate(args) if a in ("--deselect", "--ignore")]
    assert left_out == [
        "tests/core/test_shape.py::test_no_module_or_function_is_too_big",
        "tests/core/test_messages.py::test_every_kind_has_a_scenario",
        "tests/running/test_interpreter.py::"
        "test_the_page_processes_import_only_running_core_torch_and_numpy",
        "tests/integrations/test_blocks.py",
    ]
    for node in left_out:  # each still names a test that exists
        file, _, name = node.partition("::")
        assert (ROOT / file).is_file(), node
        assert not name or f"def {name}(" in (ROOT / file).read_text(encoding="utf-8"), node
    # The rest of pyproject.toml is unchanged.
    assert tomllib.loads(staged)["tool"]["pytest"] == tomllib.loads(text)["tool"]["pytest"]
    owned = text.replace("[tool.mutmut]\n", '[tool.mutmut]\nalso_copy = ["x"]\n')
    with pytest.raises(mutation.Refused, match="also_copy"):
        mutation.settings(owned, [], [], [])
    with pytest.raises(mutation.Refused, match=r"\[tool.mutmut\]"):
        mutation.settings(text.replace("[tool.mutmut]", "[tool.otro]"), [], [], [])


def test_the_staged_copy_is_the_working_tree_with_hooks_as_src(tmp_path: Path) -> None:
    """What git sees (committed or not, never what it ignores), and hooks/ once more as src/:
    mutmut finds a mutant's tests only for a package in src/."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    write(
        tmp_path,
        {
            "pyproject.toml": text,
            ".gitignore": "ignorado.txt\n",
            "hooks/mkdocs_hooks.py": "adapter\n",
            "hooks/docverify/site/a.py": "a\n",
            "tests/site/test_a.py": "",
            "docs/index.md": "",
            "ignorado.txt": "",
        },
    )
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "pyproject.toml", "hooks", ".gitignore")
    git(tmp_path, "commit", "-q", "-m", "x")
    write(tmp_path, {"hooks/docverify/site/a.py": "a, sin confirmar\n"})
    where = mutation.stage(["hooks/docverify/site/a.py"], ["tests/site/"], tmp_path)
    assert where == tmp_path / ".cache" / "mutate"
    assert (where / "src/docverify/site/a.py").read_text(encoding="utf-8") == "a, sin confirmar\n"
    assert (where / "src/mkdocs_hooks.py").is_file()
    assert (where / "hooks/docverify/site/a.py").is_file()
    assert (where / "tests/site/test_a.py").is_file() and (where / "docs/index.md").is_file()
    assert not (where / "ignorado.txt").exists()
    section = tomllib.loads((where / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    assert section["mutmut"]["only_mutate"] == ["src/docverify/site/a.py"]
    assert section["mutmut"]["also_copy"] == [
        ".gitignore",
        "docs",
        "hooks",
        "pyproject.toml",
        "tests",
    ]
    (where / "src/viejo.py").write_text("", encoding="utf-8")
    mutation.stage([], [], tmp_path)  # each run starts from a fresh copy
    assert not (where / "src/viejo.py").exists()


def test_the_dev_group_installs_the_tool_the_settings_are_for() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert [d for d in project["optional-dependencies"]["dev"] if d.startswith("mutmut")] == [
        "mutmut==3.8.1"
    ]


class Item:
    def __init__(self, nodeid: str, fixturenames: tuple[str, ...] = ()) -> None:
        self.nodeid, self.fixturenames = nodeid, fixturenames


def test_a_mutants_tests_run_quickest_first_and_those_of_a_whole_site_last() -> None:
    items = [
        Item("tests/site/test_otro.py::sitio", ("tmp_path", "small_copy")),
        Item("tests/site/test_otro.py::lenta", ("executor",)),
        Item("tests/site/test_otro.py::nueva"),  # never measured: as quick as can be
        Item("tests/site/test_otro.py::rapida", ("project",)),
        Item("tests/site/test_words.py::propia", ("project",)),
        Item("tests/site/test_words.py::propia_con_ejecutor", ("executor",)),
        Item("tests/site/test_otro.py::construida", ("built",)),
        Item("tests/site/test_swords.py::ajena"),
    ]
    measured = {
        "tests/site/test_otro.py::sitio": 0.1,
        "tests/site/test_otro.py::lenta": 2.0,
        "tests/site/test_otro.py::rapida": 0.01,
        "tests/site/test_otro.py::construida": 0.0,
        "tests/site/test_words.py::propia": 0.5,
        "tests/site/test_words.py::propia_con_ejecutor": 0.0,
        "tests/site/test_swords.py::ajena": 0.02,
    }
    own = order.own_file("docverify.site.words.x_check__mutmut_3")
    assert own == "test_words.py"
    ordered = order.quickest_first(items, measured, own)  # type: ignore[arg-type]
    assert [i.nodeid.rpartition("::")[2] for i in ordered] == [
        "propia",
        "nueva",
        "rapida",
        "ajena",
        "propia_con_ejecutor",
        "lenta",
        "construida",
        "sitio",
    ]
    # Without a mutant (mutmut's stats and clean runs), no file comes first.
    assert order.own_file("stats") == ""
    assert order.durations(Path("/no/such/file")) == {}


class Config:
    """What pytest_configure uses of pytest's config: its clean-ups, run at the end here."""

    def __init__(self) -> None:
        self.cleanups: list[Any] = []

    def add_cleanup(self, cleanup: Any) -> None:
        self.cleanups.append(cleanup)


def test_the_stats_run_keeps_stats_out_of_the_subprocesses_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A subprocess that imports the mutated engine would record its calls too and fail outside
    the staged copy (running/: workers and page processes work in temporary folders)."""
    from mutmut.mutation import trampoline  # noqa: PLC0415

    monkeypatch.setattr(trampoline, "_mutant_under_test", None)
    monkeypatch.setenv("MUTANT_UNDER_TEST", "stats")
    config = Config()
    order.pytest_configure(config)  # type: ignore[arg-type]
    assert "MUTANT_UNDER_TEST" not in os.environ
    assert trampoline.get_mutant_under_test() == "stats"  # this process still records
    code = "from mutmut.mutation import trampoline; print(repr(trampoline.get_mutant_under_test()))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "''\n"  # a subprocess runs the original functions
    for cleanup in config.cleanups:
        cleanup()
    assert os.environ["MUTANT_UNDER_TEST"] == "stats"


def test_with_a_mutant_under_test_subprocesses_run_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUTANT_UNDER_TEST", "docverify.running.capture.x_drain_fds__mutmut_1")
    config = Config()
    order.pytest_configure(config)  # type: ignore[arg-type]
    assert os.environ["MUTANT_UNDER_TEST"] == "docverify.running.capture.x_drain_fds__mutmut_1"
    assert config.cleanups == []


# A test that leaves an orphan: a child that starts a grandchild and ends before it.
ORPHAN_TEST = """
import os, subprocess, sys

def test_leaves_an_orphan():
    code = (
        "import subprocess; print(subprocess.Popen(['sleep', '60'],"
        " stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).pid)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    with open(os.environ["ORPHAN_PID"], "w") as out:
        out.write(done.stdout)
"""


def running(pid: int) -> bool:
    """Whether `pid` is a live process (a zombie is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


@pytest.mark.parametrize("mutant", ["docverify.m.x_f__mutmut_1", ""])
def test_what_a_mutants_tests_leave_running_ends_with_them(tmp_path: Path, mutant: str) -> None:
    """A mutant that breaks the engine's clean-up leaves orphans (a fork server, a page
    process); the process that ran its tests kills them when they end, instead of leaving them to
    pile up for the rest of the run. Without a mutant under test (mutmut's fork server warming
    up), nothing is adopted."""
    (tmp_path / "test_orphan.py").write_text(ORPHAN_TEST, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "MUTANT_UNDER_TEST"}
    if mutant:
        env["MUTANT_UNDER_TEST"] = mutant
    env |= {"ORPHAN_PID": str(tmp_path / "pid"), "PYTHONPATH": str(ROOT)}
    args = ["-p", "tools.mutation_order", "-p", "no:cacheprovider", "-q", "test_orphan.py"]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    orphan = int((tmp_path / "pid").read_text(encoding="utf-8"))
    try:
        assert done.returncode == 0, done.stdout + done.stderr
        assert running(orphan) is not bool(mutant)
    finally:
        with contextlib.suppress(OSError):
            os.kill(orphan, signal.SIGKILL)


# --- Results --------------------------------------------------------------------------------------

MODULE = '''\
"""A module."""


# A comment that mutmut keeps above the function.
@decorated
def first(x):
    if x > 0:
        return "positivo"
    return "otro"


class Box:
    def size(self, items):
        total = 0
        for item in items:
            total += len(item)
        return total
'''


@pytest.mark.parametrize(
    ("mutant", "before", "changed", "wanted"),
    [
        # mutmut's copies start with the comment and the decorator; the change is in the body.
        (
            "docverify.m.x_first__mutmut_2",
            MODULE.split("\n\n\n")[1],
            ("    if x > 0:", "    if x >= 0:"),
            "    if x > 0:",
        ),
        # A method's copy is dedented, starts at its def, and the change is its last line.
        (
            "docverify.m.xǁBoxǁsize__mutmut_7",
            "def size(self, items):\n    total = 0\n    for item in items:\n"
            "        total += len(item)\n    return total",
            ("    return total", "    return None"),
            "        return total",
        ),
    ],
)
def test_a_survivor_is_shown_at_its_line_in_the_module(
    mutant: str, before: str, changed: tuple[str, str], wanted: str
) -> None:
    after = before.replace(*changed)
    line, diff = mutation.located(MODULE, mutant, before, after, "hooks/docverify/m.py")
    assert MODULE.splitlines()[line - 1] == wanted  # the line, found by its text
    assert diff.startswith("--- hooks/docverify/m.py\n+++ hooks/docverify/m.py\n@@")
    assert f"\n-{changed[0]}\n+{changed[1]}" in diff


def test_a_mutants_function_is_read_from_its_name() -> None:
    assert mutation.function_of("docverify.site.m.x_check__mutmut_12") == (None, "check")
    assert mutation.function_of("docverify.m.x_x__mutmut_1") == (None, "x")
    assert mutation.function_of("docverify.m.xǁBoxǁsize__mutmut_3") == ("Box", "size")


def test_an_equivalent_mutant_must_say_why() -> None:
    source = (
        "a = f(x)  # pragma: no mutate; equivalent: the cache is cleared before each use\n"
        "b = 1  # pragma: no mutate\n"
        "c = 2  # pragma: no mutate; equivalent:\n"
        "d = 3  # pragma: no mutate block; equivalent: both branches return the same list\n"
        "# pragma: no mutate start\n"
        "# pragma: no mutate end\n"
        "e = 4  # pragma: no mutate because\n"
    )
    assert mutation.unexplained_pragmas(source) == [2, 3, 5, 7]
    disarmed = mutation.without_pragmas(source)
    assert "no mutate" not in disarmed
    assert disarmed.replace("counted", "no mutate") == source


def module(name: str, killed: int, total: int, equivalent: int = 0, survivors: Any = ()) -> Any:
    result = mutation.Module(f"hooks/docverify/{name}.py", total, killed, equivalent)
    result.survivors = list(survivors)
    return result


def test_the_last_line_adds_up_the_paths_given() -> None:
    modules = [module("a", 2, 3, 1), module("b", 5, 7)]
    assert mutation.summary_line(modules, 12.4) == (
        "mutation: 7/10 killed (70.0 %), 1 equivalent, 12 s"
    )
    assert mutation.summary_line([module("c", 69, 81, 2)], 63.6) == (
        "mutation: 69/81 killed (85.2 %), 2 equivalent, 64 s"
    )
    # A module with nothing to mutate has nothing left alive.
    assert mutation.summary_line([module("d", 0, 0)], 0) == (
        "mutation: 0/0 killed (100.0 %), 0 equivalent, 0 s"
    )


def survivor(name: str, change: str, number: int = 1, line: int = 10, near: str = "") -> Any:
    diff = f"--- m.py\n+++ m.py\n@@ -1,2 +1,2 @@\n def f():\n-    {change}\n+    not {change}{near}"
    return mutation.Survivor(
        f"hooks/docverify/{name}.py",
        line,
        f"docverify.{name}.x_f__mutmut_{number}",
        "sobrevive",
        diff,
    )


def test_a_survivor_is_remembered_by_its_change_not_its_number_or_line() -> None:
    same = survivor("a", "x", 1, 10).fingerprint
    assert survivor("a", "x", 9, 40).fingerprint == same
    # The lines around it changed (the diff's context), not the mutant.
    assert survivor("a", "x", 9, 40, near="\n     return y").fingerprint == same
    assert survivor("a", "x", 9, 40, near="\n+    return y").fingerprint != same
    assert survivor("a", "y", 1, 10).fingerprint != same
    assert survivor("b", "x", 1, 10).fingerprint != same


def test_the_ratchet_fails_only_when_a_smaller_share_is_killed() -> None:
    recorded = mutation.record(
        [module("a", 69, 81), module("b", 1, 3), module("c", 4, 4)], {"format": 1, "modules": {}}
    )
    cases = [
        (module("a", 68, 81), True),
        (module("a", 69, 81), False),
        (module("a", 70, 82), False),  # 85.37 % ≥ 85.19 %
        (module("a", 69, 82), True),  # one more mutant, not killed
        (module("b", 2, 6), False),  # the same share, a third
        (module("c", 0, 0), False),  # nothing left to mutate: nothing survives
        (module("z", 0, 5), False),  # not recorded yet
    ]
    for measured, fell in cases:
        [verdict] = mutation.compare([measured], recorded)
        assert verdict.fell is fell, (measured.module, measured.killed, measured.mutants)
    [unrecorded] = mutation.compare([module("z", 0, 5)], recorded)
    assert "sin puntuación registrada" in mutation.verdict_line(unrecorded)


def test_new_survivors_are_those_the_record_does_not_list() -> None:
    old = [survivor("a", "x", 1), survivor("a", "x", 2), survivor("a", "y", 3)]
    recorded = mutation.record([module("a", 7, 10, survivors=old)], {"format": 1, "modules": {}})
    now = [
        survivor("a", "x", 4),
        survivor("a", "x", 5),
        survivor("a", "x", 6),
        survivor("a", "z", 7),
    ]
    [verdict] = mutation.compare([module("a", 6, 10, survivors=now)], recorded)
    # Two of the three "x" were there before; "y" was killed since; "z" is new.
    assert [s.mutant.rpartition("_")[2] for s in verdict.new] == ["6", "7"]
    summary = mutation.markdown([verdict], "site")
    assert "| `hooks/docverify/a.py` | 10 | 6 | 60.0 % ⚠️ baja | 70.0 % | 0 | 2 |" in summary
    assert summary.count("```diff") == 2


def test_recording_keeps_the_modules_it_did_not_measure(tmp_path: Path) -> None:
    path = tmp_path / "puntuaciones.json"
    first = mutation.record([module("a", 1, 2), module("b", 3, 4)], mutation.load_scores(path))
    mutation._write(path, first)
    again = mutation.record([module("a", 2, 2)], mutation.load_scores(path))
    assert again["modules"]["hooks/docverify/a.py"]["killed"] == 2
    assert again["modules"]["hooks/docverify/b.py"] == first["modules"]["hooks/docverify/b.py"]
    (tmp_path / "otro.json").write_text('{"format": 2}', encoding="utf-8")
    with pytest.raises(mutation.Refused, match="formato 1"):
        mutation.load_scores(tmp_path / "otro.json")


def test_shards_records_merge_into_one(tmp_path: Path) -> None:
    parts = []
    for number, name in enumerate(("a", "b"), 1):
        part = tmp_path / f"parte-{number}.json"
        mutation._write(part, mutation.record([module(name, number, 5)], mutation._EMPTY))
        parts.append(str(part))
    out = tmp_path / "todo.json"
    mutation._write(out, mutation.record([module("c", 9, 9)], mutation._EMPTY))
    assert mutation.main(["--merge", *parts, "--record", str(out)]) == 0
    merged = mutation.load_scores(out)["modules"]
    assert {m: r["killed"] for m, r in merged.items()} == {
        "hooks/docverify/a.py": 1,
        "hooks/docverify/b.py": 2,
        "hooks/docverify/c.py": 9,
    }


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "RUTA…, --changed BASE o --shard"),
        (["--merge", "a.json"], "--merge solo va con --record"),
        (["site", "--merge", "a.json", "--record", "b.json"], "--merge solo va con --record"),
        (["--shard", "3/2"], "no es I/N"),
        (["--shard", "0/2"], "no es I/N"),
    ],
)
def test_the_command_says_what_it_needs(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        mutation.parse(argv)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err
    assert mutation.parse(["--shard", "2/12"]).shard == (2, 12)


def test_an_unexplained_pragma_stops_the_run_before_mutmut(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, {"hooks/docverify/a.py": "def f():\n    return 1  # pragma: no mutate\n"})
    assert mutation.main(["a.py"], tmp_path) == 2
    assert "hooks/docverify/a.py:2" in capsys.readouterr().err
