"""running.executor's loop (Executor.run, _zygote, _ask), in this process: the executor's
multiprocessing context is swapped for one whose processes are threads on real pipes. A fake
warm worker receives each page task and sends what a real one relays (pid, start, done, stopped,
end, exit), so the order of results, the timeout, a worker's death and the reuse of idle workers
are checked without forking, in milliseconds. A page's pid is a real `sleep`, so the executor's
kill is real too."""

from __future__ import annotations

import itertools
import multiprocessing
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from typing import Any

import pytest
from docverify.running import executor as executor_mod
from docverify.running import protocol, worker
from docverify.running.executor import Executor, PageJob, _Zygote
from support.blocks import spec

DIE = object()  # what a plan returns for its worker to die (its channel closes, no "exit")
CAP = 3.0  # the longest a fake page waits to be killed before giving up on the executor


class FakeProcess:
    """A child process as a thread: `start` gives it its own copy of the connection in `args`
    (a child's is inherited; the parent closes its end), `join` waits for it."""

    def __init__(self, run: Callable[[Connection], Any], args: tuple, **options: Any) -> None:
        self.run, self.args, self.options = run, args, options
        self.exitcode: int | None = None
        self.started = False
        self.joins: list[float | None] = []  # a child that never ends must not hang the parent

    def start(self) -> None:
        end = self.args[0]
        mine = Connection(os.dup(end.fileno()), readable=end.readable, writable=end.writable)
        self.thread = threading.Thread(target=self._main, args=(mine,), daemon=True)
        self.thread.start()
        self.started = True

    def _main(self, conn: Connection) -> None:
        with conn:
            code = self.run(conn)
        self.exitcode = 0 if code is None else code

    def join(self, timeout: float | None = None) -> None:
        self.joins.append(timeout)
        self.thread.join(timeout)


class FakeContext:
    """The executor's `ctx`: real pipes, processes that are threads running `worker` (or, with
    no worker, the target the executor gave)."""

    def __init__(self, worker_main: Callable[[Connection], Any] | None = None) -> None:
        self.worker_main = worker_main
        self.processes: list[tuple[Callable, dict, FakeProcess]] = []

    def Pipe(self, duplex: bool = True) -> tuple[Connection, Connection]:
        return multiprocessing.Pipe(duplex)

    def Process(self, target: Callable, args: tuple, **options: Any) -> FakeProcess:
        process = FakeProcess(self.worker_main or target, args)
        self.processes.append((target, options, process))
        return process


Plan = Callable[[protocol.PageTask, Connection], Any]


def fake_worker(plan: Plan) -> Callable[[Connection], Any]:
    """A warm worker that runs `plan` for each page task, then says "exit" with what the plan
    returned (DIE: it dies instead, with exit code 7)."""

    def main(conn: Connection) -> int | None:
        while True:
            try:
                task = conn.recv()
            except (EOFError, OSError):
                return None
            code = plan(task, conn)
            if code is DIE:
                return 7
            conn.send((protocol.EXIT, code))

    return main


def result(key: str) -> protocol.BlockResult:
    return {
        "output": f"salida de {key}\n",
        "error": None,
        "exception": None,
        "traceback": "",
        "expectations": [],
        "duration": 0.0,
    }


def runs(task: protocol.PageTask, conn: Connection, end: bool = True) -> int:
    """A page process that runs every block of `task` and ends on its own."""
    for block in task["blocks"]:
        conn.send((protocol.START, block["key"]))
        conn.send((protocol.DONE, block["key"], result(block["key"])))
    if end:
        conn.send((protocol.END,))
    return 0


@pytest.fixture
def sleeper() -> Iterator[subprocess.Popen]:
    """A real process standing for a page process (its pid is what the executor kills)."""
    process = subprocess.Popen(["sleep", "60"])
    yield process
    process.kill()
    process.wait()


def hangs(process: subprocess.Popen, conn: Connection) -> int:
    """The page process hangs in its block until it is killed (CAP at most); its worker then
    reports its exit code."""
    try:
        process.wait(CAP)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    return process.returncode


def page(name: str, *keys: str, runner: str = "cpu", **options: Any) -> PageJob:
    return PageJob(name, runner, [spec("", key=f"{name}/{k}", **options) for k in keys])


