"""The Zensical build path: the engine verifies, then Zensical builds its generated tree."""
