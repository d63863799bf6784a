"""Running: warm, isolated worker processes that execute blocks (only they import torch)."""
