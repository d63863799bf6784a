# The blocks of the verification page: what most blocks share, said once; each row, what differs.
"""The executed blocks in «Informe de verificación» (output/verification_page.py lays out the page).

Each block is described by facets: where it runs (with the GPU's device policy), when each
runner's recording was made, which recording each runner compares with, and this build's
verdicts. A facet's text names a recording's file through a slot (SLOT), so that two blocks
that compare alike read alike whatever their ids. The most common value of each facet among all
the blocks is said once (`Blocks.shared`); under an article, its own most common value when it
differs from that one; and a block's row says only the facets in which it differs from its
article's. A block that differs in nothing is named in one line. A block with a problem (no
match, a failure, no recording to compare with) always shows its verdict, and is listed again
at the top of the page (`problems`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from docverify.core.config import LABEL, RUNNERS, Config
from docverify.core.dates import spanish_date_of
from docverify.core.markdown import md_escape
from docverify.core.policies import DEVICE_LABEL
from docverify.core.status import Status
from docverify.parsing.pages import Block, Page
from docverify.verifying import recordings
from docverify.verifying.outcome import Outcome, SeenIn, Verification

RUNS = "runs"
NOW = "now"
# Every facet, in the order a block's line says them, with the name the page gives it.
LABELS = {
    RUNS: "Corre en",
    **{f"recorded:{r}": f"Grabada en {LABEL[r]}" for r in RUNNERS},
    **{f"compares:{r}": f"{LABEL[r]} compara con" for r in RUNNERS},
    NOW: "Esta construcción",
}
PROBLEMS = frozenset({Status.DIVERGE, Status.ERROR, Status.MISSING})
SLOT = "\x00"  # SLOT + runner + SLOT: that runner's recording file of the block
ID = "<id>"  # how the shared facets write a block's id in a file name
OWN = "Común en este artículo"  # the head of an article's own common facets
ALIKE = "Sin diferencias"  # before the blocks that differ in nothing from the common


@dataclass(frozen=True)
class Facets:
    """One block's facets (LABELS' keys → Markdown text with slots) and whether it has a
    problem on some runner."""

    block: Block
    values: dict[str, str]
    problem: bool


@dataclass(frozen=True)
class Blocks:
    """Every page's blocks, described, and the facets most of them share."""

    config: Config
    pages: dict[str, list[Facets]]  # page.rel → its blocks' facets, in page order
    shared: dict[str, str]


def describe(config: Config, pages: list[Page], verification: Verification) -> Blocks:
    """The facets of every executed block of `pages`, and their most common values."""
    described = {
        page.rel: [facets(config, verification, verification.outcomes[b.key]) for b in page.blocks]
        for page in pages
        if page.blocks
    }
    return Blocks(config, described, most_common([f for fs in described.values() for f in fs]))


def facets(config: Config, verification: Verification, outcome: Outcome) -> Facets:
    """What the page says of one block: its runners, recordings, baselines and verdicts."""
    block = outcome.block
    runs = [r for r in RUNNERS if block.runs_on(r)]
    device = f" ({DEVICE_LABEL[block.device_policy]})" if "gpu" in runs else ""
    values = {RUNS: ", ".join(LABEL[r] for r in runs) + device}
    values |= {f"recorded:{r}": _recorded(outcome, r) for r in runs}
    for runner in runs:
        text = md_escape(outcome.verdicts[runner].reference.described)
        for owner in RUNNERS:  # the file names as slots: alike for every block
            name = md_escape(recordings.path_for(config, block, owner).name)
            text = text.replace(name, f"{SLOT}{owner}{SLOT}")
        values[f"compares:{runner}"] = text
    values[NOW] = _now(verification, outcome)
    statuses = [outcome.status, *(v.status for r in RUNNERS if (v := outcome.reported(r)))]
    return Facets(block, values, any(s in PROBLEMS for s in statuses))


def most_common(described: list[Facets]) -> dict[str, str]:
    """Each facet's most common value among `described` (the first one met on a tie); the
    verdicts of blocks with a problem are never the common one."""
    counts: dict[str, Counter[str]] = {key: Counter() for key in LABELS}
    for item in described:
        for key, value in item.values.items():
            if not (key == NOW and item.problem):
                counts[key].update((value,))
    # max keeps the first value met among the most frequent (a Counter keeps insertion order)
    return {key: max(count, key=count.__getitem__) for key, count in counts.items() if count}


def differs(item: Facets, common: dict[str, str]) -> list[str]:
    """The facets of `item` to say in its row: those unlike `common` (a verdict with a problem
    always, as it is never the common one: `most_common`)."""
    return [key for key, value in item.values.items() if value != common.get(key)]


