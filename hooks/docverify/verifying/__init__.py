"""Verifying: comparison, recordings, the verification of pages, the local cache and shards."""
