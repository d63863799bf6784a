"""Markdown text the engine writes for pages: escaping data shown as plain text."""

from __future__ import annotations

import re


def md_escape(text: object) -> str:
    """Escape Markdown emphasis and link characters in data shown as plain text."""
    return re.sub(r"([\\`*_{}\[\]<>#|])", r"\\\1", str(text))
