"""`data_files:` (parsing/data_files.py): the files a page's blocks read are validated with the
key's line, copied beside the blocks when the page runs, and bound to their outputs by content
(cache key, report digests); pages without them keep the specs they had."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path

import pytest
from conftest import Project
from docverify.core.kinds import Kind
from docverify.output import notebook_links, notebooks
from docverify.parsing.pages import read_page, read_site
from docverify.running.executor import Executor
from docverify.running.specs import SETUP_FIELDS, setup_text, spec
from docverify.verifying.cache import Cache
from docverify.verifying.outcome import Verification
from docverify.verifying.verify import execute

CSV = "x,y\n1,2\n3,4\n"
PAGE = """\
---
title: "Con datos"
{front}
---

# Con datos

```python exec="on" id="leer"
with open("tabla.csv", encoding="utf-8") as f:
    print(f.read().splitlines())
```

```python exec="on" id="otra"
import os
print(sorted(os.listdir(".")))
```
"""
# The fields of a block's spec before data files existed, written out here: a page without
# `data_files:` must keep exactly these (its cache entries and report digests stay valid).
PLAIN_FIELDS = {
    "key",
    "code",
    "filename",
    "first_line",
    "session",
    "timeout",
    "output_limit",
    "seed",
    "hash_seed",
    "device_policy",
    "show_last_value",
}


def _project(project: Project, front: str = "data_files:\n  - datos/tabla.csv") -> Project:
    (project.root / "docs" / "datos").mkdir(exist_ok=True)
    (project.root / "docs" / "datos" / "tabla.csv").write_text(CSV, encoding="utf-8")
    project.page("datos.md", PAGE.format(front=front))
    return project


def _page(project: Project):
    cfg = project.config
    return read_page(cfg, cfg.docs_dir / "datos.md")


def test_the_files_are_read_with_their_content_digest_and_reach_every_block(
    project: Project,
) -> None:
    page = _page(_project(project))
    assert page.findings == []
    digest = hashlib.sha256(CSV.encode()).hexdigest()
    assert [(f.rel, f.name, f.sha256) for f in page.data_files] == [
        ("datos/tabla.csv", "tabla.csv", digest)
    ]
    for block in page.blocks:
        made = spec(project.config, block)
        assert made["data_files"] == {"tabla.csv": digest}
        assert Path(made["data_paths"]["tabla.csv"]).read_text(encoding="utf-8") == CSV
        assert json.loads(setup_text(project.config, block))["data_files"] == {"tabla.csv": digest}


def test_a_page_without_data_files_keeps_the_spec_it_had(project: Project) -> None:
    page = _page(_project(project, front=""))
    for block in page.blocks:
        assert set(spec(project.config, block)) == PLAIN_FIELDS
        assert "data_files" not in json.loads(setup_text(project.config, block))
    assert "data_files" in SETUP_FIELDS  # and yet a page with them digests them


NOT_A_LIST = "«data_files:» debe ser una lista de rutas dentro de docs/, no «{}»."
OUTSIDE = "«{}» en «data_files:» no es una ruta dentro de docs/."
MISSING = "«data_files:» nombra docs/{}, que no existe o no es un archivo."


@pytest.mark.parametrize(
    ("front", "said"),
    [
        ("data_files: datos/tabla.csv", NOT_A_LIST.format("'datos/tabla.csv'")),
        ("data_files:\n  - 3", NOT_A_LIST.format("[3]")),
        (
            'data_files:\n  - datos/tabla.csv\n  - "  "',
            NOT_A_LIST.format("['datos/tabla.csv', '  ']"),
        ),
        ("data_files:\n  - /etc/passwd", OUTSIDE.format("/etc/passwd")),
        ("data_files:\n  - ../pyproject.toml", OUTSIDE.format("../pyproject.toml")),
        ("data_files:\n  - datos/../tabla.csv", OUTSIDE.format("datos/../tabla.csv")),
        ("data_files:\n  - datos/otra.csv", MISSING.format("datos/otra.csv")),
        ("data_files:\n  - datos", MISSING.format("datos")),
        (
            "data_files:\n  - datos/tabla.csv\n  - tabla.csv",
            "«data_files:» nombra dos archivos llamados «tabla.csv» (datos/tabla.csv y "
            "tabla.csv): en la carpeta de los bloques uno taparía al otro.",
        ),
    ],
)
def test_each_malformed_entry_is_an_error_at_the_keys_line(
    project: Project, front: str, said: str
) -> None:
    _project(project, front)
    (project.root / "docs" / "tabla.csv").write_text(CSV, encoding="utf-8")
    page = _page(project)
    found = [f for f in page.findings if f.kind == Kind.MALFORMED_DATA_FILES]
    assert len(found) == 1, page.findings
    assert found[0].message == said
    assert found[0].line == 3  # «data_files:» is the front matter's second key
    assert found[0].path == "docs/datos.md"
    assert "datos/digitos.csv" in found[0].fix  # the fix shows how to write it


def test_an_empty_list_and_a_name_that_only_starts_with_dots_are_valid(project: Project) -> None:
    assert _page(_project(project, "data_files: []")).findings == []
    (project.root / "docs" / "..tabla.csv").write_text(CSV, encoding="utf-8")
    page = _page(_project(project, "data_files:\n  - ..tabla.csv"))
    assert (page.findings, [(f.rel, f.name) for f in page.data_files]) == (
        [],
        [("..tabla.csv", "..tabla.csv")],
    )


@pytest.mark.parametrize("wrong", ["datos/otra.csv", "../pyproject.toml", "tabla.csv"])
def test_the_valid_files_after_a_wrong_entry_are_kept(project: Project, wrong: str) -> None:
    """Each wrong entry is reported and skipped; reading goes on (tabla.csv: a second file of
    the same name as the first)."""
    _project(project, f"data_files:\n  - datos/tabla.csv\n  - {wrong}\n  - otros/b.csv")
    (project.root / "docs" / "tabla.csv").write_text(CSV, encoding="utf-8")
    (project.root / "docs" / "otros").mkdir()
    (project.root / "docs" / "otros" / "b.csv").write_text(CSV, encoding="utf-8")
    page = _page(project)
    assert [f.rel for f in page.data_files] == ["datos/tabla.csv", "otros/b.csv"]
    assert [f.kind for f in page.findings] == [Kind.MALFORMED_DATA_FILES]


def test_the_blocks_open_the_files_by_name_and_an_edit_changes_the_key(
    project: Project, executor: Executor
) -> None:
    _project(project)
    pages = read_site(project.config)
    results, _ = execute(project.config, pages, "cpu", executor)
    assert results["datos/leer"]["output"] == "['x,y', '1,2', '3,4']\n"
    assert results["datos/otra"]["output"] == "['tabla.csv']\n"
    cache = Cache.for_config(project.config)
    job_key = cache.key  # the page's whole key, as the cache computes it

    def key() -> str:
        from docverify.running.executor import PageJob  # noqa: PLC0415

        page = read_site(project.config)[0]
        return job_key(PageJob(page.rel, "cpu", [spec(project.config, b) for b in page.blocks]))

    before = key()
    (project.root / "docs" / "datos" / "tabla.csv").write_text(CSV + "5,6\n", encoding="utf-8")
    assert key() != before
    results, _ = execute(project.config, read_site(project.config), "cpu", executor)
    assert results["datos/leer"]["output"] == "['x,y', '1,2', '3,4', '5,6']\n"


def test_the_notebook_and_the_article_name_the_files_to_keep_beside_it(project: Project) -> None:
    page = _page(_project(project))
    made = notebooks.build(
        project.config, page, Verification("cpu", {}, [], {}, []), dt.date(2026, 1, 1)
    )
    assert made["metadata"]["docverify"]["data_files"] == ["datos/tabla.csv"]
    header = made["cells"][0]["source"]
    assert "[`tabla.csv`](datos/tabla.csv)" in header and "junto al cuaderno" in header
    box = notebook_links.article_box("nb/", "nb/x.ipynb", [("tabla.csv", "../datos/tabla.csv")])
    assert '<a href="../datos/tabla.csv" download><code>tabla.csv</code></a>' in box
    assert "descárgalo y guárdalo" in box
    two = notebook_links.article_box("nb/", "nb/x.ipynb", [("a", "a"), ("b", "b")])
    assert "descárgalos y guárdalos" in two
    assert "Su código lee" not in notebook_links.article_box("nb/", "nb/x.ipynb")
    plain = notebooks.build(
        project.config,
        _page(_project(project, front="")),
        Verification("cpu", {}, [], {}, []),
        dt.date(2026, 1, 1),
    )
    assert "data_files" not in plain["metadata"]["docverify"]
