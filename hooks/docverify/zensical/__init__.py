"""The Zensical build path: the engine verifies and renders the docs, then Zensical builds them."""
