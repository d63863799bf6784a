"""What `docverify lint` adds to the build's checks (build.lint runs them all, nothing runs):
every block that runs on cpu has a cpu recording; the findings about some paths only; and,
for the author, which blocks depend on the device.
"""

from __future__ import annotations

from pathlib import Path

from docverify.core import device_marks
from docverify.core.config import Config
from docverify.core.findings import Finding
from docverify.parsing.pages import Page, page_stem
from docverify.site import navigation
from docverify.verifying import baselines, recordings
from docverify.verifying.messages import missing_recording

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
        if block.runs_on(runner) and not recordings.path_for(config, block, runner).is_file()
    ]


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


def device_dependent(
    config: Config, pages: list[Page], wanted: set[str] | None = None
) -> list[str]:
    """One line per block that runs on both runners and whose cpu recording records device
    marks (of the blocks in `wanted`, keys, or all): why its GPU output differs and what that
    asks of it on the gpu runner."""
    lines = []
    for page in pages:
        rel = config.rel(page.path)
        for block in page.blocks:
            if wanted is not None and block.key not in wanted:
                continue
            recs = recordings.of_block(config, block)
            found = baselines.marks(recs)
            # A block of one runner is left out: on cpu only it never meets the gpu runner; on
            # gpu only, its cpu recording is an orphan (lint reports it) that nothing reads.
            if not found or block.only is not None:
                continue
            own = recordings.path_for(config, block, "gpu")
            if "gpu" in recs:
                need = f"tiene su propia grabación de GPU ({own.name})"
            elif baselines.reference(config, block, "gpu", recs).needs_own:
                need = (
                    f"necesita su propia grabación de GPU, que aún no tiene ({own.name}: "
                    f"docverify record --runner gpu {rel} en una máquina con GPU, o docverify "
                    "accept con el informe del trabajo gpu de CI)"
                )
            else:
                need = (
                    "puede compararse con la salida de CPU: con "
                    f'device_policy="{block.device_policy}" sus tensores se crean en la CPU y '
                    "sus números aleatorios también"
                )
            lines.append(f"  {block.key}: {device_marks.text(found)} → {need}")
    return lines
