"""running.child: what a block prints and in which order, seeds, isolation, crashes, timeouts."""

from __future__ import annotations

import random
import time
from pathlib import Path

import numpy
import pytest
import torch
from conftest import Project
from docverify.core.kinds import Kind
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
