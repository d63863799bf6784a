"""Core concepts shared by every part of the engine: configuration and findings."""
