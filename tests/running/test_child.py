"""running.child: what a block prints and in which order, seeds, isolation, crashes, timeouts."""

from __future__ import annotations

import builtins
import importlib.metadata
import os
import random
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

import numpy
import pytest
import torch
from conftest import Project
from docverify.core import hashing, policies
from docverify.core.kinds import Kind
from docverify.core.policies import AS_WRITTEN
from docverify.running import processes
from docverify.running.executor import Executor
from support.blocks import block, run, run_here, spec


def test_capture_stdout_stderr_warnings_in_order(project: Project, executor: Executor) -> None:
    code = """
import sys, warnings
print("uno")
print("dos", file=sys.stderr)
warnings.warn("cuidado")
print("tres")
"""
    project.page("a.md", block(code, "captura"))
    report = run(project, executor)
    assert report.outcomes["a/captura"].observed == "uno\ndos\nUserWarning: cuidado\ntres"


def test_c_level_output_is_captured(project: Project, executor: Executor) -> None:
    project.page("a.md", block("import os\nos.write(1, b'desde C\\n')\nprint('python')", "fd"))
    assert run(project, executor).outcomes["a/fd"].observed == "desde C\npython"


def test_output_written_to_fd_2_interleaves_with_print(
    project: Project, executor: Executor
) -> None:
    """What C code writes straight to file descriptors 1 and 2 keeps its place among the
    block's prints, also within one statement (a loop, a function)."""
    code = (
        "import os, sys\n"
        "for i in range(2):\n"
        "    os.write(2, f'fd2 {i}\\n'.encode())\n"
        "    print('print', i)\n"
        "    os.write(1, f'fd1 {i}\\n'.encode())\n"
        "    print('stderr', i, file=sys.stderr)\n"
        "os.write(2, b'fin\\n')"
    )
    project.page("a.md", block(code, "fd2"))
    assert run(project, executor).outcomes["a/fd2"].observed.split("\n") == [
        "fd2 0",
        "print 0",
        "fd1 0",
        "stderr 0",
        "fd2 1",
        "print 1",
        "fd1 1",
        "stderr 1",
        "fin",
    ]


def test_warnings_are_not_deduplicated(project: Project, executor: Executor) -> None:
    code = "import warnings\nfor _ in range(2):\n    warnings.warn('otra vez')"
    project.page("a.md", block(code, "w"))
    assert run(project, executor).outcomes["a/w"].observed == (
        "UserWarning: otra vez\nUserWarning: otra vez"
    )


LOOK = (
    "import random, numpy, torch\n"
    "print(torch.get_default_dtype(), torch.rand(1).item(), random.random(), numpy.random.random())"
)


def test_pages_are_isolated_and_seeded(project: Project, executor: Executor) -> None:
    leak = "import torch\ntorch.set_default_dtype(torch.float64)\nprint(torch.get_default_dtype())"
    project.page("a.md", block(leak, "leak"))
    project.page("b.md", block(LOOK, "look") + block(LOOK, "again"))
    report = run(project, executor)
    assert report.outcomes["a/leak"].observed == "torch.float64"
    first = report.outcomes["b/look"].observed
    assert first.startswith("torch.float32 ")
    assert report.outcomes["b/again"].observed == first  # seeds reset before each block


def test_torch_random_and_numpy_share_the_configured_seed(
    project: Project, executor: Executor
) -> None:
    """Each block starts with torch, random and numpy's global generator seeded with `seed`, as
    if it began with the three seed calls itself."""
    pyproject = project.root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text(encoding="utf-8") + "seed = 7\n", encoding="utf-8")
    by_hand = (
        "import random, numpy, torch\ntorch.manual_seed(7); random.seed(7); numpy.random.seed(7)\n"
    )
    project.page(
        "a.md",
        block("import numpy\nnumpy.random.random(5)", "gasta")
        + block(LOOK, "motor")
        + block(by_hand + LOOK.split("\n", 1)[1], "a-mano"),
    )
    report = run(project, executor)
    seeded = report.outcomes["a/motor"].observed
    assert seeded == report.outcomes["a/a-mano"].observed
    values = seeded.split()
    assert float(values[2]) == random.Random(7).random()
    assert float(values[3]) == numpy.random.RandomState(7).random_sample()


