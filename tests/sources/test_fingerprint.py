"""sources.fingerprint: drift of a fingerprinted source in the installed package."""

from __future__ import annotations

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