def fill(text: str, block: Block, config: Config) -> str:
    """A facet's text with its slots filled with `block`'s file names."""
    for runner in RUNNERS:
        name = md_escape(recordings.path_for(config, block, runner).name)
        text = text.replace(f"{SLOT}{runner}{SLOT}", name)
    return text


def shared_form(text: str) -> str:
    """A facet's text as the shared facets say it: its slots as `<id>.cpu.txt`."""
    for runner in RUNNERS:
        text = text.replace(f"{SLOT}{runner}{SLOT}", f"`{ID}.{runner}.txt`")
    return text


def shared_list(blocks: Blocks) -> str:
    """The facets most blocks share, one item each (Markdown list)."""
    return "\n".join(
        f"- {LABELS[key]}: {shared_form(value)}." for key, value in blocks.shared.items()
    )


def article(blocks: Blocks, rel: str) -> list[str]:
    """A page's blocks: their number, what most of them share when it is not what most of all
    the blocks share (a table: data, never sentences said again under every article), the
    blocks that differ in nothing, and a row for each other block."""
    described = blocks.pages.get(rel, [])
    own = {k: v for k, v in most_common(described).items() if blocks.shared.get(k) != v}
    common = blocks.shared | own
    parts = [f"**Bloques de código** ({len(described)})"]
    if own:
        rows = [f"| {LABELS[k]} | {shared_form(v)} |" for k, v in own.items()]
        parts.append(_table("dv-report-comun", f"{OWN} | Valor", rows))
    alike = [f"`{f.block.id}`" for f in described if not differs(f, common)]
    if alike:
        parts.append(f"{ALIKE}: {', '.join(alike)}.")
    rows = [_row(blocks.config, f, differs(f, common)) for f in described if differs(f, common)]
    if rows:
        parts.append(_table("dv-report-bloques", "Bloque | Lo que difiere de lo común", rows))
    return parts


def _table(name: str, head: str, rows: list[str]) -> str:
    """A table of two columns (`head`: «first | second»), in a wrapper that the site's CSS
    stacks on narrow screens."""
    table = f"| {head} |\n|---|---|\n" + "\n".join(rows)
    return f'<div class="dv-report {name}" markdown>\n\n{table}\n\n</div>'


def _row(config: Config, item: Facets, keys: list[str]) -> str:
    """A block's row: its id and the facets in `keys`; a problem's verdict in bold."""
    said = []
    for key in keys:
        text = f"{LABELS[key]}: {fill(item.values[key], item.block, config)}"
        said.append(f"**{text}**" if key == NOW and item.problem else text)
    return f"| `{item.block.id}` | {' · '.join(said)} |"


def problems(blocks: Blocks, titles: dict[str, str]) -> list[str]:
    """An admonition at the top of the page naming every block with a problem (none: nothing),
    with its page (`titles`: page.rel → its title, as Markdown) and its verdicts."""
    config = blocks.config
    lines = [
        f"    - [{titles[rel]}]({rel}), `{f.block.id}`: {fill(f.values[NOW], f.block, config)}"
        for rel, described in blocks.pages.items()
        for f in described
        if f.problem
    ]
    if not lines:
        return []
    return [
        f'!!! failure "Bloques con problemas en esta construcción: {len(lines)}"\n\n'
        + "\n".join(lines)
    ]


def _recorded(outcome: Outcome, runner: str) -> str:
    """When the block's recording of `runner` was made, or why it has none."""
    if (recording := outcome.recordings.get(runner)) is not None:
        return spanish_date_of(recording.header.get("date"))
    # None of its own: compared with another runner's recording, or none yet.
    falls_back = outcome.verdicts[runner].reference.needed != runner
    return "sin grabación propia" if falls_back else "aún sin grabación"


def _now(verification: Verification, outcome: Outcome) -> str:
    """This build's verdict on the block, and the other runner's from its report."""
    seen = outcome.verdict.provenance
    reported = seen is not None and seen.source == SeenIn.REPORT
    now = (
        f"{LABEL.get(verification.runner, verification.runner)}"
        + (" (ejecución de CI)" if reported and seen and seen.run_url else "")
        + (" (informe local)" if reported and seen and not seen.run_url else "")
        + f": {_shown(outcome.status)}"
    )
    for runner in RUNNERS:
        if (verdict := outcome.reported(runner)) and verdict.provenance:
            origin = "ejecución de CI" if verdict.provenance.run_url else "informe local"
            now += f"; {LABEL[runner]} ({origin}): {_shown(verdict.status)}"
    return now


def _shown(status: Status) -> str:
    """A block's status in the report: its label and its mark."""
    return f"{status.label} {status.mark}".rstrip()
