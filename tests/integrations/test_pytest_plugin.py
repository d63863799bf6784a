"""The pytest plugin in this process (docverify/integrations/pytest_plugin.py): which fences it
marks `notest`, the seed it reads at configuration and where it puts it, and the fences it
stops in a process that hashes strings otherwise. (test_pytest_hash_seed.py runs it in pytest.)"""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import PYPROJECT
from docverify.core import hashing
from docverify.integrations import pytest_plugin

PAGE = """\
```python exec="on"
print(1)
```

```python
x = 2
```

```py exec="true" source="above"
print(3)
```

```python exec="off"
y = 4
```

    sangrado = 5
"""


def test_the_executed_fences_are_marked_notest_and_only_they() -> None:
    parser = pytest_plugin.pytest_markdown_docs_markdown_it()
    blocks = [(t.type, t.info) for t in parser.parse(PAGE) if t.type in ("fence", "code_block")]
    assert blocks == [
        ("fence", 'python exec="on" notest'),
        ("fence", "python"),
        ("fence", 'py exec="true" source="above" notest'),
        ("fence", 'python exec="off"'),
        ("code_block", ""),
    ]


def _config(root: Path) -> SimpleNamespace:
    return SimpleNamespace(rootpath=root, stash=pytest.Stash())


def test_configuration_puts_the_projects_seed_in_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(hashing.ENV, "random")
    (tmp_path / "pyproject.toml").write_text(PYPROJECT + "hash_seed = 123\n", encoding="utf-8")
    config = _config(tmp_path)
    pytest_plugin.pytest_configure(config)  # type: ignore[arg-type]
    assert config.stash[pytest_plugin._SEED] == 123
    assert os.environ[hashing.ENV] == "123"


@pytest.mark.parametrize(
    "pyproject",
    [
        None,  # no pyproject.toml
        '[project]\nname = "otro"\n',  # not a docverify project
        "[tool.docverify]\nhash_seed = \n",  # not TOML
    ],
)
def test_outside_a_docverify_project_configuration_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pyproject: str | None
) -> None:
    monkeypatch.setenv(hashing.ENV, "random")
    if pyproject is not None:
        (tmp_path / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    config = _config(tmp_path)
    pytest_plugin.pytest_configure(config)  # type: ignore[arg-type]
    assert pytest_plugin._SEED not in config.stash
    assert os.environ[hashing.ENV] == "random"


class MarkdownItem:
    """Stands for pytest-markdown-docs' item (its module is what the plugin looks at)."""

    def __init__(self, seed: int | None) -> None:
        stash = pytest.Stash()
        if seed is not None:
            stash[pytest_plugin._SEED] = seed
        self.config = SimpleNamespace(stash=stash)


MarkdownItem.__module__ = "pytest_markdown_docs.plugin"


class OtherItem(MarkdownItem):
    pass


OtherItem.__module__ = "tests.otro"


def test_a_fence_runs_only_where_strings_hash_with_the_seed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(hashing, "STARTED_WITH", "7")  # what this interpreter started with
    pytest_plugin.pytest_runtest_setup(MarkdownItem(7))  # type: ignore[arg-type]
    pytest_plugin.pytest_runtest_setup(MarkdownItem(None))  # type: ignore[arg-type]
    pytest_plugin.pytest_runtest_setup(OtherItem(8))  # type: ignore[arg-type]
    with pytest.raises(pytest.fail.Exception) as caught:
        pytest_plugin.pytest_runtest_setup(MarkdownItem(8))  # type: ignore[arg-type]
    assert caught.value.pytrace is False
    assert str(caught.value.msg) == (
        f"{hashing.mismatch(8, '7')}. Ejecuta las pruebas con python3 tasks.py test, o arranca "
        "pytest con PYTHONHASHSEED=8 (con -n 0, el proceso de pytest ejecuta los bloques)."
    )
    assert str(caught.value.msg).startswith("este intérprete arrancó con PYTHONHASHSEED=7, no ")
