"""Reading back, from the verification page's Markdown, what it says of each executed block.

The page says what most blocks share once (a list under «Cómo leer este informe»), under each
article what most of its blocks share when that differs, and in a block's row only what differs
from that. `said` puts the three together again for every block: what a reader who looks the
block up learns from the page. A scanner of the page's text, independent of the engine's code.
"""

from __future__ import annotations

import re

from docverify.core.markdown import md_escape

SHARED = re.compile(r"^- (?P<label>[^:]+): (?P<value>.*)\.$")
ARTICLE = re.compile(r"^## \[(?P<title>.*)\]\((?P<rel>[^)]*)\)$")
OWN = "| Común en este artículo | Valor |"  # the head of an article's own common facets
ALIKE = "Sin diferencias: "
CELLS = re.compile(r"^\| (?P<label>[^|`]+) \| (?P<value>.*) \|$")
ROW = re.compile(r"^\| `(?P<id>[^`]+)` \| (?P<said>.*) \|$")
RUNNERS = ("CPU", "GPU")
# A recording's file as the shared facts name it: `<id>.cpu.txt`, the block's id for <id>.
SHARED_FILE = re.compile(r"`<id>\.(?P<runner>\w+)\.txt`")


def facets(text: str) -> dict[str, str]:
    """«Label: value · Label: value» as a dict (bold marks dropped)."""
    found = {}
    for part in text.split(" · "):
        label, _, value = part.strip().strip("*").partition(": ")
        found[label] = value
    return found


def shared(page: str) -> dict[str, str]:
    """What the page says once for every block (the list after «Lo más común entre todos»)."""
    lines = page.split("\n")
    start = next((i for i, line in enumerate(lines) if line.startswith("Lo más común entre")), None)
    if start is None:
        return {}
    found = {}
    for line in lines[start + 2 :]:
        if not (match := SHARED.match(line)):
            break
        found[match["label"]] = match["value"]
    return found


def _applicable(said: dict[str, str], block_id: str) -> dict[str, str]:
    """What is said of block `block_id`: its own file names for the shared `<id>.cpu.txt`, and
    without the facets of a runner that its «Corre en» leaves out."""
    said = {
        k: SHARED_FILE.sub(lambda m: md_escape(f"{block_id}.{m['runner']}.txt"), v)
        for k, v in said.items()
    }
    runs = said.get("Corre en", "")
    gone = [r for r in RUNNERS if r not in runs.split(" (")[0].split(", ")]
    return {
        k: v
        for k, v in said.items()
        if not any(k.startswith(f"{r} ") or k.endswith(f" {r}") for r in gone)
    }


def said(page: str) -> dict[tuple[str, str], dict[str, str]]:
    """(page.rel, block id) → everything the page says of that block, label → value."""
    everyone = shared(page)
    blocks: dict[tuple[str, str], dict[str, str]] = {}
    rel, common, own = "", dict(everyone), False
    for line in page.split("\n"):
        own = line == OWN or (own and line.startswith("|"))
        if match := ARTICLE.match(line):
            rel, common = match["rel"], dict(everyone)
        elif own and (match := CELLS.match(line)) and not line.startswith(OWN):
            common[match["label"]] = match["value"]
        elif line.startswith(ALIKE):
            for block_id in re.findall(r"`([^`]+)`", line):
                blocks[(rel, block_id)] = _applicable(common, block_id)
        elif rel and (match := ROW.match(line)):
            blocks[(rel, match["id"])] = _applicable(common | facets(match["said"]), match["id"])
    return blocks


def rows(page: str) -> list[tuple[str, dict[str, str]]]:
    """Each block row, in page order: the block's id and the facets it says (what differs)."""
    return [(m["id"], facets(m["said"])) for line in page.split("\n") if (m := ROW.match(line))]
