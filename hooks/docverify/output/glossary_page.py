"""«Glosario»: the Markdown page generated at each build from the glossary's data file.

One entry per term, in Spanish alphabetical order (accents aside), each a heading with a stable
id (`Term.anchor`) that the articles' links point to. The hook adds it to the site at URI; the
data file itself is not published.
"""

from __future__ import annotations

from docverify.core.markdown import md_escape
from docverify.site import navigation
from docverify.site.glossary import Glossary, Term, fold

URI = navigation.GLOSSARY_URI  # the site reserves the name (site/navigation.py)
TITLE = "Glosario"


def _name(term: Term) -> str:
    return f"`{term.term}`" if term.code else md_escape(term.term)


def definition(text: str) -> str:
    """A definition in Markdown: its `code` spans stay code, the rest is escaped (an unpaired
    backtick leaves it all as plain text)."""
    parts = text.split("`")
    if len(parts) % 2 == 0:
        return md_escape(text)
    return "".join(f"`{part}`" if i % 2 else md_escape(part) for i, part in enumerate(parts))


def entry(term: Term) -> str:
    lines = [f"## {_name(term)} {{ #{term.anchor} }}", definition(term.definition)]
    details = [f"En inglés: *{md_escape(term.english)}*."]
    if term.code:
        details.append("Se escribe solo como código.")
    if term.avoid:
        details.append("Evitamos: " + ", ".join(f"«{md_escape(p)}»" for p in term.avoid) + ".")
    lines.append(" ".join(details))
    return "\n\n".join(lines)


def render(glossary: Glossary) -> str:
    """The whole glossary page, in Markdown."""
    terms = sorted(glossary.terms, key=lambda t: (fold(t.term), t.term))
    intro = (
        "Los términos que usa este sitio: la forma en español que escribimos, su original en "
        "inglés y las expresiones que evitamos. Cada artículo enlaza aquí la primera vez que "
        "usa uno de ellos."
    )
    parts = [f"# {TITLE}", intro, *(entry(t) for t in terms)]
    if not terms:
        parts.append("Todavía no hay términos.")
    return "\n\n".join(parts) + "\n"
