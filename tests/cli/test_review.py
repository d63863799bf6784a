"""`docverify review`: a report's changed outputs accepted block by block, in a terminal.

The command runs as an author runs it, its console script on a pseudo-terminal (pty, from the
standard library) that the test types into: one key per block, no Enter.
"""

from __future__ import annotations

import contextlib
import io
import os
import pty
import re
import select
import signal
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace as NS

import pytest
from conftest import Project, docverify
from docverify.cli import main as cli
from docverify.cli import review_command
from docverify.cli.accept_command import describe
from docverify.parsing.pages import read_site
from docverify.report import accept, report_json
from support.blocks import block

pytestmark = pytest.mark.usefixtures("local_author")
SCRIPT = Path(sys.executable).parent / "docverify"
PROMPT = "¿Grabar esta salida?"


class Terminal:
    """A command on a pseudo-terminal: what it printed so far, and keys typed into it."""

    def __init__(
        self, root: Path, *args: str, env: dict[str, str] | None = None, stdin: int | None = None
    ) -> None:
        """`stdin`: the command's input when it is not the terminal (subprocess.DEVNULL)."""
        self.master, slave = pty.openpty()
        full = {k: v for k, v in os.environ.items() if k != "CI"} | (env or {})
        self.process = subprocess.Popen(
            [str(SCRIPT), *args],
            cwd=root,
            env=full,
            stdin=slave if stdin is None else stdin,
            stdout=slave,
            stderr=slave,
        )
        os.close(slave)
        self.seen = ""

    def read_until(self, text: str, count: int = 1, timeout: float = 120) -> str:
        """Read until `text` has been printed `count` times in all (or the command ended)."""
        ends = time.monotonic() + timeout
        while self.seen.count(text) < count and time.monotonic() < ends:
            ready, _, _ = select.select([self.master], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:  # the command ended and closed the terminal
                    break
                if not chunk:
                    break
                self.seen += chunk.decode("utf-8", "replace")
        assert self.seen.count(text) >= count, self.seen
        return self.seen

    def type(self, key: str) -> None:
        os.write(self.master, key.encode())

    def finish(self) -> int:
        self.read_until("docverify review:", count=2)  # the first line, then the summary
        return self.close()

    def close(self) -> int:
        """Its exit code; a command still running (a failed test) is stopped first."""
        if self.process.poll() is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=60)
        if self.process.poll() is None:
            self.process.kill()
        code = self.process.wait()
        with contextlib.suppress(OSError):
            os.close(self.master)
        return code


@pytest.fixture
def terminal(project: Project) -> Iterator[Callable[..., Terminal]]:
    """Terminals on `project`'s folder or another; each closed at the end, whatever happened."""
    started: list[Terminal] = []

    def start(
        *args: str,
        root: Path | None = None,
        env: dict[str, str] | None = None,
        stdin: int | None = None,
    ) -> Terminal:
        started.append(Terminal(root or project.root, *args, env=env, stdin=stdin))
        return started[-1]

    yield start
    for each in started:
        each.close()


def two_changed_blocks(project: Project) -> Path:
    """Two recorded blocks whose code now prints something else, and a check report of it."""
    page = project.page("a.md", block("print(1)", "b1") + block("print(2)", "b2"))
    assert docverify(project.root, "record", "--runner", "cpu").returncode == 0
    page.write_text(block("print(10)", "b1") + block("print(20)", "b2"), encoding="utf-8")
    folder = project.root / "informe"
    done = docverify(project.root, "check", "--runner", "cpu", "--report", str(folder))
    assert done.returncode == 1, done.stdout
    return folder