def test_working_directory_is_outside_the_repo(project: Project, executor: Executor) -> None:
    project.page("a.md", block("import os\nprint(os.getcwd())", "cwd"))
    cwd = Path(run(project, executor).outcomes["a/cwd"].observed)
    assert project.root not in cwd.parents and cwd != project.root
    assert Path.cwd() not in (cwd, *cwd.parents)


def test_sessions_share_state_within_a_page(project: Project, executor: Executor) -> None:
    project.page(
        "a.md",
        block("x = 5", "def", ' session="s"')
        + block("print(x)", "use", ' session="s"')
        + block("print('x' in dir())", "no"),
    )
    report = run(project, executor)
    assert report.outcomes["a/use"].observed == "5"
    assert report.outcomes["a/no"].observed == "False"


def test_timeout_names_the_block_and_the_run_goes_on(project: Project, executor: Executor) -> None:
    project.page(
        "a.md",
        block("while True: pass", "bucle", ' timeout="1"') + block("print('sigo')", "despues"),
    )
    started = time.monotonic()
    report = run(project, executor)
    assert time.monotonic() - started < 30
    (finding, *_) = [f for f in report.findings if f.kind == Kind.EXECUTION_FAILURE]
    assert "a/bucle" in finding.message and "tiempo límite de 1 s" in finding.message
    assert report.outcomes["a/despues"].observed == "sigo"


@pytest.mark.parametrize(
    ("code", "needle"),
    [
        ("import sys\nsys.exit(3)", "sys.exit(3)"),
        ("import os\nos._exit(7)", "código de salida 7"),
        ("print('x' * 200_000)", "límite"),
        ("def f(:\n  pass", "sintaxis"),
    ],
)
def test_crashes_fail_the_block_clearly(
    project: Project, executor: Executor, code: str, needle: str
) -> None:
    project.page("a.md", block(code, "malo") + block("print('vivo')", "bueno"))
    report = run(project, executor)
    failures = [f for f in report.findings if f.kind == Kind.EXECUTION_FAILURE]
    assert len(failures) == 1 and needle in failures[0].message
    assert "a/malo" in failures[0].message
    assert report.outcomes["a/bueno"].observed == "vivo"


def test_session_after_a_crash_is_skipped(project: Project, executor: Executor) -> None:
    project.page(
        "a.md",
        block("import os\nos._exit(1)", "c", ' session="s"')
        + block("print(1)", "d", ' session="s"'),
    )
    report = run(project, executor)
    assert "misma sesión" in report.outcomes["a/d"].result["error"]


# --- random streams: one per session, as in a script -------------------------------------------

DRAW = (
    "import random, numpy, torch\n"
    "print(torch.rand(3).tolist(), random.random(), numpy.random.random())"
)


def _script(draws: int, seed: int = 0) -> list[str]:
    """What one script prints that seeds once at its top and then runs DRAW `draws` times."""
    torch.manual_seed(seed)
    python, generator = random.Random(seed), numpy.random.RandomState(seed)
    return [
        f"{torch.rand(3).tolist()} {python.random()} {generator.random_sample()}"
        for _ in range(draws)
    ]


def test_a_session_is_one_random_stream_as_in_a_script(
    project: Project, executor: Executor
) -> None:
    """Two blocks of a session draw what one script that seeds once draws: different values,
    the second continuing the first; a block without a session between them changes neither and
    starts from the seed itself."""
    session = ' session="s"'
    more = "\ntorch.rand(100); random.random(); numpy.random.random(7)"  # drawn after printing
    project.page(
        "a.md",
        block(DRAW, "uno", session) + block(DRAW + more, "suelto") + block(DRAW, "dos", session),
    )
    report = run(project, executor)
    first, second = _script(2)
    assert first != second
    assert report.outcomes["a/uno"].observed == first
    assert report.outcomes["a/dos"].observed == second
    assert report.outcomes["a/suelto"].observed == first  # from the seed, disturbing nothing


