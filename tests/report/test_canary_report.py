"""report.canary: the canary's section of its report, and its report judged again by a build.

The «other torch» here is this project's own, run in a world that differs from the build's
(tests/output/test_canary_view.py does the same through the whole build): a file the blocks read
says «nueva» while the canary runs and «vieja» when the recordings are made and the site is
built, and another file is missing while the canary runs. So «cambia» diverges (with a warning
its recording lacks), «falla» fails, «antes» holds, «nuevo» has no recording and «solo-gpu»
does not run on the cpu runner.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import Project
from docverify.core import volatile
from docverify.core.findings import Finding, Level
from docverify.core.kinds import Kind
from docverify.core.status import Status
from docverify.output import canary_output
from docverify.parsing.pages import read_site
from docverify.report import canary, report_json
from docverify.running.executor import Executor
from docverify.verifying import compare, recordings
from docverify.verifying.outcome import Verification
from docverify.verifying.record import record
from support.blocks import block
from support.file_world import FileWorld

pytestmark = pytest.mark.usefixtures("local_author")
TOL = compare.Tolerance(rtol=1e-5, atol=1e-8, volatile=volatile.NAMES)
WARNED = "FutureWarning: aviso de la versión nueva"
PROJECT_SIDE = {"torch": "2.13.0", "variant": "CPU", "numpy": "2.1.0", "python": "3.12.3"}
CANDIDATE_SIDE = {"torch": "2.14.0", "variant": "CPU", "numpy": "2.1.0", "python": "3.12.3"}


def _source(page: str, target: str) -> dict[str, object]:
    """A fingerprinted source whose code changed, as sources/canary_sources.py describes it."""
    return {
        "page": page,
        "path": f"docs/{page}",
        "line": 4,
        "reference": "ref",
        "title": "Código de torch",
        "package": "torch",
        "target": target,
        "verified_version": "2.13.0",
        "version": "2.14.0",
        "sha256": "a" * 64,
        "new_sha256": "b" * 64,
        "problem": "",
        "diff": "",
    }


SOURCES = [_source("a.md", "torch.uno"), _source("b.md", "torch.dos")]


class World(FileWorld):
    """The test project, its two files and the page as written."""

    def __init__(self, project: Project, tmp_path: Path) -> None:
        super().__init__(project, tmp_path)
        self.codes = {
            "antes": "print(1)",
            "cambia": (
                "import warnings\n"
                f"texto = open({str(self.data)!r}).read()\n"
                "if texto == 'nueva':\n"
                f"    warnings.warn({WARNED.split(': ', 1)[1]!r}, FutureWarning)\n"
                "print(texto)"
            ),
            "falla": f"print(open({str(self.other)!r}).read())",
            "nuevo": "import warnings\nwarnings.warn('sin grabación', UserWarning)\nprint(2)",
        }
        self.write()

    def write(self, ids: dict[str, str] | None = None, codes: dict[str, str] | None = None) -> str:
        """The page, with blocks renamed (`ids`) or their code replaced (`codes`); its text."""
        ids, codes = ids or {}, {**self.codes, **(codes or {})}
        # «solo-gpu» first: a block with nothing to compare comes before those with warnings.
        text = "# A\n\n" + block("print(3)", "solo-gpu", ' runner="gpu"')
        text += "".join(block(c, ids.get(k, k)) for k, c in codes.items())
        self.project.page("a.md", text)
        return text


@pytest.fixture
def world(project: Project, executor: Executor, tmp_path: Path) -> World:
    """Recordings of the old world (but none for «nuevo»); then the canary's new world."""
    made = World(project, tmp_path)
    made.old()
    cfg = project.config
    assert len(record(cfg, read_site(cfg), "cpu", executor).written) == 4
    (nuevo,) = [b for b in read_site(cfg)[0].blocks if b.id == "nuevo"]
    recordings.path_for(cfg, nuevo, "cpu").unlink()
    made.new()
    return made


@pytest.fixture
def canary_folder(world: World, executor: Executor, tmp_path: Path) -> Path:
    """The canary report of the new world; the world back as the build sees it."""
    cfg = world.project.config
    verification = world.check(executor)
    section = canary.section(cfg, verification, PROJECT_SIDE, CANDIDATE_SIDE, SOURCES)
    folder = tmp_path / "canario"
    canary_output.write(cfg, folder, verification, section)
    world.old()
    return folder


def test_warning_lines_are_the_lines_python_writes_for_a_warning() -> None:
    text = (
        "UserWarning: uno  \r\n"
        "tensor(1.)\r"
        "  FutureWarning: sangrado\n"
        "Warning: sin categoría\n"
        "userWarning: minúscula\n"
        "DeprecationWarning:sin espacio\n"
        "RuntimeWarning: dos\n\n"
    )
    assert canary.warning_lines(text) == ["UserWarning: uno", "RuntimeWarning: dos"]
    assert canary.warning_lines("") == []


