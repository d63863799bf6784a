"""Scaffold: a new article with every required part, a first executed block, and its nav entry.

Nothing is overwritten: every target is checked before the first file is written. mkdocs.yml is
edited as text (one inserted line), never re-dumped, so its comments, order and tags survive.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from docverify.core.config import Config, today
from docverify.core.files import write_atomic
from docverify.site import anatomy, navigation

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")
NAV_SECTION = "Artículos"
FIRST_BLOCK_ID = "primer-bloque"
FIRST_SNIPPET = "primer_bloque.py"
FIRST_SECTION = "Idea principal"

# Placeholders the author replaces; each one is a valid, non-empty required part.
SNIPPET_TEXT = """\
import torch

x = torch.tensor([1.0, 2.0, 3.0])
print(x.sum())  # Expectativa: 6
"""


class ScaffoldError(ValueError):
    """A refusal: nothing was written."""


@dataclass(frozen=True)
class NewArticle:
    page: Path
    snippet: Path
    mkdocs_file: Path
    page_text: str
    snippet_text: str
    mkdocs_text: str


def _q(text: str) -> str:
    """A YAML double-quoted scalar (JSON strings are valid YAML)."""
    return json.dumps(text, ensure_ascii=False)


def page_text(slug: str, title: str, verified: str) -> str:
    """The article's Markdown: front matter with every part, body sections in the required order."""
    snippet = f"{anatomy.ARTICLES_DIR}{slug}/{FIRST_SNIPPET}"
    comparison, steps, example = anatomy.BODY_SECTIONS
    return f"""\
---
title: {_q(title)}
description: "Una frase que dice qué resuelve este artículo y para quién."
goals:
  - "Primer objetivo: qué sabrá hacer el lector al terminar"
prerequisites:
  - "Python básico"
approach: "Cómo aborda el artículo el tema, en una línea."
takeaways:
  - "Primera conclusión clave."
faq:
  - question: "¿Primera pregunta frecuente?"
    answer: "Respuesta breve."
sources:
  - title: "Título de la fuente consultada"
    reference: "PyTorch / ruta/del/archivo.py"
    url: "https://github.com/pytorch/pytorch/blob/v2.13.0/README.md"
    verified: "{verified}"
---

## {FIRST_SECTION}

Explica aquí la idea del artículo. Cada afirmación sobre PyTorch se demuestra con un bloque que se
ejecuta al construir el sitio, y su salida se comprueba en cada construcción (ver la guía de
autores).

```python exec="on" id="{FIRST_BLOCK_ID}"
--8<-- "{snippet}"
```

## {comparison}

| Criterio | Opción A | Opción B |
|---|---|---|
| Cuándo conviene | … | … |
| Riesgo principal | … | … |

## {steps}

1. Primer paso.
2. Segundo paso.

## {example}

Un bloque completo que el lector pueda copiar y ejecutar tal cual, con su propio snippet e id.
"""


def add_to_nav(text: str, entry: str, section: str = NAV_SECTION) -> str:
    """Insert `- entry` as the last item of `section` in the `nav:` of mkdocs.yml text."""
    lines = text.split("\n")
    nav = next((i for i, line in enumerate(lines) if re.match(r"^nav:\s*(#.*)?$", line)), None)
    if nav is None:
        raise ScaffoldError("mkdocs.yml no tiene «nav:»; añade el artículo a mano o crea el nav.")
    header = re.compile(rf"^(?P<indent>\s*)- +[\"']?{re.escape(section)}[\"']?\s*:\s*(#.*)?$")
    start = None
    for i in range(nav + 1, len(lines)):
        if lines[i].strip() and not lines[i].startswith((" ", "-", "#")):
            break  # the next top-level key: the nav is over
        if header.match(lines[i]):
            start = i
            break
    if start is None:
        raise ScaffoldError(
            f"el nav de mkdocs.yml no tiene la sección «{section}:»; añádela "
            "(por ejemplo «  - Artículos:») y vuelve a ejecutar."
        )
    own = len(header.match(lines[start]).group("indent"))  # type: ignore[union-attr]
    last, child_indent = start, None
    for i in range(start + 1, len(lines)):
        line = lines[i]
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        if indent <= own:
            break
        if child_indent is None:
            child_indent = indent
        last = i
    prefix = " " * (child_indent if child_indent is not None else own + 4)
    lines.insert(last + 1, f"{prefix}- {entry}")
    return "\n".join(lines)


def new_article(config: Config, slug: str, title: str, mkdocs_file: Path) -> NewArticle:
    """Everything `new` will write, after checking that nothing exists; raises ScaffoldError."""
    if not SLUG.match(slug):
        raise ScaffoldError(
            f"slug «{slug}» no válido: usa minúsculas, cifras y guiones "
            "(por ejemplo «tensores-basicos»)."
        )
    if not title.strip():
        raise ScaffoldError('falta el título: docverify new <slug> "<título>".')
    page = config.docs_dir / f"{anatomy.ARTICLES_DIR}{slug}.md"
    snippet = config.snippets_dir / f"{anatomy.ARTICLES_DIR}{slug}" / FIRST_SNIPPET
    for path in (page, snippet):
        if path.exists():
            raise ScaffoldError(
                f"{config.rel(path)} ya existe: no se sobrescribe. Elige otro "
                "slug o edita el archivo existente."
            )
    if not mkdocs_file.is_file():
        raise ScaffoldError(
            f"no existe {config.rel(mkdocs_file)}: ejecuta docverify new en la raíz del proyecto."
        )
    entry = f"{anatomy.ARTICLES_DIR}{slug}.md"
    old = mkdocs_file.read_text(encoding="utf-8")
    if re.search(rf"^\s*-.*\b{re.escape(entry)}\s*$", old, re.MULTILINE):
        raise ScaffoldError(f"{entry} ya está en el nav de {config.rel(mkdocs_file)}.")
    new = add_to_nav(old, entry)
    try:
        nav = navigation.parse(new, mkdocs_file)
    except ValueError:  # the inserted line broke the YAML (the section's children are no list)
        nav = None
    if nav is None or entry not in {e.target for e in nav.entries}:  # never write a broken nav
        raise ScaffoldError(
            f"no se pudo añadir {entry} al nav de {config.rel(mkdocs_file)}; "
            "añádelo a mano bajo «Artículos»."
        )
    return NewArticle(
        page=page,
        snippet=snippet,
        mkdocs_file=mkdocs_file,
        page_text=page_text(slug, title.strip(), today().isoformat()),
        snippet_text=SNIPPET_TEXT,
        mkdocs_text=new,
    )


def apply(article: NewArticle) -> None:
    """Create the snippet and the page (never over an existing file), then edit the nav."""
    for path, text in ((article.snippet, article.snippet_text), (article.page, article.page_text)):
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("x", encoding="utf-8", newline="\n") as handle:  # "x": fail if it exists
            handle.write(text)
    mode = article.mkdocs_file.stat().st_mode
    write_atomic(article.mkdocs_file, article.mkdocs_text)
    article.mkdocs_file.chmod(mode)  # the temporary file was private; keep the author's mode
