"""bench/sites.py: what P1 and P3 run, the figures they keep and the lines they print, with the
commands stood in (nothing is built or timed), and P1's warm process with its blocks stood in."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from docverify import running
from docverify.bench import sites
from docverify.bench.common import Bench
from support.locale_c import ascii_locale

DISABLED = "1 error de verificación: ejecucion-desactivada"


class _Commands:
    """common.timed stood in: answers each kind of command from its own list, in turn."""

    def __init__(self, answers: dict[str, list[tuple[float, Any]]]) -> None:
        self.answers = {kind: list(items) for kind, items in answers.items()}
        self.calls: list[tuple[str, list[str], Path, dict[str, str], bool]] = []

    def timed(
        self, args: list[str], cwd: Path, env: dict[str, str], expect_ok: bool = True
    ) -> tuple[float, Any]:
        kind = "full" if "--strict" in args else "off" if "mkdocs" in args else "other"
        self.calls.append((kind, args, cwd, env, expect_ok))
        return self.answers[kind].pop(0)


def _done(stdout: str = "", stderr: str = "") -> SimpleNamespace:
    return SimpleNamespace(returncode=0, stdout=stdout, stderr=stderr)


def _warm_line(imported: float, seconds: float, blocks: int) -> SimpleNamespace:
    line = json.dumps({"import": imported, "seconds": seconds, "blocks": blocks})
    return _done(f"importando\ncalentando\n{line}\n")


@pytest.fixture
def bench(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Bench:
    for name in ("CI", "DOCVERIFY_CACHE", "DOCVERIFY_EXECUTE"):
        monkeypatch.delenv(name, raising=False)
    copies: list[tuple[Path, Path]] = []

    def copy_site(root: Path, dest: Path) -> Path:
        copies.append((root, dest))
        (dest / "docs" / "sub").mkdir(parents=True)
        (dest / "docs" / "a.md").write_text("# Sin código\n", encoding="utf-8")
        (dest / "docs" / "sub" / "b.md").write_text("```python\nprint(1)\n```\n", "utf-8")
        (dest / "docs" / "sub" / "c.md").write_text("```python\nprint(2)\n```\n", "utf-8")
        return dest

    monkeypatch.setattr(sites, "copy_site", copy_site)
    made = Bench(tmp_path / "raiz", repeat=3, runner="cpu", work=tmp_path / "w")
    made.copies = copies  # type: ignore[attr-defined]
    return made


def _mkdocs(site: Path, out_dir: Path) -> list[str]:
    config = str(site / "mkdocs.yml")
    return [sys.executable, "-m", "mkdocs", "build", "-q", "-f", config, "-d", str(out_dir)]


def test_p1_compares_the_full_build_with_execution_off_plus_the_warm_process(
    bench: Bench, monkeypatch: pytest.MonkeyPatch
) -> None:
    commands = _Commands(
        {
            "full": [(10.0, _done()), (12.0, _done()), (11.0, _done())],
            "off": [(5.0, _done(DISABLED)), (4.0, _done(DISABLED)), (6.0, _done(DISABLED))],
            "other": [
                (0.0, _warm_line(1.0, 2.0, 7)),
                (0.0, _warm_line(3.0, 2.5, 7)),
                (0.0, _warm_line(2.0, 3.0, 7)),
            ],
        }
    )
    monkeypatch.setattr(sites, "timed", commands.timed)
    lines: list[str] = []
    sites.p1(bench, lines.append)
    site = bench.work / "p1"
    assert bench.copies == [(bench.root, site)]  # type: ignore[attr-defined]
    # Medians: full 11, off 5, import 2, blocks 2.5.
    assert bench.figures == pytest.approx(
        {
            "P1": 11 / (5 + 2 + 2.5),
            "p1_full": 11.0,
            "p1_off": 5.0,
            "p1_import": 2.0,
            "p1_blocks": 2.5,
            "p1_without_import": 11 / (5 + 2.5),
        }
    )
    assert lines == [
        "P1 · build --strict completo 11.00 s · build sin ejecución 5.00 s · proceso caliente: "
        "importar torch 2.00 s + 7 bloques 2.50 s → 1.16 ✓ (objetivo ≤ 1.5) (sin contar la "
        "importación: 1.47)"
    ]
    full, off, warm = commands.calls[:3]
    assert [c[0] for c in commands.calls] == ["full", "off", "other"] * 3
    assert full[1] == [*_mkdocs(site, bench.work / "p1-full-0"), "--strict"]
    assert off[1] == _mkdocs(site, bench.work / "p1-off-0")
    assert commands.calls[3][1][-2:] == [str(bench.work / "p1-full-1"), "--strict"]
    assert commands.calls[7][1][-1] == str(bench.work / "p1-off-2")
    assert warm[1] == [sys.executable, "-m", "docverify.bench.sites", "warm", str(site), "cpu"]
    assert {c[2] for c in commands.calls} == {site}
    assert (full[4], off[4], warm[4]) == (True, False, True)  # execution off must fail
    picked = ("DOCVERIFY_CACHE", "DOCVERIFY_EXECUTE", "DOCVERIFY_RUNNER")
    assert [tuple(c[3].get(k) for k in picked) for c in (full, off, warm)] == [
        ("0", None, "cpu"),
        ("0", "0", "cpu"),
        (None, None, "cpu"),
    ]


def test_p1_refuses_an_execution_off_build_that_failed_for_another_reason(
    bench: Bench, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = _done("2 errores de verificación: salida-distinta", "a" + "b" * 4000)
    commands = _Commands({"full": [(10.0, _done())], "off": [(5.0, other)], "other": []})
    monkeypatch.setattr(sites, "timed", commands.timed)
    with pytest.raises(RuntimeError) as raised:
        sites.p1(bench, print)
    assert str(raised.value) == "el build sin ejecución falló por otra causa:\n" + "b" * 4000


def _rebuilds(bench: Bench, monkeypatch: pytest.MonkeyPatch) -> tuple[_Commands, list[str]]:
    data = {
        "cached": [0.5, 0.75, 0.625],
        "off": [0.25, 0.5, 0.375],
        "blocks": [0, 2, 1],
        "warmup_blocks": [9, 0],
    }
    printed = f"construyendo\nreconstruyendo\n{json.dumps(data)}\n"
    commands = _Commands({"other": [(0.0, _done(printed))]})
    monkeypatch.setattr(sites, "timed", commands.timed)
    lines: list[str] = []
    sites.p3(bench, lines.append)
    return commands, lines


def test_p3_rebuilds_after_a_prose_edit_of_the_first_page_with_code(
    bench: Bench, monkeypatch: pytest.MonkeyPatch
) -> None:
    commands, lines = _rebuilds(bench, monkeypatch)
    site = bench.work / "p3"
    assert bench.copies == [(bench.root, site)]  # type: ignore[attr-defined]
    script = str(site / "hooks" / "serve_rebuild.py")
    page = str(site / "docs" / "sub" / "b.md")
    # Five pairs for each of the three repetitions.
    assert commands.calls == [
        ("other", [sys.executable, script, str(site), "15", page], site, bench.env(), True)
    ]
    assert bench.figures == pytest.approx(
        {"P3_blocks": 2, "P3_ratio": 0.625 / 0.375, "p3_cached": 0.625, "p3_off": 0.375}
    )
    assert lines == [
        "P3 · reconstrucción tras editar prosa de docs/sub/b.md: 2 bloques re-ejecutados "
        "✗ (objetivo ≤ 0) (la primera construcción ejecutó 9) · con caché 0.62 s · sin "
        "ejecución 0.38 s → 1.67 ✗ (objetivo ≤ 1.2)"
    ]


@pytest.mark.parametrize(("repeat", "pairs"), [(1, "2"), (3, "3")])
def test_a_smoke_p3_makes_at_least_two_pairs(
    bench: Bench, monkeypatch: pytest.MonkeyPatch, repeat: int, pairs: str
) -> None:
    bench.smoke, bench.repeat = True, repeat
    commands, _ = _rebuilds(bench, monkeypatch)
    assert commands.calls[0][1][2:4] == [str(bench.work / "p3"), pairs]


def test_p3_edits_the_first_page_when_none_has_code(
    bench: Bench, monkeypatch: pytest.MonkeyPatch
) -> None:
    def copy_site(root: Path, dest: Path) -> Path:
        (dest / "docs").mkdir(parents=True)
        for name in ("b.md", "a.md"):
            (dest / "docs" / name).write_text("# Página sin código\n", encoding="utf-8")
        return dest

    monkeypatch.setattr(sites, "copy_site", copy_site)
    with ascii_locale():  # the pages are read as UTF-8 whatever the locale
        commands, lines = _rebuilds(bench, monkeypatch)
    assert commands.calls[0][1][-1] == str(bench.work / "p3" / "docs" / "a.md")
    assert "editar prosa de docs/a.md:" in lines[0]


def _stand_in_child(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, list[str], str]]:
    """docverify.running.child (which imports torch) stood in: each block notes the keys its
    namespace had seen before it, and the folder it ran in."""
    ran: list[tuple[str, list[str], str]] = []

    def run_block(block: dict[str, Any], namespace: dict[str, Any]) -> None:
        ran.append((block["key"], list(namespace.get("seen", [])), str(Path.cwd())))
        namespace.setdefault("seen", []).append(block["key"])

    monkeypatch.setitem(
        sys.modules, "docverify.running.child", SimpleNamespace(run_block=run_block)
    )
    monkeypatch.delattr(running, "child", raising=False)
    return ran


def test_the_warm_process_runs_every_block_with_its_session(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ran = _stand_in_child(monkeypatch)
    ticks = iter([1.0, 1.25, 2.0, 5.5])
    monkeypatch.setattr(sites, "time", SimpleNamespace(perf_counter=lambda: next(ticks)))
    jobs = [
        [
            {"key": "a/1", "session": None},
            {"key": "a/2", "session": "s"},
            {"key": "a/3", "session": "s"},
            {"key": "a/4", "session": None},
            {"key": "a/5", "session": "t"},
        ],
        [{"key": "b/1", "session": "s"}],
    ]
    assert sites._warm(jobs) == {"import": 0.25, "seconds": 3.5, "blocks": 6}
    assert [(key, seen) for key, seen, _ in ran] == [
        ("a/1", []),
        ("a/2", []),
        ("a/3", ["a/2"]),  # the same session of the same page
        ("a/4", []),  # a block without a session starts afresh
        ("a/5", []),
        ("b/1", []),  # another page's session «s» is another
    ]


def test_the_warm_process_runs_in_a_temporary_folder_and_comes_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = _stand_in_child(monkeypatch)
    specs = [[{"key": "a/1", "session": None}], [{"key": "b/1", "session": None}]]
    asked: list[tuple[Path, str]] = []

    def page_specs(root: Path, runner: str) -> list[list[dict[str, Any]]]:
        asked.append((root, runner))
        return specs

    monkeypatch.setattr(sites, "page_specs", page_specs)
    elsewhere = tmp_path / "otra"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = sites.warm(tmp_path, "gpu")
    assert asked == [(tmp_path, "gpu")]
    assert result["blocks"] == 2
    folders = {folder for *_, folder in ran}
    assert len(folders) == 1
    folder = Path(folders.pop())
    assert folder.parent == Path(tempfile.gettempdir()).resolve()
    assert folder.name.startswith("docverify-warm-")
    assert not folder.exists()  # removed once the blocks ran
    assert Path.cwd() == tmp_path  # back at the project's root


def test_the_warm_process_comes_back_when_a_block_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def run_block(block: dict[str, Any], namespace: dict[str, Any]) -> None:
        raise ValueError("bloque roto")

    monkeypatch.setitem(
        sys.modules, "docverify.running.child", SimpleNamespace(run_block=run_block)
    )
    monkeypatch.delattr(running, "child", raising=False)
    monkeypatch.setattr(sites, "page_specs", lambda *_: [[{"key": "a/1", "session": None}]])
    monkeypatch.chdir(tmp_path / "..")
    with pytest.raises(ValueError, match="bloque roto"):
        sites.warm(tmp_path, "cpu")
    assert Path.cwd() == tmp_path