def test_interleaved_sessions_keep_their_own_streams(project: Project, executor: Executor) -> None:
    project.page(
        "a.md",
        "".join(
            block(DRAW, f"{name}-{n}", f' session="{name}"')
            for n in (1, 2, 3)
            for name in ("s", "t")
        ),
    )
    report = run(project, executor)
    script = _script(3)
    for name in ("s", "t"):
        assert [report.outcomes[f"a/{name}-{n}"].observed for n in (1, 2, 3)] == script, name


def test_each_block_of_a_session_starts_with_cuda_at_the_seed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """CUDA's generator is saved with a session's stream only once CUDA is initialised: before
    each block of a session, every device's generator is put at the seed first, so a session
    that never drew from CUDA continues it from the seed, not from where the page's last block
    left it. No GPU here: torch.cuda.manual_seed_all, which torch.manual_seed calls for every
    device, is replaced by a recorder; the CPU stream still continues the session's."""
    from docverify.running import child  # noqa: PLC0415 - imports torch

    seeded: list[int] = []
    monkeypatch.setattr(torch.cuda, "manual_seed_all", seeded.append)
    streams, drawn = child.Streams(), []
    for n in (1, 2):
        block_spec = spec(DRAW, key=f"p/b{n}", session="s", seed=11)
        seeded.clear()
        streams.begin(block_spec)
        assert seeded == [11], (n, seeded)
        drawn.append(torch.rand(3).tolist())
        streams.end(block_spec)
        torch.manual_seed(12345)  # what a block outside the session leaves behind
    torch.manual_seed(11)
    assert drawn == [torch.rand(3).tolist(), torch.rand(3).tolist()]


def test_once_cuda_is_initialised_a_session_keeps_cudas_stream_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A session that drew from CUDA continues CUDA's stream, not the seed: its generator's
    state is saved after each block of the session and put back, after the seed, before the
    next. No GPU here: CUDA is said to be initialised and its generator is a fake whose states
    are numbered; the seeding is recorded."""
    from docverify.running import child  # noqa: PLC0415 - imports torch

    states = iter(range(1, 100))
    calls: list[tuple[str, object]] = []
    monkeypatch.setattr(torch.cuda, "is_initialized", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_rng_state_all", lambda: [f"cuda {next(states)}"])
    monkeypatch.setattr(torch.cuda, "set_rng_state_all", lambda s: calls.append(("put", s)))
    monkeypatch.setattr(torch.cuda, "manual_seed_all", lambda s: calls.append(("seed", s)))
    streams = child.Streams()
    for n in (1, 2, 3):
        streams.begin(spec(DRAW, key=f"p/s{n}", session="s", seed=5))
        streams.end(spec(DRAW, key=f"p/s{n}", session="s", seed=5))
        other = spec(DRAW, key=f"p/t{n}", session="t", seed=5)
        streams.begin(other)
        streams.end(other)
    puts = [state for kind, state in calls if kind == "put"]
    assert puts == [["cuda 1"], ["cuda 2"], ["cuda 3"], ["cuda 4"]]  # s, t, s, t: each its own
    assert [calls[i - 1] for i, (kind, _) in enumerate(calls) if kind == "put"] == [("seed", 5)] * 4


def test_an_exception_is_shown_as_python_shows_it() -> None:
    """A block's exception: `Type: message` with every line of the message (load_state_dict
    lists one size mismatch per line) and the notes after it, as Python prints them; of a
    SyntaxError, only its `Type: message`, without the indented file, code and caret lines."""
    message = "Error(s) in loading state_dict:\n\tsize mismatch for a\n\tsize mismatch for b"
    assert run_here(f"raise RuntimeError({message!r})\n")["output"] == f"RuntimeError: {message}\n"
    noted = run_here("e = ValueError('x')\ne.add_note('una nota')\nraise e\n")
    assert noted["output"] == "ValueError: x\nuna nota\n"
    try:
        eval("x = (")  # the same SyntaxError the block raises
    except SyntaxError as exc:
        expected = f"SyntaxError: {exc.msg}\n"
    assert run_here("eval('x = (')\n")["output"] == expected


# --- in this process: each part of a page process, without forking one -------------------------
# The tests above run child.py in a page process the executor forked; these call its functions
# here, with a stand-in for the pipe, so that each part is checked on its own.


class Conn:
    """A page process's end of its pipe: what was sent through it, and whether it was closed."""

    def __init__(self) -> None:
        self.sent: list[Any] = []
        self.closed = False

    def send(self, message: Any) -> None:
        assert not self.closed, message
        self.sent.append(message)

    def close(self) -> None:
        self.closed = True