def test_a_recorded_warning_matches_within_the_tolerance_once() -> None:
    recorded = "UserWarning: pérdida 0.1000000\nUserWarning: pérdida 0.1000000\nhecho"
    near = "UserWarning: pérdida 0.1000001"  # within rtol 1e-5 of the recording
    assert canary.new_warnings(recorded, f"{near}\n{near}\nhecho", TOL) == []
    assert canary.new_warnings(recorded, f"{near}\n{near}\n{near}", TOL) == [near]
    far = "UserWarning: pérdida 0.2000000"
    assert canary.new_warnings(recorded, f"{far}\n{near}", TOL) == [far]
    assert canary.new_warnings("", "UserWarning: a\nUserWarning: a", TOL) == [
        "UserWarning: a",
        "UserWarning: a",
    ]


def test_the_section_counts_what_ran_and_names_what_would_change(
    world: World, executor: Executor
) -> None:
    """One block holds, one diverges, one fails, one has no recording, one does not run."""
    verification = world.check(executor)
    expected_counts = {"blocks": 4, "ok": 1, "diverge": 1, "error": 1, "missing": 1, "changed": 2}
    assert canary.counts(verification) == expected_counts
    # «nuevo» warns too, but has no recording to compare with: not counted as new.
    assert canary.block_warnings(world.project.config, verification) == {"a/cambia": [WARNED]}
    section = canary.section(
        world.project.config, verification, PROJECT_SIDE, CANDIDATE_SIDE, SOURCES
    )
    assert section == report_json.Canary(
        format=1,
        headline="torch 2.14.0 cambiaría 2 bloques",
        project=PROJECT_SIDE,
        candidate=CANDIDATE_SIDE,
        counts={**expected_counts, "warnings": 1},
        changed={"a/cambia": "diverge", "a/falla": "error"},
        warnings={"a/cambia": [WARNED]},
        sources=SOURCES,
    )
    unnamed = canary.section(world.project.config, verification, {}, {}, [])
    assert unnamed.headline == "torch ? cambiaría 2 bloques" and unnamed.sources == []


def test_the_headline_says_block_for_one_only() -> None:
    assert canary.headline("2.14.1", 1) == "torch 2.14.1 cambiaría 1 bloque"
    assert canary.headline("2.14.1", 2) == "torch 2.14.1 cambiaría 2 bloques"
    assert canary.headline("2.14.1", 0) == "torch 2.14.1 cambiaría 0 bloques"


def test_each_change_is_judged_against_the_builds_recordings(
    world: World, executor: Executor, canary_folder: Path
) -> None:
    """Against the recordings the build read, even if one is gone from disk since: «cambia»
    with the diff accepting would write and the warning it gained, «falla» with its error."""
    cfg = world.project.config
    verification = world.check(executor)
    assert {k: o.status for k, o in verification.outcomes.items() if o.status.ran} == {
        "a/antes": Status.OK,
        "a/cambia": Status.OK,
        "a/falla": Status.OK,
        "a/nuevo": Status.MISSING,
    }
    world.new()
    failed = world.check(executor)  # what `check` says of «falla» in the canary's world
    (error,) = [f for f in failed.findings if f.kind is Kind.UNEXPECTED_EXCEPTION]
    assert "«a/falla»" in error.message
    (cambia,) = [b for b in verification.pages[0].blocks if b.id == "cambia"]
    recordings.path_for(cfg, cambia, "cpu").unlink()
    view, findings = canary.attach(cfg, verification, canary_folder)
    assert findings == [] and view is not None and view.stale == {}
    assert (view.torch, view.variant) == ("2.14.0", "CPU")
    assert view.sources("a.md") == [SOURCES[0]] and view.sources("c.md") == []
    assert sorted(view.changes) == ["a/cambia", "a/falla"]
    assert view.changes["a/falla"] == canary.BlockChange(
        "a/falla", Status.ERROR, "", error.message, ()
    )
    change = view.changes["a/cambia"]
    assert (change.key, change.status, change.error, change.warnings) == (
        "a/cambia",
        Status.DIVERGE,
        "",
        (WARNED,),
    )
    lines = change.diff.splitlines()
    assert "-vieja" in lines and "+nueva" in lines and "+" + WARNED in lines


def _finding(reason: str, line: int) -> Finding:
    return Finding(
        Kind.STALE_CANARY_REPORT,
        f"informe canario (torch 2.14.0) obsoleto: {reason}; la página no muestra lo que "
        "cambiaría.",
        "docs/a.md",
        line,
        canary.FIX_STALE,
        Level.INFO,
    )


