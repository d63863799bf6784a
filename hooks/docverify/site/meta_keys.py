"""The keys of an article's front matter: each one something the build or the theme reads.

YAML accepts any key, so a misspelt one (`goal:`, `last_valu:`, `data_file:`) was read as
nothing at all: a required part was then reported missing at line 1, without a word about the
key written two lines below, and an optional one (a policy, the data files) was silently left
out while the build passed. Each key of an article that neither the engine nor MkDocs and its
theme read is a located finding that names the key meant.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from docverify.core import policies
from docverify.core.config import Config
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing import data_files, origin
from docverify.parsing.pages import Page
from docverify.site import glossary

# What the engine reads of an article besides the parts anatomy.py names (it passes them to
# `check`): the meta description of a seed article (output/page_parts.py), its seed, the origin
# of quoted code, its data files and the two policies of its blocks.
ENGINE_KEYS = (
    "editorial_description",
    glossary.SEED_KEY,
    origin.KEY,
    data_files.KEY,
    policies.DEVICE_POLICY,
    policies.LAST_VALUE,
)
# What MkDocs, Material for MkDocs and Zensical read of any page (their documented keys).
THEME_KEYS = ("template", "hide", "icon", "status", "subtitle", "search", "tags", "comments")


def check(config: Config, page: Page, parts: Iterable[str]) -> list[Finding]:
    """One finding for each key of the page's front matter that nothing reads; `parts`: the
    article's parts (anatomy.py), read too."""
    known = sorted({*parts, *ENGINE_KEYS, *THEME_KEYS})
    found = []
    for key in page.meta:
        if str(key) in known:
            continue
        close = difflib.get_close_matches(str(key), known)  # the closest first
        meant = f"; ¿querías decir «{close[0]}»?" if close else "."
        fix = (
            f"escribe «{close[0]}:» en lugar de «{key}:»."
            if close
            else f"quita «{key}:» o usa una clave de la guía de autores (Las partes de un "
            "artículo)."
        )
        found.append(
            Finding(
                Kind.UNKNOWN_META_KEY,
                f"clave «{key}» desconocida en el front matter: ni la construcción ni el tema "
                f"la leen{meant}",
                config.rel(page.path),
                page.meta_line(str(key)),
                fix,
            )
        )
    return found
