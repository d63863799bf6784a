"""Integrations with other tools (pytest)."""