def _after(key: str, earlier: str) -> str:
    return (
        f"cambió el código de un bloque anterior de la página de «{key}» («{earlier}»), "
        "y la salida puede depender de él"
    )


def test_a_stale_observation_is_said_and_not_shown(
    world: World, executor: Executor, canary_folder: Path
) -> None:
    """«antes» renamed (its observation's block is gone: nothing to say it on) and «falla»
    edited: «falla» is stale, said where its code is; «cambia» still shows its change."""
    text = world.write(ids={"antes": "primero"}, codes={"falla": world.codes["falla"] + "  # x"})
    cfg = world.project.config
    view, findings = canary.attach(cfg, world.check(executor), canary_folder)
    assert view is not None
    lines = text.splitlines()
    reason = "el código del bloque «a/falla» cambió desde el informe"
    line = lines.index('```python exec="on" id="falla"') + 2  # its first code line
    after = _after("a/nuevo", "a/primero")  # the first earlier block the report lacks
    assert findings == [
        _finding(reason, line),
        _finding(after, lines.index('```python exec="on" id="nuevo"') + 2),
    ]
    assert view.stale == {"a/falla": reason, "a/nuevo": after}
    assert sorted(view.changes) == ["a/cambia"]


def test_an_edit_before_a_block_makes_it_stale_too(
    world: World, executor: Executor, canary_folder: Path
) -> None:
    """«cambia» edited: it and the blocks after it are stale, and none shows a change."""
    text = world.write(codes={"cambia": world.codes["cambia"] + "  # x"})
    cfg = world.project.config
    view, findings = canary.attach(cfg, world.check(executor), canary_folder)
    assert view is not None and view.changes == {}
    lines = text.splitlines()
    own = "el código del bloque «a/cambia» cambió desde el informe"
    after = {key: _after(key, "a/cambia") for key in ("a/falla", "a/nuevo")}
    assert findings == [
        _finding(own, lines.index('```python exec="on" id="cambia"') + 2),
        _finding(after["a/falla"], lines.index('```python exec="on" id="falla"') + 2),
        _finding(after["a/nuevo"], lines.index('```python exec="on" id="nuevo"') + 2),
    ]
    assert view.stale == {"a/cambia": own, **after}


def _rewrite(folder: Path, change: object) -> None:
    path = report_json.path_in(folder)
    raw = json.loads(path.read_text(encoding="utf-8"))
    change(raw)  # type: ignore[operator]
    path.write_text(json.dumps(raw), encoding="utf-8")


def _refused(folder: Path, message: str, verification: Verification, cfg: object) -> None:
    assert canary.attach(cfg, verification, folder) == (  # type: ignore[arg-type]
        None,
        [
            Finding(
                Kind.INVALID_CANARY_REPORT,
                f"{canary.ENV}: {message}",
                canary.ENV,
                1,
                canary.FIX_REPORT,
                Level.INFO,
            )
        ],
    )


def test_a_report_that_is_not_a_usable_canarys_is_said(
    world: World, executor: Executor, canary_folder: Path, tmp_path: Path
) -> None:
    cfg = world.project.config
    verification = world.check(executor)
    path = report_json.path_in(canary_folder)
    not_canary = (
        f"{path}: no es un informe de docverify canary (formato 1): no tiene la sección «canary»."
    )
    _rewrite(canary_folder, lambda raw: raw["canary"].update(format=2))  # a format not known
    with pytest.raises(report_json.ReportError) as refused:
        canary.read(canary_folder)
    assert str(refused.value) == not_canary
    _refused(canary_folder, not_canary, verification, cfg)
    _rewrite(canary_folder, lambda raw: raw.pop("canary"))  # a check's report
    _refused(canary_folder, not_canary, verification, cfg)
    missing = tmp_path / "vacía"
    missing.mkdir()
    with pytest.raises(report_json.ReportError) as unread:
        report_json.read(missing)
    _refused(missing, str(unread.value), verification, cfg)


def test_a_report_without_results_names_its_first_such_block(
    world: World, executor: Executor, canary_folder: Path
) -> None:
    def format_2(raw: dict) -> None:
        for key in ("a/nuevo", "a/cambia"):
            raw["observations"][key].pop("result")

    _rewrite(canary_folder, format_2)
    path = report_json.path_in(canary_folder)
    message = f"{path}: el informe no guarda el resultado de «a/cambia» (formato 2)."
    with pytest.raises(report_json.ReportError) as refused:
        canary.read(canary_folder)
    assert str(refused.value) == message
    _refused(canary_folder, message, world.check(executor), world.project.config)
