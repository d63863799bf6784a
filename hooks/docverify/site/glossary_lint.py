# The lint of the glossary's terms in the site's prose: avoided phrases, bare code words.
"""Where the prose of a page uses the glossary wrongly (glossary.py holds the terms and the
matching rules): an avoided phrase in prose or in a comment of an executed block's code, and
the bare word of a `code: true` term in prose outside backticks. Text of a page's seed is never
flagged (a page names its seed in its front matter, `seed: <file>`).
"""

from __future__ import annotations

from collections.abc import Callable

from docverify.core.config import Config
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing import origin, prose
from docverify.parsing.pages import Page
from docverify.site.glossary import (
    PROSE_KEYS,
    SEED_KEY,
    Glossary,
    any_of,
    code_pattern,
    fold,
    lower,
    mentioned,
    phrase_pattern,
)


def _is_a_term(written: str, glossary: Glossary) -> bool:
    """Whether `written` (lower case) is a term's own form or its plural, accents included:
    «gradientes» is the term «gradiente», even where «gradient» (avoided) plus a plural ending
    would match it; «epoca» is not the term «época»."""
    return any(phrase_pattern(t.term, True).fullmatch(written) for t in glossary.terms)


def seed_text(config: Config, page: Page) -> tuple[str | None, list[Finding]]:
    """The normalised text of the page's seed (`seed:` in its front matter), if it names one."""
    name = page.meta.get(SEED_KEY)
    if name is None:
        return None, []
    path = config.root / str(name)
    if isinstance(name, str) and name.strip() and path.is_file():
        return prose.normalise(path.read_text(encoding="utf-8")), []
    return None, [
        Finding(
            Kind.MISSING_SEED,
            f"«{SEED_KEY}: {name}» no es un archivo del proyecto: sin él, el texto de la semilla "
            "no se puede reconocer y el glosario lo trataría como texto nuevo.",
            config.rel(page.path),
            page.meta_line(SEED_KEY),
            f"escribe en «{SEED_KEY}:» la ruta del texto de la semilla desde la raíz del "
            "proyecto, o quita la clave si la página no reproduce ninguna semilla.",
        )
    ]


def from_seed(text: prose.Text, seed: str | None) -> bool:
    """Every piece of `text` appears word for word in the seed."""
    if seed is None or not any(text.plain):
        return False
    return all(p in seed or p.replace(" .", ".") in seed for p in text.plain if p)


def texts(page: Page) -> list[prose.Text]:
    """What a reader reads of `page`: front matter, body, and its blocks' code comments, but
    for those of code quoted from another project (a page with `origin:`, parsing/origin.py):
    the words of its authors, kept as they wrote them."""
    found = prose.front_matter(page, PROSE_KEYS) + prose.body(page)
    own = [block for block in page.blocks if not origin.quoted(page, block)]
    return found + [t for block in own for t in prose.comments(block)]


def check(config: Config, pages: list[Page], glossary: Glossary | None) -> list[Finding]:
    """Every avoided phrase and bare code word in the prose of `pages`, seed text aside."""
    findings: list[Finding] = []
    holds = _holds_any(glossary) if glossary is not None and glossary.terms else None
    for page in pages:
        seed, problems = seed_text(config, page)
        findings += problems
        if holds is None:  # no glossary, or one without terms
            continue
        for text in texts(page):
            folded = fold(text.text)
            if holds(text, folded) and not from_seed(text, seed):
                findings += _uses(config, text, folded, glossary)
    return findings


def _holds_any(glossary: Glossary) -> Callable[[prose.Text, str], bool]:
    """Whether a text (and its folded form) may hold a finding of `_uses`: most hold none, and
    one search for all the glossary's patterns says so where one per pattern would."""
    avoided = any_of(tuple(phrase_pattern(p) for t in glossary.terms for p in t.avoid))
    bare = any_of(tuple(code_pattern(t.term) for t in glossary.terms if t.code))

    def holds(text: prose.Text, folded: str) -> bool:
        if avoided and avoided.search(folded):
            return True
        return not text.comment and bool(bare and bare.search(folded))

    return holds


def _uses(config: Config, text: prose.Text, folded: str, glossary: Glossary) -> list[Finding]:
    """The findings of one text; `folded` is fold(text.text)."""
    lowered = lower(text.text)
    where = config.rel(text.path)
    kind_of_text = "un comentario del código" if text.comment else "la prosa"
    found: list[tuple[int, Finding]] = []
    for term in glossary.terms:
        for phrase in term.avoid:
            for match in phrase_pattern(phrase).finditer(folded):
                start, end = match.span()
                if mentioned(text.raw, start, end) or _is_a_term(lowered[start:end], glossary):
                    continue
                written = text.raw[start:end]
                found.append(
                    (
                        start,
                        Finding(
                            Kind.AVOIDED_PHRASE,
                            f"«{written}» en {kind_of_text}: el glosario la evita; la forma del "
                            f"sitio es «{term.term}» ({term.english}).",
                            where,
                            text.line_at(start),
                            f"escribe «{term.term}» en lugar de «{written}» (ver "
                            f"{config.rel(glossary.path)}).",
                        ),
                    )
                )
        if term.code and not text.comment:
            for match in code_pattern(term.term).finditer(folded):
                start, end = match.span()
                found.append(
                    (
                        start,
                        Finding(
                            Kind.CODE_ONLY_WORD,
                            f"«{text.raw[start:end]}» suelto en la prosa: el sitio escribe esta "
                            "palabra inglesa solo como código.",
                            where,
                            text.line_at(start),
                            f"escríbela como código, `{term.term}`, o dilo en español (ver "
                            f"«{term.term}» en {config.rel(glossary.path)}).",
                        ),
                    )
                )
    return [f for _, f in sorted(found, key=lambda item: item[0])]
