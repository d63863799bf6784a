"""`origin:` of quoted code (parsing/origin.py): a valid one is read and credited, each malformed
one is an error at its line with its fix, and the fence option own= is checked."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Project, docverify
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.output import credit
from docverify.parsing import origin
from docverify.parsing.frontmatter import LineDict
from docverify.parsing.pages import Page, read_page
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


EXAMPLE = (
    "origin:\n  repository: dueño/repositorio\n  path: carpeta/archivo.py\n"
    "  commit: <SHA completo, 40 caracteres hexadecimales>\n  license: BSD-3-Clause"
)
NOT_A_SHA = (
    "«origin.commit: {}» no es un SHA completo de git (40 caracteres hexadecimales en "
    "minúsculas): un nombre de rama o un SHA corto cambian de significado con el tiempo."
)
SHA_FIX = (
    "copia el SHA completo del commit del que tomaste el código (git rev-parse HEAD en el "
    "repositorio, o el enlace «permalink» de GitHub)."
)
NOT_TEXT = "«origin.{}» debe ser un texto, no «{}»."
TEXT_FIX = "escribe el valor de «{}» entre comillas."
NOT_SPDX = (
    "«origin.license: BSD3» no es un identificador SPDX de esta lista: 0BSD, Apache-2.0, "
    "BSD-2-Clause, BSD-3-Clause, CC-BY-4.0, CC-BY-SA-4.0, CC0-1.0, ISC, MIT, MPL-2.0, PSF-2.0, "
    "Unlicense."
)
SPDX_FIX = (
    "escribe el identificador SPDX de la licencia del código (https://spdx.org/licenses/); si "
    "es válido y no está, añádelo a LICENSES en hooks/docverify/parsing/origin.py."
)
NOT_INSIDE = "«origin.path: {}» no es una ruta dentro del repositorio."
INSIDE_FIX = "escribe la ruta desde la raíz del repositorio, sin «/» al principio ni «..»."
NOT_HTTPS = "«origin.url: http://example.org/x.py» no es una dirección https."
HTTPS_FIX = "escribe la dirección https del archivo en ese commit."
MALFORMED = [
    # (what changes, the key whose line is named (None: origin:'s own), its message, its fix)
    ({"commit": "0123abc"}, "commit", NOT_A_SHA.format("0123abc"), SHA_FIX),
    ({"commit": SHA.upper()}, "commit", NOT_A_SHA.format(SHA.upper()), SHA_FIX),
    ({"commit": "main"}, "commit", NOT_A_SHA.format("main"), SHA_FIX),
    ({"commit": SHA + "0"}, "commit", NOT_A_SHA.format(SHA + "0"), SHA_FIX),
    ({"commit": "123"}, "commit", NOT_TEXT.format("commit", "123"), TEXT_FIX.format("commit")),
    ({"commit": '""'}, "commit", NOT_TEXT.format("commit", "''"), TEXT_FIX.format("commit")),
    ({"path": '"  "'}, "path", NOT_TEXT.format("path", "'  '"), TEXT_FIX.format("path")),
    ({"url": "3"}, "url", NOT_TEXT.format("url", "3"), TEXT_FIX.format("url")),
    ({"license": "BSD3"}, "license", NOT_SPDX, SPDX_FIX),
    (
        {"autor": "alguien"},
        "autor",
        "«origin:» no tiene la clave «autor».",
        "usa solo repository, path, commit, license, url; quita «autor» o corrige su nombre.",
    ),
    (
        {"repository": "https://gitlab.com/a/b.git"},
        None,
        "«origin:» de un repositorio fuera de GitHub sin «url»: el crédito no sabría enlazar "
        "el archivo.",
        "añade «url:» con la dirección del archivo en ese commit.",
    ),
    (
        {"repository": "no es un repositorio"},
        "repository",
        "«origin.repository: no es un repositorio» no es dueño/repositorio de GitHub ni la URL "
        "https de un repositorio git.",
        "escribe dueño/repositorio (p. ej. pytorch/tutorials) o la URL https del repositorio.",
    ),
    ({"url": "http://example.org/x.py"}, "url", NOT_HTTPS, HTTPS_FIX),
    ({"path": "../fuera.py"}, "path", NOT_INSIDE.format("../fuera.py"), INSIDE_FIX),
    ({"path": "a/../../fuera.py"}, "path", NOT_INSIDE.format("a/../../fuera.py"), INSIDE_FIX),
    ({"path": "/raiz.py"}, "path", NOT_INSIDE.format("/raiz.py"), INSIDE_FIX),
    (
        {"commit": "[1, 2]"},
        "commit",
        NOT_TEXT.format("commit", "[1, 2]"),
        TEXT_FIX.format("commit"),
    ),
]


@pytest.mark.parametrize(("change", "key", "message", "fix"), MALFORMED)
def test_each_malformed_origin_is_one_error_at_its_line(
    project: Project, change: dict[str, str], key: str | None, message: str, fix: str
) -> None:
    text = _page(project, VALID | change)
    line = _line(text, f"{key}:" if key else "origin:")
    assert _problems(project) == [
        Finding(Kind.MALFORMED_ORIGIN, message, "docs/portado.md", line, fix)
    ]
    assert origin.read(read_page(project.config, project.root / "docs" / "portado.md")) is None


@pytest.mark.parametrize("path", ["..datos/x.py", "a/..b.py", "a/b/c.py"])
def test_dots_inside_a_name_are_a_path_inside_the_repository(project: Project, path: str) -> None:
    _page(project, VALID | {"path": path})
    assert _problems(project) == []


def test_a_wrong_key_or_value_is_reported_before_what_pins_the_code(project: Project) -> None:
    """Until every key is there as text, the commit, licence and place are not judged."""
    _page(project, VALID | {"autor": "x", "commit": "main", "license": "BSD3"})
    assert [f.message for f in _problems(project)] == ["«origin:» no tiene la clave «autor»."]


def test_every_problem_of_pin_and_place_is_reported_in_order(project: Project) -> None:
    text = _page(
        project,
        {
            "repository": "no vale",
            "path": "/raiz.py",
            "commit": "main",
            "license": "BSD3",
            "url": "http://example.org/x.py",
        },
    )
    found = _problems(project)
    assert [(f.message.split(":")[0], f.line) for f in found] == [
        ("«origin.commit", _line(text, "commit:")),
        ("«origin.license", _line(text, "license:")),
        ("«origin.repository", _line(text, "repository:")),
        ("«origin.url", _line(text, "url:")),
        ("«origin.path", _line(text, "path:")),
    ]


@pytest.mark.parametrize("missing", sorted(origin.REQUIRED))
def test_a_missing_key_is_named_at_the_origin_line(project: Project, missing: str) -> None:
    text = _page(project, {k: v for k, v in VALID.items() if k != missing})
    assert _problems(project) == [
        Finding(
            Kind.MALFORMED_ORIGIN,
            f"a «origin:» le falta «{missing}».",
            "docs/portado.md",
            _line(text, "origin:"),
            f"añade «{missing}:»; por ejemplo:\n{EXAMPLE}",
        )
    ]


@pytest.mark.parametrize(
    ("value", "read"),
    [("pytorch/tutorials", "'pytorch/tutorials'"), ("[1, 2]", "[1, 2]"), ("3", "3")],
)
def test_an_origin_that_is_not_a_group_of_keys(project: Project, value: str, read: str) -> None:
    text = _page(project, value)
    assert _problems(project) == [
        Finding(
            Kind.MALFORMED_ORIGIN,
            "«origin:» debe ser un grupo de claves (repository, path, commit, license), "
            f"no «{read}».",
            "docs/portado.md",
            _line(text, "origin:"),
            f"escríbelo así:\n{EXAMPLE}",
        )
    ]
    assert origin.read(read_page(project.config, project.root / "docs" / "portado.md")) is None


def test_an_origin_without_lines_is_placed_on_its_pages_first_line(tmp_path: Path) -> None:
    """A front matter made in code, not read from a page, has no lines: line 1 stands for them."""
    meta = LineDict(origin=VALID | {"commit": "main"})
    page = Page(tmp_path / "a.md", "a.md", meta, "", 1)
    [found] = origin.problems("docs/a.md", page)
    assert (found.message, found.line) == (NOT_A_SHA.format("main"), 1)


def test_a_page_without_origin_has_none(project: Project) -> None:
    project.page("propia.md", "# Propia\n")
    page = read_page(project.config, project.root / "docs" / "propia.md")
    assert (origin.read(page), origin.problems("docs/propia.md", page)) == (None, [])


def test_what_a_valid_origin_says_about_its_repository() -> None:
    github = origin.Origin(**VALID)
    assert (github.on_github, github.remote, github.license_url) == (
        True,
        "https://github.com/pytorch/tutorials.git",
        "https://spdx.org/licenses/BSD-3-Clause.html",
    )
    gitlab = origin.Origin(
        **VALID | {"repository": "https://gitlab.com/a/b.git", "url": "https://gitlab.com/x"}
    )
    assert (gitlab.on_github, gitlab.remote, gitlab.link) == (
        False,
        "https://gitlab.com/a/b.git",
        "https://gitlab.com/x",
    )


def test_a_valid_origin_is_read_with_every_key_as_text(project: Project) -> None:
    _page(project, VALID | {"url": "https://example.org/x.py"})
    found = origin.read(read_page(project.config, project.root / "docs" / "portado.md"))
    assert found == origin.Origin(**VALID, url="https://example.org/x.py")


@pytest.mark.parametrize(
    ("options", "quoted"), [("", True), (' own="false"', True), (' own="true"', False)]
)
def test_a_block_is_quoted_unless_marked_ours(project: Project, options: str, quoted: bool) -> None:
    _page(project, VALID, block("print(1)", "uno", options))
    page = read_page(project.config, project.root / "docs" / "portado.md")
    assert origin.quoted(page, page.blocks[0]) is quoted
    project.page("propia.md", "# Propia\n\n" + block("print(1)", "uno", options))
    own_page = read_page(project.config, project.root / "docs" / "propia.md")
    assert origin.quoted(own_page, own_page.blocks[0]) is False


OWN_FIX = (
    'escribe own="true" solo en un bloque propio de una página con «origin:», o quita la opción.'
)


def test_own_says_a_block_is_ours_only_on_a_page_with_origin(project: Project) -> None:
    ours = block("print(1)", "propio", ' own="true"')
    text = _page(project, VALID, ours + block("print(2)", "dudoso", ' own="quizá"'))
    assert _problems(project) == [
        Finding(
            Kind.INVALID_OPTION,
            'own="quizá" en el bloque «dudoso»: solo vale "true" o "false".',
            "docs/portado.md",
            _line(text, '```python exec="on" id="dudoso"'),
            OWN_FIX,
        )
    ]
    project.page(
        "propia.md", "# Propia\n\n" + ours + "\n" + block("print(2)", "otro", ' own="false"')
    )
    cfg = project.config
    page = read_page(cfg, cfg.docs_dir / "propia.md")
    assert origin.problems(cfg.rel(page.path), page) == [
        Finding(
            Kind.INVALID_OPTION,
            f'own="{own}" en el bloque «{name}» de una página sin «origin:»: todo su código es '
            "propio y el glosario ya lo revisa.",
            "docs/propia.md",
            line,
            OWN_FIX,
        )
        for own, name, line in (("true", "propio", 3), ("false", "otro", 7))
    ]


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


@pytest.mark.parametrize(
    "change",
    [
        {"commit": "main"},
        {"commit": 123},
        {"license": "BSD3"},
        {"repository": "no vale"},
        {"url": "http://example.org/x.py"},
        {"path": "/raiz.py"},
        {"autor": "alguien"},
    ],
)
def test_a_problem_without_a_line_of_its_own_is_placed_on_the_origin_line(
    tmp_path: Path, change: dict[str, object]
) -> None:
    """The origin: mapping was made in code (no key lines) but its page knows origin:'s line."""
    meta = LineDict(origin=VALID | change)
    meta.key_lines = {"origin": 4}
    page = Page(tmp_path / "a.md", "a.md", meta, "", 1)
    [found] = origin.problems("docs/a.md", page)
    assert (found.kind, found.line) == (Kind.MALFORMED_ORIGIN, 4)


def test_a_block_without_own_does_not_hide_the_next_ones(project: Project) -> None:
    blocks = block("print(1)", "sin", "") + block("print(2)", "dudoso", ' own="quizá"')
    text = _page(project, VALID, blocks)
    assert [(f.kind, f.line) for f in _problems(project)] == [
        (Kind.INVALID_OPTION, _line(text, '```python exec="on" id="dudoso"'))
    ]
