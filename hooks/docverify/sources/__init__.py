"""Sources: cited sources, their dates, freshness, fingerprints and re-verification."""
