"""The glossary lint on a page of quoted code (origin:): its authors' comments are theirs, our
prose around them and a block of our own (own="true") are still linted."""

from __future__ import annotations

from conftest import Project
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_site
from docverify.site import checks
from support.blocks import block

GLOSSARY = """\
terms:
  - term: gradiente
    english: gradient
    definition: "Cuánto cambia una salida con cada entrada."
    avoid: ["gradient"]
  - term: pérdida
    english: loss
    definition: "El número que el entrenamiento hace pequeño."
    avoid: ["loss"]
"""
ORIGIN = (
    "origin:\n  repository: pytorch/tutorials\n  path: tutorial.py\n"
    "  commit: 0123456789abcdef0123456789abcdef01234567\n  license: BSD-3-Clause\n"
)
QUOTED = "x = 1\n# compute the gradient of the loss\nprint(x)\n"
OURS = "y = 2\n# otro gradient, este nuestro\nprint(y)\n"


def _flagged(project: Project, front: str) -> list[str]:
    """The lines of the page that the lint flags, as written."""
    project.page("glosario.yml", GLOSSARY)
    own = ' own="true"' if front else ""
    body = block(QUOTED, "citado") + "\n" + block(OURS, "nuestro", own)
    text = f'---\ntitle: "P"\n{front}---\n\nLa loss baja.\n\n{body}'
    project.page("portado.md", text)
    cfg = project.config
    lines = text.split("\n")
    found = checks.per_page(cfg, read_site(cfg)).findings
    return [lines[f.line - 1] for f in found if f.kind is Kind.AVOIDED_PHRASE]


def test_quoted_comments_are_not_linted_but_our_prose_and_blocks_are(project: Project) -> None:
    assert _flagged(project, ORIGIN) == ["La loss baja.", "# otro gradient, este nuestro"]


def test_without_origin_the_same_comments_are_linted(project: Project) -> None:
    """The exemption is the origin's: without it, the quoted comment is flagged (twice)."""
    flagged = _flagged(project, "")
    assert flagged.count("# compute the gradient of the loss") == 2, flagged
