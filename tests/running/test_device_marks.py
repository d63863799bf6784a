"""Device marks detected while a block runs (running/marks.py): one block written per case.

Each block runs in a real page process (the executor), as in a build; the marks are read from
its result. The non-cases matter as much: a mark where there is none would send a block that
can match on a GPU to a GPU recording it does not need.
"""

from __future__ import annotations

import pytest
from conftest import Project
from docverify.running.executor import Executor
from support.blocks import block, run


def marks_of(project: Project, executor: Executor, *blocks: str) -> dict[str, list[str]]:
    """Each block's device marks, after running the page made of `blocks`."""
    project.page("a.md", "".join(blocks))
    report = run(project, executor)
    found = {}
    for key, outcome in report.outcomes.items():
        result = outcome.result or {}
        assert not result.get("error") and not result.get("exception"), result
        found[key.removeprefix("a/")] = result["device_dependent"]
    return found


@pytest.mark.parametrize(
    "code",
    [
        "import torch\nprint(torch.rand(2).shape)",  # draws; prints nothing random
        "import torch\ncapa = torch.nn.Linear(3, 1)\nprint(capa)",  # initial weights
        "import torch\nx = torch.ones(4)\nx.bernoulli_(0.5)\nprint(x.shape)",
        "import torch\nprint(torch.rand(1).shape)\ntorch.manual_seed(0)",  # drew, then seeded
    ],
    ids=["rand", "linear", "in-situ", "sembrar-despues"],
)
def test_drawing_from_torch_generator_is_random(
    project: Project, executor: Executor, code: str
) -> None:
    assert marks_of(project, executor, block(code, "b")) == {"b": ["random"]}


@pytest.mark.parametrize(
    "code",
    [
        "import numpy\nprint(numpy.random.rand(2))",  # numpy's generator: the same on a GPU
        "import random\nprint(random.random())",
        "import torch\nprint(torch.arange(3.) * 2)",
        "import torch\ng = torch.Generator().manual_seed(3)\nprint(torch.rand(2, generator=g))",
    ],
    ids=["numpy", "random", "determinista", "generador-propio"],
)
def test_other_generators_are_not_random(project: Project, executor: Executor, code: str) -> None:
    assert marks_of(project, executor, block(code, "b")) == {"b": []}


def test_seeding_alone_marks_nothing(project: Project, executor: Executor) -> None:
    """torch.manual_seed resets the generator (not a draw) and calls torch.cuda.manual_seed_all
    from torch's own code (not the block's): neither is a mark."""
    code = (
        "import torch\n"
        "torch.manual_seed(1234)\n"
        "torch.random.manual_seed(99)\n"
        "with torch.random.fork_rng():\n"
        "    torch.manual_seed(5)\n"
        "print(torch.tensor([1.0, 2.0]) * 2)\n"
    )
    assert marks_of(project, executor, block(code, "semilla")) == {"semilla": []}


@pytest.mark.parametrize(
    "code",
    [
        "import torch\nprint(torch.cuda.is_available())",
        "from torch.cuda import device_count\nprint(device_count() >= 0)",
        "import torch\nprint(torch.version.cuda)",
        "import torch\nprint(torch.accelerator.is_available())",
        "import torch\nprint(torch.backends.mps.is_available())",
        "import torch\nprint(torch.backends.cudnn.is_available())",
        "import torch\nprint(torch.get_default_device())",
        # a function the block defines is the block's code
        "import torch\ndef elegir():\n    return 'cuda' if torch.cuda.is_available() else 'cpu'\n"
        "x = torch.ones(1, device=elegir())\nprint(x.sum().item())",
    ],
    ids=[
        "cuda",
        "importar-de-cuda",
        "version-cuda",
        "accelerator",
        "mps",
        "cudnn",
        "dispositivo-por-defecto",
        "funcion-del-bloque",
    ],
)
def test_asking_about_the_accelerator(project: Project, executor: Executor, code: str) -> None:
    assert marks_of(project, executor, block(code, "b")) == {"b": ["accelerator"]}


def test_torch_version_marks_only_its_accelerator_names(
    project: Project, executor: Executor
) -> None:
    code = "import torch\nprint(torch.version.__name__, torch.version.debug in (True, False))"
    assert marks_of(project, executor, block(code, "b")) == {"b": []}


def test_a_function_of_an_earlier_block_is_the_page_code(
    project: Project, executor: Executor
) -> None:
    """A helper defined in one block and called in a later one marks the later one (the call
    is where the question is asked); defining it asks nothing."""
    define = "import torch\ndef hay_gpu():\n    return torch.cuda.is_available()\n"
    found = marks_of(
        project,
        executor,
        block(define, "define", ' session="s"'),
        block("print(hay_gpu())", "llama", ' session="s"'),
    )
    assert found == {"define": [], "llama": ["accelerator"]}


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("import torch\nx = torch.ones(2)\nprint(x.device)", ["device"]),
        ("import torch\nx = torch.ones(2)\nprint('en', x.device.type)", ["device"]),
        ("import torch\nx = torch.ones(2)\nprint(repr(x.device))", ["device"]),
        # a tensor repr's device argument (meta: a device every machine has)
        (
            "import torch\nx = torch.ones(2, device='meta')\nprint(x.device.type == 'meta', x)",
            ["device"],
        ),
        # a parameter is a tensor (its weights are random, too)
        ("import torch\ncapa = torch.nn.Linear(2, 1)\nprint(capa.weight.device)", None),
        # read, but the output shows no device
        ("import torch\nx = torch.ones(2)\nprint(torch.zeros(2).to(x.device) + x)", []),
        # shown, but not read from a tensor
        ("print('cpu')", []),
        ("import torch\nprint(torch.device('cpu'))", []),
    ],
    ids=[
        "imprime",
        "tipo",
        "repr",
        "argumento-device",
        "parametro",
        "sin-mostrar",
        "texto-cpu",
        "objeto-device",
    ],
)
def test_a_device_read_that_reaches_the_output(
    project: Project, executor: Executor, code: str, expected: list[str] | None
) -> None:
    expected = ["random", "device"] if expected is None else expected
    assert marks_of(project, executor, block(code, "b")) == {"b": expected}


def test_marks_carry_over_to_the_later_blocks_of_a_session(
    project: Project, executor: Executor
) -> None:
    """A model built from random weights stays random when a later block only prints
    model(x); a block of another session, or of none, starts unmarked."""
    found = marks_of(
        project,
        executor,
        block("import torch\nmodelo = torch.nn.Linear(2, 1)", "modelo", ' session="m"'),
        block("import torch\nprint(torch.ones(2) * 3)", "suelto"),
        block("import torch\nprint(torch.ones(2) + 1)", "otra", ' session="t"'),
        block("print(modelo(torch.ones(2)).shape)", "aplica", ' session="m"'),
        block("print(hasattr(modelo, 'weight'))", "despues", ' session="m"'),
        block("print(torch.cuda.device_count() >= 0)", "pregunta", ' session="t"'),
        block("print('fin')", "ultimo", ' session="t"'),
    )
    assert found == {
        "modelo": ["random"],
        "suelto": [],
        "otra": [],
        "aplica": ["random"],
        "despues": ["random"],
        "pregunta": ["accelerator"],
        "ultimo": ["accelerator"],
    }
