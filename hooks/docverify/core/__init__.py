"""Core: configuration, findings, and the helpers every part shares (CI, dates, files, Markdown)."""
