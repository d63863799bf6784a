"""Article anatomy: the required parts of an article, their check, and their rendering.

An article is any page under docs/articulos/. Its lists (goals, prerequisites, takeaways, FAQ,
sources) are front-matter data, so every article renders them the same way and code can read them.
The body carries the sections, the comparison table, the steps and the example.
"""

from __future__ import annotations

import re

from docverify.core.config import Config
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.core.markdown import md_escape
from docverify.parsing.pages import Page
from docverify.site import meta_keys, meta_types
from docverify.sources.model import Source

ARTICLES_DIR = "articulos/"
# Front-matter parts, in reading order, with the Spanish name authors see in messages.
META_PARTS = {
    "title": "título",
    "description": "frase inicial",
    "goals": "«Qué aprenderás»",
    "prerequisites": "«Antes de empezar»",
    "approach": "la línea de enfoque",
    "takeaways": "«Conclusiones clave»",
    "faq": "«Preguntas frecuentes»",
    "sources": "«Fuentes»",
}
LIST_PARTS = ("goals", "prerequisites", "takeaways", "faq", "sources")
# Optional: a seed article's lists for a learner, written by us (its `goals` and
# `prerequisites` are the seed's section names); the home page's card shows them instead.
EDITORIAL_LISTS = {
    "editorial_goals": "Al terminar sabrás",
    "editorial_prerequisites": "Necesitas antes",
}
# Body sections that must close every article, in this order, after at least one body section.
BODY_SECTIONS = ("Cómo elegir", "Pasos de implementación", "Ejemplo para copiar")
_H2 = re.compile(r"^## +(?P<title>.+?) *$")
# Editorial additions (text that is not the seed's) live in `!!! editorial "…"` admonitions; a
# seed placeholder is kept word for word in a collapsed `??? semilla "…"` note beside its
# editorial replacement. Both are Material admonitions styled in docverify.css.
EDITORIAL = "editorial"
SEED_NOTE = "semilla"
# Template text seeds carry instead of content: allowed only inside a collapsed seed note.
PLACEHOLDERS = ("Best when", "Main risk", "forward operations -> loss")
_ADMONITION = re.compile(
    r"^(?P<indent>[ \t]*)(?P<marker>!!!|\?\?\?\+?) +(?P<kind>[\w-]+)"
    r"(?P<rest>[^\"]*)(?:\"(?P<title>[^\"]*)\")?\s*$"
)


def is_article(page: Page) -> bool:
    return page.rel.startswith(ARTICLES_DIR)


def headings(page: Page) -> list[tuple[str, int]]:
    """(H2 title, line in the page) outside code fences."""
    found, fence = [], None
    for offset, line in enumerate(page.body.split("\n")):
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            marker = stripped[:3]
            fence = None if fence == marker else (fence or marker)
            continue
        if fence is None and (match := _H2.match(line)):
            found.append((match.group("title"), page.body_line + offset))
    return found


def check(config: Config, page: Page) -> list[Finding]:
    """Every required part present, non-empty and in order; one located finding per problem."""
    if not is_article(page):
        return []
    where = config.rel(page.path)
    found = _front_matter_parts(page, where) + _body_sections(page, where)
    found += meta_keys.check(config, page, (*META_PARTS, *EDITORIAL_LISTS))
    found += _editorial_lists(config, page) + meta_types.check(config, page)
    return found + check_editorial(config, page)


