"""Pages: one parse of a Markdown page into its front matter and its executed blocks."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml

from docverify.core import policies
from docverify.core.config import Config
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing import data_files, fence_checks, frontmatter, tabs
from docverify.parsing.options import (
    is_executed,
    parse_options,
)

_FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_SNIPPET = re.compile(r"""^\s*-{1,}8<-{1,}\s+(["'])(?P<path>[^"']+)\1\s*$""")


@dataclass
class Block:
    """One executed code block: its identity, its code and where that code lives."""

    page: str  # docs-relative page path, e.g. "primer-ejercicio.md"
    id: str
    code: str
    origin: Path  # the file that holds the code (a snippet or the page)
    origin_line: int  # line of the first code line in `origin`
    fence_line: int  # line of the opening fence in the page
    options: dict[str, str] = field(default_factory=dict)
    snippet: str | None = None  # snippets-relative path when included
    fence_end: int = 0  # line of the closing fence in the page (0 when unknown)
    # Policies in force (block option, else front matter, else site): see core/policies.py.
    device_policy: str = policies.DEFAULTS[policies.DEVICE_POLICY]
    last_value: str = policies.DEFAULTS[policies.LAST_VALUE]
    # The files its page's `data_files:` copies beside it before the page runs (data_files.py).
    data_files: tuple[data_files.DataFile, ...] = ()

    @property
    def key(self) -> str:
        """Stable identity: page (without .md) + block id."""
        return f"{page_stem(self.page)}/{self.id}"

    @property
    def session(self) -> str | None:
        return self.options.get("session") or None

    @property
    def only(self) -> str | None:
        return self.options.get("runner") or None

    def runs_on(self, runner: str) -> bool:
        return self.only in (None, runner)

    def number(self, name: str, default: float) -> float:
        return float(self.options[name]) if name in self.options else default


@dataclass
class Page:
    path: Path
    rel: str
    meta: frontmatter.LineDict
    body: str
    body_line: int
    blocks: list[Block] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    data_files: tuple[data_files.DataFile, ...] = ()  # its valid `data_files:` (data_files.py)
    front: str = ""  # the front matter's YAML as written (prose.front_matter reads its lines)
    # Ids of executed fences whose code could not be read (a missing or mixed snippet): no
    # block, but their recordings are no orphans (site/usage.py), nor pruned.
    unread: set[str] = field(default_factory=set)
    head: str = ""  # the front matter with its «---» lines, as written: the text before `body`

    def meta_line(self, key: str) -> int:
        return self.meta.key_lines.get(key, 1) if hasattr(self.meta, "key_lines") else 1

    @cached_property
    def front_nodes(self) -> yaml.MappingNode | None:
        """The front matter as YAML nodes (frontmatter.node_tree), composed once per page for
        what needs each value's line (prose.front_matter, site/meta_types.py)."""
        return frontmatter.node_tree(self.front)


def closing_fence(fence: str) -> re.Pattern[str]:
    """The line that closes a fenced block opened with `fence` (the same character, at least as
    many times, nothing after it)."""
    return re.compile(rf"^[ \t]*{re.escape(fence[:1])}{{{len(fence)},}}[ \t]*$")


def page_stem(rel: str) -> str:
    return rel[:-3] if rel.endswith(".md") else rel


def read_page(config: Config, path: Path, text: str | None = None) -> Page:
    """Parse one page; problems become findings on the page instead of exceptions."""
    rel = path.resolve().relative_to(config.docs_dir.resolve()).as_posix()
    where = config.rel(path)
    if text is None:
        text = path.read_text(encoding="utf-8")
    findings: list[Finding] = []
    try:
        meta, body, body_line = frontmatter.split(text)
    except frontmatter.FrontMatterError as exc:
        meta = frontmatter.LineDict()
        meta.key_lines = {}
        body, body_line = text, 1
        findings.append(
            Finding(
                Kind.FRONT_MATTER,
                str(exc),
                where,
                exc.line,
                "corrige el YAML entre las líneas «---» del principio.",
            )
        )
    page = Page(
        path=path,
        rel=rel,
        meta=meta,
        body=body,
        body_line=body_line,
        findings=findings,
        front=frontmatter.source(text),
        head=text[: len(text) - len(body)],
    )
    for name in policies.CHOICES:
        if name in meta and (message := policies.problem(name, meta[name])):
            findings.append(
                Finding(
                    Kind.INVALID_OPTION,
                    message,
                    where,
                    page.meta_line(name),
                    f"escribe {name}: {policies.CHOICES[name][-1]} o quita la clave.",
                )
            )
    page.data_files, problems = data_files.resolve(config, meta)
    line = page.meta_line(data_files.KEY)
    page.findings += [
        Finding(Kind.MALFORMED_DATA_FILES, message, where, line, data_files.FIX)
        for message in problems
    ]
    _find_blocks(config, page, text)
    return page


def _find_blocks(config: Config, page: Page, text: str) -> None:
    lines = text.split("\n")
    where = config.rel(page.path)
    i = page.body_line - 1
    while i < len(lines):
        match = _FENCE_OPEN.match(lines[i])
        if not match:
            i += 1
            continue
        indent, fence, info = match.group("indent"), match.group("fence"), match.group("info")
        closer = closing_fence(fence)
        start = i
        i += 1
        content: list[str] = []
        while i < len(lines) and not closer.match(lines[i]):
            line = lines[i]
            content.append(line[len(indent) :] if line.startswith(indent) else line.lstrip())
            i += 1
        i += 1  # past the closing fence
        language, options = parse_options(info)
        if not is_executed(options):
            continue
        column = len(indent.expandtabs(tabs.TAB_LENGTH))
        _add_block(
            config, page, where, language, options, content, start + 1, fence_end=i, column=column
        )


def _add_block(
    config: Config,
    page: Page,
    where: str,
    language: str,
    options: dict[str, str],
    content: list[str],
    fence_line: int,
    *,
    fence_end: int,
    column: int,
) -> None:
    def problem(kind: Kind, message: str, fix: str) -> None:
        page.findings.append(Finding(kind, message, where, fence_line, fix))

    found = fence_checks.problems(language, options, where, fence_line)
    page.findings += found
    if fence_checks.stops(found):
        return
    block_id = options["id"]
    resolved = _resolve_code(config, page, content, fence_line, problem)
    if resolved is None:
        page.unread.add(block_id)
        return
    code, origin, origin_line, snippet = resolved
    code = tabs.as_markdown_shows(config, page.findings, code, origin, origin_line, column)
    duplicate = next((b for b in page.blocks if b.id == block_id), None)
    if duplicate:
        problem(
            Kind.DUPLICATE_ID,
            f"id «{block_id}» repetido en la página (ya usado en la línea {duplicate.fence_line}).",
            "da a cada bloque un id único en su página.",
        )
        return
    page.blocks.append(
        Block(
            page=page.rel,
            id=block_id,
            code=code,
            origin=origin,
            origin_line=origin_line,
            fence_line=fence_line,
            options=options,
            snippet=snippet,
            fence_end=fence_end,
            device_policy=policies.resolve(
                policies.DEVICE_POLICY, options, page.meta, config.device_policy
            ),
            last_value=policies.resolve(policies.LAST_VALUE, options, page.meta, config.last_value),
            data_files=page.data_files,
        )
    )


def _resolve_code(
    config: Config, page: Page, content: list[str], fence_line: int, problem: Any
) -> tuple[str, Path, int, str | None] | None:
    """The block's code, the file and line it starts at, and its snippet's name; None (and a
    problem) when its snippet is missing or mixed with code."""
    includes = [m for m in (_SNIPPET.match(line) for line in content) if m]
    if not includes:
        return "\n".join(content).rstrip("\n") + "\n", page.path, fence_line + 1, None
    if len(includes) != 1 or any(line.strip() for line in content if not _SNIPPET.match(line)):
        problem(
            Kind.MIXED_SNIPPET,
            "un bloque ejecutado incluye un único snippet o lleva su código en línea, no ambos.",
            'deja en el bloque solo la línea --8<-- "archivo.py".',
        )
        return None
    name = includes[0].group("path")
    target = config.snippets_dir / name
    if not target.is_file():
        close = closest_snippet(config, name)
        problem(
            Kind.MISSING_SNIPPET,
            f"el snippet «{name}» no existe en {config.rel(config.snippets_dir)}/"
            + (f"; ¿querías decir «{close}»?" if close else "."),
            (
                f'corrige la ruta: --8<-- "{close}"; o crea {config.rel(target)}.'
                if close
                else f"crea {config.rel(target)} o corrige la ruta del --8<--."
            ),
        )
        return None
    code = target.read_text(encoding="utf-8").rstrip("\n") + "\n"
    return code, target, 1, name


def closest_snippet(config: Config, name: str) -> str | None:
    """The existing snippet in the folder `name` points into whose name is closest to it."""
    folder = (config.snippets_dir / name).parent
    if not folder.is_dir():
        return None
    there = [p.relative_to(config.snippets_dir).as_posix() for p in folder.glob("*.py")]
    return next(iter(difflib.get_close_matches(name, there, n=1, cutoff=0.6)), None)


def included_snippet(line: str) -> str | None:
    """The snippet a `--8<-- "…"` line of a fence includes, or None for any other line."""
    match = _SNIPPET.match(line)
    return match.group("path") if match else None


def discover(config: Config) -> list[Path]:
    """Every Markdown page under docs_dir, in a stable order."""
    return sorted(p for p in config.docs_dir.rglob("*.md") if p.is_file())


def read_site(config: Config, paths: list[Path] | None = None) -> list[Page]:
    return [read_page(config, p) for p in (paths if paths is not None else discover(config))]
