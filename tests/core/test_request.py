"""One build request (core/request.py), read from the environment in one place: what each
variable asks for, and no other module of the engine reading them."""

from __future__ import annotations

import ast
import datetime as dt
from pathlib import Path

import pytest
from docverify.core import request
from docverify.core.request import CacheUse, Request

ENGINE = Path(request.__file__).resolve().parents[1]
NAMES = {
    request.RUNNER_ENV,
    request.EXECUTE_ENV,
    request.CACHE_ENV,
    request.FROM_REPORTS_ENV,
    request.GPU_REPORT_ENV,
    request.CANARY_REPORT_ENV,
    "CI",
    "SOURCE_DATE_EPOCH",
}
# Where CI and SOURCE_DATE_EPOCH are read (config.in_ci, config.today), besides the request.
READERS = {"core/request.py", "core/config.py"}


def _reads(tree: ast.AST) -> list[tuple[int, str]]:
    """`environ.get("X")`, `getenv("X")`, `environ["X"]` and `env.get("X")` of a request's
    variable in a module, with their lines."""
    found = []
    for node in ast.walk(tree):
        key = None
        if isinstance(node, ast.Call) and node.args:
            name = ast.unparse(node.func)
            if name.endswith(("environ.get", "getenv", "env.get")):
                key = node.args[0]
        elif isinstance(node, ast.Subscript) and ast.unparse(node.value).endswith("environ"):
            key = node.slice
        if isinstance(key, ast.Constant) and key.value in NAMES:
            found.append((node.lineno, key.value))
    return found


def test_only_the_request_reads_the_variables_of_a_build() -> None:
    """No module of the engine reads DOCVERIFY_RUNNER, _EXECUTE, _CACHE, _FROM_REPORTS,
    _GPU_REPORT or _CANARY_REPORT (nor CI, nor SOURCE_DATE_EPOCH outside core/config.py), and
    none but core/request.py has a `from_env` of its own."""
    modules = sorted(ENGINE.rglob("*.py"))
    assert len(modules) > 50  # the engine was found
    wrong = []
    for path in modules:
        rel = path.relative_to(ENGINE).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if rel not in READERS:
            wrong += [f"{rel}:{line} reads {name}" for line, name in _reads(tree)]
        if rel != "core/request.py":
            wrong += [
                f"{rel}:{node.lineno} defines from_env"
                for node in ast.walk(tree)
                if isinstance(node, ast.FunctionDef) and node.name == "from_env"
            ]
    assert wrong == []


def test_the_guard_sees_a_read() -> None:
    """The scan above finds each form of reading a variable (so that passing means none)."""
    text = (
        'os.environ.get("DOCVERIFY_CACHE", "1")\nos.getenv("CI")\n'
        'os.environ["DOCVERIFY_RUNNER"]\nenv.get("DOCVERIFY_GPU_REPORT")\nother.get("CI")\n'
    )
    assert [line for line, _ in _reads(ast.parse(text))] == [1, 2, 3, 4]


def test_what_each_variable_asks_for(tmp_path: Path) -> None:
    env = {
        request.RUNNER_ENV: " CPU ",
        request.EXECUTE_ENV: "0",
        request.FROM_REPORTS_ENV: f"{tmp_path / 'a'}, {tmp_path / 'b'},",
        request.GPU_REPORT_ENV: str(tmp_path / "g"),
        request.CANARY_REPORT_ENV: str(tmp_path / "c"),
    }
    asked = request.from_env(env)
    assert asked == Request(
        runner="cpu",
        execute=False,
        cache=CacheUse.READ,
        from_reports=(tmp_path / "a", tmp_path / "b"),
        gpu_reports=(tmp_path / "g",),
        canary_report=tmp_path / "c",
        day=asked.day,
    )
    # A command's own option wins; a check of blocks reads no report of the site.
    check = request.from_env(env, runner="gpu", no_cache=True, site=False)
    assert (check.runner, check.cache) == ("gpu", CacheUse.WRITE)
    assert (check.from_reports, check.gpu_reports, check.canary_report) == (None, None, None)
    blank = request.from_env({request.FROM_REPORTS_ENV: " ", "CI": "true"})
    assert (blank.from_reports, blank.cache, blank.execute, blank.runner) == (
        None,
        CacheUse.OFF,
        True,
        "auto",
    )


def test_an_unknown_runner_is_named() -> None:
    with pytest.raises(ValueError, match="«tpu»"):
        request.from_env({request.RUNNER_ENV: "tpu"})


def test_nothing_set_asks_for_every_block_with_the_cache_on_the_given_day(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01 00:00 UTC
    assert request.from_env({}) == Request(
        runner="auto", execute=True, cache=CacheUse.READ, day=dt.date(2026, 1, 1)
    )


@pytest.mark.parametrize("off", ["0", "False", " NO ", "off"])
def test_execute_and_cache_are_turned_off_by_any_spelling_of_no(off: str) -> None:
    asked = request.from_env({request.EXECUTE_ENV: off, request.CACHE_ENV: off})
    assert (asked.execute, asked.cache) == (False, CacheUse.WRITE)
    assert request.cache_use({request.CACHE_ENV: off}) is CacheUse.WRITE


@pytest.mark.parametrize("on", ["1", "true", "sí", ""])
def test_other_values_leave_them_on(on: str) -> None:
    asked = request.from_env({request.EXECUTE_ENV: on, request.CACHE_ENV: on})
    assert (asked.execute, asked.cache) == (True, CacheUse.READ)


def test_without_a_mapping_this_process_environment_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("CI", request.CACHE_ENV, request.CANARY_REPORT_ENV):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(request.RUNNER_ENV, "gpu")
    monkeypatch.setenv(request.EXECUTE_ENV, "0")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    assert request.asked_runner() == "gpu"
    assert request.cache_use() is CacheUse.READ
    asked = request.from_env()
    assert (asked.runner, asked.execute, asked.canary_report) == ("gpu", False, None)
    monkeypatch.setenv(request.CACHE_ENV, "0")
    assert request.cache_use() is CacheUse.WRITE
    monkeypatch.setenv("CI", "true")
    assert request.cache_use() is CacheUse.OFF


def test_an_unset_runner_is_auto_whatever_its_case() -> None:
    assert request.asked_runner(None, {}) == "auto"
    assert request.asked_runner("", {request.RUNNER_ENV: ""}) == "auto"
    assert request.asked_runner(" Gpu ", {request.RUNNER_ENV: "cpu"}) == "gpu"


def test_an_unset_report_variable_lists_no_folder() -> None:
    assert request.folders({}, request.FROM_REPORTS_ENV) is None
    assert request.folders({request.GPU_REPORT_ENV: " , "}, request.GPU_REPORT_ENV) == ()