@pytest.fixture
def make(monkeypatch: pytest.MonkeyPatch) -> Callable[..., tuple[Executor, FakeContext]]:
    """An executor with `workers` fake workers that run `plan`, and its fake context; the fork
    server is never started (the seeds it was asked for are in `executor.seeds`)."""
    monkeypatch.setenv("DOCVERIFY_PARENT_MAIN", "")  # Executor() sets it: restored after

    def made(plan: Plan = runs, workers: int = 1) -> tuple[Executor, FakeContext]:
        executor = Executor(workers)
        context = FakeContext(fake_worker(plan))
        executor.ctx = context  # type: ignore[assignment]
        seeds: list[int | None] = []
        executor.seeds = seeds  # type: ignore[attr-defined]
        executor._start_server = lambda hash_seed=None: seeds.append(hash_seed)  # type: ignore[method-assign]
        return executor, context

    return made


def test_results_come_back_in_page_and_block_order_whatever_ends_first(make) -> None:
    first_done = threading.Event()

    def plan(task: protocol.PageTask, conn: Connection) -> int:
        if task["blocks"][0]["key"].startswith("a/"):
            assert first_done.wait(CAP)  # page a ends after page b
        runs(task, conn)
        first_done.set()
        return 0

    executor, context = make(plan, workers=2)
    jobs = [page("a", "1", "2"), page("vacia"), page("b", "1")]
    results = executor.run(jobs)
    assert list(results.items()) == [
        ("a/1", result("a/1")),
        ("a/2", result("a/2")),
        ("b/1", result("b/1")),
    ]
    assert len(context.processes) == 2  # a page without blocks asks for no worker


def test_each_worker_gets_its_pages_runner_and_blocks_and_is_kept_warm(make) -> None:
    tasks: list[protocol.PageTask] = []

    def plan(task: protocol.PageTask, conn: Connection) -> int:
        tasks.append(task)
        return runs(task, conn)

    executor, context = make(plan)
    jobs = [page("a", "1", runner="gpu"), page("b", "1", "2")]
    executor.run(jobs)
    assert tasks == [
        {"runner": "gpu", "blocks": jobs[0].blocks},
        {"runner": "cpu", "blocks": jobs[1].blocks},
    ]
    executor.run([page("c", "1")])  # a later run: the same warm worker
    [(target, options, process)] = context.processes
    assert (target, options) == (worker.zygote_main, {"name": "docverify:worker", "daemon": True})
    assert process.started and executor.seeds == [0]  # support.blocks.spec's hash_seed
    assert [z.hash_seed for z in executor._idle] == [0]


def test_no_more_pages_at_once_than_workers(make) -> None:
    received, ended = [], []
    most = []

    def plan(task: protocol.PageTask, conn: Connection) -> int:
        received.append(task)
        deadline = time.monotonic() + 0.2
        while len(received) < 3 and time.monotonic() < deadline:  # a third would come at once
            time.sleep(0.005)
        most.append(len(received) - len(ended))
        ended.append(task)
        return runs(task, conn)

    executor, context = make(plan, workers=2)
    results = executor.run([page("a", "1"), page("b", "1"), page("c", "1")])
    assert list(results) == ["a/1", "b/1", "c/1"]
    assert max(most) == 2 and len(context.processes) == 2


def test_a_block_over_its_timeout_is_killed_and_the_next_block_runs_again(
    make, sleeper: subprocess.Popen, monkeypatch: pytest.MonkeyPatch
) -> None:
    def plan(task: protocol.PageTask, conn: Connection) -> int:
        if task["blocks"][0]["key"] != "p/rapido":
            return runs(task, conn)  # the blocks re-queued after the killed one
        conn.send((protocol.PID, sleeper.pid))
        conn.send((protocol.START, "p/rapido"))
        conn.send((protocol.DONE, "p/rapido", result("p/rapido")))
        conn.send((protocol.START, "p/lento"))
        return hangs(sleeper, conn)

    kills: list[tuple[int, int]] = []
    real_kill = os.kill
    monkeypatch.setattr(
        os, "kill", lambda pid, sig: kills.append((pid, sig)) or real_kill(pid, sig)
    )
    executor, context = make(plan)
    job = PageJob(
        "p",
        "cpu",
        [
            spec("", key=f"p/{k}", timeout=t)
            for k, t in (("rapido", 30.0), ("lento", 0.2), ("luego", 30.0))
        ],
    )
    started = time.monotonic()
    results = executor.run([job])
    assert time.monotonic() - started < CAP
    assert sleeper.returncode == -signal.SIGKILL
    assert kills == [(sleeper.pid, signal.SIGKILL)]  # once, not on every turn until it is gone
    assert results == {
        "p/rapido": result("p/rapido"),
        "p/lento": protocol.failure(
            "superó el tiempo límite de 0.2 s y se detuvo", cause=protocol.TIMED_OUT
        ),
        "p/luego": result("p/luego"),
    }
    assert len(context.processes) == 1  # the worker itself lived on


