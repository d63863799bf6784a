"""GPU-path fixtures without a GPU: real CPU runs and reports, relabelled as the gpu runner's.

Nothing here writes under the repository's snippets/: these fixtures live in temporary projects.
The outputs are what the CPU really printed; only the runner's name is changed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from docverify.core.config import Config
from docverify.parsing.pages import read_site
from docverify.report import report_folder
from docverify.running.executor import Executor
from docverify.verifying import baselines
from docverify.verifying.outcome import Verification
from docverify.verifying.verify import execute, verify


def cpu_run_as_gpu(
    config: Any, pages: Any, runner: str, executor: Executor, cache: Any = None
) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """A real CPU run of the blocks, standing in for the gpu runner's run."""
    assert runner == "gpu", runner
    return execute(config, pages, "cpu", executor)


def check_report(
    config: Config, executor: Executor, folder: Path, runner: str = "cpu"
) -> Verification:
    """`docverify check --runner cpu --report FOLDER` of the whole project, in process.

    With runner="gpu" the blocks run on the CPU and the report says gpu (a relabelled run).
    """
    pages = read_site(config)
    run = cpu_run_as_gpu if runner == "gpu" else execute
    report = verify(config, pages, runner, executor, run=run)
    report_folder.write(folder, report, config=config)
    return report


def relabel(folder: Path, runner: str) -> None:
    """Rewrite the runner of the report in FOLDER (the relabelled-report fixture)."""
    path = folder / "report.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["runner"] = runner
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under FOLDER with its bytes: to prove a refusal wrote nothing."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def drop_device(text: str) -> str:
    """`text` without the `device='cuda:N'` argument of every tensor repr in it: the device
    rule's one pass (baselines.rewrite) without joining the suffixes torch wrapped.

    Only an argument directly inside `tensor(...)` (at its own bracket depth) is dropped, with
    the comma and the spaces or line break before it; `cuda:0` anywhere else stays.
    """
    return baselines.rewrite(text, join=False, drop=True).text
