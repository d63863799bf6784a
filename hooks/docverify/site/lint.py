"""Structure lint: every check that needs no execution, the same code the build runs.

`docverify lint` = the configuration's findings + the page parse findings (block ids, options,
snippets) + `checks.judge` (article anatomy, sources) + `checks.site_wide` (navigation, unused
snippets, reserved names, orphan recordings), as in the build, + what only a full recording set
can tell without running: every block that runs on cpu has a cpu recording.
"""

from __future__ import annotations

from pathlib import Path

from docverify.core.config import Config
from docverify.core.findings import Finding
from docverify.parsing.pages import Page, page_stem, read_site
from docverify.site import checks, navigation
from docverify.verifying import recordings
from docverify.verifying.verify import missing_recording

MKDOCS_FILE = navigation.MKDOCS_FILE
# The runner every block must have a recording for: CI always runs it.
BASE_RUNNER = "cpu"


def missing_recordings(
    config: Config, pages: list[Page], runner: str = BASE_RUNNER
) -> list[Finding]:
    """A finding for each block that runs on `runner` and has no recording for it yet."""
    return [
        missing_recording(config, block, runner)
        for page in pages
        for block in page.blocks
        if block.runs_on(runner) and not recordings.load(config, block, runner)
    ]


def run(config: Config, pages: list[Page] | None = None) -> list[Finding]:
    """Every lint finding of the whole site, ordered by file and line."""
    pages = read_site(config) if pages is None else pages
    findings = [*config.findings, *(f for page in pages for f in page.findings)]
    findings += checks.judge(config, pages).findings
    findings += missing_recordings(config, pages)
    findings += checks.site_wide(config, pages, navigation.of_project(config))
    # Same line: by the name authors read, so the listing keeps its order.
    return sorted(findings, key=lambda f: (f.path, f.line, f.kind.label))


def select(
    config: Config, findings: list[Finding], paths: list[str], pages: list[Page]
) -> list[Finding]:
    """The findings about PATHS: in those files or folders, or in the snippets and recordings of
    a page among them (so a page that loses a block reports its orphan recording)."""
    roots: list[Path] = []
    for raw in paths:
        path = Path(raw).resolve()
        if not path.exists():
            raise FileNotFoundError(f"{raw}: no existe (pasa páginas, snippets o carpetas).")
        roots.append(path)
        page = next((p for p in pages if p.path.resolve() == path), None)
        if page is not None:
            roots.append((config.snippets_dir / page_stem(page.rel)).resolve())
            roots.extend(b.origin.resolve() for b in page.blocks)

    def about(finding: Finding) -> bool:
        where = (config.root / finding.path).resolve()
        return any(where == root or root in where.parents for root in roots)

    return [f for f in findings if about(f)]
