"""sources.reverify and `docverify sources`: re-verifying edits only values; the list by date."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import pytest
from conftest import Project
from docverify.cli import main as cli
from docverify.core.findings import errors
from docverify.parsing.pages import read_page, read_site
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
    with pytest.raises(ValueError) as info:
        reverify.edit(page.read_text(), source, "2026-11-29", {"version": "1", "sha256": "0"})
    assert str(info.value) == (
        "la huella está escrita en una sola línea ({…}); escríbela como bloque, una clave por "
        "línea."
    )


def helper_page(project: Project, fingerprint: str, *, first: str = "", body: str = "Texto.\n"):
    """A page citing REF with `fingerprint` (YAML lines of the source, or ''), after `first`
    (other entries of `sources:`), with `body` after the front matter."""
    return project.page(
        "guia.md",
        '---\ntitle: "Guía"\nsources:\n'
        f'{first}  - title: "{TITLE}"\n    reference: "{REF}"\n    verified: "2026-09-23"\n'
        f"{fingerprint}---\n\n{body}",
    )


HELPER_FP = (
    "    fingerprint:\n      package: dvfake\n      version: '0.9'\n"
    "      object: dvfake.core.helper\n      sha256: {sha}\n"
)


def test_candidates_skip_other_sources_and_keep_why_the_text_is_missing(project: Project) -> None:
    # The first source is not named; a fingerprint of a package that is not installed leaves
    # no installed text, the reason why, and no diff; applying it says so.
    project.page(
        "guia.md",
        '---\ntitle: "Guía"\nsources:\n'
        '  - title: "Otra"\n    reference: "Otra"\n    verified: "2026-09-23"\n'
        f'  - title: "{TITLE}"\n    reference: "{REF}"\n    verified: "2026-09-23"\n'
        "    fingerprint:\n      package: dvnothere\n      object: dvnothere.f\n"
        "---\n\nTexto.\n",
    )
    cfg = project.config
    [candidate] = reverify.candidates(cfg, read_site(cfg), REF)
    assert (candidate.index, candidate.source.reference) == (1, REF)
    assert candidate.installed is None and candidate.diff == "" and not candidate.changed
    assert candidate.problem == "el paquete «dvnothere» no está instalado"
    with pytest.raises(ValueError) as info:
        reverify.apply(cfg, candidate, dt.date(2026, 11, 29))
    assert str(info.value) == (
        f"no se puede actualizar la huella de «{REF}» («{TITLE}»): "
        "el paquete «dvnothere» no está instalado"
    )


def _fp(sha: str | None) -> fp_mod.Fingerprint:
    return fp_mod.Fingerprint("dvfake", "object", "dvfake.core.helper", "0.9", sha)


def test_diff_since_unchanged_without_snapshot_and_with_one(tmp_path: Path) -> None:
    store = tmp_path / "fingerprints"
    store.mkdir()
    old, new = "def helper():\n    return 1\n", "def helper():\n    return 2\n"
    now = fp_mod.Installed(new, fp_mod.digest(new), "1.0")
    assert reverify.diff_since(store, _fp(now.sha256), now) == ""
    note = (
        "(no hay copia del texto verificado en fingerprints/: solo se sabe que la huella pasó de "
    )
    assert reverify.diff_since(store, _fp(None), now) == f"{note}(ninguna) a {now.sha256})"
    sha = fp_mod.digest(old)
    assert reverify.diff_since(store, _fp(sha), now) == f"{note}{sha} a {now.sha256})"
    (store / f"{sha}.txt").write_text(old, encoding="utf-8")
    assert reverify.diff_since(store, _fp(sha), now) == (
        "--- dvfake.core.helper (dvfake 0.9), verificado\n"
        "+++ dvfake.core.helper (dvfake 1.0), instalado\n"
        "@@ -1,2 +1,2 @@\n def helper():\n-    return 1\n+    return 2\n"
    )


@pytest.mark.parametrize(("version", "written"), [(None, "desconocida"), ("1.0+cpu+extra", "1.0")])
def test_apply_writes_the_public_version_or_desconocida(
    project: Project, fake_package: Path, version: str | None, written: str
) -> None:
    text = fp_mod.object_source(fp_mod.package_dir("dvfake"), "dvfake.core.helper")
    page = helper_page(project, HELPER_FP.format(sha=fp_mod.digest("antes\n")))
    before = page.read_bytes()
    cfg = project.config
    [candidate] = reverify.candidates(cfg, read_site(cfg), REF)
    candidate.installed = fp_mod.Installed(text, fp_mod.digest(text), version)
    assert reverify.apply(cfg, candidate, dt.date(2026, 11, 29)) == page
    assert page.read_bytes() == (
        before.replace(b'"2026-09-23"', b'"2026-11-29"')
        .replace(b"'0.9'", f"'{written}'".encode())
        .replace(fp_mod.digest("antes\n").encode(), f'"{fp_mod.digest(text)}"'.encode())
    )
    assert (project.root / "fingerprints" / f"{fp_mod.digest(text)}.txt").read_text() == text


def test_apply_refuses_an_edit_that_would_change_another_value(project: Project) -> None:
    # A folded date: only its first line is the value `_set` sees, so the edit would join the
    # new date with the old one; the check reads both texts back and refuses.
    page = project.page(
        "guia.md",
        '---\ntitle: "Guía"\nsources:\n'
        f'  - title: "{TITLE}"\n    reference: "{REF}"\n    verified: >-\n      2026-09-23\n'
        "---\n\nTexto.\n",
    )
    before = page.read_bytes()
    cfg = project.config
    [candidate] = reverify.candidates(cfg, read_site(cfg), REF)
    with pytest.raises(ValueError) as info:
        reverify.apply(cfg, candidate, dt.date(2026, 11, 29))
    assert str(info.value) == (
        f"docs/guia.md: no se pudo editar la fuente «{REF}» («{TITLE}») sin tocar el resto del "
        "front matter; edítala a mano."
    )
    assert page.read_bytes() == before


def test_apply_without_fingerprint_keeps_every_other_byte(project: Project) -> None:
    # A malformed entry before (no line of its own to match), a lone CR in the body: only the
    # date changes.
    page = helper_page(project, "", first='  - "suelta"\n', body="Texto\rmás.\r\n")
    before = page.read_bytes()
    cfg = project.config
    [candidate] = reverify.candidates(cfg, read_site(cfg), REF)
    assert candidate.installed is None and candidate.index == 0
    reverify.apply(cfg, candidate, dt.date(2026, 11, 29))
    assert page.read_bytes() == before.replace(b'"2026-09-23"', b'"2026-11-29"')


@pytest.mark.parametrize("ending", ["\n", "\r\n"])
def test_apply_inserts_keys_with_the_last_key_line_ending(
    project: Project, fake_package: Path, ending: str
) -> None:
    fingerprint = (
        f"    fingerprint:\n      package: dvfake\n      object: dvfake.core.helper{ending}"
    )
    page = helper_page(project, fingerprint)
    before = page.read_bytes()
    cfg = project.config
    [candidate] = reverify.candidates(cfg, read_site(cfg), REF)
    reverify.apply(cfg, candidate, dt.date(2026, 11, 29))
    sha = fp_mod.digest(fp_mod.object_source(fp_mod.package_dir("dvfake"), "dvfake.core.helper"))
    added = f'      version: "1.0"{ending}      sha256: "{sha}"{ending}'
    line = f"object: dvfake.core.helper{ending}"
    assert page.read_bytes() == before.replace(b'"2026-09-23"', b'"2026-11-29"').replace(
        line.encode(), f"{line}{added}".encode()
    )


def _source_of(project: Project, page: Path) -> reverify.Source:
    cfg = project.config
    [source] = reverify.read_sources(cfg, read_page(cfg, page))[0]
    return source


def test_edit_of_a_last_line_without_newline_and_of_a_source_without_fingerprint(
    project: Project,
) -> None:
    page = helper_page(project, "    fingerprint:\n      package: torch\n      object: torch.a.b\n")
    text = page.read_text()
    cut = text[: text.index("torch.a.b") + len("torch.a.b")]  # the fingerprint ends the text
    got = reverify.edit(
        cut, _source_of(project, page), "2026-11-29", {"version": "1", "sha256": "0"}
    )
    assert got == cut.replace('"2026-09-23"', '"2026-11-29"') + (
        '\n      version: "1"\n      sha256: "0"\n'
    )
    plain = helper_page(project, "")
    text = plain.read_text()
    got = reverify.edit(text, _source_of(project, plain), "2026-11-29", {"version": "1"})
    assert got == text.replace('"2026-09-23"', '"2026-11-29"')


def test_edit_refuses_a_line_that_is_not_the_key(project: Project) -> None:
    page = helper_page(project, "")
    source = _source_of(project, page)
    text = page.read_text().replace('verified: "2026-09-23"', 'checked: "2026-09-23"')
    with pytest.raises(ValueError) as info:
        reverify.edit(text, source, "2026-11-29", {})
    assert str(info.value) == "línea 6: se esperaba «verified: valor» en una sola línea."
