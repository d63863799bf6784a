"""A stdout stand-in that notes what was written before each flush: progress must reach a
terminal as it is made, not when the command ends."""

from __future__ import annotations


class Terminal:
    def __init__(self) -> None:
        self.text, self.flushed = "", []

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def flush(self) -> None:
        self.flushed.append(self.text)
