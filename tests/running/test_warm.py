"""A warm worker's warm-up and its per-page preparation, called here: the throwaway block runs in
a temporary folder and leaves this process's folder as it was; an optimizer is made once, and
only before a page whose code uses torch.optim (SGD replaced here by a recorder: the real first
one imports torch._dynamo, about a second)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import torch
from docverify.running import child, warm
from support.blocks import spec


def test_the_warm_up_runs_its_block_in_a_folder_of_its_own(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    ran: list[tuple[dict, dict, str]] = []

    def run_block(block: dict, namespace: dict) -> dict:
        ran.append((block, namespace, str(Path.cwd())))
        return child.run_block(block, namespace)  # type: ignore[arg-type]

    monkeypatch.setattr(warm, "run_block", run_block)
    warm.warm_up()
    assert Path.cwd() == tmp_path
    [(block, namespace, where)] = ran
    assert Path(where).name.startswith("docverify-warm-") and not Path(where).exists()
    assert block["code"] == warm._WARM_UP and block["key"] == block["filename"] == "<warm-up>"
    assert (block["device_policy"], block["session"], block["show_last_value"]) == (
        "default-cuda",
        None,
        True,
    )
    assert (block["seed"], block["hash_seed"], block["timeout"]) == (0, 0, 60.0)
    assert (block["first_line"], block["output_limit"]) == (1, 100_000)
    assert "x" in namespace  # it ran to its last line, which raises


def test_the_warm_up_puts_the_folder_back_when_its_block_fails(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)

    def failing(block: dict, namespace: dict) -> None:
        raise RuntimeError("el bloque falló")

    monkeypatch.setattr(warm, "run_block", failing)
    with pytest.raises(RuntimeError):
        warm.warm_up()
    assert Path.cwd() == tmp_path


@pytest.fixture
def optimizers(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    made: list[Any] = []
    monkeypatch.setattr(torch.optim, "SGD", lambda *a, **k: made.append((a, k)))
    monkeypatch.setattr(warm, "_ready", set())
    return made


def job(*codes: str) -> Any:
    return {"page": "p", "runner": "cpu", "blocks": [spec(code) for code in codes]}


def test_an_optimizer_is_made_once_before_the_first_page_that_trains(optimizers: list) -> None:
    warm.for_page(job("print(1)", "x = 2"))
    assert optimizers == [] and warm._ready == set()
    warm.for_page(job("print(1)", "opt = torch.optim.Adam(p)"))
    [((params,), options)] = optimizers
    assert options == {"lr": 0.1}
    [tensor] = params
    assert tensor.requires_grad and tensor.tolist() == [0.0]
    assert warm._ready == {"optim"}
    warm.for_page(job("torch.optim.SGD"))
    assert len(optimizers) == 1
