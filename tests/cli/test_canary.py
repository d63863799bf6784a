"""`docverify canary`: what another torch would change, judged as `check` judges, recording nothing.

The other torch is this project's own, changed at start-up in a throwaway virtual environment
(support/canary.py): `torch.zeros` now warns, a float64 tensor's repr now reads `torch.double`,
`torch.eye` now fails. The canary runs as its console script (a process of its own: the fork
server is that interpreter); the bad inputs stop before anything runs, so they run here.
Tests that run commands in the project (check, a build, accept) work on a copy of it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import ROOT, Project, _shared, mkdocs_build
from conftest import docverify as run_docverify
from docverify import build
from docverify.core import config as config_mod
from docverify.core.request import Request
from docverify.parsing.pages import read_site
from docverify.report import canary, report_json
from docverify.running import executor as executor_mod
from docverify.running.executor import Executor
from docverify.sources import fingerprint as fp_mod
from docverify.verifying import recordings
from docverify.verifying.record import record
from support import inprocess
from support.blocks import block
from support.canary import changed_torch, plain_venv, report_here
from support.mkdocs_site import MKDOCS_YML
from support.relabel import snapshot

# A canary run in its own process imports torch twice (its fork server, its probe): a few
# seconds each, so those tests are `slow`; the refusals that stop before running are not. The
# project and the changed torch's run are made once for both pytest-xdist workers (_shared).
SLOW = pytest.mark.slow

PATCH = """\
import warnings

import torch

_zeros = torch.zeros


def zeros(*args, **kwargs):
    warnings.warn("torch.zeros cambiará en la próxima versión", FutureWarning, stacklevel=2)
    return _zeros(*args, **kwargs)


torch.zeros = zeros
_repr = torch.Tensor.__repr__
torch.Tensor.__repr__ = lambda self, *a, **k: _repr(self, *a, **k).replace(
    "torch.float64", "torch.double"
)


def eye(*args, **kwargs):
    raise RuntimeError("torch.eye ya no existe")


torch.eye = eye
"""
# What the patch changes, and what it leaves alone (a block that never touches it, one that
# uses torch but none of the changed functions, and the interpreter's own import path).
BLOCKS = {
    "igual": "print(1 + 1)",
    "aviso": "import torch\nprint(torch.zeros(2))",
    "repr": "import torch\nprint(torch.ones(2, dtype=torch.float64))",
    "fallo": "import torch\nprint(torch.eye(2))",
    "sin-cambio": "import torch\nprint(torch.ones(3).sum().item())",
    # Its modules come from its own site-packages: multiprocessing hands every child the
    # parent's sys.path, which the engine puts back for another interpreter.
    "ruta-propia": "import sys\nprint(any(p.startswith(sys.prefix) for p in sys.path if p))",
}
CHANGED = {"a/aviso": "diverge", "a/repr": "diverge", "a/fallo": "error"}
DVFAKE = """\
def helper():
    return {value}


class Model:
    def step(self, x):
        return x + 1
