"""Sources and freshness: dates, policy, drift of fingerprinted sources, re-verification, report."""

from __future__ import annotations

import datetime as dt
import importlib
import io
import sys
from pathlib import Path

import pytest
from conftest import ROOT, Project, mkdocs_build
from docverify.cli import main as cli
from docverify.core import config as config_mod
from docverify.core.findings import Level, errors
from docverify.output import report_page
from docverify.parsing.pages import read_page, read_site
from docverify.site import checks as site
from docverify.sources import fingerprint as fp_mod
from docverify.sources import freshness, reverify

TITLE = "Entrada Python de autograd"
REF = "PyTorch / torch/autograd/__init__.py"
VERIFIED = dt.date(2026, 9, 23)


def source_page(
    project: Project, verified: str | None, extra: str = "", name: str = "guia.md"
) -> Path:
    """A page citing one source; `verified=None` leaves the date out. `extra`: more keys."""
    date = "" if verified is None else f"\n    verified: {verified}"
    return project.page(
        name,
        '---\ntitle: "Guía"\nsources:\n'
        f'  - title: "{TITLE}"\n    reference: "{REF}"{date}{extra}\n'
        "---\n\nTexto.\n",
    )


def judge(project: Project, today: dt.date) -> list:
    cfg = project.config
    return site.check(cfg, read_site(cfg), today)


def epoch(day: dt.date) -> str:
    return str(int(dt.datetime(day.year, day.month, day.day, 12, tzinfo=dt.UTC).timestamp()))


# Dates ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("days", "stale"), [(0, False), (149, False), (180, False), (181, True), (400, True)]
)
def test_max_age_boundary(project: Project, days: int, stale: bool) -> None:
    source_page(project, '"2026-09-23"')
    found = errors(judge(project, VERIFIED + dt.timedelta(days=days)))
    assert [f.kind for f in found] == (["fuente-caducada"] if stale else [])


def test_stale_source_names_page_source_date_age_and_review_by(project: Project) -> None:
    source_page(project, '"2020-01-01"')
    [finding] = errors(judge(project, dt.date(2026, 11, 29)))
    assert finding.kind == "fuente-caducada"
    assert finding.where == "docs/guia.md:6"  # the line of verified:
    age = (dt.date(2026, 11, 29) - dt.date(2020, 1, 1)).days
    for part in (REF, TITLE, "2020-01-01", f"hace {age} días", "a más tardar el 2020-06-29"):
        assert part in finding.message, finding.message
    assert "docverify sources --reverify" in finding.fix


def test_future_date_fails(project: Project) -> None:
    source_page(project, "2099-01-01")
    [finding] = errors(judge(project, dt.date(2026, 11, 29)))
    assert finding.kind == "fecha-futura"
    assert REF in finding.message and "2099-01-01" in finding.message


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ('"2026-13-45"', "imposible"),
        ('"2026-02-30"', "imposible"),
        ('"2026-9-23"', "mal formada"),
        ("ayer", "mal formada"),
        (None, "falta la fecha"),
        ('""', "falta la fecha"),
    ],
)
def test_bad_dates_fail_naming_page_and_source(
    project: Project, raw: str | None, reason: str
) -> None:
    source_page(project, raw)
    [finding] = errors(judge(project, dt.date(2026, 11, 29)))
    assert finding.kind == "fecha-invalida"
    assert finding.path == "docs/guia.md" and REF in finding.message
    assert reason in finding.message


def test_warning_window_is_info_and_does_not_fail(project: Project) -> None:
    source_page(project, '"2026-09-23"')
    findings = judge(project, VERIFIED + dt.timedelta(days=150))
    assert not errors(findings)
    [info] = findings
    assert info.kind == "fuente-por-revisar" and info.level is Level.INFO
    assert "faltan 30 días" in info.message
    assert not judge(project, VERIFIED + dt.timedelta(days=149))


def test_review_days_and_owner(project: Project) -> None:
    source_page(project, '"2026-09-23"', '\n    review_days: 90\n    owner: "@ana"')
    cfg = project.config
    fresh = freshness.evaluate(cfg, read_site(cfg), VERIFIED + dt.timedelta(days=91))
    [status] = fresh.statuses
    assert status.review_by == VERIFIED + dt.timedelta(days=90)
    assert status.status == "stale" and status.source.owner == "@ana"
    assert "máximo 90" in errors(fresh.findings)[0].message


