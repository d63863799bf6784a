"""The project's configuration (core/config.py): where the project is, [tool.docverify] read
into a Config with the line of each key, the exact pins, CI and the day sources are judged on."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from docverify.core import config
from docverify.core.kinds import Kind
from support.locale_c import ascii_locale

PYPROJECT = """\
[project]
name = "p"
dependencies = [
  "Torch == 2.13.0",
  "numpy==2.1.0; python_version >= '3.11'",
  "mkdocs>=1.6",
  "jinja2==3.1.*,<4",
  "==1.0",
  "rich",
]

[tool.docverify]
docs_dir = "paginas"
timeout = 5
seed = 7
last_value = "show"
rtol = "mucho"

[tool.docverify.sources]
max_age_days = 30
"""

# The 1-based line of each line of text above: expected lines come from the text itself.
LINE = {text: number for number, text in enumerate(PYPROJECT.splitlines(), 1)}


@contextlib.contextmanager
def los_angeles() -> Iterator[None]:
    """The process's local time zone is UTC-8 while inside."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = "America/Los_Angeles"
    time.tzset()
    try:
        yield
    finally:
        if before is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = before
        time.tzset()


def project(tmp_path: Path, text: str = PYPROJECT) -> Path:
    (tmp_path / "pyproject.toml").write_text(text, encoding="utf-8")
    return tmp_path


def test_a_project_is_read_with_its_values_defaults_lines_and_findings(tmp_path: Path) -> None:
    root = project(tmp_path)
    read = config.load(root)
    assert (read.root, read.docs_dir, read.snippets_dir) == (
        root.resolve(),
        root.resolve() / "paginas",
        root.resolve() / "snippets",
    )
    assert (read.timeout, read.seed, read.last_value, read.device_policy) == (
        5.0,
        7,
        "show",
        "default-cuda",
    )
    assert (read.rtol, read.atol, read.output_limit, read.hash_seed) == (1e-5, 1e-8, 102400, 0)
    assert read.sources == {"max_age_days": 30}
    [wrong] = read.findings
    assert (wrong.kind, wrong.path, wrong.line) == (
        Kind.CONFIG,
        "pyproject.toml",
        LINE['rtol = "mucho"'],
    )
    assert read.lines["timeout"] == LINE["timeout = 5"]
    assert read.lines["sources.max_age_days"] == LINE["max_age_days = 30"]


def test_every_value_reaches_the_config(tmp_path: Path) -> None:
    text = (
        "# configuración: ñ\n[tool.docverify]\noutput_limit = 9\nrtol = 0.5\natol = 0.25\n"
        'hash_seed = 3\ndevice_policy = "as-written"\nsnippets_dir = "trozos"\n'
    )
    with ascii_locale():  # read as UTF-8 whatever the locale
        read = config.load(project(tmp_path, text))
    assert (read.output_limit, read.rtol, read.atol, read.hash_seed, read.device_policy) == (
        9,
        0.5,
        0.25,
        3,
        "as-written",
    )
    assert read.snippets_dir == tmp_path.resolve() / "trozos" and not read.findings


def test_a_table_named_only_in_a_comment_gives_the_defaults(tmp_path: Path) -> None:
    """find_root looks for the text «[tool.docverify»; TOML may have no such table at all."""
    for text in ("# [tool.docverify] más adelante\n", "# [tool.docverify]\n[tool.otra]\nx = 1\n"):
        read = config.load(project(tmp_path, text))
        assert (read.timeout, read.seed, read.findings) == (60.0, 0, ())


def test_a_file_that_is_not_toml_is_named_with_its_path(tmp_path: Path) -> None:
    root = project(tmp_path, "[tool.docverify]\ntimeout = = 3\n")
    with pytest.raises(ValueError, match="no es TOML válido") as raised:
        config.load(root)
    assert str(raised.value).startswith(f"{root.resolve() / 'pyproject.toml'}: ")


def test_the_root_is_the_nearest_folder_with_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path)
    inner = root / "a" / "b"
    inner.mkdir(parents=True)
    (root / "a" / "pyproject.toml").write_text("[project]\nname = 'otro'\n", encoding="utf-8")
    assert config.find_root(inner) == root.resolve()
    monkeypatch.chdir(inner)
    assert config.find_root() == root.resolve()


