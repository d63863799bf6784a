"""pytest plugin: pytest-markdown-docs runs the Python fences that docverify does not execute.

Executed blocks (exec="on") are verified by docverify, once; marking them `notest` here keeps
pytest-markdown-docs from running them a second time without recordings or isolation.
"""

from __future__ import annotations

from typing import Any

import pytest

from docverify.parsing.pages import is_executed, parse_options


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
