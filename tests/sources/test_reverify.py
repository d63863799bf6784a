"""sources.reverify and `docverify sources`: re-verifying edits only values; the list by date."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import pytest
from conftest import Project
from docverify.cli import main as cli
from docverify.core.findings import errors
from docverify.parsing.pages import read_page
from docverify.sources import fingerprint as fp_mod
from docverify.sources import reverify
from support.clock import epoch
from support.sources import REF, TITLE, VERIFIED, backward_sha, judge, source_page


def run_cli(project: Project, monkeypatch: pytest.MonkeyPatch, today: dt.date, *args: str) -> int:
    monkeypatch.chdir(project.root)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch(today))
    monkeypatch.delenv("CI", raising=False)
    return cli.main(["sources", *args])


def test_reverify_edits_only_the_values(
    project: Project,
    fake_package: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    base = fp_mod.package_dir("dvfake")
    old = fp_mod.object_source(base, "dvfake.core.helper")
    page = project.page(
        "guia.md",
        f"""
        ---
        title: 'Guía'   # comment
        sources:
          - title: "{TITLE}"
            reference: '{REF}'
            verified: 2026-09-23  # la fecha
            fingerprint:
              package: dvfake
              version: '0.9'
              object: dvfake.core.helper
              sha256: {fp_mod.digest(old)}   # huella
          - title: "Otra"
            reference: "Otra"
            verified: "2026-09-23"
        ---

        Texto con verified: 2026-09-23 en el cuerpo.
        """,
    )
    page.write_bytes(page.read_bytes().replace(b"\n", b"\r\n"))  # CRLF survives too
    store = project.root / "fingerprints"
    store.mkdir()
    (store / f"{fp_mod.digest(old)}.txt").write_text(old, encoding="utf-8")
    core = fake_package / "core.py"
    core.write_text(core.read_text().replace("return 1", "return 2"))
    before = page.read_bytes()

    monkeypatch.setattr("sys.stdin", io.StringIO("n\n"))  # the author answers no
    assert (
        run_cli(project, monkeypatch, dt.date(2026, 11, 29), "--reverify", "dvfake.core.helper")
        == 1
    )
    out = capsys.readouterr().out
    assert "-    return 1\n+    return 2" in out and "nada cambiado" in out
    assert page.read_bytes() == before

    assert run_cli(project, monkeypatch, dt.date(2026, 11, 29), "--reverify", REF, "--yes") == 0
    new = fp_mod.digest(fp_mod.object_source(base, "dvfake.core.helper"))
    expected = (
        before.replace(b"verified: 2026-09-23  #", b"verified: 2026-11-29  #")
        .replace(b"version: '0.9'", b"version: '1.0'")
        .replace(fp_mod.digest(old).encode(), f'"{new}"'.encode())
    )
    assert page.read_bytes() == expected
    assert (store / f"{new}.txt").read_text() == fp_mod.object_source(base, "dvfake.core.helper")
    assert not (store / f"{fp_mod.digest(old)}.txt").exists()  # no fingerprint names it now
    assert not errors(judge(project, dt.date(2026, 11, 29)))


def test_reverify_fills_an_incomplete_fingerprint(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = source_page(
        project,
        '"2026-09-23"',
        "\n    fingerprint:\n      package: torch\n      object: torch.autograd.backward",
    )
    before = page.read_text()
    assert run_cli(project, monkeypatch, dt.date(2026, 11, 29), "--reverify", REF, "--yes") == 0
    after = page.read_text()
    assert after == before.replace('"2026-09-23"', '"2026-11-29"').replace(
        "object: torch.autograd.backward\n",
        f'object: torch.autograd.backward\n      version: "2.13.0"\n'
        f'      sha256: "{backward_sha()}"\n',
    )
    assert not judge(project, dt.date(2026, 11, 29))


def test_reverify_refuses_under_ci(project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    page = source_page(project, '"2020-01-01"')
    before = page.read_bytes()
    monkeypatch.chdir(project.root)
    monkeypatch.setenv("CI", "true")
    assert cli.main(["sources", "--reverify", REF, "--yes"]) == 2
    assert page.read_bytes() == before


def test_reverify_unknown_reference(project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    source_page(project, '"2026-09-23"')
    assert run_cli(project, monkeypatch, VERIFIED, "--reverify", "nada", "--yes") == 2


def test_sources_lists_by_review_by_date(
    project: Project, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source_page(project, '"2026-09-23"', name="a.md")
    source_page(project, '"2026-09-01"', "\n    review_days: 30", name="b.md")
    assert (
        run_cli(
            project,
            monkeypatch,
            dt.date(2026, 11, 29),
        )
        == 1
    )  # b.md is stale
    lines = [
        line
        for line in capsys.readouterr().out.splitlines()
        if line[:4] == "2026" or line[:4] == "2027"
    ]
    assert [line.split()[0] for line in lines] == ["2026-10-01", "2027-03-22"]
    assert "caducada" in lines[0] and "b.md" in lines[0]


def test_edit_rejects_a_flow_style_fingerprint(project: Project) -> None:
    page = source_page(
        project,
        '"2026-09-23"',
        "\n    fingerprint: {package: torch, object: torch.autograd.backward}",
    )
    cfg = project.config
    [source] = reverify.read_sources(cfg, read_page(cfg, page))[0]
    with pytest.raises(ValueError, match="una sola línea"):
        reverify.edit(page.read_text(), source, "2026-11-29", {"version": "1", "sha256": "0"})
