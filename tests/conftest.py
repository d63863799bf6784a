"""Shared fixtures: a throwaway project for engine tests, a strict build of the real site.

The clock: no test reads the real one. Unless SOURCE_DATE_EPOCH is already set (to run the
suite as of a given day), it is pinned here, before any test module is imported, to the latest
`verified` date of the site's sources (support.clock.site_day): the day every source is fresh.
"""

from __future__ import annotations

import fcntl
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pytest
from docverify import build
from docverify.bench import corpus as bench
from docverify.core import config as config_mod
from docverify.core.findings import errors
from docverify.parsing.pages import read_site
from docverify.running import executor as executor_mod
from docverify.running.executor import Executor
from support import clock, inprocess

ROOT = Path(__file__).resolve().parent.parent
# Documents the tests copy into sites (tests/fixtures/portado: a page and its cells), not tests:
# pytest (and pytest-markdown-docs, which imports modules for their docstrings) skip them.
collect_ignore = ["fixtures"]
BIN = Path(sys.executable).parent
os.environ.setdefault("SOURCE_DATE_EPOCH", clock.epoch(clock.site_day(ROOT)))
PYPROJECT = """\
[project]
name = "sample"
version = "0"

[tool.docverify]
docs_dir = "docs"
snippets_dir = "snippets"
timeout = 60
rtol = 1e-5
atol = 1e-8
"""


GENERATORS = ("mkdocs", "zensical")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--generador",
        choices=GENERATORS,
        default="mkdocs",
        help="generador del sitio que construye la sesión (fixture built) y que recorren las "
        "pruebas de navegador: mkdocs (por defecto, el que se publica) o zensical",
    )


