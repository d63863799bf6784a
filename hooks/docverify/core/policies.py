"""Per-block run policies an author sets per block, per page (front matter) or per site.

Each policy is a name with a few allowed values; a block option wins over the page's front
matter, which wins over `[tool.docverify]`, which wins over the default here (written once):

- `device_policy`: on the gpu runner, `default-cuda` makes cuda the default device of every
  block (what gives a GPU recording of device-agnostic code its meaning); `as-written` leaves
  devices to the code (a tutorial that moves tensors itself). No effect on the cpu runner.
- `last_value`: `show` writes the repr of a block's bare last expression after what it
  printed, as Jupyter does; `hide` (the default) shows only printed output. Opt-in, so that
  every recording made before it existed stays valid.
"""

from __future__ import annotations

from collections.abc import Mapping

DEVICE_POLICY = "device_policy"
LAST_VALUE = "last_value"

# torch's intra-op threads wherever a block runs: each page process (running/child.py) and the
# kernel of the article's notebook (output/notebook_cells.py, its set-up cell). Pages run in
# parallel processes, one per core: more threads per page only contend for the same cores.
# And the number of threads can change the order of a sum, so the notebook uses the same one
# to print the page's last decimals.
INTRA_OP_THREADS = 1

DEFAULT_CUDA = "default-cuda"
AS_WRITTEN = "as-written"
SHOW = "show"
HIDE = "hide"

CHOICES: dict[str, tuple[str, ...]] = {
    DEVICE_POLICY: (DEFAULT_CUDA, AS_WRITTEN),
    LAST_VALUE: (HIDE, SHOW),
}
DEFAULTS: dict[str, str] = {DEVICE_POLICY: DEFAULT_CUDA, LAST_VALUE: HIDE}

# What readers see beside a GPU output and in the verification page.
DEVICE_LABEL = {DEFAULT_CUDA: "cuda por defecto", AS_WRITTEN: "dispositivos del código"}


def problem(name: str, value: object) -> str | None:
    """A Spanish message when `value` is not allowed for policy `name`, else None."""
    if value in CHOICES[name]:
        return None
    allowed = " o ".join(f"«{v}»" for v in CHOICES[name])
    return f"{name}: «{value}» no es un valor válido; usa {allowed}."


def resolve(name: str, options: Mapping[str, object], meta: Mapping[str, object], site: str) -> str:
    """The value in force for a block: its option, else its page's front matter, else the site."""
    for source in (options, meta):
        value = source.get(name)
        if value is not None and problem(name, value) is None:
            return str(value)
    return site
