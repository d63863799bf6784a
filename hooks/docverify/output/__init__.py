"""Output: what readers and CI see: block panels, report page, notebooks, CI files, search."""
