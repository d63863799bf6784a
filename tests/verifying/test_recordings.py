"""verifying.recordings: English header keys; a recording with the old Spanish keys still reads."""

from __future__ import annotations

from pathlib import Path

from docverify.parsing.pages import Block
from docverify.verifying import recordings

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