def test_no_project_above_is_said_in_spanish(tmp_path: Path) -> None:
    lonely = tmp_path / "sin" / "proyecto"
    lonely.mkdir(parents=True)
    if any((f / "pyproject.toml").is_file() for f in (tmp_path, *tmp_path.parents)):
        pytest.skip("a pyproject.toml above the temporary folder")
    with pytest.raises(FileNotFoundError) as raised:
        config.find_root(lonely)
    assert str(raised.value) == (
        f"No se encontró pyproject.toml con [tool.docverify] en {lonely.resolve()} ni en sus "
        "carpetas padre."
    )


def test_only_exact_pins_without_markers_or_ranges_count(tmp_path: Path) -> None:
    assert config.pins(project(tmp_path)) == {"torch": "2.13.0"}
    assert config.pins(project(tmp_path, "[project]\nname = 'p'\n")) == {}
    assert config.pins(project(tmp_path, "[tool.otra]\nx = 1\n")) == {}  # no [project]
    with ascii_locale():  # read as UTF-8 whatever the locale
        pinned = config.pins(project(tmp_path, '# ñ\n[project]\ndependencies = ["a==1"]\n'))
    assert pinned == {"a": "1"}


def test_the_line_of_a_key_else_of_its_table_else_the_first(tmp_path: Path) -> None:
    read = config.load(project(tmp_path))
    assert read.line_of("seed") == LINE["seed = 7"]
    assert (
        read.line_of("sources.drift") == LINE["[tool.docverify.sources]"]
    )  # no such key: its table's header
    assert read.line_of("otra") == LINE["[tool.docverify]"]  # a key of the table itself
    assert config.Config(tmp_path, tmp_path, tmp_path).line_of("sources.x") == 1


def test_paths_in_messages_are_relative_to_the_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path.resolve()
    read = config.Config(root, root / "docs", root / "snippets")
    assert read.rel(root / "docs" / "a.md") == "docs/a.md"
    assert read.rel(tmp_path.parent / "fuera.md") == (tmp_path.parent / "fuera.md").as_posix()
    assert read.pyproject == "pyproject.toml"
    (root / "sub").mkdir()
    monkeypatch.chdir(root / "sub")  # a relative path is taken from the working folder, each time
    assert read.rel(Path("a.md")) == "sub/a.md"
    monkeypatch.chdir(root)
    assert read.rel(Path("a.md")) == "a.md"
    relative = config.Config(Path(), Path("docs"), Path("snippets"))
    assert relative.rel(Path("docs/b.md")) == "docs/b.md"
    assert relative.rel(root / "docs" / "c.md") == "docs/c.md"


@pytest.mark.parametrize(
    ("value", "ci"), [("true", True), (" TRUE ", True), ("1", False), ("", False)]
)
def test_ci_is_ci_true_in_any_case(value: str, ci: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    assert config.in_ci({"CI": value}) is ci
    monkeypatch.setenv("CI", value)
    assert config.in_ci() is ci
    assert config.in_ci({}) is False


def test_the_day_comes_from_source_date_epoch_else_the_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767312000")  # 2026-01-02 00:00 UTC
    assert config.today() == dt.date(2026, 1, 2)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767311999")  # one second before, in UTC
    assert config.today() == dt.date(2026, 1, 1)
    asked: list[object] = []

    class Clock:
        @staticmethod
        def now(tz: object) -> dt.datetime:
            asked.append(tz)
            return dt.datetime(2030, 5, 6, 23, 59, tzinfo=dt.UTC)

        fromtimestamp = dt.datetime.fromtimestamp

    with los_angeles():  # the epoch's day in UTC, not in the machine's time zone
        assert config.today() == dt.date(2026, 1, 1)
        monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767312000")
        assert config.today() == dt.date(2026, 1, 2)
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    monkeypatch.setattr(config, "dt", SimpleNamespace(datetime=Clock, UTC=dt.UTC))
    assert config.today() == dt.date(2030, 5, 6) and asked == [dt.UTC]
