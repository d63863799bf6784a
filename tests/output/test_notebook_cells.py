"""The cells of an article's notebook (output/notebook_cells.py): the default device, the cells
that mark the random streams, and each block's cell with what the verification observed."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from docverify.output import notebook_cells


def _block(block_id: str, session: str = "", **changes: object) -> Any:
    """The parts of a parsed block (parsing/pages.Block) the cells read."""
    made = {
        "id": block_id,
        "key": f"p/{block_id}",
        "session": session,
        "device_policy": "all-cuda",
        "snippet": None,
        "options": {},
        "only": None,
        "code": "print(1)\n",
    }
    return SimpleNamespace(**(made | changes))


def test_the_default_device_by_the_blocks_policies() -> None:
    cuda, mine = _block("a"), _block("b", device_policy="as-written")
    assert 'torch.set_default_device("cuda")' in notebook_cells.device_setup([cuda])
    assert notebook_cells.device_setup([mine]) == (
        '# Device policy "as-written": the code of every cell decides where its tensors go.\n'
    )
    both = notebook_cells.device_setup([_block("z", device_policy="as-written"), cuda, mine])
    assert "\nAS_WRITTEN = ['b', 'z']\n" in both  # sorted, every one of them
    assert 'get_ipython().events.register("pre_run_cell", place)' in both


FRESH = "seed_stream()  # un bloque sin sesión empieza con la semilla, como un script nuevo"


def _seed(session: str) -> str:
    return f"seed_stream()  # la sesión «{session}» empieza con la semilla"


def _save(session: str) -> str:
    return f'save_stream("{session}")  # la sesión «{session}» sigue más abajo'


def _resume(session: str) -> str:
    return f'resume_stream("{session}")  # retoma los números aleatorios de la sesión «{session}»'


def test_the_cells_around_each_block_follow_its_random_stream() -> None:
    blocks = [
        _block("b1"),
        _block("b2", "s"),
        _block("b3", "t"),
        _block("b4", "s"),
        _block("b5", "s"),
        _block("b6", "t"),
    ]
    assert notebook_cells.stream_cells(blocks) == {
        "p/b1": ([("docverify_semilla_b1", FRESH)], []),
        "p/b2": ([("docverify_semilla_b2", _seed("s"))], [("docverify_guarda_b2", _save("s"))]),
        "p/b3": ([("docverify_semilla_b3", _seed("t"))], [("docverify_guarda_b3", _save("t"))]),
        "p/b4": ([("docverify_retoma_b4", _resume("s"))], []),
        "p/b5": ([], []),  # the session goes on: nothing between
        "p/b6": ([("docverify_retoma_b6", _resume("t"))], []),
    }


def test_a_session_first_on_the_page_and_blocks_without_one() -> None:
    blocks = [_block("a", "s"), _block("b"), _block("c", "s"), _block("d")]
    assert notebook_cells.stream_cells(blocks) == {
        "p/a": ([("docverify_semilla_a", _seed("s"))], [("docverify_guarda_a", _save("s"))]),
        "p/b": ([("docverify_semilla_b", FRESH)], []),
        "p/c": ([("docverify_retoma_c", _resume("s"))], []),
        "p/d": ([("docverify_semilla_d", FRESH)], []),
    }


def test_a_stream_cell_names_the_block_it_is_around() -> None:
    assert notebook_cells.stream_cell("c", "seed_stream()\n", _block("b")) == {
        "cell_type": "code",
        "id": "c",
        "metadata": {"docverify": {"stream": None, "around": "p/b"}},
        "execution_count": None,
        "source": "seed_stream()",
        "outputs": [],
    }
    in_session = notebook_cells.stream_cell("c", "x", _block("b", "s"))
    assert in_session["metadata"] == {"docverify": {"stream": "s", "around": "p/b"}}


def _verification(**outcome: object) -> Any:
    return SimpleNamespace(outcomes={"p/b": SimpleNamespace(**outcome)})


def test_a_blocks_cell_without_an_outcome() -> None:
    block = _block("b", snippet="p/b.py", options={"raises": "ValueError: x"})
    cell = notebook_cells.block_cell(block, SimpleNamespace(outcomes={}))
    assert cell == {
        "cell_type": "code",
        "id": "b",
        "metadata": {
            "docverify": {"block": "p/b", "snippet": "p/b.py"},
            "tags": ["raises-exception"],
        },
        "execution_count": None,
        "source": "print(1)",
        "outputs": [],
    }


def test_a_blocks_cell_shows_what_its_runner_observed() -> None:
    verification = _verification(observed="1", runner="gpu", result=None, recordings={})
    cell = notebook_cells.block_cell(_block("b"), verification)
    assert cell["metadata"] == {"docverify": {"block": "p/b", "snippet": None, "runner": "gpu"}}
    assert cell["outputs"] == [{"output_type": "stream", "name": "stdout", "text": "1\n"}]
    valued = _verification(observed="1\n2", runner="cpu", result={"value": "2"}, recordings={})
    shown = notebook_cells.block_cell(_block("b"), valued)["outputs"]
    assert [o["output_type"] for o in shown] == ["stream", "execute_result"]


def test_a_block_for_one_runner_shows_its_recording_where_nothing_ran() -> None:
    recording = SimpleNamespace(body="en la GPU  \r\n\n")
    verification = _verification(observed=None, runner="cpu", recordings={"gpu": recording})
    cell = notebook_cells.block_cell(_block("b", only="gpu"), verification)
    assert cell["metadata"]["docverify"]["runner"] == "gpu"
    assert cell["outputs"] == [{"output_type": "stream", "name": "stdout", "text": "en la GPU\n"}]
    unrecorded = _verification(observed=None, runner="cpu", recordings={})
    cell = notebook_cells.block_cell(_block("b", only="gpu"), unrecorded)
    assert cell["outputs"] == [] and "runner" not in cell["metadata"]["docverify"]
    everywhere = notebook_cells.block_cell(_block("b"), verification)
    assert everywhere["outputs"] == [] and "runner" not in everywhere["metadata"]["docverify"]


def _stream(text: str) -> dict[str, str]:
    return {"output_type": "stream", "name": "stdout", "text": text}


def _value(text: str) -> dict[str, object]:
    return {
        "output_type": "execute_result",
        "execution_count": None,
        "metadata": {},
        "data": {"text/plain": text},
    }


def test_outputs_as_jupyter_shows_them() -> None:
    outputs = notebook_cells.cell_outputs
    assert outputs("a\nb", {}) == [_stream("a\nb\n")]
    assert outputs("", {}) == []
    # The value of a last bare expression, after what was printed.
    assert outputs("a\n\n3", {"value": "3  \n"}) == [_stream("a\n"), _value("3")]
    assert outputs("3", {"value": "3"}) == [_value("3")]
    assert outputs("a3", {"value": "3"}) == [_stream("a3\n")]  # not a line of its own
    # Only the line breaks before the value or the exception go, the printed text stays.
    for printed in ("MAX", "a "):
        assert outputs(f"{printed}\n3", {"value": "3"}) == [_stream(f"{printed}\n"), _value("3")]
        assert outputs(f"{printed}\nE: x", {"exception": "E: x"})[0] == _stream(f"{printed}\n")
    # The exception the block ends with.
    error = {
        "output_type": "error",
        "ename": "ValueError",
        "evalue": "mal: x",
        "traceback": ["ValueError: mal: x"],
    }
    assert outputs("a\n\nValueError: mal: x", {"exception": "ValueError: mal: x"}) == [
        _stream("a\n"),
        error,
    ]
    assert outputs("KeyboardInterrupt", {"exception": "KeyboardInterrupt"}) == [
        {
            "output_type": "error",
            "ename": "KeyboardInterrupt",
            "evalue": "",
            "traceback": ["KeyboardInterrupt"],
        }
    ]
    assert outputs("ValueError: x\nluego", {"exception": "ValueError: x"}) == [
        _stream("ValueError: x\nluego\n")
    ]


def test_a_markdown_cell() -> None:
    assert notebook_cells.markdown_cell("t", "\n  Texto.\n\n") == {
        "cell_type": "markdown",
        "id": "t",
        "metadata": {},
        "source": "Texto.",
    }
