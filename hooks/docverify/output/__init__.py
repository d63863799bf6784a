"""Output: what readers and CI see: block panels, verification page, notebooks, CI files, search."""