def _front_matter_parts(page: Page, where: str) -> list[Finding]:
    """The front matter's parts: each present, lists as lists, each FAQ item whole."""
    findings: list[Finding] = []
    for key, name in META_PARTS.items():
        value = page.meta.get(key)
        if not value:
            findings.append(
                Finding(
                    Kind.MISSING_PART,
                    f"falta {name} (clave «{key}» del front matter).",
                    where,
                    page.meta_line(key),  # 1 when the key is not there
                    f"añade «{key}:» al front matter (ver la guía de autores o `docverify new`).",
                )
            )
        elif key in LIST_PARTS and not isinstance(value, list):
            findings.append(
                Finding(
                    Kind.MALFORMED_PART,
                    f"{name} debe ser una lista.",
                    where,
                    page.meta_line(key),
                    f"escribe «{key}:» como lista «- …».",
                )
            )
    faq = page.meta.get("faq")
    for index, item in enumerate(faq if isinstance(faq, list) else [], 1):
        if not (isinstance(item, dict) and item.get("question") and item.get("answer")):
            findings.append(
                Finding(
                    Kind.MALFORMED_FAQ,
                    f"la pregunta {index} necesita «question» y «answer».",
                    where,
                    getattr(item, "line", page.meta_line("faq")),
                    "escribe «- question: …» y «answer: …».",
                )
            )
    return findings


def _body_sections(page: Page, where: str) -> list[Finding]:
    """The body's closing sections: each present, in order, after at least one of the body."""
    findings: list[Finding] = []
    titles = headings(page)
    names = [t for t, _ in titles]
    position = 0  # where the furthest closing section seen so far is, in `names`
    for section in BODY_SECTIONS:
        if section not in names:
            findings.append(
                Finding(
                    Kind.MISSING_PART,
                    f"falta la sección «## {section}».",
                    where,
                    titles[-1][1] if titles else page.body_line,
                    f"añade «## {section}» después de las secciones del cuerpo.",
                )
            )
            continue
        index = names.index(section)
        if index < position:  # pragma: no mutate; equivalent: distinct names never share an index
            findings.append(
                Finding(
                    Kind.SECTION_ORDER,
                    f"«## {section}» está fuera de orden: el orden es {' → '.join(BODY_SECTIONS)}.",
                    where,
                    titles[index][1],
                    "mueve la sección a su sitio.",
                )
            )
        position = max(position, index)
    # No heading before the first closing section (or none at all, when none is there).
    first_required = min((names.index(s) for s in BODY_SECTIONS if s in names), default=len(names))
    if first_required == 0:
        findings.append(
            Finding(
                Kind.MISSING_PART,
                f"el artículo no tiene secciones de cuerpo antes de «## {BODY_SECTIONS[0]}».",
                where,
                page.body_line,
                "añade al menos una sección «## …» con el texto del artículo.",
            )
        )
    return findings


def _editorial_lists(config: Config, page: Page) -> list[Finding]:
    """A seed article's lists for a learner (optional), each written as a list."""
    return [
        Finding(
            Kind.MALFORMED_PART,
            f"«{name}» (editorial) debe ser una lista.",
            config.rel(page.path),
            page.meta_line(key),
            f"escribe «{key}:» como lista «- …».",
        )
        for key, name in EDITORIAL_LISTS.items()
        if key in page.meta and not isinstance(page.meta[key], list)
    ]


def admonitions(page: Page) -> list[tuple[int, list[tuple[str, str]]]]:
    """For each body line: its page line and the (kind, marker) of the admonitions around it."""
    result: list[tuple[int, list[tuple[str, str]]]] = []
    stack: list[tuple[int, str, str]] = []  # (indent of the header, kind, marker)
    for offset, line in enumerate(page.body.split("\n")):
        if line.strip():
            depth = len(line) - len(line.lstrip())
            while stack and depth <= stack[-1][0]:
                stack.pop()
        result.append((page.body_line + offset, [(k, m) for _, k, m in stack]))
        if match := _ADMONITION.match(line):
            stack.append((len(match.group("indent")), match.group("kind"), match.group("marker")))
    return result


