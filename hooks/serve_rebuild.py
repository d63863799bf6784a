# Serve-style rebuilds for `docverify bench` (P3): MkDocs code lives here, outside the engine.
"""Rebuild a site in one process after prose edits, the way `mkdocs serve` does.

    python hooks/serve_rebuild.py ROOT REPEAT PAGE

Builds once (warm-up: fills the cache, starts the fork server), then REPEAT times: edits a prose
line of PAGE, reloads the configuration and rebuilds, once with the cache and once with
execution off (DOCVERIFY_EXECUTE=0), interleaved so that noise from other processes hits both.
Prints one JSON line: the seconds of each rebuild and the blocks each cached rebuild ran.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import tempfile
import time
from pathlib import Path

from docverify.running.executor import blocks_started
from mkdocs.commands.build import build
from mkdocs.config import load_config


def main(root: Path, repeat: int, page: Path) -> dict[str, list[float]]:
    with tempfile.TemporaryDirectory(prefix="docverify-bench-serve-") as site_dir:
        return _rebuilds(root, repeat, page, site_dir)


def _rebuilds(root: Path, repeat: int, page: Path, site_dir: str) -> dict[str, list[float]]:
    logging.getLogger("mkdocs").setLevel(logging.CRITICAL)  # execution-off errors are expected
    original = page.read_text(encoding="utf-8")

    def rebuild() -> tuple[float, int]:
        config = load_config(config_file=str(root / "mkdocs.yml"), site_dir=site_dir)
        # As `mkdocs serve` does: the hook then reports errors instead of aborting the build.
        config.plugins.on_startup(command="serve", dirty=False)
        before = blocks_started()
        started = time.perf_counter()
        build(config, dirty=False)
        return time.perf_counter() - started, blocks_started() - before

    def edit(n: int) -> None:  # a prose-only change: one word appended to the first paragraph
        lines = original.split("\n")
        first = next(i for i, line in enumerate(lines) if _is_prose(line, lines, i))
        lines[first] += f" (edición {n})"
        page.write_text("\n".join(lines), encoding="utf-8")

    out: dict[str, list[float]] = {"cached": [], "off": [], "blocks": [], "warmup_blocks": []}
    try:
        os.environ.pop("DOCVERIFY_EXECUTE", None)
        out["warmup_blocks"].append(rebuild()[1])
        for n in range(repeat):
            edit(2 * n)
            os.environ.pop("DOCVERIFY_EXECUTE", None)
            seconds, blocks = rebuild()
            out["cached"].append(seconds)
            out["blocks"].append(blocks)
            edit(2 * n + 1)
            os.environ["DOCVERIFY_EXECUTE"] = "0"
            out["off"].append(rebuild()[0])
    finally:
        page.write_text(original, encoding="utf-8")
        os.environ.pop("DOCVERIFY_EXECUTE", None)
    return out


def _is_prose(line: str, lines: list[str], index: int) -> bool:
    """A plain paragraph line after the front matter, outside code fences."""
    fences = sum(1 for previous in lines[:index] if previous.lstrip().startswith(("```", "~~~")))
    closing = [i for i, text in enumerate(lines) if text.strip() == "---"]
    after_front = len(closing) < 2 or index > closing[1] or lines[0].strip() != "---"
    return after_front and fences % 2 == 0 and line.strip() != "" and line[:1].isalpha()


if __name__ == "__main__":
    result = main(Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3]))
    print(json.dumps(result))
