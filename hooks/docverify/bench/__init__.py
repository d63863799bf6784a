"""Benchmark behind `docverify bench` (not part of any build)."""