def test_review_accepts_one_block_of_two_and_check_shows_only_the_other(
    project: Project, terminal: Callable[..., Terminal]
) -> None:
    folder = two_changed_blocks(project)
    cfg = project.config
    planned = {
        w.key: w.text
        for w in accept.plan(cfg, read_site(cfg), report_json.read(folder), None).writes
    }
    shell = terminal("review", str(folder))
    shell.read_until(PROMPT)
    assert "[1/2] «a/b1»" in shell.seen and "+10" in shell.seen
    shell.type("a")
    shell.read_until(PROMPT, count=2)
    assert "[2/2] «a/b2»" in shell.seen
    shell.type("s")
    assert shell.finish() == 0, shell.seen
    assert "1 grabación escrita · 1 sin aceptar" in shell.seen
    # What review wrote is what accept writes (header, provenance, marks), byte for byte.
    written = (project.root / "snippets" / "a" / "b1.cpu.txt").read_text(encoding="utf-8")
    assert written == planned["a/b1"]
    checked = docverify(project.root, "check", "--runner", "cpu")
    assert checked.returncode == 1
    said = checked.stdout + checked.stderr
    diverging = re.findall(r"\[divergencia\] la salida de «([^»]+)»", said)
    assert diverging == ["a/b2"], said


def test_all_and_quit(project: Project, terminal: Callable[..., Terminal]) -> None:
    """`t` accepts the block shown and every one after it; `q` writes what was accepted."""
    folder = two_changed_blocks(project)
    shell = terminal("review", str(folder))
    shell.read_until(PROMPT)
    shell.type("x")  # not a key of the prompt: ignored, asked again
    shell.type("t")
    assert shell.finish() == 0, shell.seen
    assert "2 grabaciones escritas · 0 sin aceptar" in shell.seen
    assert docverify(project.root, "check", "--runner", "cpu").returncode == 0
    folder = two_changed_blocks(Project(project.root.parent / "otro"))
    shell = terminal("review", str(folder), root=folder.parent)
    shell.type("q")  # typed ahead, before the question: kept (no flush), then read
    assert shell.finish() == 0, shell.seen
    assert "0 grabaciones escritas · 2 sin aceptar" in shell.seen


def test_without_a_terminal_or_under_ci_nothing_is_written(
    project: Project, terminal: Callable[..., Terminal]
) -> None:
    """Input from /dev/null while the output is a terminal (`docverify review … < /dev/null`):
    no key can be read, so review refuses and points to accept, as under CI=true."""
    folder = two_changed_blocks(project)
    recordings = {p: p.read_text(encoding="utf-8") for p in project.root.rglob("*.cpu.txt")}
    shell = terminal("review", str(folder), stdin=subprocess.DEVNULL)
    shell.read_until(f"docverify accept {folder} --yes")
    assert shell.close() == 2, shell.seen
    assert PROMPT not in shell.seen and "Traceback" not in shell.seen, shell.seen
    shell = terminal("review", str(folder), env={"CI": "true"})
    shell.read_until("CI=true")
    assert shell.close() == 2
    assert PROMPT not in shell.seen
    assert {p: p.read_text(encoding="utf-8") for p in recordings} == recordings


class Stream(io.StringIO):
    """A standard stream that is, or is not, a terminal."""

    def __init__(self, terminal: bool) -> None:
        super().__init__()
        self.terminal = terminal

    def isatty(self) -> bool:
        return self.terminal