def test_review_days_over_the_maximum_fails(project: Project) -> None:
    source_page(project, '"2026-09-23"', "\n    review_days: 365")
    [finding] = errors(judge(project, VERIFIED))
    assert "supera el máximo" in finding.message and finding.where == "docs/guia.md:7"


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ("\n    reviewer: ana", "claves desconocidas: reviewer"),
        ("\n    review_days: pronto", "review_days «pronto»"),
        ("\n    url: ftp://x", "no es una dirección http"),
    ],
)
def test_bad_optional_keys_fail(project: Project, extra: str, words: str) -> None:
    source_page(project, '"2026-09-23"', extra)
    found = errors(judge(project, VERIFIED))
    assert found and words in found[0].message, found


def test_policy_comes_from_pyproject(project: Project) -> None:
    pyproject = project.root / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text() + "\n[tool.docverify.sources]\nmax_age_days = 10\nwarn_days = 2\n",
        encoding="utf-8",
    )
    source_page(project, '"2026-09-23"')
    assert not judge(project, VERIFIED + dt.timedelta(days=7))
    assert judge(project, VERIFIED + dt.timedelta(days=8))[0].level is Level.INFO
    assert errors(judge(project, VERIFIED + dt.timedelta(days=11)))


def test_bad_policy_is_reported(project: Project) -> None:
    pyproject = project.root / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text() + '\n[tool.docverify.sources]\nmax_age = 10\ndrift = "ignore"\n',
        encoding="utf-8",
    )
    found = errors(judge(project, VERIFIED))
    assert {f.path for f in found} == {"pyproject.toml"}
    assert any("max_age" in f.message for f in found)
    assert any("drift" in f.message for f in found)


def test_today_comes_from_source_date_epoch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch(dt.date(2027, 3, 23)))
    assert config_mod.today() == dt.date(2027, 3, 23)


# Drift ---------------------------------------------------------------------------------------


def torch_fingerprint(obj: str, sha: str, version: str = "2.13.0") -> str:
    return (
        f'\n    fingerprint:\n      package: torch\n      version: "{version}"\n'
        f'      object: {obj}\n      sha256: "{sha}"'
    )


def backward_sha() -> str:
    return fp_mod.digest(
        fp_mod.object_source(fp_mod.package_dir("torch"), "torch.autograd.backward")
    )


def test_fingerprint_is_computed_without_importing_torch() -> None:
    code = (
        "import sys; from docverify.sources import fingerprint as f; "
        "t = f.object_source(f.package_dir('torch'), 'torch.autograd.backward'); "
        "assert t.startswith('def backward('), t[:40]; assert 'torch' not in sys.modules"
    )
    import subprocess  # noqa: PLC0415

    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


def test_matching_fingerprint_passes(project: Project) -> None:
    source_page(
        project, '"2026-09-23"', torch_fingerprint("torch.autograd.backward", backward_sha())
    )
    assert not judge(project, VERIFIED)


def test_fingerprint_of_a_different_object_is_drift(project: Project) -> None:
    """Record backward's hash but point at grad: the installed source differs, the build fails."""
    source_page(project, '"2026-09-23"', torch_fingerprint("torch.autograd.grad", backward_sha()))
    [finding] = errors(judge(project, VERIFIED))
    assert finding.kind == "fuente-cambiada"
    assert "torch.autograd.grad cambió desde que se verificó" in finding.message
    assert REF in finding.message and finding.where == "docs/guia.md:10"  # object: line


def test_drift_can_be_only_reported(project: Project) -> None:
    pyproject = project.root / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text() + '\n[tool.docverify.sources]\ndrift = "report"\n', encoding="utf-8"
    )
    source_page(project, '"2026-09-23"', torch_fingerprint("torch.autograd.grad", backward_sha()))
    findings = judge(project, VERIFIED)
    assert not errors(findings)
    assert [f.kind for f in findings] == ["fuente-cambiada"]
    assert findings[0].level is Level.INFO


def test_same_source_new_version_is_info(project: Project) -> None:
    source_page(
        project,
        '"2026-09-23"',
        torch_fingerprint("torch.autograd.backward", backward_sha(), version="2.12.0"),
    )
    [finding] = judge(project, VERIFIED)
    assert finding.kind == "fuente-misma-huella" and finding.level is Level.INFO


