"""A block's spec, field by field, from a page and a configuration written here, and the part of
it that a report digests (`setup_text`)."""

from __future__ import annotations

import hashlib
import json

from conftest import Project
from docverify.parsing.pages import read_site
from docverify.running.specs import FORMAT_3_FIELDS, SETUP_FIELDS, setup_text, spec

SETTINGS = """\
[project]
name = "sample"
version = "0"

[tool.docverify]
docs_dir = "docs"
snippets_dir = "snippets"
timeout = 60
output_limit = 1234
seed = 11
hash_seed = 4
"""
PAGE = """\
---
title: "Datos"
data_files:
  - tabla.csv
---

# Datos

Texto.

```python exec="on" id="uno" session="s" timeout="5" last_value="show" device_policy="as-written"
print(1)
```

```python exec="on" id="dos"
print(2)
```
"""
CSV = "x\n1\n"


def _blocks(project: Project):
    (project.root / "pyproject.toml").write_text(SETTINGS, encoding="utf-8")
    (project.root / "docs" / "tabla.csv").write_text(CSV, encoding="utf-8")
    project.page("datos.md", PAGE)
    [page] = read_site(project.config)
    assert page.findings == []
    return page.blocks


def test_a_spec_takes_the_blocks_options_over_the_sites(project: Project) -> None:
    first, second = _blocks(project)
    digest = hashlib.sha256(CSV.encode()).hexdigest()
    assert spec(project.config, first) == {
        "key": "datos/uno",
        "code": "print(1)\n",
        "filename": "docs/datos.md",
        "first_line": 12,  # the code's first line, after the fence on 11
        "session": "s",
        "timeout": 5.0,
        "output_limit": 1234,
        "seed": 11,
        "hash_seed": 4,
        "device_policy": "as-written",
        "show_last_value": True,
        "data_files": {"tabla.csv": digest},
        "data_paths": {"tabla.csv": str(project.root / "docs" / "tabla.csv")},
    }
    made = spec(project.config, second)
    assert (made["session"], made["timeout"], made["first_line"]) == (None, 60.0, 16)
    assert (made["device_policy"], made["show_last_value"]) == ("default-cuda", False)


def test_setup_text_is_the_spec_without_identity_code_or_place(project: Project) -> None:
    first, _ = _blocks(project)
    digest = hashlib.sha256(CSV.encode()).hexdigest()
    text = setup_text(project.config, first)
    assert json.loads(text) == {
        "session": "s",
        "timeout": 5.0,
        "output_limit": 1234,
        "seed": 11,
        "hash_seed": 4,
        "device_policy": "as-written",
        "show_last_value": True,
        "data_files": {"tabla.csv": digest},
    }
    assert text == json.dumps(json.loads(text), sort_keys=True)  # one stable line
    old = json.loads(setup_text(project.config, first, FORMAT_3_FIELDS))
    assert set(old) == set(SETUP_FIELDS) - {"hash_seed", "data_files"}
