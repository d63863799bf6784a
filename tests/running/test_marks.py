"""The device marks' watchers (running/marks.py), installed in this process on a fresh watch and
taken out again after each test; the blocks are code compiled as a block's file, so that "the
page's own code" is told from code elsewhere (tests/running/test_device_marks.py runs whole pages
in page processes)."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest
import torch
from docverify.running import marks

BLOCK = "<bloque>"
ELSEWHERE = "<otro>"
WATCHED_CLASSES = [*marks.ACCELERATOR_MODULES, "torch.version"]


@pytest.fixture
def watch(monkeypatch: pytest.MonkeyPatch) -> Iterator[marks.Watch]:
    """A watch not installed yet; torch as it was afterwards."""
    fresh = marks.Watch()
    monkeypatch.setattr(marks, "WATCH", fresh)
    classes = {n: type(sys.modules[n]) for n in WATCHED_CLASSES if n in sys.modules}
    saved = [(torch, "get_default_device")]
    saved += [(where, n) for where in (torch, torch.random) for n in marks._RESETS]
    values = [(where, name, getattr(where, name)) for where, name in saved]
    device = torch.Tensor.__dict__.get("device")
    state = torch.get_rng_state()
    yield fresh
    for name, cls in classes.items():
        sys.modules[name].__class__ = cls
    for where, name, value in values:
        setattr(where, name, value)
    if device is None:
        del torch.Tensor.device
    else:
        torch.Tensor.device = device
    torch.set_rng_state(state)


def block(code: str, filename: str = BLOCK, output: str = "") -> list[str]:
    """The marks of `code` run as a block whose page's code lives in BLOCK."""
    marks.start({BLOCK})
    exec(compile(code, filename, "exec"), {"torch": torch})
    return marks.stop(output)


def test_drawing_is_random_seeding_is_not(watch: marks.Watch) -> None:
    assert block("torch.rand(1)") == ["random"]
    assert block("torch.manual_seed(3)") == []
    assert block("torch.random.seed()") == []
    assert block("torch.set_rng_state(torch.get_rng_state())") == []


def test_drawing_then_seeding_again_is_random(watch: marks.Watch) -> None:
    assert block("torch.rand(1)\ntorch.manual_seed(0)") == ["random"]
    assert block("torch.rand(1)\ntorch.random.manual_seed(0)") == ["random"]
    assert torch.random.manual_seed is torch.manual_seed  # one wrapper, both names


def test_a_draw_before_the_block_is_not_its_own(watch: marks.Watch) -> None:
    marks.install()
    torch.rand(1)
    marks.start({BLOCK})
    assert marks.stop("") == []
    assert (watch.files, watch.reference) == (frozenset(), None)


def test_asking_about_the_accelerator_from_the_pages_code(watch: marks.Watch) -> None:
    assert block("torch.cuda.is_available()") == ["accelerator"]
    assert block("torch.backends.cudnn.enabled") == ["accelerator"]
    assert block("torch.version.cuda") == ["accelerator"]
    assert block("torch.get_default_device()") == ["accelerator"]
    assert block("torch.version.__version__") == []  # of torch.version, only cuda and hip


def test_torchs_own_reads_and_code_elsewhere_mark_nothing(watch: marks.Watch) -> None:
    assert block("torch.cuda.is_available()", ELSEWHERE) == []
    assert block("torch.get_default_device()", ELSEWHERE) == []
    assert block("torch.ones(1).device", ELSEWHERE, output="cpu") == []
    marks.install()
    torch.cuda.is_available()  # outside a block: inert
    torch.get_default_device()
    assert (watch.accelerator, watch.device_read) == (False, False)


def test_a_device_mark_needs_the_read_and_an_output_that_shows_it(watch: marks.Watch) -> None:
    assert block("torch.ones(1).device", output="cpu\n") == ["device"]
    assert block("torch.ones(1).device", output="tensor([1.])\n") == []
    assert block("torch.ones(1) + 1", output="cpu\n") == []
    assert block("torch.ones(1).device", output="device(type='cpu')") == ["device"]


def test_each_block_starts_unmarked(watch: marks.Watch) -> None:
    assert block(
        "torch.rand(1)\ntorch.cuda.is_available()\ntorch.ones(1).device", output="cpu"
    ) == [
        "random",
        "accelerator",
        "device",
    ]
    assert block("pass", output="cpu") == []


def test_install_is_once_and_keeps_what_it_wraps(watch: marks.Watch) -> None:
    original = torch.get_default_device
    marks.install()
    wrapped = torch.get_default_device
    assert wrapped is not original and wrapped() == original()
    marks.install()
    assert torch.get_default_device is wrapped
    assert torch.Tensor.device.__doc__ == torch._C.TensorBase.device.__doc__
    assert torch.ones(1).device == torch.device("cpu")
