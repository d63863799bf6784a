"""`origin:` in a page's front matter: where its quoted code comes from, checked like input.

A page that ports a tutorial keeps the code and comments as their authors wrote them and says
where they come from:

    origin:
      repository: pytorch/tutorials   # GitHub's owner/name, or the https URL of a git repository
      path: beginner_source/basics/tensorqs_tutorial.py
      commit: 0123456789abcdef0123456789abcdef01234567   # the full SHA the code was taken at
      license: BSD-3-Clause           # its SPDX identifier
      url: https://…                  # the file at that commit: required when not on GitHub

On such a page the glossary lint reads none of its blocks' comments (they are the upstream
authors' words), except those of a block marked own="true", which is ours; the page shows a
credit (output/credit.py) and the weekly run compares the file upstream (sources/origins.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing.pages import Block, Page

KEY = "origin"
OWN = "own"  # the fence option of a block of our own on such a page
REQUIRED = ("repository", "path", "commit", "license")
KEYS = (*REQUIRED, "url")
# The licenses code is ported under here, as SPDX identifiers (https://spdx.org/licenses/): a
# typo («BSD3») is an error, not a credit that names no license. Add one when a port needs it.
LICENSES = frozenset(
    {
        "0BSD",
        "Apache-2.0",
        "BSD-2-Clause",
        "BSD-3-Clause",
        "CC-BY-4.0",
        "CC-BY-SA-4.0",
        "CC0-1.0",
        "ISC",
        "MIT",
        "MPL-2.0",
        "PSF-2.0",
        "Unlicense",
    }
)
_COMMIT = re.compile(r"[0-9a-f]{40}")
_GITHUB = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]*)/[A-Za-z0-9._-]+")
_GIT_URL = re.compile(r"https://[^\s/]+/\S+")
EXAMPLE = (
    "origin:\n  repository: dueño/repositorio\n  path: carpeta/archivo.py\n"
    "  commit: <SHA completo, 40 caracteres hexadecimales>\n  license: BSD-3-Clause"
)


@dataclass(frozen=True)
class Origin:
    """A valid `origin:`."""

    repository: str
    path: str
    commit: str
    license: str
    url: str | None = None

    @property
    def on_github(self) -> bool:
        return _GITHUB.fullmatch(self.repository) is not None

    @property
    def link(self) -> str:
        """The quoted file at its commit."""
        if self.url:
            return self.url
        return f"https://github.com/{self.repository}/blob/{self.commit}/{self.path}"

    @property
    def remote(self) -> str:
        """Where git fetches the repository from."""
        return f"https://github.com/{self.repository}.git" if self.on_github else self.repository

    @property
    def license_url(self) -> str:
        return f"https://spdx.org/licenses/{self.license}.html"


def read(page: Page) -> Origin | None:
    """The page's origin, or None when it has none or it is malformed (see `problems`)."""
    value = page.meta.get(KEY)
    if value is None or _problems_of(value):
        return None
    return Origin(**{key: str(value[key]) for key in KEYS if key in value})


def quoted(page: Page, block: Block) -> bool:
    """Is `block` quoted code (the page has an origin and the block is not marked ours)?"""
    return KEY in page.meta and block.options.get(OWN) != "true"


def problems(where: str, page: Page) -> list[Finding]:
    """Every problem of the page's `origin:` and of its blocks' own= options, with its line."""
    found: list[Finding] = []
    value = page.meta.get(KEY)
    if KEY in page.meta:
        found += [
            Finding(Kind.MALFORMED_ORIGIN, message, where, line or page.meta_line(KEY), fix)
            for message, line, fix in _problems_of(value)
        ]
    for block in page.blocks:
        own = block.options.get(OWN)
        if own is None:
            continue
        if own not in ("true", "false"):
            message = f'{OWN}="{own}" en el bloque «{block.id}»: solo vale "true" o "false".'
        elif KEY not in page.meta:
            message = (
                f'{OWN}="{own}" en el bloque «{block.id}» de una página sin «{KEY}:»: todo su '
                "código es propio y el glosario ya lo revisa."
            )
        else:
            continue
        found.append(
            Finding(
                Kind.INVALID_OPTION,
                message,
                where,
                block.fence_line,
                f'escribe {OWN}="true" solo en un bloque propio de una página con «{KEY}:», o '
                "quita la opción.",
            )
        )
    return found


