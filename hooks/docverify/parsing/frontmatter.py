"""Front matter: YAML at the top of a page, read with line numbers and without implicit dates.

Dates stay strings so that the engine, not YAML, decides what a valid date is: PyYAML would read
`2026-9-23` as a date and crash on `2026-13-45`.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

_FRONT = re.compile(r"\A---[ \t]*\n(.*?\n)?(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)


class LineDict(dict):
    """A mapping that remembers the line of each key (1-based, in the page)."""

    line: int = 0
    key_lines: dict[str, int]


# libyaml's parser, which PyYAML's wheels ship: the same documents read about ten times faster
# than by PyYAML's own parser, which was most of the time spent reading a site. PyYAML's own
# still words every error: its message quotes the line and points at the problem.
FAST_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def compose(text: str) -> yaml.Node | None:
    """`text` as YAML nodes, each with its line (libyaml's parser); raises yaml.YAMLError as
    PyYAML's own parser words it."""
    try:
        return yaml.compose(text, Loader=FAST_LOADER)
    except yaml.YAMLError:
        return yaml.compose(text, Loader=yaml.SafeLoader)


class _Loader(FAST_LOADER):  # type: ignore[misc,valid-type]
    line_offset = 0


class _WordingLoader(yaml.SafeLoader):
    """The same reading by PyYAML's own parser, for an error's message."""

    line_offset = 0


_Loader.yaml_implicit_resolvers = _WordingLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> LineDict:
    result = LineDict()
    result.line = node.start_mark.line + 1 + loader.line_offset
    result.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[str(key)] = key_node.start_mark.line + 1 + loader.line_offset
    return result


for _loader in (_Loader, _WordingLoader):
    _loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


class FrontMatterError(ValueError):
    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


def node_tree(front: str) -> yaml.MappingNode | None:
    """The front matter's YAML as nodes, which keep the line of every value (None when it is
    empty, invalid, or not a mapping: split reports those)."""
    if not front:
        return None
    try:
        root = compose(front)
    except yaml.YAMLError:
        return None
    return root if isinstance(root, yaml.MappingNode) else None


def split(text: str) -> tuple[LineDict, str, int]:
    """Return (metadata, body, line number where the body starts)."""
    match = _FRONT.match(text)
    if not match:
        empty = LineDict()
        empty.key_lines = {}
        return empty, text, 1
    raw = match.group(1) or ""
    try:
        data = _read(raw, _Loader)
    except yaml.YAMLError:
        try:
            data = _read(raw, _WordingLoader)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            line = (mark.line + 2) if mark else 1
            raise FrontMatterError(f"YAML no válido en el front matter: {exc}", line) from exc
    if data is None:
        data = LineDict()
        data.key_lines = {}
    if not isinstance(data, LineDict):
        raise FrontMatterError("El front matter debe ser un mapa clave: valor.", 2)
    body_start = text[: match.end()].count("\n") + 1
    return data, text[match.end() :], body_start


def _read(raw: str, kind: type[yaml.SafeLoader]) -> Any:
    loader = kind(raw)
    loader.line_offset = 1  # type: ignore[attr-defined]  # the opening '---' is line 1
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def source(text: str) -> str:
    """The front matter's YAML as written (between its «---» lines), or "" when there is none."""
    match = _FRONT.match(text)
    return (match.group(1) or "") if match else ""
