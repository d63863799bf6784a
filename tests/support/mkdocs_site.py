"""A one-article MkDocs site that uses the project's hook, one mutation away from each error."""

from __future__ import annotations

import datetime as dt
import shutil
import textwrap
from pathlib import Path

from conftest import ROOT, Project
from docverify.core import config as config_mod

# Today, for every build of these tests (SOURCE_DATE_EPOCH): never the real clock.
DAY = dt.date(2026, 6, 1)
EPOCH = str(int(dt.datetime(2026, 6, 1, 12, tzinfo=dt.UTC).timestamp()))
MKDOCS_YML = """\
site_name: Prueba
docs_dir: docs
strict: false
theme:
  name: mkdocs
plugins: []
hooks:
  - {hook}
watch:
  - snippets
markdown_extensions:
  - admonition
  - attr_list
  - md_in_html
  - pymdownx.details
  - pymdownx.snippets:
      base_path: [snippets]
      check_paths: true
  - pymdownx.superfences
  - pymdownx.tabbed:
      alternate_style: true
nav:
  - articulos/a.md
"""
ARTICLE = """\
---
title: "Un artículo"
description: "Frase inicial."
goals:
  - Un objetivo
prerequisites:
  - Un requisito
approach: "Enfoque."
takeaways:
  - Una conclusión.
faq:
  - question: "¿Pregunta?"
    answer: "Respuesta."
sources:
  - title: "Fuente"
    reference: "PyTorch / README.md"
    verified: "2026-05-01"
---

## Cuerpo

Texto.

```python exec="on" id="uno"
--8<-- "articulos/a/uno.py"
```

## Cómo elegir

| Criterio | A | B |
|---|---|---|
| x | y | z |

## Pasos de implementación

1. Paso.

## Ejemplo para copiar

Texto.
"""
CODE = "doce = 6 * 2\nprint(doce)\n"  # a name, an operator: the highlighting has both
RECORDING = "# docverify: grabación\n# ----\n{body}\n"


class Site:
    """The fixture site: an article with one block, its recording and one dated source."""

    def __init__(self, root: Path, *, write: bool = True) -> None:
        """The site at `root`: written there unless it is already (see `copy`)."""
        if write:
            project = Project(root)
            hook = (ROOT / "hooks" / "mkdocs_hooks.py").as_posix()
            (root / "mkdocs.yml").write_text(MKDOCS_YML.format(hook=hook), encoding="utf-8")
            project.page("articulos/a.md", ARTICLE)
            project.snippet("articulos/a/uno.py", CODE)
            project.snippet("articulos/a/uno.cpu.txt", RECORDING.format(body="12"))
        self.root = root
        self.article = root / "docs/articulos/a.md"
        self.code = root / "snippets/articulos/a/uno.py"
        self.recording = root / "snippets/articulos/a/uno.cpu.txt"

    @property
    def config(self) -> config_mod.Config:
        return config_mod.load(self.root)

    def copy(self, root: Path) -> Site:
        """A copy of this site's folder (its cache included) at `root`."""
        shutil.copytree(self.root, root)
        return Site(root, write=False)

    def edit(self, path: Path, old: str, new: str) -> None:
        text = path.read_text(encoding="utf-8")
        assert old in text, old
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    def set_pyproject(self, extra: str) -> None:
        path = self.root / "pyproject.toml"
        path.write_text(path.read_text(encoding="utf-8") + textwrap.dedent(extra), "utf-8")
