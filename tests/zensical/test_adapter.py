"""`docverify zensical build|serve` in this process (docverify/zensical/adapter.py), on tmp_path
projects with the engine's run, the render and Zensical's process stood in for: what is written
where, what is printed where, and when Zensical runs (the real builds: test_zensical_build.py)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml
from conftest import PYPROJECT
from docverify import api
from docverify.core.kinds import Kind
from docverify.zensical import adapter, docs_folder, patches

ERROR = api.Finding(Kind.CONFIG, "algo falla", "docs/a.md", 3, "arréglalo")
WARNING = api.Finding(Kind.CONFIG, "algo avisa", "docs/b.md", 4, "míralo", api.Level.WARNING)


@dataclass
class Shown:
    markdown: str


@dataclass
class FakeSite:
    """The parts of api.Site the adapter and docs_folder use."""

    result: Any = None
    pages: list[str] = field(default_factory=lambda: ["index.md", "sub/b.md"])
    files: dict[str, str] = field(default_factory=dict)

    def page(self, rel: str, links: api.Links) -> Shown:
        return Shown(f"{rel} → {links.url_of('sub/b.md')}")

    def front_matter(self, rel: str) -> str:
        return ""

    def description(self, authored: object) -> str:
        return f"{authored}; ejecutado aquí"


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


MKDOCS = """\
site_name: Prueba
site_description: Un sitio
docs_dir: fuentes
use_directory_urls: false
theme:
  name: material
  custom_dir: tema
markdown_extensions:
  - pymdownx.superfences
"""


@pytest.mark.parametrize("custom", [True, False])
def test_generate_writes_the_docs_the_theme_and_the_configuration(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    custom: bool,
) -> None:
    # Without a theme folder, also the defaults: docs/ and use_directory_urls.
    text = MKDOCS
    for line in ("  custom_dir: tema\n", "docs_dir: fuentes\n", "use_directory_urls: false\n"):
        text = text if custom else text.replace(line, "")
    name, other = ("fuentes", "docs") if custom else ("docs", "fuentes")
    root = _write(
        tmp_path.resolve() / "proyecto",
        {
            "mkdocs.yml": text,
            f"{name}/index.md": "# I",
            f"{name}/sub/b.md": "# B",
            f"{name}/img/a.png": "png",
            f"{other}/otra.md": "# no es de este sitio",
            "tema/main.html": "{% extends 'base.html' %}",
            "tema/partials/x.html": "x",
        },
    )
    out = tmp_path / "salida"
    result = SimpleNamespace(notes=["una nota"], findings=[WARNING, ERROR], errors=[ERROR])
    calls: list[tuple[Any, ...]] = []

    def run_site(*args: Any) -> Any:
        calls.append(args)
        return result

    site = FakeSite(result=result)

    def render_site(given: Any, **options: Any) -> FakeSite:
        assert given is result and options == {"notebook_pages": True}
        return site

    monkeypatch.setattr(adapter.api, "run_site", run_site)
    monkeypatch.setattr(adapter.api, "render_site", render_site)
    executor = object()
    got, rendered = adapter.generate(root, out, executor)  # type: ignore[arg-type]
    assert got is site
    docs = root / name
    assert calls == [(root, [docs / "index.md", docs / "sub/b.md"], executor, root / "mkdocs.yml")]
    captured = capsys.readouterr()
    assert captured.out == "una nota\n" + WARNING.format() + "\n"
    assert captured.err == ERROR.format() + "\n"
    assert rendered.copies == {"img/a.png": docs / "img/a.png"}
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    scripts = sorted(f"overrides/{rel}" for rel in patches.patched())
    theme = ["overrides/main.html", "overrides/partials/x.html"] if custom else []
    assert written == sorted(
        ["docs/img/a.png", "docs/index.md", "docs/sub/b.md", "mkdocs.yml", *scripts, *theme]
    )
    # The pages' links as use_directory_urls publishes them.
    link = "sub/b.html" if custom else "sub/b/"
    assert (out / "docs/index.md").read_text(encoding="utf-8") == f"index.md → {link}"
    if custom:
        assert (out / "overrides/partials/x.html").read_text(encoding="utf-8") == "x"
    derived = yaml.load((out / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.Loader)
    assert derived["site_description"] == "Un sitio; ejecutado aquí"
    assert (derived["docs_dir"], derived["site_name"]) == ("docs", "Prueba")


def test_the_command_line_of_zensical() -> None:
    out = Path("salida")
    assert adapter.zensical("build", "--strict", out=out) == [
        sys.executable,
        "-m",
        "zensical",
        "build",
        "--strict",
        "-f",
        str(Path("salida/mkdocs.yml")),
    ]


def _fake_generate(monkeypatch: pytest.MonkeyPatch, *errors: list[api.Finding]) -> list[Any]:
    """adapter.generate stood in for: each call's site has the next list of errors."""
    made: list[Any] = []

    def generate(root: Path, out: Path, executor: Any) -> tuple[FakeSite, Any]:
        result = SimpleNamespace(errors=errors[min(len(made), len(errors) - 1)])
        made.append((root, out, executor))
        return FakeSite(result=result), docs_folder.Folder()

    monkeypatch.setattr(adapter, "generate", generate)
    return made