def test_the_environment_names_torch_python_and_the_device_as_plain_strings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On the cpu runner the device is the machine's architecture; on the gpu runner, the name
    of CUDA's first device (a recorder here: no GPU). Plain str values: a TorchVersion would
    import torch in the parent that unpickles it."""
    from docverify.running import child  # noqa: PLC0415 - imports torch

    asked: list[int] = []
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda i: asked.append(i) or f"Tarjeta {i}")
    env = child.environment("cpu")
    assert env == {
        "torch": importlib.metadata.version("torch"),
        "python": "{}.{}.{}".format(*sys.version_info[:3]),
        "device": f"cpu ({os.uname().machine})",
    }
    assert [type(value) for value in env.values()] == [str, str, str]
    assert asked == []
    assert child.environment("gpu")["device"] == "Tarjeta 0"
    assert asked == [0]


@pytest.mark.parametrize(("available", "sent"), [(1, True), (0, False)])
def test_the_probe_sends_whether_cuda_is_available_as_a_bool_and_closes(
    monkeypatch: pytest.MonkeyPatch, available: int, sent: bool
) -> None:
    from docverify.running import child  # noqa: PLC0415 - imports torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: available)
    conn = Conn()
    child.probe(conn)  # type: ignore[arg-type]
    assert conn.sent == [sent] and type(conn.sent[0]) is bool
    assert conn.closed


def test_the_probe_closes_its_end_when_asking_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    from docverify.running import child  # noqa: PLC0415 - imports torch

    def broken() -> bool:
        raise RuntimeError("sin controlador")

    monkeypatch.setattr(torch.cuda, "is_available", broken)
    conn = Conn()
    with pytest.raises(RuntimeError, match="sin controlador"):
        child.probe(conn)  # type: ignore[arg-type]
    assert conn.sent == [] and conn.closed


def test_identify_sends_the_interpreter_and_torchs_version_and_file() -> None:
    from docverify.running import child  # noqa: PLC0415 - imports torch

    conn = Conn()
    child.identify(conn)  # type: ignore[arg-type]
    [sent] = conn.sent
    assert sent == {
        "executable": sys.executable,
        "torch": importlib.metadata.version("torch"),
        "torch_file": str(Path(importlib.util.find_spec("torch").origin)),  # type: ignore[union-attr]
    }
    assert [type(value) for value in sent.values()] == [str, str, str]
    assert conn.closed


def test_a_blocks_result_has_every_field_and_nothing_else() -> None:
    """A block that runs to its end: its output, no error nor exception, no shown value (its
    last statement is a call that returns None), its own device marks (none), and how long it
    took, measured around its run."""
    from docverify.running import child  # noqa: PLC0415 - imports torch

    namespace: dict[str, Any] = {}
    before = time.perf_counter()
    result = child.run_block(spec("print(__name__)\nprint('hola')"), namespace)
    elapsed = time.perf_counter() - before
    duration = result.pop("duration")
    assert 0 < duration <= elapsed
    assert result == {
        "output": "__main__\nhola\n",
        "error": None,
        "exception": None,
        "traceback": "",
        "expectations": [],
        "output_lines": [1, 2, 2],
        "device_dependent": [],
    }
    assert namespace["__name__"] == "__main__"
    assert set(namespace) == {"__name__", "__builtins__"}  # the block defined nothing
    assert namespace["__builtins__"] in (builtins, vars(builtins))


@pytest.mark.parametrize("first_line", [1, 7])
def test_a_syntax_error_names_the_file_and_the_line_in_it(first_line: int) -> None:
    from docverify.running import child  # noqa: PLC0415 - imports torch

    code = "x = 1\ndef f(:\n  pass"
    try:
        compile(code, "b.py", "exec")
    except SyntaxError as exc:
        line, message = exc.lineno + first_line - 1, exc.msg  # type: ignore[operator]
    result = child.run_block(spec(code, first_line=first_line), {})
    assert result["error"] == f"error de sintaxis en b.py:{line}: {message}"
    assert (result["output"], result["exception"], result["traceback"]) == ("", None, "")
    assert result["expectations"] == [] and "output_lines" not in result
    assert result["duration"] == 0.0  # nothing ran


@pytest.mark.parametrize(
    ("call", "shown", "first_line", "line"), [("3", "3", 1, 3), ("'adiós'", "'adiós'", 10, 12)]
)
def test_sys_exit_stops_the_block_naming_the_call_and_its_line(
    call: str, shown: str, first_line: int, line: int
) -> None:
    from docverify.running import child  # noqa: PLC0415 - imports torch

    code = f"print('antes')\nimport sys\nsys.exit({call})\nprint('después')"
    result = child.run_block(spec(code, first_line=first_line), {})
    assert result["error"] == (
        f"el bloque llamó a sys.exit({shown}) en b.py:{line}; un bloque no puede terminar su "
        "proceso"
    )
    assert result["output"] == "antes\n" and result["exception"] is None


def test_the_output_limit_stops_the_block_at_the_write_that_passes_it() -> None:
    from docverify.running import child  # noqa: PLC0415 - imports torch

    namespace: dict[str, Any] = {}
    code = "print('1234')\nprint('5678')\nsiguió = True"
    result = child.run_block(spec(code, output_limit=8), namespace)
    assert result["error"] == "la salida supera el límite de 8 caracteres"
    assert result["output"] == "1234\n" and "siguió" not in namespace
    exact = child.run_block(spec("print('1234')\nprint('56')", output_limit=8), {})
    assert (exact["error"], exact["output"]) == (None, "1234\n56\n")  # 8 characters: allowed


def test_an_exception_is_recorded_with_its_type_message_line_and_the_blocks_frames() -> None:
    from docverify.running import child  # noqa: PLC0415 - imports torch

    code = "x = 1\ndef f():\n    raise KeyError('k')\nf()\nprint('no')"
    result = child.run_block(spec(code, first_line=5), {})
    assert result["error"] is None
    assert result["output"] == "KeyError: 'k'\n"
    assert result["exception"] == "KeyError: 'k'"
    assert result["exception_type"] == ["KeyError", "builtins.KeyError"]
    assert result["exception_message"] == "'k'"
    assert result["exception_line"] == 7
    assert result["output_lines"][0] == 7
    assert result["traceback"] == "  b.py:8: f()\n  b.py:7: raise KeyError('k')\nKeyError: 'k'"


@pytest.mark.parametrize("message", ["fin \t", "eje X"])
def test_a_blocks_own_exception_class_is_named_by_its_qualified_name_in_main(
    message: str,
) -> None:
    """Its type by name and by module and qualified name; its message as it is, whatever it
    ends with: only the newline that ends the exception's line is dropped."""
    from docverify.running import child  # noqa: PLC0415 - imports torch

    code = f"class A:\n    class B(Exception):\n        pass\nraise A.B({message!r})"
    result = child.run_block(spec(code), {})
    assert result["exception_type"] == ["B", "__main__.A.B"]
    assert result["exception"] == f"A.B: {message}"
    assert result["exception_message"] == message