"""


TODAY = config_mod.today().isoformat()  # the suite's pinned day: the sources are fresh


def dvfake(root: Path, value: int) -> Path:
    """An installed-looking package `dvfake` under `root` (cited by a fingerprint)."""
    package = root / "dvfake"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "core.py").write_text(DVFAKE.format(value=value), encoding="utf-8")
    meta = root / "dvfake-1.0.dist-info"
    meta.mkdir()
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: dvfake\nVersion: 1.0\n")
    return root


def sources_page(project: Project, verified: Path) -> None:
    """A page citing dvfake.core.helper and dvfake.core.Model.step as in `verified`."""
    base = verified / "dvfake"
    items = []
    for name in ("dvfake.core.helper", "dvfake.core.Model.step"):
        sha = fp_mod.digest(fp_mod.object_source(base, name))
        items.append(
            f'  - title: "{name}"\n    reference: "dvfake / {name}"\n    verified: "{TODAY}"\n'
            f'    fingerprint:\n      package: dvfake\n      version: "1.0"\n'
            f'      object: {name}\n      sha256: "{sha}"\n'
        )
    project.page("fuentes.md", '---\ntitle: "Fuentes"\nsources:\n' + "".join(items) + "---\n\n.\n")


@dataclass
class Site:
    root: Path  # the project: shared by the tests, which edit or build only copies of it
    verified: Path  # dvfake as its sources were verified
    changed: Path  # the python of the changed torch (whose dvfake's helper changed)

    def copy(self, folder: Path) -> Path:
        return Path(shutil.copytree(self.root, folder))


def _make_site(base: Path) -> dict[str, str]:
    project = Project(base / "proj")
    mkdocs_yml = MKDOCS_YML.format(hook=(ROOT / "hooks" / "mkdocs_hooks.py").as_posix())
    (project.root / "mkdocs.yml").write_text(
        mkdocs_yml.replace("  - articulos/a.md\n", "  - a.md\n  - fuentes.md\n"), "utf-8"
    )
    project.page("a.md", "# A\n\n" + "\n".join(block(c, i) for i, c in BLOCKS.items()))
    verified = dvfake(base / "verificado", 1)
    sources_page(project, verified)
    with pytest.MonkeyPatch.context() as env:
        env.delenv("CI", raising=False)
        cfg = project.config
        done = record(cfg, read_site(cfg), "cpu", executor_mod.shared(2))
    assert len(done.written) == len(BLOCKS), done.findings
    changed = changed_torch(
        base / "torch-cambiado",
        PATCH,
        {"dvfake/__init__.py": "", "dvfake/core.py": DVFAKE.format(value=2)},
    )
    return {"root": str(project.root), "verified": str(verified), "changed": str(changed)}


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Site:
    """The canary's project, made once for the whole run (both pytest-xdist workers)."""
    data = _shared(tmp_path_factory, worker_id, "canario", _make_site)
    return Site(Path(data["root"]), Path(data["verified"]), Path(data["changed"]))


