"""What every subcommand shares (cli/commands.py): the registry, the configuration a command
stops on, which pages PATHS name, where findings go, and --runner/--workers/PATHS."""

from __future__ import annotations

import argparse

import pytest
from conftest import Project
from docverify.cli import commands
from docverify.core.findings import Finding, Level
from docverify.core.kinds import Kind
from support.blocks import block


def test_command_registers_the_handler_with_its_help_and_setup(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(commands, "COMMANDS", {})

    def setup(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--x")

    def handler(args: argparse.Namespace) -> int:
        return 7

    assert commands.command("uno", "ayuda uno", setup)(handler) is handler
    assert commands.command("dos", "ayuda dos")(handler) is handler
    assert commands.COMMANDS["uno"] == ("ayuda uno", setup, handler)
    help_text, default_setup, registered = commands.COMMANDS["dos"]
    assert (help_text, registered) == ("ayuda dos", handler)
    parser = argparse.ArgumentParser()
    assert default_setup(parser) is None
    assert parser.parse_args([]) == argparse.Namespace()  # the default setup adds nothing


def _break_config(project: Project, *lines: str) -> None:
    pyproject = project.root / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    assert "timeout = 60\n" in text
    pyproject.write_text(text.replace("timeout = 60\n", "".join(f"{x}\n" for x in lines)), "utf-8")


@pytest.mark.parametrize(
    ("lines", "count"),
    [(["timeot = 60"], "1 error"), (["timeot = 60", "seeed = 1"], "2 errores")],
)
def test_a_configuration_mistake_stops_the_command_with_exit_1(
    project: Project,
    lines: list[str],
    count: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _break_config(project, *lines)
    monkeypatch.chdir(project.root)
    with pytest.raises(SystemExit) as exit_:
        commands.configuration("prueba")
    assert exit_.value.code == 1
    err = capsys.readouterr().err
    assert err.endswith(
        f"docverify prueba: pyproject.toml tiene {count} de configuración; corrígelos y repite.\n"
    )
    assert err.count("[configuracion]") == len(lines)
    for line in lines:
        assert f"clave desconocida «{line.split()[0]}»" in err


def test_a_good_configuration_is_returned(
    project: Project, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(project.root)
    cfg = commands.configuration("prueba")
    assert cfg.root == project.root.resolve() and cfg.timeout == 60
    assert capsys.readouterr() == ("", "")


def test_select_pages_reads_every_page_without_paths(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    project.page("a.md", block("print(1)", "uno"))
    project.page("sub/b.md", block("print(2)", "dos"))
    monkeypatch.chdir(project.root)
    pages, whole = commands.select_pages(project.config, [])
    assert whole is True
    assert sorted(p.path.name for p in pages) == ["a.md", "b.md"]


def test_select_pages_takes_folders_and_md_files_once_each(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = project.page("a.md", block("print(1)", "uno"))
    b = project.page("sub/b.md", block("print(2)", "dos"))
    c = project.page("sub/deep/c.md", block("print(3)", "tres"))
    project.page("z.md", block("print(4)", "cuatro"))
    monkeypatch.chdir(project.root)
    pages, whole = commands.select_pages(project.config, ["docs/sub", "docs/a.md", str(b)])
    assert whole is False
    assert [p.path for p in pages] == sorted([a.resolve(), b.resolve(), c.resolve()])


@pytest.mark.parametrize("name", ["docs/notas.txt", "docs/no-existe.md"])
def test_select_pages_refuses_what_is_not_a_page_or_folder(
    project: Project, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    project.page("a.md", block("print(1)", "uno"))
    (project.root / "docs" / "notas.txt").write_text("x", encoding="utf-8")
    monkeypatch.chdir(project.root)
    with pytest.raises(SystemExit) as exit_:
        commands.select_pages(project.config, [name])
    assert exit_.value.code == f"docverify: {name}: no es una página .md ni una carpeta de docs/."


def test_errors_go_to_stderr_and_the_rest_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    error = Finding(Kind.CONFIG, "mal", "a.md", 3, "arréglalo")
    warning = Finding(Kind.CONFIG, "ojo", "b.md", 0, "míralo", Level.WARNING)
    info = Finding(Kind.CONFIG, "dato", "c.md", 1, "nada", Level.INFO)
    commands.print_findings([warning, error, info])
    out, err = capsys.readouterr()
    assert err == "a.md:3: [configuracion] mal\n  → Cómo arreglarlo: arréglalo\n\n"
    assert out == (
        "b.md: [configuracion] ojo\n  → Cómo arreglarlo: míralo\n\n"
        "c.md:1: [configuracion] dato\n  → Cómo arreglarlo: nada\n\n"
    )


def test_runner_args_take_a_runner_workers_and_pages() -> None:
    parser = argparse.ArgumentParser()
    commands.runner_args(parser, auto="lo que sea")
    assert parser.parse_args([]) == argparse.Namespace(runner=None, workers=None, paths=[])
    args = parser.parse_args(["--runner", "auto", "--workers", "3", "docs/a.md", "docs/b"])
    assert args == argparse.Namespace(runner="auto", workers=3, paths=["docs/a.md", "docs/b"])
    for runner in ("cpu", "gpu"):
        assert parser.parse_args(["--runner", runner]).runner == runner
    with pytest.raises(SystemExit):
        parser.parse_args(["--runner", "tpu"])
    helps = {a.dest: a.help for a in parser._actions}
    assert helps["runner"] == "runner (por defecto DOCVERIFY_RUNNER o auto: lo que sea)"
    assert helps["workers"] == "procesos en paralelo (por defecto, uno por núcleo)"
    assert helps["paths"] == "páginas o carpetas (por defecto, todo docs/)"


def test_runner_args_say_what_auto_picks_by_default() -> None:
    parser = argparse.ArgumentParser()
    commands.runner_args(parser)
    helps = {a.dest: a.help for a in parser._actions}
    assert helps["runner"] == "runner (por defecto DOCVERIFY_RUNNER o auto: gpu si hay CUDA)"
