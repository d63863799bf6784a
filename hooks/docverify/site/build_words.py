"""The build's own words stay out of a reader's pages.

«runner», «grabación»/«grabada» (and the verb «grabar») and «informe» name how the site is
verified: the page that explains the verification and the author guide use them; the home page,
the articles and the glossary speak to a learner, who reads «CPU», «GPU», «salida» and «se
comprueba» instead. `check` flags each one, with file:line, in what a reader reads of those
pages (front matter, body, the comments of the code shown) and in the glossary's definitions.
Text of a page's seed is never flagged (its seed names it, as for the glossary's lint).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from docverify.core.config import Config
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing import prose
from docverify.parsing.pages import Page
from docverify.site import anatomy, glossary, glossary_lint

HOME = "index.md"
WORDS = re.compile(
    r"(?<!\w)(?:runners?|grabaci[oó]n(?:es)?|grabad[oa]s?|grabar(?:se|la|lo)?|informes?)(?!\w)",
    re.IGNORECASE,
)
# What a reader reads instead, for the fix.
INSTEAD = "CPU o GPU, «la salida comprobada», «se comprueba»"


def is_reader_page(page: Page) -> bool:
    """The pages that speak to a learner: the home page and the articles."""
    return page.rel == HOME or anatomy.is_article(page)


def check(config: Config, pages: list[Page], terms: glossary.Glossary | None) -> list[Finding]:
    """Each build word in the reader pages among `pages` and in the glossary's definitions."""
    found: list[Finding] = []
    for page in filter(is_reader_page, pages):
        seed, _ = glossary_lint.seed_text(config, page)  # a missing seed is the glossary's finding
        for text in glossary_lint.texts(page):
            if not glossary_lint.from_seed(text, seed):
                found += _words(config, text.path, text.text, text.line_at)
    if terms is not None:
        for term in terms.terms:
            at = term.definition_line
            found += _words(config, terms.path, prose.mask(term.definition), lambda _, at=at: at)
    return found


def _words(config: Config, path: Path, text: str, line_at: Callable[[int], int]) -> list[Finding]:
    return [
        Finding(
            Kind.BUILD_WORD,
            f"«{match.group()}» es una palabra de la verificación del sitio, no del lector: "
            "esta página (o el glosario) habla a quien aprende.",
            config.rel(path),
            line_at(match.start()),
            f"dilo con las palabras del lector ({INSTEAD}); lo que hace la verificación se "
            "explica una vez, en la página «Cómo se verifica».",
        )
        for match in WORDS.finditer(text)
    ]
