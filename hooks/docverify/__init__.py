"""docverify: runs the code blocks of the docs, compares them with recordings, checks sources.

The engine knows nothing about MkDocs: the MkDocs hook, pytest and the command line all call it.
"""

from __future__ import annotations

__version__ = "0.1.0"
