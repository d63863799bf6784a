"""The fork server's stand-in main module and the sys.path a child of another interpreter's
server keeps, in this process (sys.modules, sys.path and the environment put back after)."""

from __future__ import annotations

import multiprocessing.process
import sys
import types

import pytest
from docverify.running import forkserver_main


@pytest.fixture
def mains(monkeypatch: pytest.MonkeyPatch) -> None:
    """sys.modules' __main__ and __mp_main__ as they were, after the test."""
    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])
    if "__mp_main__" in sys.modules:
        monkeypatch.setitem(sys.modules, "__mp_main__", sys.modules["__mp_main__"])
    else:
        monkeypatch.setitem(sys.modules, "__mp_main__", None)
        monkeypatch.delitem(sys.modules, "__mp_main__")


@pytest.mark.parametrize(("flag", "kept"), [("1", True), ("0", False), (None, False)])
def test_a_child_keeps_its_servers_own_path_only_when_asked(
    monkeypatch: pytest.MonkeyPatch, flag: str | None, kept: bool
) -> None:
    monkeypatch.setattr(sys, "path", ["/padre/site-packages"])
    monkeypatch.setattr(forkserver_main, "_server_path", ["/servidor/site-packages"])
    if flag is None:
        monkeypatch.delenv(forkserver_main.OWN_PATH, raising=False)
    else:
        monkeypatch.setenv(forkserver_main.OWN_PATH, flag)
    path = sys.path
    forkserver_main.keep_own_path()
    assert sys.path is path  # changed in place: every reference sees it
    assert sys.path == (["/servidor/site-packages"] if kept else ["/padre/site-packages"])


def test_a_module_name_stands_in_as_main(mains: None) -> None:
    forkserver_main._stand_in("name:mkdocs")
    main = sys.modules["__main__"]
    assert sys.modules["__mp_main__"] is main
    assert main.__name__ == "__mp_main__" and main.__spec__.name == "mkdocs"
    assert forkserver_main.main_identity() == "name:mkdocs"


def test_a_file_stands_in_as_main(mains: None) -> None:
    forkserver_main._stand_in("path:/proyecto/.venv/bin/mkdocs")
    main = sys.modules["__main__"]
    assert sys.modules["__mp_main__"] is main
    assert main.__file__ == "/proyecto/.venv/bin/mkdocs"
    assert forkserver_main.main_identity() == "path:/proyecto/.venv/bin/mkdocs"


@pytest.mark.parametrize("identity", ["", "name:", "path:", "otro:valor"])
def test_nothing_stands_in_without_a_known_kind_and_a_value(mains: None, identity: str) -> None:
    main = sys.modules["__main__"]
    forkserver_main._stand_in(identity)
    assert sys.modules["__main__"] is main


def main_module(monkeypatch: pytest.MonkeyPatch, **attributes: object) -> None:
    main = types.ModuleType("__main__")
    for name, value in attributes.items():
        setattr(main, name, value)
    monkeypatch.setitem(sys.modules, "__main__", main)


def test_a_relative_main_file_is_joined_to_the_original_folder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    main_module(monkeypatch, __file__="bin/../scripts/docverify", __spec__=None)
    monkeypatch.setattr(multiprocessing.process, "ORIGINAL_DIR", "/proyecto")
    assert forkserver_main.main_identity() == "path:/proyecto/scripts/docverify"
    monkeypatch.setattr(multiprocessing.process, "ORIGINAL_DIR", None)
    assert forkserver_main.main_identity() == "path:scripts/docverify"


def test_a_main_without_name_or_file_has_no_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    main_module(monkeypatch, __spec__=None)
    assert forkserver_main.main_identity() == ""
    monkeypatch.delitem(sys.modules, "__main__")
    assert forkserver_main.main_identity() == ""
