"""verifying.recordings: English header keys; a recording with the old Spanish keys still reads."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Project
from docverify.parsing.pages import Block, read_site
from docverify.verifying import recordings
from support import locale_c

LEGACY = """\
# docverify: salida grabada de «a/uno» en el runner gpu
# torch: 2.13.0+cu130
# python: 3.11.7
# dispositivo: NVIDIA H200
# fecha: 2026-11-29
# origen: docverify accept, informe de docverify check del 2026-11-29
# ejecución: https://github.com/o/r/actions/runs/1
# ----
tensor([1.], device='cuda:0')
"""


def test_a_legacy_header_reads_with_english_keys(tmp_path: Path) -> None:
    path = tmp_path / "uno.gpu.txt"
    path.write_text(LEGACY, encoding="utf-8")
    rec = recordings.read(path, "gpu")
    assert rec.header == {
        "docverify": "salida grabada de «a/uno» en el runner gpu",
        "torch": "2.13.0+cu130",
        "python": "3.11.7",
        "device": "NVIDIA H200",
        "date": "2026-11-29",
        "origin": "docverify accept, informe de docverify check del 2026-11-29",
        "run": "https://github.com/o/r/actions/runs/1",
    }
    assert rec.body == "tensor([1.], device='cuda:0')\n"


# The environment every recording's header says it was recorded in (was recordings.FIELDS).
FIELDS = ("torch", "python", "device", "date")


def test_a_written_header_has_english_keys_and_reads_back(tmp_path: Path) -> None:
    block = Block("a.md", "uno", "print(1)", tmp_path / "a.md", 1, 1)
    env = {"torch": "2.13.0+cpu", "python": "3.11.7", "device": "cpu (x86_64)"}
    text = recordings.render(block, "cpu", env, "2026-11-29", "1", {"origin": "o", "run": ""})
    assert text == (
        "# docverify: salida grabada de «a/uno» en el runner cpu\n"
        "# torch: 2.13.0+cpu\n# python: 3.11.7\n# device: cpu (x86_64)\n# date: 2026-11-29\n"
        "# origin: o\n# ----\n1\n"
    )
    path = tmp_path / "uno.cpu.txt"
    path.write_text(text, encoding="utf-8")
    rec = recordings.read(path, "cpu")
    assert set(rec.header) == {"docverify", "torch", "python", "device", "date", "origin"}
    assert set(FIELDS) <= set(rec.header)
    assert rec.body == "1\n"


def test_an_unknown_environment_is_written_as_a_question_mark(tmp_path: Path) -> None:
    block = Block("a.md", "uno", "print(1)", tmp_path / "a.md", 1, 1)
    text = recordings.render(block, "gpu", {}, "2026-11-29", "")
    assert text == (
        "# docverify: salida grabada de «a/uno» en el runner gpu\n"
        "# torch: ?\n# python: ?\n# device: ?\n# date: 2026-11-29\n# ----\n"
    )
    marked = recordings.render(block, "cpu", {}, "2026-11-29", "x", marks=["random"])
    assert marked.endswith("# date: 2026-11-29\n# device-dependent: random\n# ----\nx\n")


def test_of_block_reads_the_recording_of_each_runner_that_has_one(project: Project) -> None:
    project.page("a.md", '# A\n\n```python exec="on" id="uno"\nprint(1)\n```\n')
    (block,) = read_site(project.config)[0].blocks
    assert recordings.of_block(project.config, block).get("gpu") is None
    project.snippet("a/uno.gpu.txt", "# torch: 2.13.0\n# ----\n1\n")
    loaded = recordings.of_block(project.config, block).get("gpu")
    assert loaded == recordings.Recording(
        project.root / "snippets/a/uno.gpu.txt", "gpu", {"torch": "2.13.0"}, "1\n"
    )


def test_with_marks_gives_a_file_without_a_header_one(tmp_path: Path) -> None:
    path = tmp_path / "uno.cpu.txt"
    path.write_text("1\n", encoding="utf-8")
    rec = recordings.read(path, "cpu")
    assert rec.header == {} and rec.body == "1\n"
    assert recordings.with_marks(rec, ["accelerator", "random"]) == (
        "1\n",
        "# device-dependent: random, accelerator\n# ----\n1\n",
    )
    assert recordings.with_marks(rec, []) == ("1\n", "# ----\n1\n")


@pytest.fixture
def ascii_locale() -> Iterator[None]:
    """A machine whose locale is not UTF-8 (LANG=C): open() without an encoding reads ASCII."""
    with locale_c.ascii_locale():
        yield


def test_recordings_are_read_as_utf8_whatever_the_locale(tmp_path: Path, ascii_locale) -> None:
    path = tmp_path / "uno.gpu.txt"
    path.write_text(LEGACY, encoding="utf-8")
    rec = recordings.read(path, "gpu")
    assert rec.header["docverify"] == "salida grabada de «a/uno» en el runner gpu"
    assert recordings.with_marks(rec, ["random"])[0] == LEGACY
