"""The random streams of a page's sessions, in this process: the numbers each block draws are
those one script would draw after one seed (computed here with torch's, numpy's and Python's own
seeding), whatever other blocks ran in between."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy
import pytest
import torch
from docverify.running.streams import RandomState, Streams, seed_everything
from support.blocks import spec


@pytest.fixture(autouse=True)
def _own_generators() -> Iterator[None]:
    """The process's generators as they were, after each test."""
    saved = RandomState.capture()
    yield
    saved.restore(0)


def draw() -> tuple[float, float, float]:
    return torch.rand(1).item(), float(numpy.random.rand()), random.random()


def script(seed: int, draws: int) -> list[tuple[float, float, float]]:
    """What a script that seeds every library once and then draws `draws` times draws."""
    torch.manual_seed(seed)
    numpy.random.seed(seed)
    random.seed(seed)
    return [draw() for _ in range(draws)]


def test_seed_everything_seeds_torch_numpy_and_random() -> None:
    expected = script(7, 1)
    draw()
    seed_everything(7)
    assert [draw()] == expected


def test_a_sessions_blocks_continue_one_stream_whatever_runs_between() -> None:
    expected = script(3, 2)
    streams = Streams()
    first, other, second = (
        spec("", session="s", seed=3),
        spec("", seed=3),
        spec("", session="s", seed=3),
    )
    streams.begin(first)
    got = [draw()]
    streams.end(first)
    streams.begin(other)  # no session: from the seed, touching no session's stream
    assert draw() == expected[0]
    streams.end(other)
    assert list(streams.saved) == ["s"]
    streams.begin(second)
    got.append(draw())
    streams.end(second)
    assert got == expected


def test_two_sessions_keep_two_streams() -> None:
    expected = script(1, 2)
    streams = Streams()
    got = []
    for session in ("a", "b", "a", "b"):
        block = spec("", session=session, seed=1)
        streams.begin(block)
        got.append(draw())
        streams.end(block)
    assert got == [expected[0], expected[0], expected[1], expected[1]]


def test_a_state_restored_is_the_one_captured() -> None:
    torch.manual_seed(5)
    numpy.random.seed(5)
    random.seed(5)
    state = RandomState.capture()
    expected = draw()
    draw()
    state.restore(99)  # the seed only matters for a device whose generator was never captured
    assert draw() == expected
    assert state.torch_cuda is None or torch.cuda.is_initialized()
