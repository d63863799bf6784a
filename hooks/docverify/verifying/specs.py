"""Block specs: how the verifying process describes a block to the page process that runs it."""

from __future__ import annotations

from docverify.core import policies
from docverify.core.config import Config
from docverify.parsing.pages import Block
from docverify.running.protocol import BlockSpec


def spec(config: Config, block: Block) -> BlockSpec:
    """The plain-value spec of `block`, with the site defaults and its own options applied."""
    return {
        "key": block.key,
        "code": block.code,
        "filename": config.rel(block.origin),
        "first_line": block.origin_line,
        "session": block.session,
        "timeout": block.number("timeout", config.timeout),
        "output_limit": config.output_limit,
        "seed": config.seed,
        "device_policy": block.device_policy,
        "show_last_value": block.last_value == policies.SHOW,
    }
