"""`python3 tasks.py mutate` end to end: mutmut itself, with pyproject.toml's [tool.mutmut], on a
small engine whose tests leave known gaps. What must survive is known from the tests written here
(they never try zero), not from the tool: each survivor is shown at its line with its diff, the
last line adds them up, the ratchet fails against a better record and the record keeps them."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from support.tools import load

ROOT = Path(__file__).resolve().parents[2]
mutation = load("mutation")


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


SIGN = '''\
"""The sign of a number, in words."""


def sign(x):
    if x > 0:
        return "positivo"
    if x < 0:
        return "negativo"
    return "cero"


def twice(x):
    return x + x  # pragma: no mutate; equivalent: this test's mark, counted and never run
'''
TESTS = """\
from docverify.core.sign import sign


def test_signs():
    assert sign(5) == "positivo"
    assert sign(-5) == "negativo"
"""


def project(root: Path) -> None:
    """A repository with the real [tool.mutmut] and the ordering plugin, and a small engine."""
    real = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = "[tool.mutmut]\n" + real.split("[tool.mutmut]\n", 1)[1].split("\n[", 1)[0]
    write(
        root,
        {
            "pyproject.toml": (
                '[project]\nname = "x"\nversion = "0"\n\n[tool.pytest.ini_options]\n'
                'pythonpath = ["tests"]\nmarkers = ["slow: lenta"]\n\n' + section + "\n"
            ),
            "hooks/docverify/__init__.py": "",
            "hooks/docverify/core/__init__.py": "",
            "hooks/docverify/core/sign.py": SIGN,
            "tests/core/test_sign.py": TESTS,
            # A module no test reaches: mutmut stops before its first mutant.
            "hooks/docverify/site/__init__.py": "",
            "hooks/docverify/site/lonely.py": "def lonely(x):\n    return x + 1\n",
            "tests/site/test_other.py": "def test_other():\n    assert 1 + 1 == 2\n",
        },
    )
    (root / "tools").mkdir()
    shutil.copy(ROOT / "tools" / "mutation_order.py", root / "tools")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)


@pytest.mark.slow
def test_mutmut_finds_the_gaps_the_tests_leave(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project(tmp_path)
    better = tmp_path / "registro.json"
    better.write_text(
        json.dumps(
            {
                "format": 1,
                "modules": {
                    "hooks/docverify/core/sign.py": {
                        "mutants": 1,
                        "killed": 1,
                        "equivalent": 0,
                        "survivors": [],
                    }
                },
            }
        ),
        encoding="utf-8",
    )
    recorded = tmp_path / "nuevo.json"
    summary = tmp_path / "resumen.md"
    argv = ["core/sign.py", "--ratchet", str(better), "--record", str(recorded)]
    code = mutation.main([*argv, "--summary", str(summary), "--jobs", "2"], tmp_path)
    out = capsys.readouterr().out
    assert code == 1, out  # below the better record: the ratchet fails
    last = out.strip().splitlines()[-1]
    match = re.fullmatch(
        r"mutation: (\d+)/(\d+) killed \((\d+\.\d) %\), (\d+) equivalent, \d+ s", last
    )
    assert match, last
    killed, total, _, equivalent = (float(g) if "." in g else int(g) for g in match.groups())
    lines = SIGN.splitlines()
    # Zero is never tried: `> 0` and `< 0` may include it, and «cero» may read anything.
    gaps = {
        lines.index(text) + 1 for text in ("    if x > 0:", "    if x < 0:", '    return "cero"')
    }
    shown = {
        int(n) for n in re.findall(r"^hooks/docverify/core/sign\.py:(\d+): sobrevive", out, re.M)
    }
    assert gaps <= shown, out
    # Every other line of sign() is reached by the test with 5 and -5, and so is every mutant there.
    assert shown <= gaps, out
    assert "-    if x > 0:\n+    if x >= 0:" in out
    assert total - killed == out.count(": sobrevive (")
    assert equivalent == 1  # `x + x` → `x - x`, the one mutant on the marked line
    assert "BAJA" in out
    record = json.loads(recorded.read_text(encoding="utf-8"))["modules"][
        "hooks/docverify/core/sign.py"
    ]
    assert (record["mutants"], record["killed"], record["equivalent"]) == (total, killed, 1)
    assert len(record["survivors"]) == total - killed
    assert "⚠️ baja" in summary.read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_module_no_test_reaches_has_every_mutant_untested(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project(tmp_path)
    assert mutation.main(["site/lonely.py"], tmp_path) == 0
    out = capsys.readouterr().out
    untested = re.findall(r"^hooks/docverify/site/lonely\.py:2: sin pruebas", out, re.M)
    assert untested, out
    assert out.strip().splitlines()[-1].startswith(f"mutation: 0/{len(untested)} killed (0.0 %)")
