"""A bare last expression shows its value as Jupyter does, only where the author opted in."""

from __future__ import annotations

import ast
from typing import Any

import pytest
from conftest import Project
from docverify.parsing.pages import read_site
from docverify.running import last_value
from docverify.running.executor import Executor
from docverify.verifying import recordings
from docverify.verifying.record import record
from support.blocks import run_here


def run(code: str, show: bool = True) -> dict[str, Any]:
    return dict(run_here(code, show_last_value=show))


def test_value_follows_what_the_block_printed() -> None:
    result = run("import torch\nprint('antes')\nx = torch.tensor([1.0, 2.0])\nx * 2\n")
    assert result["output"] == "antes\ntensor([2., 4.])\n"
    assert result["value"] == "tensor([2., 4.])\n"


def test_value_is_the_repr() -> None:
    assert run("'texto'")["output"] == "'texto'\n"


@pytest.mark.parametrize(
    "code",
    [
        "x = 2\nx * 3;\n",
        "x = 2\nx * 3 ;  # oculto\n",
        "x = 2\nx * 3;\n\n# fin\n",
    ],
)
def test_trailing_semicolon_hides_the_value(code: str) -> None:
    result = run(code)
    assert result["output"] == ""
    assert "value" not in result


@pytest.mark.parametrize("code", ["None\n", "print('solo')\n", "[].append(1)\n"])
def test_none_shows_nothing(code: str) -> None:
    assert run(code)["output"] == run(code, show=False)["output"]


def test_only_a_last_expression_is_shown() -> None:
    assert run("x = 5\nx\ny = 6\n")["output"] == ""
    assert run("for i in range(2):\n    i\n")["output"] == ""


def test_off_by_default_shows_only_printed_output() -> None:
    assert run("print(1)\n2 + 2\n", show=False)["output"] == "1\n"


def test_value_counts_for_its_expectation() -> None:
    result = run("x = 2\nx * 3  # Expectativa: 6\n")
    assert result["expectations"] == [{"line": 2, "expected": "6", "observed": "6"}]


def test_a_failing_repr_is_the_blocks_exception() -> None:
    code = "class A:\n    def __repr__(self):\n        raise ValueError('sin repr')\nA()\n"
    result = run(code)
    assert result["exception"] == "ValueError: sin repr"


def test_shown_expression_matches_jupyter_rules() -> None:
    for source, shown in [("a\n", True), ("a;\n", False), ("a = 1\n", False), ("", False)]:
        tree = ast.parse(source)
        assert (last_value.shown_expression(tree, source) is not None) is shown, source


PAGE = """\
---
title: Valores
{meta}---

```python exec="on" id="valor"{extra}
import torch
print("suma:")
torch.tensor([1.0, 2.0]).sum()
```
"""


def recorded_body(project: Project, executor: Executor) -> str:
    config = project.config
    report = record(config, read_site(config), "cpu", executor)
    assert not report.findings, report.findings
    [page] = read_site(config)
    recording = recordings.of_block(config, page.blocks[0]).get("cpu")
    assert recording is not None
    return recording.body


@pytest.mark.parametrize(
    ("meta", "extra"),
    [
        ("last_value: show\n", ""),
        ("", ' last_value="show"'),
        ("last_value: hide\n", ' last_value="show"'),
    ],
)
def test_record_writes_the_value_after_printed_output_when_opted_in(
    project: Project, executor: Executor, monkeypatch: pytest.MonkeyPatch, meta: str, extra: str
) -> None:
    monkeypatch.delenv("CI", raising=False)
    project.page("a.md", PAGE.format(meta=meta, extra=extra))
    assert recorded_body(project, executor).strip() == "suma:\ntensor(3.)"


def test_record_without_opt_in_keeps_only_printed_output(
    project: Project, executor: Executor, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    project.page("a.md", PAGE.format(meta="", extra=""))
    assert recorded_body(project, executor).strip() == "suma:"


def test_site_default_opts_in_and_a_page_opts_out(
    project: Project, executor: Executor, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    pyproject = project.root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + 'last_value = "show"\n')
    project.page("a.md", PAGE.format(meta="", extra=""))
    assert recorded_body(project, executor).strip() == "suma:\ntensor(3.)"
    project.page("a.md", PAGE.format(meta="last_value: hide\n", extra=""))
    assert recorded_body(project, executor).strip() == "suma:"


@pytest.mark.parametrize(
    ("source", "ends"),
    [
        ("", False),  # no token at all
        ("# solo un comentario\n\n", False),
        ("x = (1,\n", False),  # tokenize gives up at the end (unclosed): what came before counts
        ("x = (1;\n", True),
        ("if a:\n        b;\n    c\n", True),  # a dedent to no level: the tokens before it count
    ],
)
def test_ends_with_semicolon_of_text_without_tokens_or_that_tokenize_rejects(
    source: str, ends: bool
) -> None:
    assert last_value.ends_with_semicolon(source) is ends
