"""sources.fingerprint: drift of a fingerprinted source in the installed package."""

from __future__ import annotations

import importlib.machinery
import sys
from pathlib import Path

import pytest
from conftest import Project
from docverify.core.findings import Level, errors
from docverify.core.kinds import Kind
from docverify.sources import fingerprint as fp_mod
from support.sources import (
    QUOTED,
    REF,
    VERIFIED,
    backward_sha,
    judge,
    source_page,
    torch_fingerprint,
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
    source_page(project, QUOTED, torch_fingerprint("torch.autograd.backward", backward_sha()))
    assert not judge(project, VERIFIED)


def test_fingerprint_of_a_different_object_is_drift(project: Project) -> None:
    """Record backward's hash but point at grad: the installed source differs, the build fails."""
    source_page(project, QUOTED, torch_fingerprint("torch.autograd.grad", backward_sha()))
    [finding] = errors(judge(project, VERIFIED))
    assert finding.kind == Kind.CHANGED_SOURCE
    assert "torch.autograd.grad cambió desde que se verificó" in finding.message
    assert REF in finding.message and finding.where == "docs/guia.md:10"  # object: line


def test_drift_can_be_only_reported(project: Project) -> None:
    pyproject = project.root / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text() + '\n[tool.docverify.sources]\ndrift = "report"\n', encoding="utf-8"
    )
    source_page(project, QUOTED, torch_fingerprint("torch.autograd.grad", backward_sha()))
    findings = judge(project, VERIFIED)
    assert not errors(findings)
    assert [f.kind for f in findings] == [Kind.CHANGED_SOURCE]
    assert findings[0].level is Level.INFO


def test_same_source_new_version_is_info(project: Project) -> None:
    source_page(
        project,
        QUOTED,
        torch_fingerprint("torch.autograd.backward", backward_sha(), version="2.12.0"),
    )
    [finding] = judge(project, VERIFIED)
    assert finding.kind == Kind.SAME_FINGERPRINT and finding.level is Level.INFO


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
    source_page(project, QUOTED, fake_fingerprint(kind, target, fp_mod.digest(text)))
    assert not errors(judge(project, VERIFIED))
    core = fake_package / "core.py"
    core.write_text(core.read_text().replace("x + 1", "x + 2").replace("return 1", "return 2"))
    [finding] = errors(judge(project, VERIFIED))
    assert finding.kind == Kind.CHANGED_SOURCE and target in finding.message
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
    source_page(project, QUOTED, fake_fingerprint("object", target, "0" * 64))
    [finding] = errors(judge(project, VERIFIED))
    assert finding.kind == Kind.CHANGED_SOURCE and words in finding.message


def test_missing_package_fails(project: Project) -> None:
    source_page(
        project,
        QUOTED,
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
    source_page(project, QUOTED, f"\n    fingerprint:\n      {body}")
    [finding] = errors(judge(project, VERIFIED))
    assert words in finding.message, finding.message


def test_incomplete_fingerprint_asks_for_reverify(project: Project) -> None:
    source_page(
        project,
        QUOTED,
        "\n    fingerprint:\n      package: torch\n      object: torch.autograd.backward",
    )
    [finding] = errors(judge(project, VERIFIED))
    assert finding.kind == Kind.INCOMPLETE_FINGERPRINT and "--reverify" in finding.fix


def test_parse_keeps_absent_version_and_hash_as_none() -> None:
    fp, reason = fp_mod.parse({"package": "torch", "object": " torch.x "}, 7)
    assert reason == ""
    assert fp == fp_mod.Fingerprint("torch", "object", "torch.x", None, None, 7)
    assert fp_mod._problem({"package": "torch", "file": "torch/a.py"}) == ""


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (
            {"object": "torch.x"},
            "«fingerprint» necesita package: el nombre del paquete importable (torch)",
        ),
        (
            {"package": "torch"},
            "«fingerprint» lleva exactamente una de file (ruta) u object (nombre)",
        ),
        (
            {"package": "torch", "object": "torch.x", "url": "u", "hash": "h"},
            "claves desconocidas en «fingerprint»: hash, url",
        ),
        (
            {"package": "torch", "object": "torch.x", "sha256": "A" * 64},
            "sha256 debe tener 64 cifras hexadecimales en minúsculas",
        ),
    ],
)
def test_malformed_fingerprint_messages(raw: dict, message: str) -> None:
    assert fp_mod.parse(raw, 3) == (None, message)