@pytest.fixture
def fake_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An installed-looking package `dvfake` on sys.path, never imported by the engine."""
    root = tmp_path / "site-packages"
    package = root / "dvfake"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("raise RuntimeError('must not be imported')\n")
    (package / "core.py").write_text(
        "import os\n\n\nclass Model:\n    @staticmethod\n    def step(x):\n        return x + 1\n"
        "\n\ndef helper():\n    return 1\n",
        encoding="utf-8",
    )
    meta = root / "dvfake-1.0.dist-info"
    meta.mkdir()
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: dvfake\nVersion: 1.0\n")
    monkeypatch.syspath_prepend(str(root))
    importlib.invalidate_caches()
    return package


def fake_fingerprint(kind: str, target: str, sha: str) -> str:
    return (
        f'\n    fingerprint:\n      package: dvfake\n      version: "1.0"\n'
        f'      {kind}: {target}\n      sha256: "{sha}"'
    )


@pytest.mark.parametrize(
    ("kind", "target"),
    [
        ("object", "dvfake.core.Model.step"),
        ("object", "dvfake.core.helper"),
        ("file", "dvfake/core.py"),
    ],
)
def test_changing_the_installed_source_is_drift(
    project: Project, fake_package: Path, kind: str, target: str
) -> None:
    base = fp_mod.package_dir("dvfake")
    text = (
        (base.parent / target).read_text() if kind == "file" else fp_mod.object_source(base, target)
    )
    source_page(project, '"2026-09-23"', fake_fingerprint(kind, target, fp_mod.digest(text)))
    assert not errors(judge(project, VERIFIED))
    core = fake_package / "core.py"
    core.write_text(core.read_text().replace("x + 1", "x + 2").replace("return 1", "return 2"))
    [finding] = errors(judge(project, VERIFIED))
    assert finding.kind == "fuente-cambiada" and target in finding.message
    assert "dvfake" not in sys.modules


def test_method_source_is_dedented_with_its_decorator(fake_package: Path) -> None:
    text = fp_mod.object_source(fp_mod.package_dir("dvfake"), "dvfake.core.Model.step")
    assert text == "@staticmethod\ndef step(x):\n    return x + 1\n"


@pytest.mark.parametrize(
    ("target", "words"),
    [("dvfake.core.missing", "no se encuentra"), ("dvfake.nothere.f", "no se encuentra")],
)
def test_missing_object_is_drift(
    project: Project, fake_package: Path, target: str, words: str
) -> None:
    source_page(project, '"2026-09-23"', fake_fingerprint("object", target, "0" * 64))
    [finding] = errors(judge(project, VERIFIED))
    assert finding.kind == "fuente-cambiada" and words in finding.message


def test_missing_package_fails(project: Project) -> None:
    source_page(
        project,
        '"2026-09-23"',
        "\n    fingerprint:\n      package: dvnotinstalled\n"
        '      version: "1"\n      file: dvnotinstalled/a.py\n'
        f'      sha256: "{"0" * 64}"',
    )
    [finding] = errors(judge(project, VERIFIED))
    assert "no está instalado" in finding.message


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("package: torch\n      file: torch/a.py\n      object: torch.a", "exactamente una"),
        ("package: torch\n      object: numpy.sum", "dentro de torch"),
        ("package: torch\n      file: autograd/__init__.py", "ruta dentro del paquete"),
        ("package: torch\n      object: torch.x\n      sha256: abc", "64 cifras"),
        ("package: torch\n      object: torch.x\n      hash: abc", "claves desconocidas"),
    ],
)
def test_malformed_fingerprint_fails(project: Project, body: str, words: str) -> None:
    source_page(project, '"2026-09-23"', f"\n    fingerprint:\n      {body}")
    [finding] = errors(judge(project, VERIFIED))
    assert words in finding.message, finding.message


def test_incomplete_fingerprint_asks_for_reverify(project: Project) -> None:
    source_page(
        project,
        '"2026-09-23"',
        "\n    fingerprint:\n      package: torch\n      object: torch.autograd.backward",
    )
    [finding] = errors(judge(project, VERIFIED))
    assert finding.kind == "huella-incompleta" and "--reverify" in finding.fix


# Re-verifying --------------------------------------------------------------------------------


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
    cfg = project.config
    assert not errors(site.check(cfg, read_site(cfg), dt.date(2026, 11, 29)))


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
    cfg = project.config
    assert not site.check(cfg, read_site(cfg), dt.date(2026, 11, 29))


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


# Readers: footer and report page -------------------------------------------------------------


def test_report_lists_both_articles_sources_with_review_by_dates() -> None:
    cfg = config_mod.load(ROOT)
    pages = read_site(cfg)
    text = report_page.build(cfg, pages, None, dt.date(2026, 11, 29))
    rows = [line for line in text.splitlines() if "23 de septiembre de 2026" in line]
    assert len(rows) == 3, rows
    assert sum("Primer ejercicio" in r for r in rows) == 2
    assert sum("Arquitectura de autograd" in r for r in rows) == 1
    assert all("| 67 días | 22 de marzo de 2027 | al día" in r for r in rows), rows
    both = sum(1 for p in pages for b in p.blocks if b.only is None)
    cpu_only = sum(1 for p in pages for b in p.blocks if b.only == "cpu")
    assert both >= 10
    rows = [line for line in text.splitlines() if "`" in line]
    assert sum("| CPU, GPU |" in line for line in rows) == both
    assert sum("| CPU |" in line for line in rows) == cpu_only


@pytest.mark.slow
def test_built_site_shows_dates_and_report(built_site: Path) -> None:
    from test_site import text_of  # noqa: PLC0415

    for page in ("articulos/primer-ejercicio", "articulos/arquitectura-autograd"):
        text = text_of(built_site, page)
        assert (
            "verificada el 23 de septiembre de 2026 · revisar a más tardar el 22 de marzo de 2027"
        ) in text
    report = text_of(built_site, "verificacion")
    assert "Informe de verificación" in report
    assert report.count("22 de marzo de 2027") == 3
    assert "huella de torch.autograd.backward intacta" in report
    assert "intermedio-sin-grad" in report and "CPU: coincide ✓" in report


# Strict builds of a copy of the site ---------------------------------------------------------


def set_dates(root: Path, old: str, new: str) -> None:
    for page in (root / "docs/articulos").glob("*.md"):
        page.write_text(page.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


@pytest.mark.slow
def test_strict_build_fails_on_a_stale_source(site_copy, tmp_path: Path) -> None:
    root = site_copy()
    page = root / "docs/articulos/primer-ejercicio.md"
    page.write_text(
        page.read_text(encoding="utf-8").replace(
            'verified: "2026-09-23"', 'verified: "2020-01-01"', 1
        ),
        encoding="utf-8",
    )
    result = mkdocs_build(
        root, tmp_path / "site", env={"SOURCE_DATE_EPOCH": epoch(dt.date(2026, 11, 29))}
    )
    assert result.returncode != 0
    assert "docs/articulos/primer-ejercicio.md:25: [fuente-caducada]" in result.stderr
    assert "«PyTorch / README.md»" in result.stderr and "2020-01-01" in result.stderr
    assert "arquitectura-autograd.md" not in result.stderr


@pytest.mark.slow
def test_strict_build_boundary_and_drift(site_copy, tmp_path: Path) -> None:
    root = site_copy()
    at_limit = mkdocs_build(
        root, tmp_path / "a", env={"SOURCE_DATE_EPOCH": epoch(VERIFIED + dt.timedelta(days=180))}
    )
    assert at_limit.returncode == 0, at_limit.stderr
    over = mkdocs_build(
        root, tmp_path / "b", env={"SOURCE_DATE_EPOCH": epoch(VERIFIED + dt.timedelta(days=181))}
    )
    assert over.returncode != 0 and over.stderr.count("[fuente-caducada]") == 3
    page = root / "docs/articulos/arquitectura-autograd.md"
    page.write_text(
        page.read_text(encoding="utf-8").replace(
            "object: torch.autograd.backward", "object: torch.autograd.grad"
        ),
        encoding="utf-8",
    )
    drift = mkdocs_build(root, tmp_path / "c", env={"SOURCE_DATE_EPOCH": epoch(VERIFIED)})
    assert drift.returncode != 0
    assert "arquitectura-autograd.md:29: [fuente-cambiada]" in drift.stderr
    assert "torch.autograd.grad cambió desde que se verificó" in drift.stderr
