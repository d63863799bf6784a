"""What crosses process boundaries: block specs, page tasks, results and messages, typed once.

Every value here is a plain dict, list, str, int, float, bool or None, so it pickles between the
verifying process and the page processes, and serialises to JSON for the local cache, without
either side importing the other's modules. The verifying process never imports torch: this
module imports only the standard library and core.policies. Adding a field means adding it
here; readers use these names, and the cache checks a stored result against `RESULT_FIELDS`.
"""

# No `from __future__ import annotations` here: TypedDict reads NotRequired from evaluated
# annotations on Python 3.11, and RESULT_FIELDS is computed from them.
from typing import Literal, NotRequired, TypedDict

# Device policy of a block on the gpu runner (see core/policies.py and running/setup.py).
from docverify.core.policies import CHOICES, DEVICE_POLICY

DEVICE_POLICIES = CHOICES[DEVICE_POLICY]


class BlockSpec(TypedDict):
    """One block to run, as the verifying process describes it to a page process."""

    key: str  # "<page stem>/<block id>"
    code: str
    filename: str  # where the code lives, relative to the project (for tracebacks)
    first_line: int  # line of the first code line in `filename`
    session: str | None
    timeout: float  # seconds
    output_limit: int  # characters
    seed: int
    # PYTHONHASHSEED the page process must have started with (the fork server's, core/hashing)
    hash_seed: int
    device_policy: str  # one of DEVICE_POLICIES: the default device on the gpu runner
    show_last_value: bool  # write a bare last expression's repr, as Jupyter does
    # The page's data files (parsing/data_files.py), each copied into the page's working folder
    # before its first block runs: name → SHA-256 (what the output depends on) and name → path.
    data_files: NotRequired[dict[str, str]]
    data_paths: NotRequired[dict[str, str]]


class PageTask(TypedDict):
    """What a warm worker receives for one page: its runner and its blocks, in page order."""

    runner: str
    blocks: list[BlockSpec]


class Expectation(TypedDict):
    """One `# Expectativa: X` comment paired with what its statement printed."""

    line: int
    expected: str
    observed: str | None
    ok: NotRequired[bool]  # set by the verifying process when it judges the block


class BlockResult(TypedDict):
    """What running one block produced; never an exception object, only plain values."""

    output: str  # stdout, stderr, warnings and the shown last value, in order
    error: str | None  # the engine could not run it to the end (syntax, limit, exit, timeout)
    exception: str | None  # the block's own uncaught exception, as its last traceback line
    traceback: str
    expectations: list[Expectation]
    duration: float  # seconds
    exception_type: NotRequired[list[str]]  # [name, module.qualname]
    exception_message: NotRequired[str]
    exception_line: NotRequired[int]  # the block's line that raised it (0: none of the block's)
    output_lines: NotRequired[list[int]]  # per output line, the block's line that wrote it
    value: NotRequired[str]  # the shown repr of a bare last expression (already in `output`)
    engine: NotRequired[bool]  # the engine stopped it (timeout, dead process): never cached
    error_line: NotRequired[int]  # the block's line it ran when the engine stopped it (timeout)
    cause: NotRequired[str]  # why the engine stopped it or did not run it: TIMED_OUT, AFTER_FAILURE
    # Processes it started that were still running when its page ended, stopped by the engine:
    # their command lines (see running/processes.py).
    stopped: NotRequired[list[str]]
    cached: NotRequired[str]  # ISO date the cached result was stored, when it came from there
    # Why its output on a GPU would not be its CPU output (core/device_marks.py: "random",
    # "accelerator", "device"), its session's earlier marks included; [] when none. Set by
    # every run of a page process; absent only from a result the engine made (`failure`).
    device_dependent: NotRequired[list[str]]


class Environment(TypedDict):
    """Where the blocks ran, as a page process reports it."""

    torch: str
    python: str
    device: str


# The fields every result has.
RESULT_FIELDS = tuple(sorted(BlockResult.__required_keys__))
# The fields every result of a page process has: the cache rejects a stored result missing any
# of them. Another engine's entries never match (the key holds the engine's fingerprint): this
# guards an entry edited or truncated by hand, which would otherwise read as unmarked.
STORED_FIELDS = tuple(sorted({*RESULT_FIELDS, "device_dependent"}))

# Messages, in order, from a page process (relayed by its worker) to the verifying process:
#   ("pid", pid)             sent by the worker once it forked the page process
#   ("env", Environment)     once, before the first block
#   ("start", key)           before each block
#   ("running", key, line)   shortly before the block's time limit: the line it runs then
#                            (running/watchdog.py), which a timeout's failure points at
#   ("done", key, BlockResult)
#   ("stopped", {key: [command, …]})  processes left running, stopped once the page's blocks
#                            were done (key "": sent by the worker after a page process that
#                            did not end on its own; they belong to the block it was running)
#   ("end",)                 the page process finished on its own
#   ("exit", exitcode)       sent by the worker once the page process is gone
MessageKind = Literal["pid", "env", "start", "running", "done", "stopped", "end", "exit"]
PID: MessageKind = "pid"
ENV: MessageKind = "env"
START: MessageKind = "start"
RUNNING: MessageKind = "running"
DONE: MessageKind = "done"
STOPPED: MessageKind = "stopped"
END: MessageKind = "end"
EXIT: MessageKind = "exit"


# Why the engine stopped a block (its time limit) or did not run it (an earlier block of its
# session failed): each asks for another fix (verifying/messages.execution_fix).
TIMED_OUT = "timeout"
AFTER_FAILURE = "after-failure"


def failure(message: str, line: int = 0, cause: str = "") -> BlockResult:
    """A result for a block the engine stopped or could not run (never cached); `line`: the
    block's line it was running then, when known; `cause`: TIMED_OUT or AFTER_FAILURE, when
    it is one."""
    result: BlockResult = {
        "output": "",
        "error": message,
        "exception": None,
        "traceback": "",
        "expectations": [],
        "duration": 0.0,
        "engine": True,
    }
    if line:
        result["error_line"] = line
    if cause:
        result["cause"] = cause
    return result