def test_the_loop_never_waits_past_the_next_deadline_nor_over_a_second(
    make, sleeper: subprocess.Popen, monkeypatch: pytest.MonkeyPatch
) -> None:
    waits: list[tuple[int, float]] = []  # (blocks started so far, timeout)
    real_wait = executor_mod.wait

    def wait(conns: list, timeout: float) -> list:
        waits.append((executor.executed, timeout))
        return real_wait(conns, timeout)

    monkeypatch.setattr(executor_mod, "wait", wait)

    def plan(task: protocol.PageTask, conn: Connection) -> int:
        conn.send((protocol.PID, sleeper.pid))
        time.sleep(0.05)  # the executor waits on a page that runs no block yet
        conn.send((protocol.START, "p/lento"))
        return hangs(sleeper, conn)

    executor, _ = make(plan)
    results = executor.run([page("p", "lento", timeout=0.3)])
    assert results["p/lento"]["error"] == "superó el tiempo límite de 0.3 s y se detuvo"
    before = [t for n, t in waits if n == 0]
    # From the block's start to its kill (then no deadline again: a second at most).
    during = list(itertools.takewhile(lambda t: t < 1.0, [t for n, t in waits if n == 1]))
    assert before and set(before) == {1.0}, waits  # no block running: no deadline
    assert during and all(0.0 <= t <= 0.3 for t in during), waits


def test_a_worker_that_dies_fails_its_block_and_is_replaced(
    make, sleeper: subprocess.Popen
) -> None:
    def plan(task: protocol.PageTask, conn: Connection) -> Any:
        if task["blocks"][0]["key"] != "p/muere":
            return runs(task, conn)
        conn.send((protocol.PID, sleeper.pid))
        conn.send((protocol.START, "p/muere"))
        return DIE

    executor, context = make(plan)
    results = executor.run([page("p", "muere", "luego")])
    assert sleeper.wait(CAP) == -signal.SIGKILL  # its page process is not left running
    assert results == {
        "p/muere": protocol.failure(
            "terminó su proceso de forma inesperada (código de salida 7: os._exit, señal o "
            "fallo de la extensión nativa)"
        ),
        "p/luego": result("p/luego"),
    }
    assert len(context.processes) == 2 and len(executor._idle) == 1
    dead = context.processes[0][2]
    assert dead.joins and None not in dead.joins  # waited for, but not forever


def test_a_page_that_exits_without_ending_fails_the_blocks_it_did_not_run(make) -> None:
    def plan(task: protocol.PageTask, conn: Connection) -> int:
        return 3  # it exits (code 3) before its first block

    executor, context = make(plan)
    results = executor.run([page("p", "1", "2")])
    message = "el proceso de la página terminó antes de ejecutarlo (código de salida 3)"
    assert results == {"p/1": protocol.failure(message), "p/2": protocol.failure(message)}
    assert len(context.processes) == 1 and len(executor._idle) == 1  # its worker lives on


def test_blocks_started_and_the_environment_are_counted_and_passed_on(make) -> None:
    envs: list[dict] = []

    def plan(task: protocol.PageTask, conn: Connection) -> int:
        conn.send((protocol.ENV, {"torch": "2.13.0"}))
        return runs(task, conn)

    executor, _ = make(plan)
    before = executor_mod.blocks_started()
    executor.run([page("a", "1", "2"), page("b", "1")], on_env=envs.append)
    assert executor.executed == 3 and executor_mod.blocks_started() - before == 3
    assert envs == [{"torch": "2.13.0"}, {"torch": "2.13.0"}]
    assert executor.run([page("c", "1")]) == {"c/1": result("c/1")}  # no on_env: ignored


def test_processes_left_running_are_reported_with_their_blocks(make) -> None:
    def plan(task: protocol.PageTask, conn: Connection) -> int:
        runs(task, conn, end=False)
        conn.send((protocol.STOPPED, {"p/1": ["sleep 1"], "p/2": ["sleep 2"]}))
        conn.send((protocol.STOPPED, {"p/1": ["sleep 3"], "p/9": ["sleep 9"]}))
        conn.send((protocol.END,))
        return 0

    executor, _ = make(plan)
    results = executor.run([page("p", "1", "2")])
    assert results == {
        "p/1": {**result("p/1"), "stopped": ["sleep 1", "sleep 3"]},
        "p/2": {**result("p/2"), "stopped": ["sleep 2"]},
    }


def start(key: str) -> tuple:
    return (protocol.START, key)


