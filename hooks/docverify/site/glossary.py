"""The glossary: one data file of the site's terms, its validation and the lint of their use.

`docs/glosario.yml` (navigation.GLOSSARY_DATA) lists each term the site uses:

    terms:
      - term: grafo                     # the Spanish form the site writes
        english: computational graph    # the original
        definition: "Registro de …"     # one line
        avoid: ["gráfico computacional"]  # phrases to avoid (may be empty: [])
      - term: backward
        english: backward
        definition: "Método que …"
        avoid: []
        code: true                      # an English word the site keeps only as code

The build generates the «Glosario» page from it (output/glossary_page.py) and links each
article's first use of a term there (output/glossary_links.py), skipping a use inside one of the
phrases of the term's optional `other_senses` list, where the word means something else
(`other_senses: ["de forma deliberada"]` for «forma», shape). glossary_lint.check flags, with
file:line, an avoided phrase in prose or in a comment of an executed block's code, and the bare
word of a `code: true` term in prose outside backticks, naming the form to use. Text of a page's
seed is never flagged: a page that reproduces a seed names it in its front matter (`seed: <file>`,
from the project's root), and a piece of text that appears word for word in that file is exempt.

Matching, the same for the lint and for the links: whole words, ignoring case and accents, each
word of a phrase or term also in its plural (+s, +es). A phrase quoted on its own, «…», is a
mention, not a use. The bare word of a code term is a whole word that is not part of a dotted
name (`x.backward` is code already).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from docverify.core.config import Config
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing import frontmatter
from docverify.site import navigation

KEYS = ("term", "english", "definition", "avoid", "code", "other_senses")
REQUIRED = ("term", "english", "definition", "avoid")
SEED_KEY = "seed"
Problem = Callable[[int, str, str], None]  # (line, message, fix) of a malformed glossary
# Front-matter keys the build renders as prose (site/anatomy.py renders them).
PROSE_KEYS = ("title", "description", "goals", "prerequisites", "approach", "takeaways", "faq")
# A seed article's, for a learner (its description: for search results and link previews).
PROSE_KEYS += ("editorial_goals", "editorial_prerequisites", "editorial_description")


@dataclass(frozen=True)
class Term:
    term: str
    english: str
    definition: str
    avoid: tuple[str, ...]
    code: bool
    line: int  # in the data file
    definition_line: int  # where its definition starts, in the data file
    other_senses: tuple[str, ...] = ()  # phrases where the word means something else

    @property
    def anchor(self) -> str:
        """The id of the term's entry on the glossary page: «retropropagacion», «grad-fn»."""
        return re.sub(r"[^a-z0-9]+", "-", fold(self.term)).strip("-") or "termino"


@dataclass(frozen=True)
class Glossary:
    path: Path
    terms: tuple[Term, ...]  # the valid entries, in file order


def data_path(config: Config) -> Path:
    return config.docs_dir / navigation.GLOSSARY_DATA


# --- matching ---------------------------------------------------------------------------------


def fold(text: str) -> str:
    """`text` in lower case without accents, one character for one (offsets are kept)."""
    if text.isascii():  # nothing to take off: the same as below, character by character
        return text.lower()
    return "".join(map(_folded, text))


def lower(text: str) -> str:
    """`text` in lower case, accents kept, one character for one (offsets are kept)."""
    if text.isascii():
        return text.lower()
    return "".join(map(_lowered, text))


@cache
def _folded(char: str) -> str:
    base = unicodedata.normalize("NFD", char)[0].lower()
    return base if len(base) == 1 else char


@cache
def _lowered(char: str) -> str:
    return char.lower() if len(char.lower()) == 1 else char


@cache
def phrase_pattern(phrase: str, accents: bool = False) -> re.Pattern[str]:
    """Whole words of `phrase` (folded; with `accents`, only lower-cased), each also with a
    plural ending, any space between."""
    words = (lower(phrase) if accents else fold(phrase)).split()
    body = r"\s+".join(re.escape(word) + "(?:e?s)?" for word in words)
    return re.compile(rf"(?<!\w){body}(?!\w)")


@cache
def code_pattern(word: str) -> re.Pattern[str]:
    """The bare word of a code term: a whole word, not part of a dotted name."""
    return re.compile(rf"(?<![\w.]){re.escape(fold(word))}(?!\w|\.\w)")


@cache
def any_of(patterns: tuple[re.Pattern[str], ...]) -> re.Pattern[str] | None:
    """One pattern that matches where any of `patterns` would (None for none): a text that it
    does not match holds none of them, and most texts hold none, so one search says so where
    one per pattern would."""
    if not patterns:
        return None
    return re.compile("|".join(f"(?:{p.pattern})" for p in patterns))


def mentioned(raw: str, start: int, end: int) -> bool:
    """A phrase quoted on its own («gráfico computacional») is named, not used."""
    return raw[start - 1 : start] == "«" and raw[end : end + 1] == "»"


# --- the data file ----------------------------------------------------------------------------


