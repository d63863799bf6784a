"""A machine whose locale is not UTF-8, for the tests of what the engine reads and writes."""

from __future__ import annotations

import contextlib
import locale
from collections.abc import Iterator


@contextlib.contextmanager
def ascii_locale() -> Iterator[None]:
    """LANG=C in this process while inside: open() without an encoding reads ASCII."""
    before = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C")
    try:
        yield
    finally:
        locale.setlocale(locale.LC_CTYPE, before)
