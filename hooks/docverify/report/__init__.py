"""report.json: the file a verification run leaves (its format, writing, merging), and its uses.

`docverify check --report` and `docverify canary --report` write it; the shards of one run are
merged into one; `docverify accept` adopts it as recordings; a build renders it instead of
running anything (from_reports.py), shows the gpu runner's beside its own (gpu_report.py) and
what a canary's torch would change (canary.py). Every use judges its entries again with the one
judge (verifying/judge.py), against the current recordings.
"""
