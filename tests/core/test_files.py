"""Writing a file through a temporary one and a rename (core/files.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from docverify.core import files
from support.locale_c import ascii_locale


def test_it_creates_the_missing_folders_and_writes_utf8_with_lf(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "c.txt"
    with ascii_locale():  # the locale's encoding would be ASCII: ñ must still be written
        files.write_atomic(target, "año\nsegunda línea\n")
    assert target.read_bytes() == "año\nsegunda línea\n".encode()


def test_the_temporary_file_is_hidden_in_the_same_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same folder: the rename is atomic (never across filesystems). A hidden name ending in
    .tmp: a file left by a crash is skipped by MkDocs and never read as a recording."""
    seen: list[Path] = []
    replace = Path.replace

    def noting(self: Path, target: Path) -> Path:
        seen.append(self)
        assert self.read_text(encoding="utf-8") == "x"  # complete before the rename
        return replace(self, target)

    monkeypatch.setattr(Path, "replace", noting)
    target = tmp_path / "bloque.cpu.txt"
    files.write_atomic(target, "x")
    [temporary] = seen
    assert temporary.parent == tmp_path
    assert temporary.name.startswith(".bloque.cpu.txt.") and temporary.name.endswith(".tmp")
    assert not temporary.exists() and [p.name for p in tmp_path.iterdir()] == ["bloque.cpu.txt"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "grabación.txt"
    target.write_text("antes\n", encoding="utf-8")
    with pytest.raises(UnicodeEncodeError):  # a lone surrogate cannot be written as UTF-8
        files.write_atomic(target, "después \udc80\n")
    assert target.read_text(encoding="utf-8") == "antes\n"
    assert [p.name for p in tmp_path.iterdir()] == ["grabación.txt"]


def test_a_failed_rename_removes_the_temporary(tmp_path: Path) -> None:
    target = tmp_path / "carpeta"
    (target / "dentro").mkdir(parents=True)  # a folder with something in it: no rename over it
    with pytest.raises(OSError):
        files.write_atomic(target, "x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["carpeta"]


def test_an_interruption_right_after_the_rename_is_not_masked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C between the rename and the end of the write: the temporary file is gone already,
    and cleaning it up must not turn the interruption into a FileNotFoundError."""
    replace = Path.replace

    def interrupted(self: Path, target: Path) -> Path:
        replace(self, target)
        raise KeyboardInterrupt

    monkeypatch.setattr(Path, "replace", interrupted)
    target = tmp_path / "bloque.cpu.txt"
    with pytest.raises(KeyboardInterrupt):
        files.write_atomic(target, "x")
    assert target.read_text(encoding="utf-8") == "x"
