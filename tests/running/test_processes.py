"""Nothing a block starts outlives its page: what is left running is stopped and reported."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import threading
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import NEW_PAGE, Project, docverify, mkdocs_build
from docverify.core import config as config_mod
from docverify.core.findings import Level, errors
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_site
from docverify.running import processes
from docverify.running.executor import Executor
from docverify.verifying.record import record
from support.blocks import block, run


def _marker(tmp_path: Path) -> str:
    """A `sleep` duration that only this test uses: how its processes are found in /proc."""
    return f"300.{zlib.crc32(str(tmp_path).encode()):010d}"


def running(marker: str) -> list[int]:
    """The live processes whose command line is `sleep <marker>`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if argv[:2] == [b"sleep", marker.encode()] and state != "Z":
            found.append(int(entry.name))
    return found


def _stopped(report, key: str) -> list:
    return [f for f in report.findings if f.kind == Kind.STOPPED_PROCESSES and key in f.message]


def test_a_process_left_running_is_stopped_with_its_page(
    project: Project, executor: Executor, tmp_path: Path
) -> None:
    """A block starts a process that a later block of its session still uses; once the page is
    done it is stopped, and the finding (a report, not an error) names the block that started
    it. A double-forked daemon (its parent exits at once) is found and stopped too."""
    marker = _marker(tmp_path)
    start = f'import subprocess\nproceso = subprocess.Popen(["sleep", "{marker}"])'
    daemon = f'import subprocess\nsubprocess.run(["sh", "-c", "sleep {marker} &"], check=True)'
    project.page(
        "a.md",
        block(start, "arranca", ' session="s"')
        + block("print(proceso.poll())", "usa", ' session="s"')
        + block(daemon, "demonio")
        + block("print('fin')", "despues"),
    )
    report = run(project, executor)
    assert report.outcomes["a/usa"].observed == "None"  # still running for the next block
    assert running(marker) == []
    for key in ("a/arranca", "a/demonio"):
        (finding,) = _stopped(report, key)
        assert f"sleep {marker}" in finding.message and finding.level is Level.INFO
    assert not _stopped(report, "a/usa") and not _stopped(report, "a/despues")
    assert not [f for f in errors(report.findings) if f.kind != Kind.MISSING_RECORDING]


def test_a_process_started_from_another_thread_is_stopped(
    project: Project, executor: Executor, tmp_path: Path
) -> None:
    """A block's thread starts a process and keeps running: the process is that thread's
    child, not the main thread's, and it is stopped with the page all the same."""
    marker = _marker(tmp_path)
    code = (
        "import subprocess, threading, time\n"
        "arrancado = threading.Event()\n"
        "def trabajo():\n"
        f'    proceso = subprocess.Popen(["sleep", "{marker}"])\n'
        "    arrancado.set()\n"
        "    time.sleep(300)\n"
        "threading.Thread(target=trabajo, daemon=True).start()\n"
        "print(arrancado.wait(30))"
    )
    project.page("a.md", block(code, "hilo") + block("print('fin')", "despues"))
    try:
        report = run(project, executor)
        assert report.outcomes["a/hilo"].observed == "True"
        (finding,) = _stopped(report, "a/hilo")
        assert f"sleep {marker}" in finding.message
        assert running(marker) == []
    finally:
        for pid in running(marker):  # left only when the reaper missed it: not for 300 s
            os.kill(pid, signal.SIGKILL)


def test_a_process_nobody_saw_start_is_the_block_of_its_nearest_seen_ancestor() -> None:
    """After each block the page looks at what is running; a process started after the last
    look (while the page was being stopped, say) belongs to the block of the nearest of its
    ancestors that was seen, however many levels up; with none, to the page's last block."""
    from docverify.running import child  # noqa: PLC0415 - imports torch

    stopped = [
        processes.Stopped(10, 1, "sh -c bucle"),
        processes.Stopped(11, 10, "sh -c otro"),
        processes.Stopped(12, 11, "sleep 300"),
        processes.Stopped(20, 1, "huérfano"),
    ]
    found = child.by_block(stopped, {10: "a/uno"}, "a/dos")
    assert found == {"a/uno": ["sh -c bucle", "sh -c otro", "sleep 300"], "a/dos": ["huérfano"]}