# The session's copies of the site (see `authored`): built once for the run, by the first worker
# that needs them, while a worker that needs one waits for it.
SESSION_SITES = frozenset({"authored", "built", "small"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Order the run so that no worker waits idle and none is left alone at the end: first one
    test that needs the session's site (its worker builds it), then every test that needs none
    (the other worker runs them meanwhile), then the rest, the slow ones first (pytest-xdist
    hands out the first tests in turns and then one by one: long tests last would run alone).
    Tests never depend on their order; only how the two workers share the run changes."""

    def needs_site(item: pytest.Item) -> bool:
        return bool(SESSION_SITES & set(getattr(item, "fixturenames", ())))

    def slow(item: pytest.Item) -> bool:
        return item.get_closest_marker("slow") is not None

    waiting = [i for i in items if needs_site(i)]
    free = [i for i in items if not needs_site(i)]
    waiting.sort(key=lambda i: not slow(i))  # stable: file order kept within each kind
    items[:] = waiting[:1] + free + waiting[1:]


@pytest.fixture(scope="session")
def generator(request: pytest.FixtureRequest) -> str:
    """The site generator of this run's built sites (--generador)."""
    return str(request.config.getoption("--generador"))


@pytest.fixture
def local_author(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run as an author does locally: CI=true (as in .ci/run) forbids recording."""
    monkeypatch.delenv("CI", raising=False)


@contextmanager
def as_local_author() -> Iterator[None]:
    """`local_author` for session fixtures (no monkeypatch there): CI is unset inside, and
    restored after."""
    before = os.environ.pop("CI", None)
    try:
        yield
    finally:
        if before is not None:
            os.environ["CI"] = before


def docverify(
    root: Path, *args: str, env: dict[str, str] | None = None, new_process: bool = False
) -> subprocess.CompletedProcess[str]:
    """`docverify ARGS` as an author runs it in `root` (without CI=true): in this process
    (support.inprocess), or with `new_process` its console script."""
    full_env = {k: v for k, v in os.environ.items() if k != "CI"} | (env or {})
    return inprocess.command(
        "docverify", list(args), root, full_env, new_process=new_process, timeout=300
    )


@pytest.fixture(scope="session")
def executor() -> Executor:
    """This test process's executor (torch is imported once), also used by its builds."""
    return executor_mod.shared(2)


class Project:
    """A small docverify project in a temporary folder, written from strings."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
        (root / "docs").mkdir()
        (root / "snippets").mkdir()

    def page(self, name: str, text: str) -> Path:
        path = self.root / "docs" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return path

    def snippet(self, name: str, text: str) -> Path:
        path = self.root / "snippets" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return path

    @property
    def config(self) -> config_mod.Config:
        return config_mod.load(self.root)


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(tmp_path / "proj")


def copy_site(dest: Path) -> Path:
    """A copy of the real site's sources (the same parts `docverify bench` copies)."""
    return bench.copy_site(ROOT, dest)


def mkdocs_build(
    root: Path,
    site_dir: Path,
    *,
    strict: bool = True,
    env: dict[str, str] | None = None,
    new_process: bool = False,
) -> subprocess.CompletedProcess[str]:
    """`mkdocs build -q` of `root` into `site_dir`: in this process (support.inprocess: the same
    command, sharing this process's warm executor), or with `new_process` its console script."""
    args = ["build", "-q", "-f", str(root / "mkdocs.yml"), "-d", str(site_dir)]
    if strict:
        args.append("--strict")
    # DOCVERIFY_CACHE=0: the strict builds of the tests really run every block. SITE_URL only
    # when a test asks for it: the real site's tests expect mkdocs.yml's local address.
    full_env = {
        **{k: v for k, v in os.environ.items() if k != "SITE_URL"},
        "NO_MKDOCS_2_WARNING": "1",
        "DOCVERIFY_RUNNER": "cpu",
        "DOCVERIFY_CACHE": "0",
        **(env or {}),
    }
    return inprocess.command("mkdocs", args, root, full_env, new_process=new_process)


def zensical_build(
    root: Path,
    folder: Path,
    *,
    strict: bool = True,
    env: dict[str, str] | None = None,
    new_process: bool = False,
) -> subprocess.CompletedProcess[str]:
    """`docverify zensical build --dir FOLDER` of `root` with the environment of `mkdocs_build`
    (the site is FOLDER/site): in this process (support.inprocess), or with `new_process` its
    console script."""
    args = ["zensical", "build", "--dir", str(folder), *(["--strict"] if strict else [])]
    full_env = {
        **{k: v for k, v in os.environ.items() if k != "SITE_URL"},
        "DOCVERIFY_RUNNER": "cpu",
        "DOCVERIFY_CACHE": "0",
        **(env or {}),
    }
    return inprocess.command("docverify", args, root, full_env, new_process=new_process)


def site_build(
    generator: str, root: Path, folder: Path, *, new_process: bool = False
) -> tuple[subprocess.CompletedProcess[str], Path]:
    """A strict build of `root` with `generator` under `folder`, and where its site is."""
    if generator == "zensical":
        done = zensical_build(root, folder / "zensical", new_process=new_process)
        return done, folder / "zensical" / "site"
    return mkdocs_build(root, folder / "site", new_process=new_process), folder / "site"


# The article that the session's build adds, as an author would (`docverify new`, `record`): the
# content-independent checks of the built site then run on an article that no one wrote by hand.
NEW_SLUG = "articulo-temporal"
NEW_PAGE = f"docs/articulos/{NEW_SLUG}.md"


@dataclass
class Authored:
    """A copy of the real site with the ported-style article of tests/fixtures (`add_ported`),
    where an author then added an article with `docverify new` and recorded it with
    `docverify record`; shared by the session, never edited by tests."""

    root: Path
    mkdocs_before: str  # mkdocs.yml before `docverify new`
    title: str = ""  # the new article's title (sharing_title: it shares the home page's words)
    steps: dict[str, dict[str, Any]] = field(default_factory=dict)  # ported, new, record
    lint_before_record: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Built:
    """One strict build of a copy of `Authored`, shared by the session."""

    root: Path  # the sources that were built
    site: Path  # the output
    build: dict[str, Any]
    generator: str = "mkdocs"  # --generador


def _completed(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    return {"returncode": done.returncode, "stdout": done.stdout, "stderr": done.stderr}


def _shared(
    factory: pytest.TempPathFactory, worker_id: str, name: str, make: Callable[[Path], Any]
):
    """make(folder) once for the whole run: under pytest-xdist the first worker that needs it
    makes it under a file lock, the others read what it left (a JSON of plain values)."""
    base = factory.getbasetemp()
    shared = base if worker_id == "master" else base.parent
    folder = shared / name
    with (shared / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        state = shared / f"{name}.json"
        if not state.is_file():
            folder.mkdir()
            state.write_text(json.dumps(make(folder), default=str), encoding="utf-8")
        return json.loads(state.read_text(encoding="utf-8"))


# A ported tutorial, written by us in that style (tests/fixtures/portado): cells of one session,
# bare last expressions (last_value), a tab-indented cell, grad_fn addresses, a long loop of
# prints, and code that picks its own device before calling .numpy() (device_policy). The site
# itself ships no ported tutorial; `authored` adds this one, so that every check of the built site
# (page, notebook run in Jupyter, search, browser audit) also runs on such a page.
PORTED = Path(__file__).parent / "fixtures" / "portado"
PORTED_PAGE = "docs/articulos/portado.md"
VERIFIED_MARK = "@VERIFICADA@"  # the fixture's source date: the day the tests run on


def add_ported(root: Path) -> subprocess.CompletedProcess[str]:
    """Copy the ported-style article into the site at `root`, add it to the nav and record it
    with `docverify record`, as an author would."""
    from docverify.site import scaffold  # noqa: PLC0415

    shutil.copytree(PORTED / "snippets", root / "snippets", dirs_exist_ok=True)
    text = (PORTED / PORTED_PAGE).read_text(encoding="utf-8")
    page = root / PORTED_PAGE
    page.write_text(text.replace(VERIFIED_MARK, config_mod.today().isoformat()), encoding="utf-8")
    mkdocs_yml = root / "mkdocs.yml"
    entry = PORTED_PAGE.removeprefix("docs/")
    mkdocs_yml.write_text(
        scaffold.add_to_nav(mkdocs_yml.read_text(encoding="utf-8"), entry), encoding="utf-8"
    )
    return docverify(root, "record", "--runner", "cpu", PORTED_PAGE)


def sharing_title(root: Path) -> str:
    """A title made of two words of the home page's title, as an article on one of the
    site's subjects would be named (today «Tensores en PyTorch»): searching it, the home page
    matches too."""
    from docverify.parsing.pages import read_page  # noqa: PLC0415

    home = str(read_page(config_mod.load(root), root / "docs" / "index.md").meta["title"])
    words = [w for w in re.findall(r"\w+", home) if len(w) >= 5]
    assert len(words) >= 2, home
    return f"{words[1].capitalize()} en {words[0]}"


def _author(folder: Path) -> dict[str, Any]:

    root = copy_site(folder / "src")
    ported = _completed(add_ported(root))
    # The new article's title shares words with the home page's, as an article on one of the
    # site's subjects would: every test of the built site sees it, and the search test, whose
    # first result must be this article and not the home page.
    made = Authored(root, (root / "mkdocs.yml").read_text(encoding="utf-8"), sharing_title(root))
    made.steps["ported"] = ported
    # The console scripts themselves, as an author runs them.
    made.steps["new"] = _completed(docverify(root, "new", NEW_SLUG, made.title, new_process=True))
    made.lint_before_record = [
        {"kind": f.kind, "fix": f.fix, "where": f.where}
        for f in errors(build.lint(config_mod.load(root)))  # INFO (a source due soon) is no error
    ]
    made.steps["record"] = _completed(
        docverify(root, "record", "--runner", "cpu", NEW_PAGE, new_process=True)
    )
    return asdict(made)


@pytest.fixture(scope="session")
def authored(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Authored:
    data = _shared(tmp_path_factory, worker_id, "authored", _author)
    made = Authored(**(data | {"root": Path(data["root"])}))
    for step in ("ported", "new", "record"):
        done = made.steps[step]
        assert done["returncode"] == 0, f"docverify {step}:\n{done['stdout']}\n{done['stderr']}"
    return made


@pytest.fixture(scope="session")
def built(
    tmp_path_factory: pytest.TempPathFactory, worker_id: str, authored: Authored, generator: str
) -> Built:
    """The real site (a copy, with the ported-style and the new article of `authored`) built
    once with --strict, by MkDocs or, with --generador=zensical, by `docverify zensical build`."""

    def build(folder: Path) -> dict[str, Any]:
        root = folder / "src"
        shutil.copytree(authored.root, root)
        # The console script itself, as the README's command runs it.
        done, site = site_build(generator, root, folder, new_process=True)
        return {"root": root, "site": site, "build": _completed(done)}

    name = "built" if generator == "mkdocs" else f"built-{generator}"
    data = _shared(tmp_path_factory, worker_id, name, build)
    result = Built(Path(data["root"]), Path(data["site"]), data["build"], generator)
    assert result.build["returncode"] == 0, (
        f"{generator}: la construcción --strict falló:\n{result.build['stderr']}"
    )
    assert "WARNING" not in result.build["stderr"], result.build["stderr"]
    return result


def _reduce_to_new_article(root: Path) -> None:
    """Keep the home page, the page that explains the verification (it holds the coverage
    marker, which the home page and every article link to) and the new article of `authored`
    (recorded): every other page, its snippets and its nav line removed. The site of the tests
    that exercise a mechanism (a build's cache, the published address, runner tabs, the
    benchmark's smoke run) rather than the content: it builds in seconds, not the real site's
    minutes."""
    from docverify.output import coverage_text  # noqa: PLC0415
    from docverify.site import navigation  # noqa: PLC0415

    cfg = config_mod.load(root)
    keep = {"index.md", NEW_PAGE.removeprefix("docs/")}
    keep |= {p.rel for p in read_site(cfg) if coverage_text.MARKER_LINE.search(p.body)}
    gone = [p for p in read_site(cfg) if p.rel not in keep]
    for page in gone:
        page.path.unlink()
        shutil.rmtree(cfg.snippets_dir / page.rel.removesuffix(".md"), ignore_errors=True)
    mkdocs_yml = root / "mkdocs.yml"
    nav = navigation.parse(mkdocs_yml.read_text(encoding="utf-8"), mkdocs_yml)
    assert nav is not None
    drop = {e.line for e in nav.entries if e.target in {p.rel for p in gone}}
    lines = mkdocs_yml.read_text(encoding="utf-8").split("\n")
    mkdocs_yml.write_text(
        "\n".join(line for n, line in enumerate(lines, 1) if n not in drop), encoding="utf-8"
    )
    assert [p.rel for p in read_site(config_mod.load(root))] == sorted(keep)


@pytest.fixture(scope="session")
def small(tmp_path_factory: pytest.TempPathFactory, worker_id: str, authored: Authored) -> Path:
    """`authored` reduced to its home page and its new article; shared, never edited by tests."""

    def make(folder: Path) -> dict[str, Any]:
        root = Path(shutil.copytree(authored.root, folder / "src"))
        _reduce_to_new_article(root)
        return {"root": root}

    return Path(_shared(tmp_path_factory, worker_id, "small", make)["root"])


@pytest.fixture
def small_copy(tmp_path: Path, small: Path) -> Path:
    """A fresh copy of `small`, for a test to edit or build."""
    return Path(shutil.copytree(small, tmp_path / "small"))


@pytest.fixture(scope="session")
def built_site(built: Built) -> Path:
    """The built site's folder (see `built`)."""
    return built.site


@pytest.fixture
def site_copy(tmp_path: Path) -> Callable[[], Path]:
    """A fresh copy of the real site's sources, for a test to edit."""
    return lambda: copy_site(tmp_path / "copy")


@pytest.fixture
def fake_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An installed-looking package `dvfake` on sys.path (for fingerprints), never imported."""
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
