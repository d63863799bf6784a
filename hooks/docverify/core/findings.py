"""Findings: every problem the engine reports, with what, where (file:line) and how to fix it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from docverify.core.kinds import Kind


class Level(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True)
class Finding:
    """One located problem. `message` says what, `path:line` where, `fix` the command or edit.

    `kind` is an English internal value (core/kinds.py); authors read its Spanish label."""

    kind: Kind
    message: str
    path: str
    line: int
    fix: str
    level: Level = Level.ERROR
    detail: str = ""

    def __post_init__(self) -> None:
        # A kind read back as text (JSON) becomes the member again; an unknown one fails here.
        object.__setattr__(self, "kind", Kind(self.kind))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Finding:
        """A finding read back from its JSON (`to_json`) in a report.json: the same problem,
        found by the run that wrote the report."""
        return cls(
            Kind(data["kind"]),
            str(data["message"]),
            str(data["path"]),
            int(data["line"]),
            str(data["fix"]),
            Level(data["level"]),
            str(data.get("detail") or ""),
        )

    def to_json(self) -> dict[str, Any]:
        """Its JSON: English values for tools, and the Spanish label authors read."""
        return {
            "kind": self.kind.value,
            "label": self.kind.label,
            "level": self.level.value,
            "path": self.path,
            "line": self.line,
            "message": self.message,
            "fix": self.fix,
            "detail": self.detail,
        }

    @property
    def where(self) -> str:
        """`path:line`, or the path alone when the problem has no line (line 0)."""
        return f"{self.path}:{self.line}" if self.line else self.path

    def format(self) -> str:
        text = f"{self.where}: [{self.kind.label}] {self.message}\n  → Cómo arreglarlo: {self.fix}"
        if self.detail:
            text += "\n" + self.detail.rstrip("\n")
        return text

    def __str__(self) -> str:
        return self.format()


def errors(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if f.level is Level.ERROR]
