"""Parsing: front matter and the one parse of a page into its executed blocks."""
