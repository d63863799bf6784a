"""A test project whose blocks read two files: «vieja» in the old world, «nueva» (and the other
file gone) in the new one; what the canary and the gpu report tests compare across."""

from __future__ import annotations

from pathlib import Path

from conftest import Project
from docverify.parsing.pages import read_site
from docverify.running.executor import Executor
from docverify.verifying.outcome import Verification
from docverify.verifying.verify import verify


class FileWorld:
    """The project and the two files its blocks read."""

    def __init__(self, project: Project, tmp_path: Path) -> None:
        self.project, self.tmp_path = project, tmp_path
        self.data, self.other = tmp_path / "dato.txt", tmp_path / "otro.txt"

    def old(self) -> None:
        self.data.write_text("vieja", encoding="utf-8")
        self.other.write_text("presente", encoding="utf-8")

    def new(self) -> None:
        self.data.write_text("nueva", encoding="utf-8")
        self.other.unlink()

    def check(self, executor: Executor, runner: str = "cpu") -> Verification:
        cfg = self.project.config
        return verify(cfg, read_site(cfg), runner, executor)