def test_a_process_that_already_ended_is_not_reported(project: Project, executor: Executor) -> None:
    """A child that exited but was not waited for (a zombie) is reaped, never reported as a
    process left running."""
    code = (
        "import os, shutil, time\n"
        "true = shutil.which('true')\n"
        "hijo = os.posix_spawn(true, [true], os.environ)  # never waited for\n"
        "time.sleep(0.3)\n"
        "print('fin')"
    )
    project.page("a.md", block(code, "zombi"))
    report = run(project, executor)
    assert report.outcomes["a/zombi"].observed == "fin"
    assert not [f for f in report.findings if f.kind == Kind.STOPPED_PROCESSES]


def test_stopping_goes_on_round_after_round_until_nothing_is_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a process forks while it is being stopped is found by the next look: the rounds
    go on until a look finds nothing. Each look is faked here (one new process each time, as a
    process forking under the page would leave); the processes are real and are stopped."""
    marker = _marker(tmp_path)
    started = [subprocess.Popen(["sleep", marker]) for _ in range(3)]
    root = subprocess.Popen(["sleep", marker])  # the page process: it has no children here
    looks = iter([[p.pid] for p in started] + [[]])
    monkeypatch.setattr(processes, "descendants", lambda _root, _skip=(): next(looks))
    try:
        stopped = processes.stop_descendants(root.pid)
        assert [p.pid for p in stopped] == [p.pid for p in started]
        assert [p.wait(timeout=5) for p in started] == [-signal.SIGKILL] * 3
    finally:
        for process in [*started, root]:
            process.kill()
            process.wait()


HOLDER = "if os.fork() == 0:\n    time.sleep(20)\n    os._exit(0)\n"


@pytest.mark.parametrize("holder", [False, True], ids=["popen", "popen-y-fork"])
def test_a_page_killed_on_timeout_leaves_nothing_running(
    project: Project, executor: Executor, tmp_path: Path, holder: bool
) -> None:
    """The engine kills a page on a timeout: its worker adopts what the page left and stops
    it; with `holder`, also a forked child that holds the page's pipe open (which would keep
    the worker waiting 20 s for that pipe to close)."""
    marker = _marker(tmp_path)
    code = (
        "import os, subprocess, time\n"
        f'subprocess.Popen(["sleep", "{marker}"])\n'
        + (HOLDER if holder else "")
        + "while True:\n    pass"
    )
    project.page("a.md", block(code, "cuelga", ' timeout="1"') + block("print(1)", "sigue"))
    started = time.monotonic()
    report = run(project, executor)
    assert time.monotonic() - started < 15  # not the 20 s of the forked child
    assert running(marker) == []
    (failure,) = [f for f in report.findings if f.kind == Kind.EXECUTION_FAILURE]
    assert "tiempo límite" in failure.message
    (finding,) = _stopped(report, "a/cuelga")
    assert f"sleep {marker}" in finding.message
    assert report.outcomes["a/sigue"].observed == "1"


@pytest.mark.parametrize(
    ("end", "options"),
    [("os._exit(7)\n", ""), ("while True:\n    pass\n", ' timeout="1"')],
    ids=["os-exit", "tiempo-limite"],
)
def test_a_page_that_cannot_end_leaves_no_working_folder(
    project: Project, executor: Executor, tmp_path: Path, end: str, options: str
) -> None:
    """Each page runs in a working folder of its own, which it removes as it ends; one ended by
    os._exit in a block, or killed on a timeout, cannot: its worker removes it."""
    said = tmp_path / "carpeta.txt"
    code = f"import os\nwith open({str(said)!r}, 'w') as f:\n    f.write(os.getcwd())\n{end}"
    project.page("a.md", block(code, "termina", options) + block("print(1)", "sigue"))
    report = run(project, executor)
    assert Kind.EXECUTION_FAILURE in {f.kind for f in errors(report.findings)}
    folder = Path(said.read_text(encoding="utf-8"))
    assert folder.name.startswith("docverify-") and folder != tmp_path, folder
    assert not folder.exists(), f"{folder} sigue en disco"


def test_the_warning_of_a_popen_dropped_while_running_is_recorded_without_its_pid(
    project: Project, executor: Executor, tmp_path: Path, local_author: None
) -> None:
    """Python warns with the pid of a Popen dropped while its process runs; the recording keeps
    the pid rule's placeholder, and a new run (another pid) matches it."""
    marker = _marker(tmp_path)
    project.page("a.md", block(f'import subprocess\nsubprocess.Popen(["sleep", "{marker}"])', "b"))
    written = record(project.config, read_site(project.config), "cpu", executor)
    assert not errors(written.findings), written.findings
    recorded = (project.root / "snippets/a/b.cpu.txt").read_text(encoding="utf-8")
    assert "ResourceWarning: subprocess [pid] is still running" in recorded
    assert running(marker) == []
    for _ in range(2):
        report = run(project, executor)
        assert not errors(report.findings), report.findings
        assert _stopped(report, "a/b") and running(marker) == []