def test_a_build_with_errors_stops_before_zensical_and_removes_the_old_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _fake_generate(monkeypatch, [ERROR])
    out = _write(tmp_path / "salida", {"site/index.html": "viejo", "docs/index.md": "# I"})

    def run(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("Zensical no debería ejecutarse")

    monkeypatch.setattr(adapter.subprocess, "run", run)
    assert adapter.build(tmp_path, out, object()) == 1  # type: ignore[arg-type]
    assert not (out / "site").exists() and (out / "docs/index.md").is_file()
    assert capsys.readouterr().err == api.summary([ERROR]) + "\n"


@pytest.mark.parametrize(("code", "strict"), [(0, True), (0, False), (2, True), (1, False)])
def test_a_verified_build_runs_zensical_then_finishes_its_pages(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    code: int,
    strict: bool,
) -> None:
    _fake_generate(monkeypatch, [])
    root = _write(tmp_path / "p", {"mkdocs.yml": MKDOCS if strict else "site_name: x\n"})
    out = tmp_path / "salida"
    runs: list[tuple[Any, ...]] = []
    finished: list[tuple[Any, ...]] = []

    def run(command: list[str], **options: Any) -> subprocess.CompletedProcess[str]:
        runs.append((command, options))
        return subprocess.CompletedProcess(
            command, code, "\x1b[32mhecho\x1b[0m\n", "\x1b[1;33maviso\x1b[0m\n"
        )

    monkeypatch.setattr(adapter.subprocess, "run", run)
    monkeypatch.setattr(adapter.docs_folder, "finish", lambda *args: finished.append(args))
    options = {"strict": True} if strict else {}  # not strict by default
    assert adapter.build(root, out, object(), **options) == (1 if code else 0)  # type: ignore[arg-type]
    flag = ["--strict"] if strict else []
    assert runs == [
        (
            [sys.executable, "-m", "zensical", "build", *flag, "-f", str(out / "mkdocs.yml")],
            {"cwd": out, "capture_output": True, "text": True, "check": False},
        )
    ]
    captured = capsys.readouterr()
    if code:
        assert finished == []
        assert captured.out == "hecho\n"
        note = " (--strict: un aviso de arriba cuenta como error)" if strict else ""
        assert captured.err == (
            f"aviso\nzensical build terminó con el código {code}{note}; el árbol generado que "
            f"construía está en {out}.\n"
        )
        return
    assert captured.err == "aviso\n"
    assert captured.out == f"hecho\nSitio verificado y construido con Zensical en {out / 'site'}\n"
    ((_site, rendered, site_dir, directory_urls),) = finished
    assert site_dir == out / "site" and isinstance(rendered, docs_folder.Folder)
    assert directory_urls is (not strict)  # MKDOCS says use_directory_urls: false


def test_the_sources_a_rebuild_depends_on(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        {
            "mkdocs.yml": (
                "docs_dir: fuentes\nwatch: [extra, suelto.txt, falta]\ntheme:\n  custom_dir: tema\n"
            ),
            "pyproject.toml": PYPROJECT,
            "fuentes/a.md": "a",
            "fuentes/sub/b.md": "bb",
            "snippets/x/1.cpu.txt": "1",
            "extra/e.py": "e",
            "suelto.txt": "s",
            "tema/main.html": "m",
            "docs/no.md": "no vigilado",
            "otra/no.txt": "no vigilado",
        },
    )
    watched = adapter._watched(root)
    assert sorted(p.relative_to(root).as_posix() for p in watched) == [
        "extra/e.py",
        "fuentes/a.md",
        "fuentes/sub/b.md",
        "mkdocs.yml",
        "pyproject.toml",
        "snippets/x/1.cpu.txt",
        "suelto.txt",
        "tema/main.html",
    ]
    stat = (root / "fuentes/sub/b.md").stat()
    assert watched[root / "fuentes/sub/b.md"] == (stat.st_mtime_ns, 2)
    (root / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8")  # default docs, no more
    assert sorted(p.relative_to(root).as_posix() for p in adapter._watched(root)) == [
        "docs/no.md",
        "mkdocs.yml",
        "pyproject.toml",
        "snippets/x/1.cpu.txt",
    ]


class FakeChild:
    """Zensical's serving process: running for `polls` polls, then `code` (None: until killed)."""

    def __init__(self, polls: int, code: int | None = 0, stubborn: bool = False) -> None:
        self.polls, self.code, self.stubborn = polls, code, stubborn
        self.calls: list[str] = []

    def poll(self) -> int | None:
        self.polls -= 1
        return None if self.polls >= 0 or self.code is None else self.code

    def terminate(self) -> None:
        self.calls.append("terminate")

    def wait(self, timeout: float | None = None) -> int:
        self.calls.append(f"wait {timeout}")
        if self.stubborn and timeout is not None:
            raise subprocess.TimeoutExpired("zensical", timeout)
        return 0

    def kill(self) -> None:
        self.calls.append("kill")


def _serve(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, child: FakeChild, sleeps: list[object]
) -> tuple[list[Any], list[Any], list[Any]]:
    """Serve with `child` as Zensical; each sleep takes the next of `sleeps` (an exception is
    raised, anything else is what the sources look like after it)."""
    made = _fake_generate(monkeypatch, [ERROR], [], [ERROR])
    started: list[Any] = []
    handlers: list[Any] = []
    states = iter([{"a": 1}, *sleeps])
    current: list[object] = []

    def sleep(seconds: float) -> None:
        assert seconds == 0.25
        state = next(states)
        if isinstance(state, BaseException):
            raise state
        current.append(state)

    def popen(command: list[str], **options: Any) -> FakeChild:
        started.append((command, options))
        return child

    def watched(root: Path) -> object:
        assert root == tmp_path
        return current[-1] if current else next(states)

    monkeypatch.setattr(adapter, "_watched", watched)
    monkeypatch.setattr(adapter.time, "sleep", sleep)
    monkeypatch.setattr(adapter.subprocess, "Popen", popen)
    monkeypatch.setattr(adapter.signal, "signal", lambda *args: handlers.append(args))
    out = tmp_path / "salida"
    mkdocs = out / "mkdocs.yml"
    assert adapter.serve(tmp_path, out, "ejecutor", "127.0.0.1:8123", poll=0.25) == 0  # type: ignore[arg-type]
    assert started == [
        (
            [sys.executable, "-m", "zensical", "serve", "-a", "127.0.0.1:8123", "-f", str(mkdocs)],
            {"cwd": out},
        )
    ]
    return made, handlers, child.calls


def test_serving_verifies_again_when_a_source_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    child = FakeChild(polls=4)  # four polls running, then Zensical ends
    states = [{"a": 1}, {"a": 2}, {"a": 2}, {"a": 3}]  # changes at the second and fourth
    made, handlers, calls = _serve(monkeypatch, tmp_path, child, states)
    assert len(made) == 3 and made[0] == (tmp_path, tmp_path / "salida", "ejecutor")
    captured = capsys.readouterr()
    assert captured.out == "docverify: cambió una fuente; verificando de nuevo…\n" * 2
    assert captured.err == 2 * (  # the first and the third verification found an error
        api.summary([ERROR])
        + " docverify zensical serve sigue sirviendo: cada página muestra los suyos.\n"
    )
    assert calls == []  # it had ended: nothing to stop
    ((number, handler),) = handlers
    assert number == adapter.signal.SIGTERM
    with pytest.raises(SystemExit) as stopped:
        handler(number, None)
    assert stopped.value.code == 0


def test_serving_stopped_by_the_user_stops_zensical(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, _, calls = _serve(monkeypatch, tmp_path, FakeChild(9, None), [{"a": 1}, KeyboardInterrupt()])
    assert calls == ["terminate", "wait 10"]
    _, _, calls = _serve(
        monkeypatch, tmp_path, FakeChild(9, None, stubborn=True), [KeyboardInterrupt()]
    )
    assert calls == ["terminate", "wait 10", "kill", "wait None"]
