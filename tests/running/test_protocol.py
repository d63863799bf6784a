"""The process protocol: what children send is exactly what running/protocol.py declares."""

from __future__ import annotations

import subprocess
import sys

from conftest import Project
from docverify.parsing.pages import read_site
from docverify.running import protocol
from docverify.running.protocol import BlockResult, BlockSpec
from docverify.running.specs import spec
from support.blocks import run_here

DECLARED = BlockResult.__required_keys__ | BlockResult.__optional_keys__


def run(code: str) -> BlockResult:
    return run_here(code)


def test_result_fields_are_the_required_keys_only() -> None:
    assert set(protocol.RESULT_FIELDS) == BlockResult.__required_keys__
    assert {"cached", "engine", "value", "exception_type"} <= BlockResult.__optional_keys__
    assert not {"cached", "engine", "value"} & set(protocol.RESULT_FIELDS)


def test_every_result_has_the_required_fields_and_only_declared_ones() -> None:
    for code in ("print(1)\n", "1 + 1\n", "raise ValueError('x')\n", "def (:\n"):
        result = run(code)
        assert set(protocol.RESULT_FIELDS) <= set(result) <= DECLARED, (code, set(result))
    failure = protocol.failure("se detuvo")
    assert set(protocol.RESULT_FIELDS) <= set(failure) <= DECLARED


def test_spec_has_exactly_the_declared_fields(project: Project) -> None:
    project.page("a.md", '```python exec="on" id="a"\nprint(1)\n```\n')
    [page] = read_site(project.config)
    made = spec(project.config, page.blocks[0])
    assert set(made) == BlockSpec.__required_keys__


def test_protocol_imports_no_torch() -> None:
    code = (
        "import sys, docverify.running.protocol, docverify.running.setup\n"
        "print('torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_failure_is_an_engine_result_with_only_the_message() -> None:
    assert protocol.failure("se detuvo") == {
        "output": "",
        "error": "se detuvo",
        "exception": None,
        "traceback": "",
        "expectations": [],
        "duration": 0.0,
        "engine": True,
    }