@pytest.fixture
def other_site(tmp_path: Path) -> Path:
    """Another interpreter's site-packages (not on sys.path): a package `dvother` with its
    distribution, a one-file module `dvsingle`, and a distribution whose import name is only in
    its top_level.txt; plus a distribution with a mixed-case name."""
    root = tmp_path / "other-site"
    (root / "dvother").mkdir(parents=True)
    (root / "dvother" / "__init__.py").write_text("def f():\n    return 'otro'\n")
    (root / "dvsingle.py").write_text("X = 1\n")
    for dist, name, version, top in [
        ("dvother-2.5", "dvother", "2.5", None),
        ("dv_dist-3.0", "dv-dist", "3.0", "dvtop\n"),
        ("DVMixed-4.1", "DVMixed", "4.1", None),
    ]:
        meta = root / f"{dist}.dist-info"
        meta.mkdir()
        (meta / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
        if top:
            (meta / "top_level.txt").write_text(top)
    return root


def test_another_interpreters_path(other_site: Path) -> None:
    path = [str(other_site)]
    assert fp_mod.package_dir("dvother", path) == other_site / "dvother"
    assert fp_mod.package_dir("dvsingle", path) == other_site  # a module: its folder
    assert fp_mod.package_version("dvother", path) == "2.5"
    assert fp_mod.package_version("dvtop", path) == "3.0"  # from top_level.txt
    assert fp_mod.package_version("dvmixed", path) == "4.1"
    assert fp_mod.package_version("dvabsent", path) is None
    fp = fp_mod.Fingerprint("dvother", "object", "dvother.f", "2.5", None)
    text = "def f():\n    return 'otro'\n"
    assert fp_mod.installed(fp, path) == fp_mod.Installed(text, fp_mod.digest(text), "2.5")
    with pytest.raises(fp_mod.FingerprintError):
        fp_mod.installed(fp)  # not on this interpreter's sys.path


def test_version_through_the_distribution_that_provides_the_package(
    other_site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(other_site))
    assert fp_mod.package_version("dvtop") == "3.0"  # no distribution is named dvtop
    assert fp_mod.package_version("dvabsent") is None


def test_package_dir_refusals(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(fp_mod.FingerprintError) as info:
        fp_mod.package_dir("dvnothere.sub")  # finding it imports dvnothere: ImportError
    assert str(info.value) == "el paquete «dvnothere.sub» no está instalado"
    ghost = importlib.machinery.ModuleSpec("dvghost", None)  # neither folder nor file
    monkeypatch.setattr(fp_mod.importlib.util, "find_spec", lambda name: ghost)
    with pytest.raises(fp_mod.FingerprintError) as info:
        fp_mod.package_dir("dvghost")
    assert str(info.value) == "no se encuentra en disco el paquete «dvghost»"


def test_missing_file_and_nested_function(fake_package: Path) -> None:
    fp = fp_mod.Fingerprint("dvfake", "file", "dvfake/nothere.py", "1.0", None)
    with pytest.raises(fp_mod.FingerprintError) as info:
        fp_mod.installed(fp)
    assert str(info.value) == "el archivo «dvfake/nothere.py» no existe en el paquete instalado"
    core = fake_package / "core.py"
    core.write_text(core.read_text() + "\n\ndef outer():\n    def inner():\n        return 3\n")
    base = fp_mod.package_dir("dvfake")
    assert fp_mod.object_source(base, "dvfake.core.outer").startswith("def outer():\n")
    with pytest.raises(fp_mod.FingerprintError) as info:  # only classes have members
        fp_mod.object_source(base, "dvfake.core.outer.inner")
    assert str(info.value) == (
        "no se encuentra la definición de «dvfake.core.outer.inner» en el paquete instalado"
    )


def test_snapshot_is_read_only_when_it_matches_its_hash(tmp_path: Path) -> None:
    text = "def f():\n    pass\n"
    sha = fp_mod.digest(text)
    assert fp_mod.read_snapshot(tmp_path, sha) is None  # no file
    fp_mod.snapshot_path(tmp_path, sha).write_text(text, encoding="utf-8")
    assert fp_mod.read_snapshot(tmp_path, sha) == text
    assert fp_mod.read_snapshot(tmp_path, None) is None
    fp_mod.snapshot_path(tmp_path, sha).write_text(text + "# editado\n", encoding="utf-8")
    assert fp_mod.read_snapshot(tmp_path, sha) is None
