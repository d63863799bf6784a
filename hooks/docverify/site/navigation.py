"""Navigation: which pages the `nav` of mkdocs.yml lists, on which line, and what is missing.

mkdocs.yml may carry tags such as `!!python/name:…` or `!ENV`; they are read as plain values,
never executed, so the engine can read the file without importing MkDocs.
"""

from __future__ import annotations

import fnmatch
import posixpath
from dataclasses import dataclass
from pathlib import Path

import yaml

from docverify.core.config import Config
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing import frontmatter
from docverify.parsing.pages import Page


@dataclass(frozen=True)
class NavEntry:
    """One page named by the navigation: docs-relative path, title if any, line in mkdocs.yml."""

    target: str
    title: str | None
    line: int


@dataclass(frozen=True)
class Nav:
    path: Path  # the mkdocs.yml it was read from
    entries: tuple[NavEntry, ...]
    not_in_nav: tuple[str, ...] = ()  # MkDocs' patterns for pages left out on purpose


MKDOCS_FILE = "mkdocs.yml"


def of_project(config: Config) -> Nav | None:
    """The navigation of the project's mkdocs.yml, or None when it has no file or no `nav`."""
    path = config.root / MKDOCS_FILE
    return read(path) if path.is_file() else None


def read(path: Path) -> Nav | None:
    """The `nav` of the MkDocs file at `path`, or None when the file has none (MkDocs then
    builds the navigation itself, so every page is in it)."""
    return parse(path.read_text(encoding="utf-8"), path)


def parse(text: str, path: Path) -> Nav | None:
    """The `nav` of mkdocs.yml text; `path` is only used to locate findings."""
    try:
        root = frontmatter.compose(text)
    except yaml.YAMLError as exc:
        raise ValueError(f"{path}: YAML no válido: {exc}") from exc
    if not isinstance(root, yaml.MappingNode):
        return None
    keys = {k.value: v for k, v in root.value if isinstance(k, yaml.ScalarNode)}
    if "nav" not in keys:
        return None
    entries: list[NavEntry] = []
    _walk(keys["nav"], None, entries)
    exempt = keys.get("not_in_nav")
    patterns = str(exempt.value).split("\n") if isinstance(exempt, yaml.ScalarNode) else []
    return Nav(
        path=path,
        entries=tuple(entries),
        not_in_nav=tuple(p.strip() for p in patterns if p.strip()),
    )


def in_order(pages: list[Page], nav: Nav | None) -> list[Page]:
    """`pages` in reading order: the order in which `nav` lists them, then the pages it does not
    list, by path (all of them by path without a `nav`)."""
    order: dict[str, int] = {}
    for index, entry in enumerate(nav.entries if nav else ()):
        order.setdefault(entry.target, index)
    return sorted(pages, key=lambda p: (order.get(p.rel, len(order)), p.rel))


def _exempt(rel: str, patterns: tuple[str, ...]) -> bool:
    """A simple reading of MkDocs' gitignore-style `not_in_nav` patterns."""
    return any(
        fnmatch.fnmatch(rel, p.lstrip("/")) or fnmatch.fnmatch(posixpath.basename(rel), p)
        for p in patterns
    )


def _walk(node: yaml.Node, title: str | None, entries: list[NavEntry]) -> None:
    if not node.tag.startswith("tag:yaml.org,2002:"):
        return  # a tagged value (!ENV …) is resolved by MkDocs at build time, not a path here
    if isinstance(node, yaml.SequenceNode):
        for item in node.value:
            _walk(item, None, entries)
    elif isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            _walk(value, str(key.value), entries)
    elif isinstance(node, yaml.ScalarNode) and node.value:
        target = str(node.value)
        if "://" in target or target.startswith(("/", "#", "mailto:")):
            return  # external links are not pages
        entries.append(NavEntry(posixpath.normpath(target), title, node.start_mark.line + 1))


# Pages the build generates: listed in the nav, never in docs/. The verification report's
# address is the site's: output/verification_page.py writes the page, the site reserves its name.
# The glossary page is generated from its data file (site/glossary.py), which is not published.
REPORT_URI = "verificacion.md"
GLOSSARY_URI = "glosario.md"
GLOSSARY_DATA = "glosario.yml"
GENERATED = frozenset({REPORT_URI, GLOSSARY_URI})


def check(config: Config, nav: Nav | None, pages: list[Page]) -> list[Finding]:
    """Every page is in the navigation and every navigation entry is a page that exists."""
    if nav is None:
        return []
    where = config.rel(nav.path)
    findings: list[Finding] = []
    listed = {e.target for e in nav.entries}
    for entry in nav.entries:
        if entry.target == GLOSSARY_URI and not (config.docs_dir / GLOSSARY_DATA).is_file():
            findings.append(
                Finding(
                    Kind.DANGLING_NAV_ENTRY,
                    f"la navegación enlaza «{GLOSSARY_URI}», que se genera de "
                    f"{config.rel(config.docs_dir / GLOSSARY_DATA)}, y ese archivo no existe.",
                    where,
                    entry.line,
                    f"crea {config.rel(config.docs_dir / GLOSSARY_DATA)} (su formato está en la "
                    "guía de autores) o quita la entrada del nav de mkdocs.yml.",
                )
            )
        elif entry.target not in GENERATED and not (config.docs_dir / entry.target).is_file():
            findings.append(
                Finding(
                    Kind.DANGLING_NAV_ENTRY,
                    f"la navegación enlaza «{entry.target}», que no existe en "
                    f"{config.rel(config.docs_dir)}/.",
                    where,
                    entry.line,
                    f"crea {config.rel(config.docs_dir / entry.target)} o corrige la entrada del "
                    'nav de mkdocs.yml (`docverify new <slug> "<título>"` crea un artículo).',
                )
            )
    for page in pages:
        if page.rel not in listed and not _exempt(page.rel, nav.not_in_nav):
            findings.append(
                Finding(
                    Kind.PAGE_NOT_IN_NAV,
                    f"la página «{page.rel}» no está en la navegación: los lectores no la "
                    "encontrarán.",
                    config.rel(page.path),
                    1,
                    f"añade «- {page.rel}» al nav de {where} (los artículos, bajo «Artículos»).",
                )
            )
    return findings