def test_a_warning_python_gives_while_reading_a_block_names_the_blocks_file_and_line() -> None:
    """Read before its output is captured, so the page process's own stderr shows it: with the
    block's file and line (a recorder stands in for that stderr here)."""
    from docverify.running import child  # noqa: PLC0415 - imports torch

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        child.run_block(spec("x = 1\ny = '\\d'", first_line=4), {})
    assert [(w.filename, w.lineno) for w in caught] == [("b.py", 5)]
    assert "\\d" in str(caught[0].message)


def test_an_exception_at_the_output_limit_is_recorded_but_not_written() -> None:
    from docverify.running import child  # noqa: PLC0415 - imports torch

    result = child.run_block(spec("print('abcd')\nraise ValueError('x')", output_limit=5), {})
    assert result["output"] == "abcd\n" and result["error"] is None
    assert result["exception"] == "ValueError: x"
    assert result["exception_line"] == 2


def test_expectations_pair_with_what_their_whole_statement_printed() -> None:
    """A `# Expectativa:` inside a loop's body is paired with everything the loop printed."""
    from docverify.running import child  # noqa: PLC0415 - imports torch

    code = "print(1)  # Expectativa: 1\nfor i in range(2):\n    print(i)  # Expectativa: 0\n"
    assert child.run_block(spec(code), {})["expectations"] == [
        {"line": 1, "expected": "1", "observed": "1"},
        {"line": 3, "expected": "0", "observed": "0\n1"},
    ]


