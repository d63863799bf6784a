"""Block specs: how the verifying process describes a block to the page process that runs it.

The other side of running/protocol.py: a `BlockSpec` made from the parse of a page (its block
and the site's configuration), and the part of it a report's digests cover (`setup_text`).
"""

from __future__ import annotations

import json

from docverify.core import policies
from docverify.core.config import Config
from docverify.parsing.pages import Block
from docverify.running.protocol import BlockSpec


def spec(config: Config, block: Block) -> BlockSpec:
    """The plain-value spec of `block`, with the site defaults and its own options applied."""
    found: BlockSpec = {
        "key": block.key,
        "code": block.code,
        "filename": config.rel(block.origin),
        "first_line": block.origin_line,
        "session": block.session,
        "timeout": block.number("timeout", config.timeout),
        "output_limit": config.output_limit,
        "seed": config.seed,
        "hash_seed": config.hash_seed,
        "device_policy": block.device_policy,
        "show_last_value": block.last_value == policies.SHOW,
    }
    if block.data_files:  # absent otherwise: the specs, keys and digests of other pages as before
        found["data_files"] = {f.name: f.sha256 for f in block.data_files}
        found["data_paths"] = {f.name: str(f.path) for f in block.data_files}
    return found


# What a block's output depends on besides its code (and the code before it): the spec without
# its identity, its code and where the code lives (file and line only label tracebacks).
SETUP_FIELDS = (
    "session",
    "timeout",
    "output_limit",
    "seed",
    "hash_seed",
    "device_policy",
    "show_last_value",
    "data_files",  # what each file holds, not where it is: a report is judged in another clone
)
# The fields a report of format 3 (report/report_json.py) digested: hash_seed and data_files
# came later.
FORMAT_3_FIELDS = tuple(name for name in SETUP_FIELDS if name not in ("hash_seed", "data_files"))


def setup_text(config: Config, block: Block, fields: tuple[str, ...] = SETUP_FIELDS) -> str:
    """The fields of `block`'s spec that change how it runs, as one stable line of JSON (a field
    the spec leaves out, such as `data_files` on a page without them, is left out here too)."""
    whole = spec(config, block)
    return json.dumps({name: whole[name] for name in fields if name in whole}, sort_keys=True)