def done(key: str) -> tuple:
    return (protocol.DONE, key, result(key))


def stopped(key: str, command: str) -> tuple:
    return (protocol.STOPPED, {key: [command]})


KILLED = protocol.failure(
    "terminó su proceso de forma inesperada (código de salida -9: os._exit, señal o fallo de "
    "la extensión nativa)"
)
NOT_RUN = protocol.failure(
    "el proceso de la página terminó antes de ejecutarlo (código de salida -9)"
)


@pytest.mark.parametrize(
    ("says", "expected"),
    [
        # killed in block 2: what its worker stopped is block 2's
        (
            [start("p/1"), done("p/1"), start("p/2")],
            {"p/1": result("p/1"), "p/2": {**KILLED, "stopped": ["hijo"]}, "p/3": result("p/3")},
        ),
        # gone between blocks (not on its own): the last block done's, after what the page
        # itself reported for it
        (
            [start("p/1"), done("p/1"), start("p/2"), done("p/2"), stopped("p/2", "nieto")],
            {
                "p/1": result("p/1"),
                "p/2": {**result("p/2"), "stopped": ["nieto", "hijo"]},
                "p/3": result("p/3"),
            },
        ),
        # gone before its first block: nobody's
        ([], {"p/1": NOT_RUN, "p/2": NOT_RUN, "p/3": NOT_RUN}),
    ],
)
def test_what_a_page_left_running_is_its_running_or_last_blocks(
    make, says: list[tuple], expected: dict[str, protocol.BlockResult]
) -> None:
    def plan(task: protocol.PageTask, conn: Connection) -> int:
        if task["blocks"][0]["key"] != "p/1":
            return runs(task, conn)  # the blocks re-queued
        for message in says:
            conn.send(message)
        conn.send((protocol.STOPPED, {"": ["hijo"]}))  # sent by its worker
        return -9

    executor, _ = make(plan)
    assert executor.run([page("p", "1", "2", "3")]) == expected


def test_a_page_that_ended_on_its_own_is_not_run_again(make) -> None:
    """What a page process that said "end" did not run, it chose not to: nothing is re-queued."""

    def plan(task: protocol.PageTask, conn: Connection) -> int:
        if task["blocks"][0]["key"] != "p/1":
            return runs(task, conn)
        conn.send(start("p/1"))
        conn.send(done("p/1"))
        conn.send((protocol.END,))
        return 0

    executor, _ = make(plan)
    assert executor.run([page("p", "1", "2")]) == {"p/1": result("p/1")}


def test_the_zygote_is_an_idle_one_with_the_seed_or_a_new_one(make) -> None:
    executor, context = make(lambda task, conn: conn.send(("eco", task)))
    pipes = [multiprocessing.Pipe() for _ in range(3)]
    idle = [
        _Zygote(process=None, conn=here, hash_seed=s)
        for s, (here, _) in zip((5, 9, 5), pipes, strict=True)
    ]
    executor._idle = list(idle)
    assert executor._zygote(5) is idle[2]  # the last one to go idle, with that seed
    assert executor._zygote(5) is idle[0] and idle[1].conn.closed  # one with another seed goes
    assert executor._idle == [] and context.processes == [] and executor.seeds == []
    made = executor._zygote(4)
    assert executor.seeds == [4] and made.hash_seed == 4
    [(target, options, process)] = context.processes
    assert (target, options["name"]) == (worker.zygote_main, "docverify:worker")
    assert made.process is process and process.started
    made.conn.send(("a", "b"))  # both ways: tasks go, messages come back
    assert made.conn.recv() == ("eco", ("a", "b"))
    assert made.conn.recv() == (protocol.EXIT, None)  # read before closing: no broken pipe
    made.conn.close()
    process.join(CAP)


def echo(conn: Connection) -> None:
    conn.send({"python": "/x/python"})


def silent(conn: Connection) -> None:
    pass


def late(conn: Connection) -> None:
    time.sleep(0.3)
    conn.send("tarde")


@pytest.mark.parametrize(
    ("target", "answer"), [(echo, {"python": "/x/python"}), (silent, "nada"), (late, "nada")]
)
def test_asking_a_child_gives_its_answer_or_the_default(
    make, target: Callable, answer: Any
) -> None:
    executor, context = make()
    context.worker_main = None  # the processes run the target asked for
    assert executor._ask(target, 0.1, "nada") == answer
    assert executor.seeds == [None]  # the fork server started, with any seed
    [(asked, _, process)] = context.processes
    assert asked is target and process.started
    assert process.joins and None not in process.joins  # waited for, but not forever