def test_only_the_last_bare_expression_is_shown_and_only_when_asked() -> None:
    from docverify.running import child  # noqa: PLC0415 - imports torch

    shown = child.run_block(spec("1\n2 + 3"), {})
    assert (shown["output"], shown["value"]) == ("5\n", "5\n")
    assert shown["output_lines"] == [2, 2]
    hidden = child.run_block(spec("1\n2 + 3", show_last_value=False), {})
    assert hidden["output"] == "" and "value" not in hidden
    none = child.run_block(spec("print('a')\nNone"), {})
    assert none["output"] == "a\n" and "value" not in none


def test_what_c_code_printed_while_the_shown_expression_ran_comes_before_its_value() -> None:
    from docverify.running import child  # noqa: PLC0415 - imports torch

    result = child.run_block(spec("import os\n(os.write(1, b'C\\n'), 7)[1]"), {})
    assert result["output"] == "C\n7\n"


def test_what_c_code_wrote_is_traced_to_the_statement_that_ran() -> None:
    from docverify.running import child  # noqa: PLC0415 - imports torch

    result = child.run_block(spec("import os\n\nos.write(1, b'C\\n')\nprint('py')"), {})
    assert result["output"] == "C\npy\n"
    assert result["output_lines"] == [3, 4, 4]


def test_every_warning_is_written_each_time_and_the_filters_are_restored() -> None:
    from docverify.running import child  # noqa: PLC0415 - imports torch

    before = (warnings.showwarning, list(warnings.filters))
    code = "import warnings\nfor _ in range(2):\n    warnings.warn('otra vez')"
    result = child.run_block(spec(code), {})
    assert result["output"] == "UserWarning: otra vez\nUserWarning: otra vez\n"
    assert (warnings.showwarning, list(warnings.filters)) == before


def test_a_session_carries_its_earlier_marks_and_nothing_else_does() -> None:
    from docverify.running import child  # noqa: PLC0415 - imports torch

    carried: dict[str, set[str]] = {}
    for session in (None, ""):
        result: Any = {"device_dependent": ["device"]}
        child.carry_marks(result, session, carried)
        assert result == {"device_dependent": ["device"]} and carried == {}
    first: Any = {"device_dependent": ["device", "random"]}
    child.carry_marks(first, "s", carried)
    assert first["device_dependent"] == ["random", "device"]  # the canonical order
    later: Any = {"device_dependent": ["accelerator"]}
    child.carry_marks(later, "s", carried)
    assert later["device_dependent"] == ["random", "accelerator", "device"]
    bare: Any = {}
    child.carry_marks(bare, "t", carried)
    assert bare == {"device_dependent": []}
    assert carried == {"s": {"random", "device", "accelerator"}, "t": set()}


def page_spec(key: str, code: str, **changes: Any) -> Any:
    """A block of a page run in this process, whose string hashing it matches."""
    return spec(
        code,
        key=key,
        filename=f"{key}.py",
        device_policy=AS_WRITTEN,
        hash_seed=int(hashing.STARTED_WITH or 0),
        **changes,
    )


