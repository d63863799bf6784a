"""The home page's generated parts: the reading path (cards) and how to run the code locally.

A page asks for them with a marker on a line of its own (index.md): ARTICLES for the numbered
cards, in the navigation's order, each with its reading time, what it assumes and what a reader
will be able to do; INSTALL for the command that installs the versions the site ran with
(pyproject.toml's pins). The reading time is computed from the words a reader reads
(parsing/prose.py), by the rule READING_RULE states on the page that explains the verification.
"""

from __future__ import annotations

import math
import posixpath
import re

from docverify.core.config import pins
from docverify.parsing import prose
from docverify.parsing.pages import Page
from docverify.site import anatomy, glossary
from docverify.site.result import BuildResult

ARTICLES = "<!-- docverify:articulos -->"
INSTALL = "<!-- docverify:instalar -->"
WORDS_PER_MINUTE = 200  # technical Spanish, read with care
MINUTES_PER_BLOCK = 0.5  # reading a block's code and its output
# The packages a reader installs to run the blocks (their pins are pyproject.toml's).
RUN_PACKAGES = ("torch", "numpy")
# PyPI's Linux torch is the CUDA build (several GB); PyTorch's own index has the CPU-only one.
CPU_INDEX = "https://download.pytorch.org/whl/cpu"


def reading_minutes(page: Page) -> int:
    """Minutes to read `page`: its prose words (front matter shown on the page included) at
    WORDS_PER_MINUTE, plus MINUTES_PER_BLOCK per executed block, rounded up; at least 1."""
    pieces = prose.front_matter(page, glossary.PROSE_KEYS) + prose.body(page)
    words = sum(len(text.split()) for piece in pieces for text in piece.plain)
    return max(1, math.ceil(words / WORDS_PER_MINUTE + MINUTES_PER_BLOCK * len(page.blocks)))


def reading_rule() -> str:
    """The rule of `reading_minutes`, in a sentence for the verification page."""
    half = "medio minuto" if MINUTES_PER_BLOCK == 0.5 else f"{MINUTES_PER_BLOCK:g} minutos"
    return (
        "El tiempo de lectura de cada artículo se calcula de sus palabras, sin contar el código: "
        f"{WORDS_PER_MINUTE} por minuto, más {half} por cada bloque que se ejecuta, redondeado "
        "al minuto siguiente."
    )


def fill(result: BuildResult, rel: str, markdown: str) -> str:
    """`markdown` (page `rel`) with its home-page markers replaced."""
    if ARTICLES in markdown:
        markdown = markdown.replace(ARTICLES, article_list(result, rel))
    if re.search(rf"^[ \t]*{re.escape(INSTALL)}[ \t]*$", markdown, re.MULTILINE):
        markdown = markdown.replace(INSTALL, install(result))
    return markdown


def install(result: BuildResult) -> str:
    """A shell block that installs, in a virtual environment, the versions the site ran with."""
    return install_block(pins(result.config.root))


def install_block(pinned: dict[str, str]) -> str:
    """The pinned RUN_PACKAGES installed in a virtual environment; a comment first offers
    torch's CPU-only build of the same version, which the install line then finds installed."""
    wanted = [f"{name}=={pinned[name]}" if name in pinned else name for name in RUN_PACKAGES]
    torch = wanted[RUN_PACKAGES.index("torch")]
    lines = [
        "python3 -m venv .venv && source .venv/bin/activate",
        "# En Linux sin GPU, instala antes el torch de solo CPU, mucho más pequeño que el de CUDA:",
        f"# pip install {torch} --index-url {CPU_INDEX}",
        f"pip install {' '.join(wanted)}",
    ]
    return "```bash\n" + "\n".join(lines) + "\n```"


def _list(meta: dict[str, object], key: str, name: str) -> tuple[list[str], str]:
    """The card's list for `key` and its label: the article's editorial list for a learner
    when it has one (marked as ours), else its own."""
    editorial = f"editorial_{key}"
    chosen = meta.get(editorial) or meta.get(key)
    items = [str(v) for v in chosen] if isinstance(chosen, list) else []
    if meta.get(editorial):
        return items, f"{anatomy.EDITORIAL_LISTS[editorial]} (añadido editorial)"
    return items, name


def article_list(result: BuildResult, rel: str) -> str:
    """The home page's cards, in reading order (the navigation's): each article's place in the
    path, title, reading time, description, what it assumes and what a reader will be able to
    do. A seed article's editorial lists (`editorial_prerequisites`, `editorial_goals`) stand
    for its seed's section names, which are not written for a learner."""
    items = []
    articles = result.articles()
    for number, page in enumerate(articles, 1):
        url = posixpath.relpath(page.rel, posixpath.dirname(rel) or ".")
        meta = page.meta
        needs, needs_name = _list(meta, "prerequisites", "Antes de empezar")
        goals, goals_name = _list(meta, "goals", "Qué aprenderás")
        needs_md = "\n".join(f"    - {p}" for p in needs)
        goals_md = "\n".join(f"    - {g}" for g in goals)
        items.append(
            f"-   **{number} de {len(articles)} · [{meta.get('title', page.rel)}]({url})**"
            f" · {reading_minutes(page)} min"
            f"\n\n    {meta.get('description', '')}\n\n"
            + (f"    {needs_name}:\n\n{needs_md}\n\n" if needs_md else "")
            + f"    {goals_name}:\n\n{goals_md}"
        )
    return '<div class="grid cards" markdown>\n\n' + "\n\n".join(items) + "\n\n</div>"
