"""The type of every front-matter part an article shows: a text where a text goes.

YAML reads an unquoted `- Forma: tipo y dispositivo` as a one-key mapping and `- [a, b]` as a
list; the page would then show a Python dict or list where a sentence was meant. Each part the
build renders as text (title, description, approach, each goal, prerequisite and takeaway, the
editorial lists and description of a seed article, each FAQ question and answer, each source's
title and reference) must be a YAML string; anything else is a located finding whose fix is
to quote it. The structure around them (a list where a list goes, a FAQ item with both keys, a
source that is a mapping) is checked by site/anatomy.py and sources/model.py; this module only
judges the leaves, from the YAML nodes, so every finding has the line of the value itself.
"""

from __future__ import annotations

import yaml

from docverify.core.config import Config
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing.pages import Page

# Parts shown as one text, and parts shown as a list of texts (key → name authors read).
TEXTS = {
    "title": "el título",
    "description": "la frase inicial",
    "approach": "la línea de enfoque",
    "editorial_description": "la descripción para buscadores (editorial)",
}
TEXT_LISTS = {
    "goals": "«Qué aprenderás»",
    "prerequisites": "«Antes de empezar»",
    "takeaways": "«Conclusiones clave»",
    "editorial_goals": "«Al terminar sabrás» (editorial)",
    "editorial_prerequisites": "«Necesitas antes» (editorial)",
}
FAQ_TEXTS = ("question", "answer")
SOURCE_TEXTS = ("title", "reference")
_STR = "tag:yaml.org,2002:str"
_NULL = "tag:yaml.org,2002:null"
_READ_AS = {
    "tag:yaml.org,2002:int": "un número",
    "tag:yaml.org,2002:float": "un número",
    "tag:yaml.org,2002:bool": "un valor true/false",
    "tag:yaml.org,2002:timestamp": "una fecha",
}


def check(config: Config, page: Page) -> list[Finding]:
    """One finding for each shown part of the page's front matter that is not a text."""
    root = _root(page)
    if root is None:
        return []
    where = config.rel(page.path)
    found: list[Finding] = []
    for key, node in _fields(root).items():
        if key in TEXTS:
            found += _leaf(page, where, node, TEXTS[key])
        elif key in TEXT_LISTS and isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value, 1):
                found += _leaf(page, where, item, f"el elemento {index} de {TEXT_LISTS[key]}")
        elif key == "faq" and isinstance(node, yaml.SequenceNode):
            found += _items(page, where, node, FAQ_TEXTS, "la pregunta frecuente")
        elif key == "sources" and isinstance(node, yaml.SequenceNode):
            found += _items(page, where, node, SOURCE_TEXTS, "la fuente")
    return found


def _root(page: Page) -> yaml.MappingNode | None:
    return page.front_nodes  # None: no front matter, or the page's parse reports it


def _fields(node: yaml.MappingNode) -> dict[str, yaml.Node]:
    return {str(k.value): v for k, v in node.value if isinstance(k, yaml.ScalarNode)}


def _items(
    page: Page, where: str, node: yaml.SequenceNode, keys: tuple[str, ...], what: str
) -> list[Finding]:
    found: list[Finding] = []
    for index, item in enumerate(node.value, 1):
        if isinstance(item, yaml.MappingNode):
            fields = _fields(item)
            for key in (k for k in keys if k in fields):
                found += _leaf(page, where, fields[key], f"«{key}» de {what} {index}")
    return found


def _leaf(page: Page, where: str, node: yaml.Node, name: str) -> list[Finding]:
    """A finding when `node` (the value of part `name`) is not a YAML string."""
    if isinstance(node, yaml.ScalarNode) and node.tag in (_STR, _NULL):
        return []  # an empty part is site/anatomy.py's «falta …»
    if isinstance(node, yaml.MappingNode):
        read_as = "un mapa clave: valor (sin comillas, YAML corta el texto en su «: »)"
    elif isinstance(node, yaml.SequenceNode):
        read_as = "una lista"
    else:
        read_as = _READ_AS.get(node.tag, "otro tipo")
    written = page.front[node.start_mark.index : node.end_mark.index].strip()
    one_line = " ".join(written.split()).replace('"', '\\"')
    return [
        Finding(
            Kind.WRONG_TYPE,
            f"{name} debe ser un texto, y YAML lo lee como {read_as}: la página mostraría "
            f"«{one_line}» tal como lo lee Python.",
            where,
            node.start_mark.line + 2,  # the opening «---» is line 1
            f'ponlo entre comillas: "{one_line}".',
        )
    ]