def test_a_page_sends_its_environment_each_block_in_order_and_its_end(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Run in the working folder it was given, with the page's data files copied in (one that
    vanished left out), torch's threads set; then the folder is removed, the process is left in
    the temporary folder and the pipe closed. No GPU: the gpu runner's device name is made up."""
    from docverify.running import child  # noqa: PLC0415 - imports torch

    monkeypatch.chdir(tmp_path)
    threads: list[int] = []
    monkeypatch.setattr(torch, "set_num_threads", threads.append)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda i: f"Tarjeta {i}")
    (tmp_path / "fuente.txt").write_text("contenido", encoding="utf-8")
    data = {"datos.txt": str(tmp_path / "fuente.txt"), "falta.txt": str(tmp_path / "no-está")}
    work = tmp_path / "trabajo"
    work.mkdir()
    blocks = [
        page_spec(
            "p/a", "import os, pathlib\nprint(os.getcwd(), pathlib.Path('datos.txt').read_text())"
        ),
        page_spec("p/b", "import os\nprint(sorted(os.listdir()))", data_paths=data),
    ]
    conn = Conn()
    child.run_page(conn, {"runner": "gpu", "blocks": blocks}, workdir=str(work))  # type: ignore[arg-type]
    assert [m[:2] for m in conn.sent] == [
        ("env", child.environment("gpu")),
        ("start", "p/a"),
        ("done", "p/a"),
        ("start", "p/b"),
        ("done", "p/b"),
        ("end",),
    ]
    assert conn.sent[0][1]["device"] == "Tarjeta 0"
    assert conn.sent[2][2]["output"] == f"{work} contenido\n"
    assert conn.sent[4][2]["output"] == "['datos.txt']\n"
    assert threads == [policies.INTRA_OP_THREADS]
    assert conn.closed and not work.exists()
    assert Path.cwd() == Path(tempfile.gettempdir())


def test_a_page_without_a_working_folder_makes_its_own_and_removes_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A folder of its own in the temporary folder; a block that removes it breaks nothing."""
    from docverify.running import child  # noqa: PLC0415 - imports torch

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(torch, "set_num_threads", lambda _: None)  # this process keeps its own
    code = "import os, shutil\nprint(os.getcwd())\nshutil.rmtree(os.getcwd())"
    conn = Conn()
    child.run_page(conn, {"runner": "cpu", "blocks": [page_spec("p/a", code)]})  # type: ignore[arg-type]
    [result] = [m[2] for m in conn.sent if m[0] == "done"]
    assert result["exception"] is None, result["traceback"]
    made = Path(result["output"].strip())
    assert made.parent == Path(tempfile.gettempdir()) and made.name.startswith("docverify-")
    assert not made.exists() and conn.closed


def test_a_pages_sessions_share_names_random_streams_and_device_marks(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A session's blocks share their names and one random stream, as a script that seeds once;
    a function an earlier block defined counts as the page's own code when it asks for the
    accelerator; a session's marks carry over to its later blocks. On the cpu runner, torch's
    default device is never touched."""
    from docverify.running import child  # noqa: PLC0415 - imports torch

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(torch, "set_num_threads", lambda _: None)
    defaults: list[Any] = []
    monkeypatch.setattr(torch, "set_default_device", defaults.append)
    blocks = [
        page_spec(
            "p/s1",
            "import torch\ndef ask():\n    return torch.cuda.is_available()\n"
            "print(torch.rand(1).item())",
            session="s",
        ),
        page_spec("p/libre", "suelto = 1\nprint('ask' in dir())"),
        page_spec("p/s2", "print(torch.rand(1).item(), ask())", session="s"),
        page_spec("p/s3", "print('fin')", session="s"),
        page_spec("p/t", "print('ask' in dir())", session="t"),
        page_spec("p/libre2", "print('suelto' in dir())"),  # blocks without a session share none
    ]
    (tmp_path / "w").mkdir()
    conn = Conn()
    child.run_page(conn, {"runner": "cpu", "blocks": blocks}, workdir=str(tmp_path / "w"))  # type: ignore[arg-type]
    done = {m[1]: m[2] for m in conn.sent if m[0] == "done"}
    torch.manual_seed(0)  # the blocks' seed: spec's default
    first, second = torch.rand(1).item(), torch.rand(1).item()
    assert {key: r["output"] for key, r in done.items()} == {
        "p/s1": f"{first}\n",
        "p/libre": "False\n",
        "p/s2": f"{second} {torch.cuda.is_available()}\n",
        "p/s3": "fin\n",
        "p/t": "False\n",
        "p/libre2": "False\n",
    }
    assert {key: r["device_dependent"] for key, r in done.items()} == {
        "p/s1": ["random"],
        "p/libre": [],
        "p/s2": ["random", "accelerator"],
        "p/s3": ["random", "accelerator"],  # carried from the session's earlier blocks
        "p/t": [],
        "p/libre2": [],
    }
    assert defaults == []


