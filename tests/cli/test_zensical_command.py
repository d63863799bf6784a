"""`docverify zensical build|serve` (cli/zensical_command.py): what it hands the adapter and
what a refusal becomes. The adapter's build and serve are tests/zensical/'s; here they are
stand-ins that record their arguments, so nothing is built or served."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from docverify.cli import main as cli
from docverify.running import executor as executor_mod
from docverify.zensical import adapter, patches, zensical_config

EXECUTOR = object()


@pytest.fixture
def calls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> SimpleNamespace:
    seen = SimpleNamespace(build=[], serve=[], shared=[], answer=0, error=None)

    def build(root: Path, out: Path, executor: object, *, strict: bool = False) -> int:
        seen.build.append((root, out, executor, strict))
        if seen.error:
            raise seen.error
        return seen.answer

    def serve(root: Path, out: Path, executor: object, address: str) -> int:
        seen.serve.append((root, out, executor, address))
        if seen.error:
            raise seen.error
        return seen.answer

    def shared(*args: object) -> object:
        seen.shared.append(args)
        return EXECUTOR

    monkeypatch.setattr(adapter, "build", build)
    monkeypatch.setattr(adapter, "serve", serve)
    monkeypatch.setattr(executor_mod, "shared", shared)
    monkeypatch.chdir(tmp_path)
    return seen


def test_build_goes_to_build_zensical_under_the_working_folder(
    tmp_path: Path, calls: SimpleNamespace
) -> None:
    calls.answer = 3
    assert cli.main(["zensical", "build"]) == 3
    assert calls.build == [(tmp_path, (tmp_path / "build" / "zensical").resolve(), EXECUTOR, False)]
    assert calls.serve == [] and calls.shared == [()]


def test_build_strict_into_a_folder_of_one_s_own(tmp_path: Path, calls: SimpleNamespace) -> None:
    assert cli.main(["zensical", "build", "--strict", "--dir", "otra/../sitio"]) == 0
    assert calls.build == [(tmp_path, (tmp_path / "sitio").resolve(), EXECUTOR, True)]


def test_serve_listens_on_localhost_8000_unless_told(
    tmp_path: Path, calls: SimpleNamespace
) -> None:
    assert cli.main(["zensical", "serve"]) == 0
    assert cli.main(["zensical", "serve", "--dev-addr", "127.0.0.1:9001", "--dir", "s"]) == 0
    out = (tmp_path / "build" / "zensical").resolve()
    assert calls.serve == [
        (tmp_path, out, EXECUTOR, "127.0.0.1:8000"),
        (tmp_path, (tmp_path / "s").resolve(), EXECUTOR, "127.0.0.1:9001"),
    ]
    assert calls.build == []


@pytest.mark.parametrize(
    ("action", "error"),
    [
        ("build", zensical_config.ConfigError("mkdocs.yml: falta site_name")),
        ("serve", patches.PatchError("el parche de search ya no aplica")),
    ],
)
def test_a_configuration_or_patch_error_is_one_line_and_exit_2(
    calls: SimpleNamespace, action: str, error: Exception, capsys: pytest.CaptureFixture[str]
) -> None:
    calls.error = error
    assert cli.main(["zensical", action]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"docverify zensical: {error}\n")


def test_the_help_says_what_each_argument_does() -> None:
    sub = next(a for a in cli.build_parser()._actions if a.dest == "command")
    parser = sub.choices["zensical"]
    assert parser.description == (
        "verifica y construye (o sirve) el sitio con Zensical, desde las mismas fuentes"
    )
    args = {a.dest: a for a in parser._actions}
    assert args["action"].choices == ["build", "serve"]
    assert args["action"].help == (
        "build: verifica y construye una vez; serve: sirve y reconstruye con cada cambio"
    )
    assert (args["dir"].metavar, args["dev_addr"].metavar) == ("CARPETA", "IP:PUERTO")
    assert args["dir"].help == (
        "carpeta del árbol generado y del sitio (por defecto build/zensical; el sitio, en su "
        "subcarpeta site/)"
    )
    assert args["strict"].help == (
        "build: un aviso de Zensical (un enlace o un ancla que no existe) es un error"
    )
    assert args["dev_addr"].help == "serve: dirección donde servir (por defecto 127.0.0.1:8000)"
    defaults = parser.parse_args(["build"])
    assert (defaults.dir, defaults.strict, defaults.dev_addr) == (None, False, "127.0.0.1:8000")
    assert parser.parse_args(["build", "--dir", "x"]).dir == Path("x")
    with pytest.raises(SystemExit):
        parser.parse_args(["publica"])