def _problems_of(value: Any) -> list[tuple[str, int, str]]:
    """(message, line, fix) for each problem of an `origin:` value; line 0: the key's own."""
    if not isinstance(value, dict):
        return [
            (
                f"«{KEY}:» debe ser un grupo de claves ({', '.join(REQUIRED)}), no «{value!r}».",
                0,
                f"escríbelo así:\n{EXAMPLE}",
            )
        ]
    lines: dict[str, int] = getattr(value, "key_lines", {})
    found: list[tuple[str, int, str]] = []
    for key in sorted(set(map(str, value)) - set(KEYS)):
        found.append(
            (
                f"«{KEY}:» no tiene la clave «{key}».",
                lines.get(key, 0),
                f"usa solo {', '.join(KEYS)}; quita «{key}» o corrige su nombre.",
            )
        )
    for key in REQUIRED:
        if key not in value:
            found.append(
                (f"a «{KEY}:» le falta «{key}».", 0, f"añade «{key}:»; por ejemplo:\n{EXAMPLE}")
            )
    for key in KEYS:
        if key in value and (not isinstance(value[key], str) or not value[key].strip()):
            found.append(
                (
                    f"«{KEY}.{key}» debe ser un texto, no «{value[key]!r}».",
                    lines.get(key, 0),
                    f"escribe el valor de «{key}» entre comillas.",
                )
            )
    return found or _pin_problems(value, lines) + _place_problems(value, lines)


def _pin_problems(value: dict[str, str], lines: dict[str, int]) -> list[tuple[str, int, str]]:
    """What pins the code: a full commit SHA and a known licence."""
    found: list[tuple[str, int, str]] = []
    line = lines.get
    if not _COMMIT.fullmatch(value["commit"]):
        found.append(
            (
                f"«{KEY}.commit: {value['commit']}» no es un SHA completo de git (40 caracteres "
                "hexadecimales en minúsculas): un nombre de rama o un SHA corto cambian de "
                "significado con el tiempo.",
                line("commit", 0),
                "copia el SHA completo del commit del que tomaste el código (git rev-parse "
                "HEAD en el repositorio, o el enlace «permalink» de GitHub).",
            )
        )
    if value["license"] not in LICENSES:
        found.append(
            (
                f"«{KEY}.license: {value['license']}» no es un identificador SPDX de esta lista: "
                f"{', '.join(sorted(LICENSES))}.",
                line("license", 0),
                "escribe el identificador SPDX de la licencia del código (https://spdx.org/"
                "licenses/); si es válido y no está, añádelo a LICENSES en "
                "hooks/docverify/parsing/origin.py.",
            )
        )
    return found


def _place_problems(value: dict[str, str], lines: dict[str, int]) -> list[tuple[str, int, str]]:
    """Where the code lives: the repository, the file's address outside GitHub, its path."""
    found: list[tuple[str, int, str]] = []
    line = lines.get
    repository = value["repository"]
    github = _GITHUB.fullmatch(repository) is not None
    if not github and not _GIT_URL.fullmatch(repository):
        found.append(
            (
                f"«{KEY}.repository: {repository}» no es dueño/repositorio de GitHub ni la URL "
                "https de un repositorio git.",
                line("repository", 0),
                "escribe dueño/repositorio (p. ej. pytorch/tutorials) o la URL https del "
                "repositorio.",
            )
        )
    elif not github and "url" not in value:
        found.append(
            (
                f"«{KEY}:» de un repositorio fuera de GitHub sin «url»: el crédito no sabría "
                "enlazar el archivo.",
                0,
                "añade «url:» con la dirección del archivo en ese commit.",
            )
        )
    if "url" in value and not value["url"].startswith("https://"):
        found.append(
            (
                f"«{KEY}.url: {value['url']}» no es una dirección https.",
                line("url", 0),
                "escribe la dirección https del archivo en ese commit.",
            )
        )
    if value["path"].startswith("/") or ".." in value["path"].split("/"):
        found.append(
            (
                f"«{KEY}.path: {value['path']}» no es una ruta dentro del repositorio.",
                line("path", 0),
                "escribe la ruta desde la raíz del repositorio, sin «/» al principio ni «..».",
            )
        )
    return found
