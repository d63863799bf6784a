"""`origin:` of quoted code (parsing/origin.py): a valid one is read and credited, each malformed
one is an error at its line with its fix, and the fence option own= is checked."""

from __future__ import annotations

import pytest
from conftest import Project, docverify
from docverify.core.kinds import Kind
from docverify.output import credit
from docverify.parsing import origin
from docverify.parsing.pages import read_page
from docverify.site import checks
from support.blocks import block

pytestmark = pytest.mark.usefixtures("local_author")

SHA = "0123456789abcdef0123456789abcdef01234567"
VALID = {
    "repository": "pytorch/tutorials",
    "path": "beginner_source/basics/autogradqs_tutorial.py",
    "commit": SHA,
    "license": "BSD-3-Clause",
}


def _page(project: Project, entries: dict[str, object] | str, extra: str = "") -> str:
    """A page whose front matter's origin: holds `entries` (a mapping, or any YAML value)."""
    if isinstance(entries, dict):
        value = "".join(f"\n  {key}: {val}" for key, val in entries.items())
    else:
        value = f" {entries}"
    text = f'---\ntitle: "Portado"\norigin:{value}\n---\n\nTexto.\n\n{extra}'
    project.page("portado.md", text)
    return text


def _problems(project: Project) -> list:
    cfg = project.config
    page = read_page(cfg, cfg.docs_dir / "portado.md")
    return origin.problems(cfg.rel(page.path), page)


def _line(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.split("\n"), 1) if line.lstrip().startswith(start))


def test_a_valid_origin_is_read_and_its_credit_names_and_links_everything(
    project: Project,
) -> None:
    _page(project, VALID)
    assert _problems(project) == []
    cfg = project.config
    found = origin.read(read_page(cfg, cfg.docs_dir / "portado.md"))
    assert found is not None and found.on_github
    link = f"https://github.com/pytorch/tutorials/blob/{SHA}/{VALID['path']}"
    assert found.link == link
    said = credit.sentence(found)
    for part in (link, "pytorch/tutorials", VALID["path"], SHA[:12], "BSD-3-Clause"):
        assert part in said, part
    assert "https://spdx.org/licenses/BSD-3-Clause.html" in said
    elsewhere = VALID | {"repository": "https://gitlab.com/a/b.git", "url": "https://gitlab.com/x"}
    _page(project, elsewhere)
    assert _problems(project) == []


MALFORMED = [
    # (what changes, the key whose line is named (None: origin:'s own), words of the message)
    ({"commit": "0123abc"}, "commit", "SHA completo"),
    ({"commit": SHA.upper()}, "commit", "SHA completo"),
    ({"commit": "main"}, "commit", "SHA completo"),
    ({"commit": "123"}, "commit", "debe ser un texto"),
    ({"license": "BSD3"}, "license", "SPDX"),
    ({"autor": "alguien"}, "autor", "no tiene la clave «autor»"),
    ({"repository": "https://gitlab.com/a/b.git"}, None, "sin «url»"),
    ({"repository": "no es un repositorio"}, "repository", "dueño/repositorio"),
    ({"url": "http://example.org/x.py"}, "url", "https"),
    ({"path": "../fuera.py"}, "path", "ruta dentro del repositorio"),
    ({"commit": "[1, 2]"}, "commit", "debe ser un texto"),
]


@pytest.mark.parametrize(("change", "key", "words"), MALFORMED)
def test_each_malformed_origin_is_one_error_at_its_line(
    project: Project, change: dict[str, str], key: str | None, words: str
) -> None:
    text = _page(project, VALID | change)
    found = _problems(project)
    assert [f.kind for f in found] == [Kind.MALFORMED_ORIGIN], found
    assert found[0].line == _line(text, f"{key}:" if key else "origin:"), found[0]
    assert words in found[0].message and found[0].fix, found[0]


@pytest.mark.parametrize("missing", sorted(origin.REQUIRED))
def test_a_missing_key_is_named_at_the_origin_line(project: Project, missing: str) -> None:
    text = _page(project, {k: v for k, v in VALID.items() if k != missing})
    found = _problems(project)
    assert [(f.kind, f.line) for f in found] == [(Kind.MALFORMED_ORIGIN, _line(text, "origin:"))]
    assert f"le falta «{missing}»" in found[0].message


@pytest.mark.parametrize("value", ["pytorch/tutorials", "[1, 2]", "3"])
def test_an_origin_that_is_not_a_group_of_keys(project: Project, value: str) -> None:
    text = _page(project, value)
    found = _problems(project)
    assert [(f.kind, f.line) for f in found] == [(Kind.MALFORMED_ORIGIN, _line(text, "origin:"))]
    assert origin.read(read_page(project.config, project.root / "docs" / "portado.md")) is None


def test_own_says_a_block_is_ours_only_on_a_page_with_origin(project: Project) -> None:
    ours = block("print(1)", "propio", ' own="true"')
    _page(project, VALID, ours + block("print(2)", "dudoso", ' own="quizá"'))
    found = _problems(project)
    assert [(f.kind, "«dudoso»" in f.message) for f in found] == [(Kind.INVALID_OPTION, True)]
    project.page("propia.md", "# Propia\n\n" + ours)
    cfg = project.config
    page = read_page(cfg, cfg.docs_dir / "propia.md")
    [alone] = origin.problems(cfg.rel(page.path), page)
    assert alone.kind is Kind.INVALID_OPTION and "sin «origin:»" in alone.message


def test_a_malformed_origin_fails_lint_and_the_checks_of_every_build(project: Project) -> None:
    text = _page(project, VALID | {"commit": "main"})
    cfg = project.config
    page = read_page(cfg, cfg.docs_dir / "portado.md")
    judged = checks.per_page(cfg, [page]).findings
    assert Kind.MALFORMED_ORIGIN in [f.kind for f in judged]
    done = docverify(project.root, "lint")
    assert done.returncode != 0
    where = f"docs/portado.md:{_line(text, 'commit:')}: [origen-mal-formado]"
    assert where in done.stdout + done.stderr, done.stdout + done.stderr
