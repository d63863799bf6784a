"""Device marks: why a block's output on a GPU cannot be its CPU output (one registry).

The page process detects them while a block runs on the cpu runner (running/child.py):

- `random`: the block drew from torch's default (CPU) random generator. On the gpu runner,
  with cuda as the default device, the same draws come from CUDA's generator, which gives
  other numbers for the same seed. Building an `nn.Linear` draws its initial weights.
- `accelerator`: the block's code asked about the accelerator (an attribute of `torch.cuda`,
  `torch.accelerator`, `torch.backends.cuda`, `torch.backends.cudnn`, `torch.backends.mps`,
  `torch.version.cuda` or `torch.version.hip`, or a call of `torch.get_default_device()`).
- `device`: the block's code read the `.device` of a tensor (or parameter) and its output shows
  a device (`device(type=…`, `device='…`, or the word `cpu` on its own).

A mark carries over to the later blocks of the same session (their state comes from the marked
block). It is stored with the block's result, in report.json's observations and in the header
of the block's cpu recording (`# device-dependent: random`); on the gpu runner a marked block
without its own `<id>.gpu.txt` is not compared with the cpu recording (verifying/baselines.py)
unless it can match there: only `random`, with `device_policy="as-written"` (its tensors stay
on the CPU, where the CPU generator draws them).

The values are English (on disk, in JSON); authors and readers read `text()`.
"""

from __future__ import annotations

from collections.abc import Iterable

from docverify.core import policies

RANDOM = "random"
ACCELERATOR = "accelerator"
DEVICE = "device"
REASONS = (RANDOM, ACCELERATOR, DEVICE)  # the canonical order
RUNNER = "cpu"  # the runner whose runs detect the marks and whose recordings carry them
HEADER_KEY = "device-dependent"  # the recording header's key (recordings.py)
RESULT_KEY = "device_dependent"  # the BlockResult's and the observation's key

# What each reason means, for authors and readers (in «… puede no ser la de CPU: …»).
TEXT = {
    RANDOM: "depende de números aleatorios",
    ACCELERATOR: "pregunta por el acelerador",
    DEVICE: "muestra un dispositivo",
}


def kept(runner: str, reasons: Iterable[str]) -> tuple[str, ...]:
    """The marks a recording of `runner` carries: only the cpu runner's runs detect them."""
    return tuple(reasons) if runner == RUNNER else ()


def ordered(reasons: Iterable[str]) -> tuple[str, ...]:
    """The known reasons among `reasons`, once each, in the canonical order."""
    found = set(reasons)
    return tuple(r for r in REASONS if r in found)


def parse(value: str | None) -> tuple[str, ...]:
    """The reasons of a header value («random, accelerator»); unknown words are ignored."""
    return ordered(part.strip() for part in value.split(",")) if value else ()


def header_value(reasons: Iterable[str]) -> str:
    """The header value of `reasons` ("" when none)."""
    return ", ".join(ordered(reasons))


def text(reasons: Iterable[str]) -> str:
    """In Spanish: «depende de números aleatorios y pregunta por el acelerador»."""
    parts = [TEXT[r] for r in ordered(reasons)]
    if len(parts) < 2:
        return parts[0] if parts else ""
    return f"{', '.join(parts[:-1])} y {parts[-1]}"


def any_text() -> str:
    """In Spanish, every reason as alternatives: «depende de …, pregunta por … o muestra …»."""
    parts = [TEXT[r] for r in REASONS]
    return f"{', '.join(parts[:-1])} o {parts[-1]}"


def can_match_cpu(reasons: Iterable[str], device_policy: str) -> bool:
    """Can a block so marked print on the gpu runner what it printed on the cpu runner?

    Unmarked: yes (under the device rule). Only `random` under `as-written`: yes, its tensors
    stay on the CPU and the CPU generator draws them. Anything else: no.
    """
    found = ordered(reasons)
    return not found or (found == (RANDOM,) and device_policy == policies.AS_WRITTEN)