def test_review_asks_only_when_both_its_input_and_its_output_are_a_terminal(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In this process, each side of the guard on its own: review asks a key (here an injected
    reader that types «t») only with a terminal on both sides; otherwise it writes nothing,
    asks nothing and points to accept."""
    folder = two_changed_blocks(project)
    recordings = {p: p.read_text(encoding="utf-8") for p in project.root.rglob("*.cpu.txt")}
    asked: list[str] = []
    monkeypatch.setattr(
        review_command, "_key", lambda prompt: asked.append(prompt) or review_command.ALL
    )
    monkeypatch.chdir(project.root)
    for stdin, stdout in ((False, True), (True, False), (False, False), (True, True)):
        code, out, err = _on_streams(folder, monkeypatch, stdin, stdout)
        said = (stdin, stdout, out, err)
        if stdin and stdout:
            assert code == 0 and len(asked) == 1, said
            assert "2 grabaciones escritas · 0 sin aceptar" in out, said
            assert {p: p.read_text(encoding="utf-8") for p in recordings} != recordings
        else:
            assert code == 2 and asked == [], said
            assert f"docverify accept {folder} --yes" in err, said
            assert {p: p.read_text(encoding="utf-8") for p in recordings} == recordings, said


def _in_process(
    project: Project, folder: Path, keys: str, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    """`docverify review FOLDER` in this process, on «terminals», answering `keys` in turn."""
    answers = iter(keys)
    monkeypatch.setattr(review_command, "_key", lambda prompt: next(answers))
    monkeypatch.chdir(project.root)
    return _on_streams(folder, monkeypatch, stdin=True, stdout=True)


def _on_streams(
    folder: Path, monkeypatch: pytest.MonkeyPatch, stdin: bool, stdout: bool
) -> tuple[int, str, str]:
    """`docverify review FOLDER` in this process, stdin and stdout each a «terminal» or not."""
    out, err = Stream(stdout), io.StringIO()
    with monkeypatch.context() as streams:
        streams.setattr(sys, "stdin", Stream(stdin))
        streams.setattr(sys, "stdout", out)
        streams.setattr(sys, "stderr", err)
        code = cli.main(["review", str(folder)])
    return code, out.getvalue(), err.getvalue()


def test_review_says_what_it_wrote_and_what_it_left(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = two_changed_blocks(project)
    report = report_json.read(folder)
    code, out, err = _in_process(project, folder, "as", monkeypatch)
    assert (code, err) == (0, ""), out
    lines = out.splitlines()
    assert lines[0] == f"docverify review: informe {report.path} · {describe(report)}"
    assert "escrita: snippets/a/b1.cpu.txt" in lines and "escrita: snippets/a/b2.cpu.txt" not in out
    assert lines[-1] == (
        "docverify review: runner cpu · 1 grabación escrita · 1 sin aceptar (el próximo "
        "docverify check las sigue mostrando). Revisa con git diff y confirma."
    )


def test_an_interrupted_review_writes_nothing(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = two_changed_blocks(project)
    recordings = {p: p.read_text(encoding="utf-8") for p in project.root.rglob("*.cpu.txt")}
    keys = iter("a")

    def key(prompt: str) -> str:
        for each in keys:  # the first block accepted, Ctrl+C at the second
            return each
        raise KeyboardInterrupt

    monkeypatch.setattr(review_command, "_key", key)
    monkeypatch.chdir(project.root)
    out = Stream(True)
    with monkeypatch.context() as streams:
        streams.setattr(sys, "stdin", Stream(True))
        streams.setattr(sys, "stdout", out)
        code = cli.main(["review", str(folder)])
    assert code == 1, out.getvalue()
    assert out.getvalue().endswith("\n\ndocverify review: interrumpido; no se ha escrito nada.\n")
    assert {p: p.read_text(encoding="utf-8") for p in recordings} == recordings


@pytest.mark.parametrize(
    ("unchanged", "said"),
    [(["a/b1"], "1 salida ya coincide"), (["a/b1", "a/b2"], "2 salidas ya coinciden")],
)
def test_with_nothing_to_write_review_asks_nothing(
    unchanged: list[str],
    said: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    asked: list[str] = []
    names: list[str] = []
    plan = accept.Plan(report=None, runner="cpu", unchanged=unchanged)  # type: ignore[arg-type]
    monkeypatch.setattr(review_command, "configuration", names.append)
    monkeypatch.setattr(
        review_command, "plan_report", lambda cfg, args, name: names.append(name) or (None, plan)
    )
    monkeypatch.setattr(review_command, "_key", lambda prompt: asked.append(prompt) or "t")
    assert review_command._review(NS(folder="informe", runner=None)) == 0
    assert capsys.readouterr().out == f"docverify review: {said}; nada que revisar.\n"
    assert (names, asked) == (["review", "review"], [])


def test_a_report_that_cannot_be_planned_exits_2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(review_command, "configuration", lambda name: None)
    monkeypatch.setattr(review_command, "plan_report", lambda cfg, args, name: None)
    assert review_command._review(NS(folder="informe", runner=None)) == 2


def _proposals(*keys: str) -> list[NS]:
    return [NS(key=key, path=Path(f"{key}.txt"), diff=f"-{key}\n+{key}!") for key in keys]


@pytest.mark.parametrize(
    ("keys", "chosen"),
    [("sas", ["b2"]), ("st", ["b2", "b3"]), ("at", ["b1", "b2", "b3"]), ("aq", ["b1"]), ("q", [])],
)
def test_each_key_of_the_prompt(
    keys: str,
    chosen: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`a` accepts the block shown, `s` skips it, `t` accepts it and all the rest, `q` stops:
    each asked once per block until then."""
    answers = iter(keys)
    asked: list[str] = []
    monkeypatch.setattr(
        review_command, "_key", lambda prompt: asked.append(prompt) or next(answers)
    )
    cfg = NS(rel=lambda path: f"snippets/{path.name}")
    writes = _proposals("b1", "b2", "b3")
    assert [w.key for w in review_command._ask(cfg, writes)] == chosen  # type: ignore[arg-type]
    assert asked == [review_command.PROMPT] * len(keys)
    shown = "".join(
        f"\n[{n}/3] «b{n}» → snippets/b{n}.txt\n-b{n}\n+b{n}!\n\n" for n in range(1, len(keys) + 1)
    )
    assert capsys.readouterr().out == shown


@pytest.fixture
def keyboard(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """A pseudo-terminal as this process's standard input: its master end, to type into."""
    master, slave = pty.openpty()
    monkeypatch.setattr(sys, "stdin", os.fdopen(slave, "r", closefd=False))
    yield master
    os.close(master)
    os.close(slave)


def _never_ends(*_: object) -> None:
    raise TimeoutError("la lectura de la tecla no terminó: ninguna tecla la acaba, ni «q»")


def test_a_key_is_read_without_enter_and_the_terminal_restored(
    keyboard: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """Typed ahead of the prompt (kept, not flushed): a key not of the prompt, a byte that is
    not text, then «A» and «s»: read one by one, the capital taken for «a»."""
    before = termios.tcgetattr(sys.stdin.fileno())
    os.write(keyboard, b"x\xffAs")
    time.sleep(0.5)  # the terminal holds them before the prompt switches it to cbreak mode
    later = threading.Timer(3, os.write, (keyboard, b"q"))  # a wrong read gets «q», not a hang
    later.start()
    # A read that never ends (no key ever taken, «q» included) fails the test instead of hanging
    # the suite: the alarm's handler raises in this thread, out of os.read.
    previous = signal.signal(signal.SIGALRM, _never_ends)
    signal.setitimer(signal.ITIMER_REAL, 10)
    try:
        key = review_command._key("¿Grabar? ")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        later.cancel()
    assert key == "a"
    assert capsys.readouterr().out == "¿Grabar? a\n"
    assert termios.tcgetattr(sys.stdin.fileno()) == before


class Screen(io.StringIO):
    """Standard output as a terminal shows it: what was written, once flushed."""

    shown = ""

    def flush(self) -> None:
        self.shown = self.getvalue()


def test_the_prompt_is_on_screen_before_the_key_and_the_end_of_input_is_quit(
    keyboard: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The question is flushed before the wait for a key; an empty read (the end of the input)
    answers «q»."""
    screen = Screen()
    seen: list[str] = []
    reads = iter([b"", b"a"])

    def read(fd: int, size: int) -> bytes:
        seen.append(screen.shown)
        return next(reads)

    monkeypatch.setattr(sys, "stdout", screen)
    monkeypatch.setattr(review_command, "os", NS(read=read))
    assert review_command._key("¿Grabar? ") == "q"
    assert seen == ["¿Grabar? "]
    assert screen.getvalue() == "¿Grabar? q\n"