@pytest.mark.slow
def test_record_check_twice_and_build_leave_nothing_running(
    small_copy: Path, tmp_path: Path
) -> None:
    """The article's block starts `sleep` and leaves it running: `docverify record`, then
    `docverify check` twice (the second from the local cache) and a strict build pass, each
    reports the stopped process, and none is left after any of them."""
    root, marker = small_copy, _marker(tmp_path)
    page = next(p for p in read_site(config_mod.load(root)) if NEW_PAGE.endswith(p.rel))
    first = page.blocks[0]
    first.origin.write_text(
        f'import subprocess\n\nsubprocess.Popen(["sleep", "{marker}"])\n', encoding="utf-8"
    )
    local = {"DOCVERIFY_CACHE": "1", "CI": "false"}
    steps = [
        docverify(root, "record", "--runner", "cpu", NEW_PAGE),
        docverify(root, "check", "--runner", "cpu", env=local),
        docverify(root, "check", "--runner", "cpu", env=local),
    ]
    assert "desde la caché)" in steps[-1].stdout and "(0 desde" not in steps[-1].stdout
    for done in steps:
        assert done.returncode == 0, done.stdout + done.stderr
        assert f"[procesos-detenidos] el bloque «{first.key}»" in done.stdout, done.stdout
        assert running(marker) == []
    built = mkdocs_build(root, tmp_path / "site", env=local)
    assert built.returncode == 0, built.stderr
    assert running(marker) == []


def _fake_proc(root: Path, pid: int, state: str, cmdline: bytes) -> Path:
    folder = root / str(pid)
    folder.mkdir(parents=True)
    (folder / "stat").write_text(f"{pid} (sleep) {state} 1 0 0", encoding="ascii")
    (folder / "comm").write_text("sleep\n", encoding="ascii")
    (folder / "cmdline").write_bytes(cmdline)
    return folder


