"""Device marks, detected in the page process while a block runs (core/device_marks.py).

Installed once per process (`install`, idempotent), inert outside a block:

- random: the state of torch's default CPU generator before and after the block, compared as
  bytes. A seed or a restored state in between (`torch.manual_seed`, `torch.seed`,
  `torch.set_rng_state`, also inside `torch.random.fork_rng`) is not a draw: each of those
  calls first checks whether the generator moved since the last known state, then takes the
  state it leaves as the new reference. So a block that only seeds is not marked; one that draws
  and then seeds again is.
- accelerator: the module class of `torch.cuda`, `torch.accelerator`, `torch.backends.cuda`,
  `torch.backends.cudnn` and `torch.backends.mps` (every attribute), and of `torch.version`
  (`cuda` and `hip` only), becomes a subclass whose `__getattribute__` notes an access made by the
  page's own code; `torch.get_default_device` is wrapped the same way. "Own code": the calling
  frame's `co_filename` is the file of one of the page's blocks, so a function that a block (or
  an earlier block of its page) defines counts, and torch's internals do not: `torch.manual_seed`
  reads `torch.cuda.manual_seed_all` from torch/random.py and marks nothing.
- device: `torch.Tensor.device` becomes a property that notes a read by the page's own code
  (parameters are tensors); the mark needs that read AND an output that shows a device
  (`device(type=`, `device='`, or `cpu` as a word of its own).
"""

from __future__ import annotations

import functools
import re
import sys
import types
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import torch

from docverify.core import device_marks

# What an output shows of a device: a torch.device repr, a tensor repr's device argument, or the
# word cpu on its own (str(device)), not inside a name, a call or a path (`x.cpu()`, `cpu_count`).
SHOWS_DEVICE = re.compile(r"device\(type=|device='|(?<![\w./-])cpu(?![\w(/-])")
# Modules whose every attribute is about the accelerator; torch.version only for these names.
ACCELERATOR_MODULES = (
    "torch.cuda",
    "torch.accelerator",
    "torch.backends.cuda",
    "torch.backends.cudnn",
    "torch.backends.mps",
)
VERSION_NAMES = frozenset({"cuda", "hip"})
# The functions that reset torch's default generator: not draws (see the module's text).
_RESETS = ("manual_seed", "seed", "set_rng_state")


@dataclass
class Watch:
    """What the running block did; `files` is empty outside a block (everything inert)."""

    files: frozenset[str] = frozenset()
    reference: bytes | None = None  # the generator's state since the last start or reset
    drew: bool = False
    accelerator: bool = False
    device_read: bool = False
    installed: bool = False


WATCH = Watch()


def _generator_state() -> bytes:
    return torch.default_generator.get_state().numpy().tobytes()


def start(files: Iterable[str]) -> None:
    """Watch a block whose page's code lives in `files` (its own file included)."""
    install()
    WATCH.files = frozenset(files)
    WATCH.reference = _generator_state()
    WATCH.drew = WATCH.accelerator = WATCH.device_read = False


def stop(output: str) -> list[str]:
    """Stop watching; the block's own marks (canonical order), given what it printed."""
    drew = WATCH.drew or (WATCH.reference is not None and _generator_state() != WATCH.reference)
    found = []
    if drew:
        found.append(device_marks.RANDOM)
    if WATCH.accelerator:
        found.append(device_marks.ACCELERATOR)
    if WATCH.device_read and SHOWS_DEVICE.search(output):
        found.append(device_marks.DEVICE)
    WATCH.files, WATCH.reference = frozenset(), None
    return list(device_marks.ordered(found))


def install() -> None:
    """Put the watchers in place once per process (see the module's text)."""
    if WATCH.installed:
        return
    WATCH.installed = True
    for name in ACCELERATOR_MODULES:
        module = sys.modules.get(name)
        if isinstance(module, types.ModuleType):
            module.__class__ = _watched(type(module), None)
    torch.version.__class__ = _watched(type(torch.version), VERSION_NAMES)
    original_default = torch.get_default_device

    @functools.wraps(original_default)
    def get_default_device() -> torch.device:
        if WATCH.files and sys._getframe(1).f_code.co_filename in WATCH.files:
            WATCH.accelerator = True
        return original_default()

    torch.get_default_device = get_default_device
    device = torch._C.TensorBase.device  # the C getter that Tensor inherits

    def read_device(tensor: torch.Tensor) -> torch.device:
        if WATCH.files and sys._getframe(1).f_code.co_filename in WATCH.files:
            WATCH.device_read = True
        return device.__get__(tensor)

    torch.Tensor.device = property(read_device, doc=device.__doc__)  # type: ignore[method-assign,assignment]
    for name in _RESETS:
        wrapped = _reset(getattr(torch.random, name))
        setattr(torch.random, name, wrapped)
        setattr(torch, name, wrapped)


def _watched(cls: type, names: frozenset[str] | None) -> type:
    """A subclass of module class `cls` that notes the page's own reads of `names` (None: all)."""

    def __getattribute__(self: types.ModuleType, name: str) -> Any:
        if (
            WATCH.files
            and (names is None or name in names)
            and sys._getframe(1).f_code.co_filename in WATCH.files
        ):
            WATCH.accelerator = True
        return cls.__getattribute__(self, name)

    return type(f"Watched{cls.__name__}", (cls,), {"__getattribute__": __getattribute__})


def _reset(original: Callable[..., Any]) -> Callable[..., Any]:
    """`original` (a function that resets the default generator), noting a draw before it."""

    @functools.wraps(original)
    def reset(*args: Any, **kwargs: Any) -> Any:
        watching = WATCH.reference is not None
        if watching and _generator_state() != WATCH.reference:
            WATCH.drew = True
        try:
            return original(*args, **kwargs)
        finally:
            if watching:
                WATCH.reference = _generator_state()

    return reset