def test_when_running_a_block_fails_the_watch_and_the_streams_are_closed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An error of the engine itself while running a block (not the block's own): the device
    watch is stopped with no output, the block's random stream is closed, and the error goes
    on up."""
    from docverify.running import child, marks  # noqa: PLC0415 - imports torch

    def broken(*_: Any) -> Any:
        raise RuntimeError("motor roto")

    class Recorded(child.Streams):
        def end(self, block_spec: Any) -> None:
            ended.append(block_spec["key"])
            super().end(block_spec)

    stopped_with: list[str] = []
    ended: list[str] = []
    stop = marks.stop
    monkeypatch.setattr(marks, "stop", lambda output: stopped_with.append(output) or stop(output))
    monkeypatch.setattr(child, "_run_block", broken)
    with pytest.raises(RuntimeError, match="motor roto"):
        child.run_block(spec("print(1)", key="p/roto"), {}, Recorded())
    assert stopped_with == [""] and ended == ["p/roto"]


def test_a_page_process_of_its_own_stops_what_its_blocks_left_and_names_who_started_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The process lister and stopper are stand-ins: after each block the page looks at its
    descendants (a process keeps the first block after which it was seen), and once the blocks
    are done it stops them; one nobody saw goes to its parent's block, else to the last one."""
    from docverify.running import child  # noqa: PLC0415 - imports torch

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(torch, "set_num_threads", lambda _: None)
    me, calls = os.getpid(), []
    seen = iter([[10], [10, 20]])
    stopped = [
        processes.Stopped(10, me, "sleep 10"),
        processes.Stopped(11, 10, "sleep 11"),
        processes.Stopped(20, me, "sleep 20"),
        processes.Stopped(30, me, "tardío"),
    ]
    monkeypatch.setattr(processes, "become_subreaper", lambda: calls.append("subreaper"))
    monkeypatch.setattr(processes, "descendants", lambda pid: calls.append(pid) or next(seen))
    monkeypatch.setattr(processes, "stop_descendants", lambda pid: calls.append(-pid) or stopped)
    blocks = [page_spec("p/a", "pass"), page_spec("p/b", "pass")]
    conn = Conn()
    child.run_page(conn, {"runner": "cpu", "blocks": blocks}, own_process=True)  # type: ignore[arg-type]
    assert calls == ["subreaper", me, me, -me]
    assert conn.sent[-2:] == [
        ("stopped", {"p/a": ["sleep 10", "sleep 11"], "p/b": ["sleep 20", "tardío"]}),
        ("end",),
    ]
    empty = Conn()
    child.run_page(empty, {"runner": "cpu", "blocks": []}, own_process=True)  # type: ignore[arg-type]
    assert [m[0] for m in empty.sent] == ["env", "stopped", "end"]
    assert empty.sent[1] == ("stopped", {"": ["sleep 10", "sleep 11", "sleep 20", "tardío"]})


def test_a_page_in_a_shared_process_leaves_its_processes_alone(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from docverify.running import child  # noqa: PLC0415 - imports torch

    def never(*_: Any) -> Any:
        raise AssertionError("a page not in its own process looked at its processes")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(torch, "set_num_threads", lambda _: None)
    for name in ("become_subreaper", "descendants", "stop_descendants"):
        monkeypatch.setattr(processes, name, never)
    conn = Conn()
    child.run_page(conn, {"runner": "cpu", "blocks": [page_spec("p/a", "pass")]})  # type: ignore[arg-type]
    assert [m[0] for m in conn.sent] == ["env", "start", "done", "end"]