def test_a_process_inside_execve_is_named_by_its_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Caught between execve's new name and its arguments (seen under load: «[sleep]»), a live
    process is read again until its command line is there."""
    monkeypatch.setattr(processes, "_PROC", tmp_path)
    folder = _fake_proc(tmp_path, 41, "R", b"")
    later = threading.Timer(0.05, (folder / "cmdline").write_bytes, [b"sleep\x00300\x00"])
    later.start()
    try:
        assert processes.command(41) == "sleep 300"
    finally:
        later.cancel()


def test_a_zombie_or_a_process_without_arguments_is_named_by_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(processes, "_PROC", tmp_path)
    monkeypatch.setattr(processes, "_EXEC_SECONDS", 0.05)
    waits: list[float] = []
    sleep = time.sleep
    monkeypatch.setattr(processes.time, "sleep", lambda s: (waits.append(s), sleep(s)))
    _fake_proc(tmp_path, 42, "Z", b"")  # a zombie has no command line: no wait for one
    assert processes.command(42) == "[sleep]" and waits == []
    _fake_proc(tmp_path, 43, "S", b"")  # alive, but never any: its name once the wait is over
    assert processes.command(43) == "[sleep]" and waits
    _fake_proc(tmp_path, 44, "S", b"x" * 100)
    assert processes.command(44) == "x" * 79 + "…"


# --- In this process, on a tree of processes it starts (never its own descendants at large) ---


def _wait_for(condition, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the processes did not get there in time"
        time.sleep(0.01)


@pytest.fixture
def tree(tmp_path: Path):
    """A shell (this process's child) that runs `sleep <marker>` and waits for it: (shell,
    sleep). The shell ends once its sleep does; both are gone after the test."""
    marker = _marker(tmp_path)
    shell = subprocess.Popen(["sh", "-c", f"sleep {marker} & wait"])
    _wait_for(lambda: processes.children(shell.pid) and running(marker))
    [sleep] = processes.children(shell.pid)
    yield shell.pid, sleep, marker
    with contextlib.suppress(ProcessLookupError):
        os.kill(sleep, signal.SIGKILL)
    shell.kill()
    shell.wait()


def test_children_status_and_descendants_of_a_tree(tree) -> None:
    shell, sleep, marker = tree
    assert processes.children(os.getpid()).count(shell) == 1
    assert processes.children(shell) == [sleep]
    assert processes._status(sleep) in (("S", shell), ("R", shell))
    assert processes.alive(shell) and processes.alive(sleep)
    assert processes.descendants(shell) == [sleep]
    assert processes.descendants(shell, skip=[sleep]) == []
    assert processes.command(sleep) == f"sleep {marker}"
    assert processes._cmdline(sleep) == f"sleep {marker}"


def test_a_gone_process_has_no_status_children_nor_command(tree) -> None:
    shell, sleep, _ = tree
    os.kill(sleep, signal.SIGKILL)
    _wait_for(lambda: processes._status(shell) is not None and processes._status(shell)[0] == "Z")
    os.waitpid(shell, 0)  # the shell reaped its sleep and ended: reaped here, both are gone
    assert processes._status(sleep) is None and processes._status(shell) is None
    assert not processes.alive(sleep)
    assert processes.children(shell) == []
    assert processes._cmdline(shell) == ""
    assert processes.command(shell) == ""


def test_a_zombie_is_not_alive_and_is_named_by_its_name_in_brackets() -> None:
    child = subprocess.Popen(["sleep", "0"])
    _wait_for(lambda: processes._status(child.pid)[0] == "Z")
    assert not processes.alive(child.pid)
    assert processes.command(child.pid) == "[sleep]"
    child.wait()


@pytest.mark.parametrize("length", [80, 81])
def test_a_command_line_over_80_characters_is_shortened_to_80(length: int) -> None:
    start = f"{sys.executable} -c import time; time.sleep(60)  # "
    code = start.partition(" -c ")[2] + "x" * (length - len(start))
    whole = f"{sys.executable} -c {code}"
    assert len(whole) == length
    child = subprocess.Popen([sys.executable, "-c", code])
    try:
        _wait_for(lambda: processes._cmdline(child.pid).endswith("x"))
        shown = processes.command(child.pid)
        assert shown == (whole if length == 80 else whole[:79] + "…")
        assert len(shown) == 80
    finally:
        child.kill()
        child.wait()


def test_stop_descendants_stops_the_tree_below_a_root_and_says_what(tree) -> None:
    shell, sleep, marker = tree
    assert processes.stop_descendants(shell, skip=[sleep]) == []  # skipped: left alone
    assert processes.alive(sleep)
    stopped = processes.stop_descendants(shell)
    assert stopped == [processes.Stopped(sleep, shell, f"sleep {marker}")]
    assert running(marker) == []


def test_become_subreaper_makes_this_process_adopt_its_orphans() -> None:
    libc = ctypes.CDLL(None)
    flag = ctypes.c_int(-1)
    assert libc.prctl(37, ctypes.byref(flag), 0, 0, 0) == 0  # PR_GET_CHILD_SUBREAPER
    was = flag.value
    try:
        assert processes.become_subreaper() is True
        assert libc.prctl(37, ctypes.byref(flag), 0, 0, 0) == 0 and flag.value == 1
    finally:
        libc.prctl(processes.PR_SET_CHILD_SUBREAPER, was, 0, 0, 0)  # as it was


def test_a_name_with_a_parenthesis_does_not_confuse_the_status(tmp_path: Path) -> None:
    odd = tmp_path / "dormir) R 1 ("
    odd.symlink_to("/bin/sleep")
    child = subprocess.Popen([str(odd), _marker(tmp_path)])
    try:
        _wait_for(lambda: processes._cmdline(child.pid).endswith(_marker(tmp_path)))
        assert processes._status(child.pid) in (("S", os.getpid()), ("R", os.getpid()))
    finally:
        child.kill()
        child.wait()


def test_a_command_line_that_is_not_utf_8_is_read_with_replacements() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", b"\xffx"])
    try:
        _wait_for(lambda: processes._cmdline(child.pid).endswith("x"))
        assert processes._cmdline(child.pid).endswith(" \ufffdx")
    finally:
        child.kill()
        child.wait()


def test_descendants_go_parents_first_through_every_level(tmp_path: Path) -> None:
    marker = _marker(tmp_path)
    outer = subprocess.Popen(["sh", "-c", f"sh -c 'sleep {marker} & wait' & wait"])
    try:
        _wait_for(lambda: running(marker))
        [inner] = processes.children(outer.pid)
        [sleep] = running(marker)
        assert processes.descendants(outer.pid) == [inner, sleep]
        assert processes.descendants(outer.pid, skip=[inner]) == []
        stopped = processes.stop_descendants(outer.pid)
        assert [p.pid for p in stopped] == [inner, sleep]
        assert stopped[0].parent == outer.pid  # (the sleep's is whoever adopted it by then)
        assert running(marker) == [] and processes.children(outer.pid) == []
    finally:
        outer.kill()
        outer.wait()


# --- In a scripted world: the races, made to happen (a fake /proc, kill, waitpid and clock) ---


@dataclass
class Fake:
    """A process of the scripted world, as the kernel would show it."""

    parent: int
    state: str = "S"
    cmdline: bytes | None = None  # None: `cmd <pid>`
    dying: int = 1  # ticks of the clock from SIGKILL to a zombie (0: right after a waitpid)
    dies_in: int | None = None  # ticks left, once killed
    kill_raises: type[OSError] | None = None  # ProcessLookupError: it was reaped just before
    stat_reads: int | None = None  # reads of its stat before it is gone (reaped by its parent)
    unreadable_tasks: int = 0  # threads listed before the main one whose children fail to read
    forks: int | None = None  # a child with this pid, forked as its SIGKILL comes
    waited_elsewhere: bool = False  # reaped by another thread (a Popen.wait) just before


class World:
    """/proc, os (kill, waitpid) and time (monotonic, sleep) for the processes module, over
    `procs`; `me` is the process that calls them, `adopter` the one that adopts orphans (`me`
    when it is a subreaper; 0, init, reaps them at once)."""

    TICK = 2.0**-10  # each sleep moves the clock by one tick: exact sums
    WNOHANG = os.WNOHANG

    def __init__(self, me: int, procs: dict[int, Fake], adopter: int | None = None) -> None:
        self.me, self.procs = me, {me: Fake(0), **procs}
        self.adopter = me if adopter is None else adopter
        self.now, self.sleeps, self.kills, self.waited = 0.0, [], [], []

    def children(self, pid: int) -> list[int]:
        return [child for child, p in self.procs.items() if p.parent == pid]

    def others(self) -> list[int]:
        """The processes there are, but `me`."""
        return [pid for pid in self.procs if pid != self.me]

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += self.TICK
        for pid, p in list(self.procs.items()):
            if p.dies_in:
                p.dies_in -= 1
                if p.dies_in == 0:
                    self._die(pid)

    def _die(self, pid: int) -> None:
        p = self.procs[pid]
        p.state, p.dies_in = "Z", None
        for child in self.children(pid):
            self.procs[child].parent = self.adopter
        if p.parent == 0:
            del self.procs[pid]  # init reaps it

    def kill(self, pid: int, sig: int) -> None:
        assert sig == signal.SIGKILL
        self.kills.append(pid)
        p = self.procs.get(pid)
        if p is None or p.kill_raises is ProcessLookupError:
            self.procs.pop(pid, None)
            raise ProcessLookupError(pid)
        if p.kill_raises:
            raise p.kill_raises(pid)
        if p.state != "Z" and p.dies_in is None:
            p.dies_in = p.dying
        if p.forks is not None:
            self.procs[p.forks] = Fake(pid)

    def waitpid(self, pid: int, options: int) -> tuple[int, int]:
        assert options == os.WNOHANG  # the engine never blocks on a descendant
        self.waited.append(pid)
        p = self.procs.get(pid)
        if p is not None and p.waited_elsewhere:
            del self.procs[pid]
        if pid not in self.procs or self.procs[pid].parent != self.me:
            raise ChildProcessError(pid)
        if p.state != "Z":
            if p.dies_in == 0:  # found alive, a zombie just after
                self._die(pid)
            return 0, 0
        del self.procs[pid]
        return pid, signal.SIGKILL


class ProcPath:
    """A path under the scripted /proc."""

    def __init__(self, world: World, parts: tuple[str, ...] = ()) -> None:
        self.world, self.parts = world, parts

    def __truediv__(self, part: str) -> ProcPath:
        return ProcPath(self.world, (*self.parts, part))

    def _proc(self) -> tuple[int, Fake]:
        pid = int(self.parts[0]) if self.parts[0].isdigit() else -1
        if pid not in self.world.procs:
            raise FileNotFoundError("/proc/" + "/".join(self.parts))
        return pid, self.world.procs[pid]

    def iterdir(self) -> list[ProcPath]:  # /proc/<pid>/task
        pid, p = self._proc()
        return [self / f"gone{n}" for n in range(p.unreadable_tasks)] + [self / str(pid)]

    def read_text(self) -> str:
        pid, p = self._proc()
        name = self.parts[-1]
        if name == "children":
            if self.parts[2].startswith("gone"):
                raise FileNotFoundError("an ended thread")
            return "".join(f"{child} " for child in self.world.children(pid))
        if name == "comm":
            return f"c{pid}\n"
        assert name == "stat"
        if p.stat_reads == 0:
            del self.world.procs[pid]
            raise FileNotFoundError(pid)
        if p.stat_reads is not None:
            p.stat_reads -= 1
        return f"{pid} (c{pid}) {p.state} {p.parent} 1 1 0"

    def read_bytes(self) -> bytes:  # cmdline
        pid, p = self._proc()
        if p.state == "Z":
            return b""
        return f"cmd\0{pid}\0".encode() if p.cmdline is None else p.cmdline


@pytest.fixture
def world(monkeypatch: pytest.MonkeyPatch):
    """Put a scripted world in place of the processes module's /proc, os and time."""

    def make(me: int, procs: dict[int, Fake], adopter: int | None = None) -> World:
        made = World(me, procs, adopter)
        monkeypatch.setattr(processes, "_PROC", ProcPath(made))
        monkeypatch.setattr(processes, "os", made)
        monkeypatch.setattr(processes, "time", made)
        return made

    return make


