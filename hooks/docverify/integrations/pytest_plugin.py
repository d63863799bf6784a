"""pytest plugin: pytest-markdown-docs runs the Python fences that docverify does not execute.

Executed blocks (exec="on") are verified by docverify, once; marking them `notest` here keeps
pytest-markdown-docs from running them a second time without recordings or isolation.

The fences it does run run in pytest's own processes, so those start with the project's string
hashing (`hash_seed`, core/hashing.py): the variable is set here, at configuration, for every
process started afterwards (pytest-xdist's workers, and whatever a test starts); a fence run by
a process that did not start with it (`-n 0` without PYTHONHASHSEED) fails, saying how to run.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from docverify.core import config as config_mod  # clash: `config`, pytest's Config
from docverify.core import hashing
from docverify.parsing.pages import is_executed, parse_options

_SEED = pytest.StashKey[int]()


def _mark_executed_blocks(state: Any) -> None:
    for token in state.tokens:
        if token.type == "fence" and is_executed(parse_options(token.info)[1]):
            token.info = f"{token.info} notest"


@pytest.hookimpl(tryfirst=True)
def pytest_markdown_docs_markdown_it() -> Any:
    from markdown_it import MarkdownIt  # noqa: PLC0415

    parser = MarkdownIt("commonmark")
    parser.core.ruler.push("docverify_notest", _mark_executed_blocks)
    return parser


def pytest_configure(config: pytest.Config) -> None:
    """The project's hash_seed (none outside a docverify project), in the environment of every
    process started from now on."""
    try:
        seed = config_mod.load(Path(config.rootpath)).hash_seed
    except (FileNotFoundError, ValueError):  # no [tool.docverify] here, or no TOML at all
        return
    config.stash[_SEED] = seed
    os.environ[hashing.ENV] = str(seed)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A fence of a page runs only in a process that hashes strings with the project's seed."""
    seed = item.config.stash.get(_SEED, None)
    if seed is None or not type(item).__module__.startswith("pytest_markdown_docs"):
        return
    if problem := hashing.mismatch(seed):
        pytest.fail(
            f"{problem}. Ejecuta las pruebas con python3 tasks.py test, o arranca pytest con "
            f"{hashing.ENV}={seed} (con -n 0, el proceso de pytest ejecuta los bloques).",
            pytrace=False,
        )