def canary_run(site: Site, python: Path | str, name: str, **env: str) -> dict:
    """`docverify canary --python PYTHON --report R` as its console script: its output and
    its report (R beside the project); the project itself is left as it was."""
    folder = site.root.parent / name
    before = snapshot(site.root)
    done = run_docverify(
        site.root,
        "canary",
        "--python",
        str(python),
        "--report",
        str(folder),
        env=env,
        new_process=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert snapshot(site.root) == before, "el canario escribió en el proyecto"
    data = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    return {"stdout": done.stdout, "data": data, "folder": str(folder)}


@pytest.fixture(scope="session")
def changed_run(site: Site, tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> dict:
    """The changed torch's canary run, once for the whole run; its report folder."""
    data = _shared(
        tmp_path_factory,
        worker_id,
        "canario-cambiado",
        lambda _: canary_run(site, site.changed, "informe-cambiado"),
    )
    return {**data, "folder": Path(data["folder"])}


# --- what would change ------------------------------------------------------------------------


@SLOW
def test_own_interpreter_every_block_ok(site: Site) -> None:
    """The project's own interpreter (with dvfake as verified): nothing would change."""
    run = canary_run(site, sys.executable, "informe-propio", PYTHONPATH=str(site.verified))
    data, section = run["data"], run["data"]["canary"]
    assert set(data["blocks"].values()) == {"ok"}, data["blocks"]
    assert len(data["blocks"]) == len(BLOCKS)
    assert section["changed"] == {} and section["warnings"] == {} and section["sources"] == []
    assert section["counts"]["changed"] == 0 and section["counts"]["ok"] == len(BLOCKS)
    # both sides said alike: the other interpreter's probe, this one's read without torch
    for key in ("torch", "cuda", "variant", "numpy", "python"):
        assert section["candidate"][key] == section["project"][key], key
    assert section["headline"] == f"torch {section['candidate']['torch']} cambiaría 0 bloques"
    assert data["errors"] == 0
    assert not list((Path(run["folder"]) / "diffs").rglob("*.diff"))


@SLOW
def test_changed_torch_reports_exactly_the_affected_blocks(site: Site, changed_run: dict) -> None:
    data, section = changed_run["data"], changed_run["data"]["canary"]
    assert section["changed"] == CHANGED
    assert {k for k, v in data["blocks"].items() if v == "ok"} == {f"a/{b}" for b in BLOCKS} - set(
        CHANGED
    )
    assert section["warnings"] == {
        "a/aviso": ["FutureWarning: torch.zeros cambiará en la próxima versión"]
    }
    [source] = section["sources"]  # helper changed in the canary's dvfake; Model.step did not
    assert source["target"] == "dvfake.core.helper" and source["page"] == "fuentes.md"
    assert "-    return 1" in source["diff"] or source["new_sha256"] != source["sha256"]
    counts = section["counts"]
    assert (counts["changed"], counts["diverge"], counts["error"]) == (3, 2, 1)
    assert section["headline"] == f"torch {section['candidate']['torch']} cambiaría 3 bloques"
    # versions and build variant of both sides (torch.version.cuda)
    for side in ("project", "candidate"):
        assert {"torch", "cuda", "variant", "numpy", "python"} <= set(section[side])
    # the format `check --report` writes, read as `docverify accept` reads it
    report = report_json.read(changed_run["folder"])
    assert report.runner == "cpu" and report.canary is not None
    assert "torch.double" in report.observations["a/repr"].output
    assert "RuntimeError: torch.eye ya no existe" in report.observations["a/fallo"].error
    diffs = sorted(p.name for p in (changed_run["folder"] / "diffs").rglob("*.diff"))
    assert diffs == ["aviso.cpu.diff", "repr.cpu.diff"]
    summary = (changed_run["folder"] / canary.SUMMARY_FILE).read_text(encoding="utf-8")
    assert summary.startswith(f"# {section['headline']}\n")
    for key in CHANGED:
        assert f"### `{key}`" in summary
    assert "FutureWarning: torch.zeros" in summary and "dvfake.core.helper" in summary
    assert "docverify accept" in summary and "docverify sources --reverify" in summary
    public = section["candidate"]["torch"].split("+")[0]  # the pin to write has no local label
    assert f"(`torch=={public}`)" in summary
    out = changed_run["stdout"]
    assert section["headline"] in out and "a/igual" not in out


@SLOW
def test_check_and_build_are_unaffected(
    site: Site,
    changed_run: dict,
    executor: Executor,
    local_author: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The canary changed nothing the project runs: check and the build still pass; a build
    given its report shows the changes, and still passes (a canary never fails a build)."""
    # dvfake as its sources were verified: check judges the sources' fingerprints, as a build.
    monkeypatch.syspath_prepend(str(site.verified))
    root = site.copy(tmp_path / "proj")  # check writes its durations: a copy of the project
    done = run_docverify(root, "check", "--runner", "cpu", "--no-cache")
    assert done.returncode == 0, done.stderr
    assert "0 errores" in done.stdout
    cfg = config_mod.load(root)
    pages = [p for p in read_site(cfg) if p.rel == "a.md"]
    plain = build.run(cfg, pages, Request(runner="cpu"), executor)
    assert not plain.errors and plain.canary is None
    asked = Request(runner="cpu", canary_report=changed_run["folder"])
    shown = build.run(cfg, pages, asked, executor)
    assert not shown.errors, shown.errors
    assert shown.canary is not None and set(shown.canary.changes) == set(CHANGED)
    assert [f.kind for f in shown.findings if f.level != "error"] == []


@SLOW
def test_a_site_built_with_the_report_shows_it_and_still_passes(
    site: Site, changed_run: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`mkdocs build --strict` with DOCVERIFY_CANARY_REPORT: a box under each block that would
    change, a list at the top of its page, the changed source on its page; without it, nothing."""
    monkeypatch.syspath_prepend(str(site.verified))  # dvfake as its sources were verified
    root = site.copy(tmp_path / "proj")
    plain = mkdocs_build(root, tmp_path / "sin")
    assert plain.returncode == 0, plain.stderr
    assert "dv-canary" not in (tmp_path / "sin/a/index.html").read_text(encoding="utf-8")
    shown = mkdocs_build(root, tmp_path / "con", env={canary.ENV: str(changed_run["folder"])})
    assert shown.returncode == 0, shown.stderr
    page = (tmp_path / "con/a/index.html").read_text(encoding="utf-8")
    assert page.count('<details class="info dv-canary" ') == len(CHANGED)
    for key in CHANGED:
        assert f'id="dv-canario-{key.split("/")[1]}"' in page
    assert "torch.double" in page and "RuntimeError: torch.eye ya no existe" in page
    sources = (tmp_path / "con/fuentes/index.html").read_text(encoding="utf-8")
    assert (
        "dvfake.core.helper" in sources
        and "dvfake.core.Model.step"
        not in sources.split("dv-canary-page")[1].split("</details>")[0]
    )


# --- adopting it ------------------------------------------------------------------------------


@SLOW
def test_accept_refuses_a_report_with_a_failed_block(
    site: Site, changed_run: dict, tmp_path: Path
) -> None:
    """Today's refusals hold for a canary report: a block that fails is never recorded."""
    root = site.copy(tmp_path / "proj")
    before = snapshot(root)
    done = inprocess.docverify(
        ["accept", str(changed_run["folder"]), "--yes"],
        root,
        {k: v for k, v in os.environ.items() if k != "CI"},
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "«a/fallo» falló" in done.stderr and "torch.eye ya no existe" in done.stderr
    assert snapshot(root) == before


def _adoptable(project: Project, executor: Executor, folder: Path) -> Path:
    """A canary report of a real run whose recordings an older torch made: «uno»'s recording
    says what that older torch printed («salida vieja»); this torch prints «salida nueva»."""
    project.page(
        "a.md", "# A\n\n" + block("print(1)", "igual") + block("print('salida nueva')", "uno")
    )
    cfg = project.config
    assert record(cfg, read_site(cfg), "cpu", executor).written
    path = cfg.snippets_dir / "a" / "uno.cpu.txt"
    path.write_text(path.read_text(encoding="utf-8").replace("nueva", "vieja"), encoding="utf-8")
    assert report_here(cfg, executor, folder)["changed"] == {"a/uno": "diverge"}
    return path


def test_accept_adopts_a_canary_report(
    project: Project, executor: Executor, tmp_path: Path, local_author: None
) -> None:
    """After the pin bump (here: the same torch), accept writes what the canary observed; the
    site then shows nothing for that block: judged against today's recordings, nothing changes."""
    folder = tmp_path / "canario"
    path = _adoptable(project, executor, folder)
    done = run_docverify(project.root, "accept", str(folder), "--yes")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "-salida vieja" in done.stdout and "+salida nueva" in done.stdout
    assert "escrita: snippets/a/uno.cpu.txt" in done.stdout and "igual.cpu.txt" not in done.stdout
    rec = recordings.read(path, "cpu")
    assert rec.body.strip() == "salida nueva" and "docverify canary" in rec.header["origin"]
    assert run_docverify(project.root, "check", "--runner", "cpu", "--no-cache").returncode == 0
    cfg = project.config
    result = build.run(cfg, read_site(cfg), Request(runner="cpu", canary_report=folder), executor)
    assert result.canary is not None and result.canary.changes == {}


def test_accept_refuses_a_canary_of_another_torch_before_the_pin_bump(
    project: Project, executor: Executor, tmp_path: Path, local_author: None
) -> None:
    folder = tmp_path / "canario"
    _adoptable(project, executor, folder)
    data = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    data["env"]["torch"] = "9.9.0"  # as a canary of a torch this project does not run
    (folder / "report.json").write_text(json.dumps(data), encoding="utf-8")
    before = snapshot(project.root)
    done = run_docverify(project.root, "accept", str(folder), "--yes")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "canario con torch 9.9.0" in done.stderr and "torch==9.9.0" in done.stderr
    assert snapshot(project.root) == before


# --- bad input: a clear error, a non-zero exit, nothing written ------------------------------


def _other_minor_python() -> str | None:
    """A real interpreter of another Python minor version on this machine, if there is one."""
    here = f"{sys.version_info.major}.{sys.version_info.minor}"
    names = [f"python3.{n}" for n in range(8, 16)] + ["python3"]
    found = [shutil.which(n) for n in names]
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    found += [str(p) for p in sorted(pyenv.glob("3.*/bin/python3"))]
    for candidate in filter(None, found):
        try:
            said = subprocess.run(
                [candidate, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                capture_output=True,
                text=True,
                timeout=30,
                check=False,
            ).stdout.strip()
        except OSError:
            continue
        if said and said != here:
            return candidate
    return None


def _bad_python(kind: str, folder: Path) -> tuple[str, str]:
    """(PATH for --python, what the error must say) for each kind of bad interpreter."""
    if kind == "no-existe":
        return str(folder / "nada" / "python"), "no existe"
    if kind == "carpeta":
        folder.mkdir()
        return str(folder), "es una carpeta"
    folder.mkdir()
    if kind == "no-ejecutable":
        path = folder / "python"
        path.write_text("print(1)\n", encoding="utf-8")
        return str(path), "no es ejecutable"
    if kind == "otro-programa":
        path = folder / "python"
        path.write_text("#!/bin/sh\necho hola\n", encoding="utf-8")
        path.chmod(0o755)
        return str(path), "no es un intérprete de Python"
    if kind == "sin-torch":
        return str(plain_venv(folder)), "no tiene torch"
    other = _other_minor_python()
    if other is None:
        pytest.skip("no hay en esta máquina un Python de otra versión menor")
    return other, "y el proyecto usa Python"


@pytest.mark.parametrize(
    "kind",
    ["no-existe", "carpeta", "no-ejecutable", "otro-programa", "sin-torch", "otra-version"],
)
def test_bad_python_is_refused_writing_nothing(
    kind: str, project: Project, tmp_path: Path, local_author: None
) -> None:
    project.page("a.md", "# A\n\n" + block("print(1)", "uno"))
    python, says = _bad_python(kind, tmp_path / "malo")
    before = snapshot(project.root)
    folder = tmp_path / "informe"
    done = run_docverify(project.root, "canary", "--python", python, "--report", str(folder))
    assert done.returncode == 2, done.stdout + done.stderr
    assert "no se ha escrito nada" in done.stderr and f"{python}: " in done.stderr
    assert says in done.stderr, done.stderr
    assert not folder.exists() and snapshot(project.root) == before


def test_unknown_torch_version_is_refused_writing_nothing(
    project: Project, tmp_path: Path, local_author: None
) -> None:
    """pip finds no such torch (offline: no index, an empty folder of wheels): nothing made."""
    pyproject = project.root / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text(encoding="utf-8").replace(
            'version = "0"\n', 'version = "0"\ndependencies = ["numpy==2.4.6"]\n'
        ),
        encoding="utf-8",
    )
    project.page("a.md", "# A\n\n" + block("print(1)", "uno"))
    (tmp_path / "ruedas").mkdir()
    offline = {
        "PIP_CONFIG_FILE": os.devnull,
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": str(tmp_path / "ruedas"),
    }
    before = snapshot(project.root)
    for version, says in (("0.0.1", "pip no encuentra torch==0.0.1"), ("2.x; rm", "no es una")):
        done = run_docverify(
            project.root, "canary", "--torch", version, "--report", str(tmp_path / "i"), env=offline
        )
        assert done.returncode == 2, done.stdout + done.stderr
        assert says in done.stderr and "no se ha escrito nada" in done.stderr, done.stderr
        assert not (tmp_path / "i").exists() and snapshot(project.root) == before
        assert not (project.root / ".cache").exists()


@SLOW
def test_refuses_when_this_process_runs_another_interpreter(
    site: Site, executor: Executor, tmp_path: Path, local_author: None
) -> None:
    """A process has one fork server: in this one (the tests'), it runs the project's python.
    The canary sees that its page processes would not run the changed torch, and stops."""
    executor.resolve_runner("auto")  # the fork server of this process is running
    before = snapshot(site.root)
    folder = tmp_path / "informe"
    done = inprocess.docverify(
        ["canary", "--python", str(site.changed), "--report", str(folder)],
        site.root,
        {k: v for k, v in os.environ.items() if k != "CI"},
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "ya tenía en marcha su servidor de fork" in done.stderr
    assert not folder.exists() and snapshot(site.root) == before