def test_the_children_of_a_thread_that_ended_are_skipped_not_the_others(world) -> None:
    world(1, {1: Fake(0, unreadable_tasks=2), 2: Fake(1), 3: Fake(1)})
    assert processes.children(1) == [2, 3]


@pytest.mark.parametrize(
    ("state", "running"),
    [("R", True), ("S", True), ("D", True), ("T", True), ("Z", False), ("X", False)],
)
def test_a_process_is_alive_unless_it_is_a_zombie_or_dead(world, state, running) -> None:
    world(1, {2: Fake(1, state=state)})
    assert processes.alive(2) is running
    assert processes.alive(3) is False  # gone


def test_a_process_seen_under_two_parents_is_listed_once_and_the_walk_goes_on(world) -> None:
    """Re-parented while the tree is walked (its parent died), 5 is listed under 2 and 3."""
    made = world(1, {2: Fake(1), 3: Fake(1), 5: Fake(2), 6: Fake(3)})
    made.children = lambda pid: {1: [2, 3], 2: [5], 3: [5, 6]}.get(pid, [])
    assert processes.descendants(1) == [2, 3, 5, 6]


def test_a_process_inside_execve_is_waited_for_until_the_deadline_in_short_steps(
    world, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = world(1, {41: Fake(1, cmdline=b"")})
    monkeypatch.setattr(processes, "_EXEC_SECONDS", 4 * World.TICK)
    assert processes.command(41) == "[c41]"
    assert made.now == 4 * World.TICK  # until the clock reaches the deadline, no longer
    assert made.sleeps and max(made.sleeps) <= 0.01


def test_stopping_in_a_world_of_races(world) -> None:
    """Under a subreaper (1), a page that is skipped (2) and a tree: 3 and its child 4 die a
    tick after SIGKILL, 4's child 5 three ticks after; 6 ended before (a zombie), 8 too, and
    another thread reaps it just before the waitpid here; 7 ended and was reaped by its
    parent just before its SIGKILL; 9 between the look and its status read.
    Everything stopped is reaped (adopted as it dies), what ended is reaped, 2 is untouched."""
    made = world(
        1,
        {
            2: Fake(1),
            3: Fake(1),
            4: Fake(3),
            5: Fake(4, dying=3),
            6: Fake(1, state="Z"),
            7: Fake(3, kill_raises=ProcessLookupError),
            8: Fake(1, state="Z", waited_elsewhere=True),
            9: Fake(3, stat_reads=1),
        },
    )
    stopped = processes.stop_descendants(1, skip=[2])
    assert stopped == [
        processes.Stopped(3, 1, "cmd 3"),
        processes.Stopped(4, 3, "cmd 4"),
        processes.Stopped(7, 3, "cmd 7"),
        processes.Stopped(5, 4, "cmd 5"),
    ]
    assert made.others() == [2] and made.procs[2].state == "S"
    assert 2 not in made.kills and 2 not in made.waited
    assert made.now == 3 * World.TICK  # as long as 5 took to die
    assert max(made.sleeps) <= 0.01


def test_a_process_that_cannot_be_stopped_is_waited_for_until_the_deadline(
    world, monkeypatch: pytest.MonkeyPatch
) -> None:
    """1 is no subreaper: once 3 dies, its children (8, which may not be signalled, and 5,
    which takes 4 ticks to die) go to init. They are waited for, though not 1's children,
    until the deadline: the first look after it gives up."""
    monkeypatch.setattr(processes, "_REAP_SECONDS", 16 * World.TICK)
    made = world(
        1,
        {3: Fake(1), 8: Fake(3, kill_raises=PermissionError), 5: Fake(3, dying=4)},
        adopter=0,
    )
    stopped = processes.stop_descendants(1)
    assert [(p.pid, p.parent) for p in stopped] == [(3, 1), (8, 3), (5, 3)]
    assert made.others() == [8]
    assert made.now == 17 * World.TICK


def test_a_process_forked_as_its_parent_is_stopped_is_stopped_next_round_at_once(world) -> None:
    """3 forks 4 as it is stopped: 4 is adopted alive, nobody has signalled it yet. The first
    round waits only for what it stopped (3), not for 4 until the deadline: the next round
    stops 4 a tick later. (Waiting for every child of the page made a thread that starts
    processes cost each page the whole _REAP_SECONDS.)"""
    made = world(1, {3: Fake(1, forks=4)})
    stopped = processes.stop_descendants(1)
    assert [(p.pid, p.parent) for p in stopped] == [(3, 1), (4, 1)]
    assert made.others() == [] and made.now == 2 * World.TICK


def test_a_child_that_dies_just_after_it_was_waited_for_is_reaped_on_the_next_look(world) -> None:
    made = world(1, {3: Fake(1, dying=0)})
    assert processes.stop_descendants(1) == [processes.Stopped(3, 1, "cmd 3")]
    assert made.others() == [] and made.waited == [3, 3] and made.now == World.TICK


def test_a_child_that_ended_is_reaped_when_nothing_is_left_to_stop(world) -> None:
    made = world(1, {2: Fake(1), 6: Fake(1, state="Z")})
    assert processes.stop_descendants(1, skip=[2]) == []
    assert made.others() == [2] and made.waited == [6] and made.kills == []


@pytest.mark.parametrize("missing", [OSError, AttributeError], ids=["sin-libc", "sin-prctl"])
def test_become_subreaper_says_false_where_it_cannot(
    missing: type[Exception], monkeypatch: pytest.MonkeyPatch
) -> None:
    def cdll(_name: object) -> object:
        if missing is OSError:
            raise OSError("no libc")
        return object()  # a libc without prctl

    monkeypatch.setattr(processes.ctypes, "CDLL", cdll)
    assert processes.become_subreaper() is False