def check_editorial(config: Config, page: Page) -> list[Finding]:
    """Seed placeholders only inside a collapsed seed note; each such note beside an editorial
    replacement in its section."""
    where = config.rel(page.path)
    findings: list[Finding] = []
    lines = page.body.split("\n")
    around = admonitions(page)
    for number, stack in around:
        line = lines[number - page.body_line]
        hidden = any(kind == SEED_NOTE and marker == "???" for kind, marker in stack)
        marker = next((p for p in PLACEHOLDERS if p in line), None)
        if marker and not hidden:
            findings.append(
                Finding(
                    Kind.TEMPLATE_TEXT,
                    f"«{marker}» es texto de plantilla de la semilla y se mostraría como "
                    "contenido.",
                    where,
                    number,
                    f'guárdalo tal cual dentro de una nota plegada ??? {SEED_NOTE} "Texto original '
                    f'(…)" y escribe al lado el contenido real en un !!! {EDITORIAL} "…".',
                )
            )
    sections: list[list[int]] = [[]]
    for index, line in enumerate(lines):
        if _H2.match(line):
            sections.append([])
        sections[-1].append(index)
    for section in sections:
        kinds = [(_ADMONITION.match(lines[i]), i) for i in section]
        notes = [i for m, i in kinds if m and m.group("kind") == SEED_NOTE]
        if notes and not any(m and m.group("kind") == EDITORIAL for m, _ in kinds):
            findings.append(
                Finding(
                    Kind.SEED_WITHOUT_REPLACEMENT,
                    "una nota con el original de la semilla no tiene al lado su reemplazo "
                    "editorial.",
                    where,
                    page.body_line + notes[0],
                    f'añade en la misma sección un !!! {EDITORIAL} "…" con el contenido real.',
                )
            )
    return findings


def _bullets(items: list[object]) -> str:
    return "\n".join(f"    - {item}" for item in items)


def editorial_box(page: Page) -> list[str]:
    """A seed article's own words for a learner (EDITORIAL_LISTS), in one editorial box: its
    seed's goals and prerequisites name the seed's sections, not what a learner will do."""
    parts = [
        f"    **{name}:**\n\n" + "\n".join(f"    - {item}" for item in page.meta[key])
        for key, name in EDITORIAL_LISTS.items()
        if isinstance(page.meta.get(key), list) and page.meta[key]
    ]
    if not parts:
        return []
    return [f'!!! {EDITORIAL} "Añadido editorial: para quién es"\n\n' + "\n\n".join(parts)]


def render_header(page: Page) -> str:
    meta = page.meta
    return (
        "\n\n".join(
            [
                f"# {meta['title']}",
                f'<p class="dv-lead">{meta["description"]}</p>',
                *editorial_box(page),
                f'!!! abstract "Qué aprenderás"\n\n{_bullets(meta["goals"])}',
                f'!!! info "Antes de empezar"\n\n{_bullets(meta["prerequisites"])}',
                f'<p class="dv-approach">{meta["approach"]}</p>',
                f'!!! success "Conclusiones clave"\n\n{_bullets(meta["takeaways"])}',
            ]
        )
        + "\n\n"
    )


def render_footer(page: Page, sources: list[Source], review_by: dict[Source, str]) -> str:
    parts = ["## Preguntas frecuentes"]
    for item in page.meta["faq"]:
        question = str(item["question"]).replace('"', "&quot;")
        parts.append(f'??? question "{question}"\n\n    {item["answer"]}')
    parts.append("## Fuentes")
    lines = []
    for source in sources:
        ref = md_escape(source.reference)
        ref = f"[{ref}]({source.url})" if source.url else ref
        # The verification date once, in the seed's words; after it, only the review-by date.
        day = source.verified.isoformat()
        note = review_by.get(source)
        lines.append(
            f"- **{ref}** — {md_escape(source.title)}. "
            f'Fuente verificada <time datetime="{day}">{day}</time>'
            + (f' <span class="dv-date">({note})</span>' if note else "")
        )
    # Generated from the front matter, not prose: a class so readers' styles and checks know it.
    parts.append('<div class="dv-sources" markdown>\n\n' + "\n".join(lines) + "\n\n</div>")
    return "\n\n" + "\n\n".join(parts) + "\n"