def load(config: Config) -> tuple[Glossary | None, list[Finding]]:
    """The glossary of the site (None without a data file) and the problems of that file; an
    entry with a problem is left out, the others are kept."""
    path = data_path(config)
    if not path.is_file():
        return None, []
    where = config.rel(path)
    findings: list[Finding] = []

    def problem(line: int, message: str, fix: str) -> None:
        findings.append(Finding(Kind.MALFORMED_GLOSSARY, message, where, line, fix))

    try:
        root = frontmatter.compose(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem(
            mark.line + 1 if mark else 1,
            f"YAML no válido: {exc}",
            "corrige la sintaxis (ver el formato en la guía de autores).",
        )
        return Glossary(path, ()), findings
    entries = _entries(root)
    if entries is None:
        problem(
            1,
            "el glosario debe ser un mapa con una lista «terms:» de términos.",
            "escribe «terms:» y debajo cada término como «- term: …» (ver la guía de autores).",
        )
        return Glossary(path, ()), findings
    terms: list[Term] = []
    for node in entries:
        term = _term(node, problem)
        if term is not None:
            terms.append(term)
    return Glossary(path, _coherent(terms, problem)), findings


def _entries(root: yaml.Node | None) -> list[yaml.Node] | None:
    if not isinstance(root, yaml.MappingNode):
        return None
    for key, value in root.value:
        if isinstance(key, yaml.ScalarNode) and key.value == "terms":
            return list(value.value) if isinstance(value, yaml.SequenceNode) else None
    return None


def _term(node: yaml.Node, problem: Problem) -> Term | None:
    line = node.start_mark.line + 1
    if not isinstance(node, yaml.MappingNode):
        problem(line, "cada término es un mapa «term: …».", "escribe «- term: …» con sus claves.")
        return None
    fields = {str(k.value): v for k, v in node.value if isinstance(k, yaml.ScalarNode)}
    unknown = sorted(set(fields) - set(KEYS))
    name = _text(fields.get("term")) or f"(línea {line})"
    if unknown:
        problem(
            line,
            f"el término «{name}» tiene claves desconocidas: {', '.join(unknown)}.",
            f"usa solo {', '.join(KEYS)}.",
        )
        return None
    missing = [key for key in REQUIRED if key not in fields]
    if missing:
        problem(
            line,
            f"al término «{name}» le faltan {', '.join(missing)}.",
            "añade cada clave (avoid puede ser una lista vacía: avoid: []).",
        )
        return None
    values = {key: _text(fields[key]) for key in ("term", "english", "definition")}
    for key, value in values.items():
        if not value or "\n" in value.strip():
            problem(
                fields[key].start_mark.line + 1,
                f"«{key}» del término «{name}» debe ser un texto de una línea.",
                f'escribe {key}: "…" en una sola línea.',
            )
            return None
    avoid = _phrases(fields, "avoid", name, problem)
    other_senses = _phrases(fields, "other_senses", name, problem)
    if avoid is None or other_senses is None:
        return None
    code = fields.get("code")
    if code is not None and (
        not isinstance(code, yaml.ScalarNode) or code.tag != "tag:yaml.org,2002:bool"
    ):
        problem(
            code.start_mark.line + 1,
            f"«code» del término «{name}» debe ser true o false.",
            "escribe code: true (o quita la clave).",
        )
        return None
    return Term(
        term=values["term"].strip(),
        english=values["english"].strip(),
        definition=values["definition"].strip(),
        avoid=avoid,
        code=code is not None and code.value.lower() == "true",
        line=line,
        definition_line=fields["definition"].start_mark.line + 1,
        other_senses=other_senses,
    )


def _phrases(
    fields: dict[str, yaml.Node], key: str, name: str, problem: Problem
) -> tuple[str, ...] | None:
    """The list of phrases under `key` (() where an optional key is absent), or None, said."""
    node = fields.get(key)
    if node is None:
        return ()
    phrases = [_text(item) for item in node.value]  # a scalar's characters: none is a node
    if not isinstance(node, yaml.SequenceNode) or not all(phrases):
        problem(
            node.start_mark.line + 1,
            f"«{key}» del término «{name}» debe ser una lista de expresiones.",
            f'escribe {key}: ["expresión", …] o {key}: [].',
        )
        return None
    return tuple(p.strip() for p in phrases)


def _text(node: yaml.Node | None) -> str:
    if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:str":
        return str(node.value)
    return ""


def _coherent(terms: list[Term], problem: Problem) -> tuple[Term, ...]:
    """Drop a term repeated (same anchor) or avoided by another term, saying so."""
    kept: list[Term] = []
    forms = {lower(t.term): t for t in terms}
    for term in terms:
        twin = next((k for k in kept if k.anchor == term.anchor), None)
        if twin is not None:
            problem(
                term.line,
                f"el término «{term.term}» repite «{twin.term}» (línea {twin.line}).",
                "deja una sola entrada por término.",
            )
            continue
        clash = next((p for p in term.avoid if lower(p) in forms), None)
        if clash is not None:
            problem(
                term.line,
                f"el término «{term.term}» evita «{clash}», que es la forma del término "
                f"«{forms[lower(clash)].term}»: la prosa no podría usar ninguna de las dos.",
                "quita la expresión de «avoid» o la otra entrada.",
            )
            continue
        kept.append(term)
    return tuple(kept)
