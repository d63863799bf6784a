"""`docverify canary` as an author reads it (cli/canary_command.py): the interpreter it checks,
the environment it makes or reuses, its refusals, and the lines it prints. The other
interpreter, the page processes and the judging are stand-ins here (the real runs are
tests/cli/test_canary.py's, marked slow), so these tests run no block."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import Project
from docverify.cli import canary_command
from docverify.output import canary_output
from docverify.running import environments, interpreter
from docverify.running import executor as executor_mod
from support import inprocess
from support.terminal import Terminal

pytestmark = pytest.mark.usefixtures("local_author")

OTHER = "/otro/bin/python"
CANDIDATE = interpreter.Interpreter(
    path=OTHER,
    executable="/otro/bin/python3.11",
    python="3.11.7",
    torch="2.14.0",
    cuda=None,
    hip=None,
    numpy="2.1.0",
    torch_file="/otro/torch/__init__.py",
    sys_path=("/otro/site",),
)
PROJECT_SIDE = {"torch": "2.13.0", "variant": "CPU", "numpy": "2.1.0", "python": "3.11.7"}
HEAD = (
    "docverify canary: torch 2.14.0 (CPU), numpy 2.1.0, Python 3.11.7 en {python} frente a "
    "torch 2.13.0 (CPU), numpy 2.1.0, Python 3.11.7 del proyecto · runner {runner}\n"
)
REFUSED = "docverify canary: no se ha escrito nada.\n"


class World(SimpleNamespace):
    def run(self, *args: str, env: dict[str, str] | None = None):
        base = {k: v for k, v in __import__("os").environ.items() if k != "CI"}
        base.pop(environments.INDEX_ENV, None)
        base.pop("DOCVERIFY_RUNNER", None)
        return inprocess.docverify(["canary", *args], self.root, base | (env or {}))


@pytest.fixture
def world(project: Project, monkeypatch: pytest.MonkeyPatch) -> World:
    """A project pinning torch and numpy, with every outside step replaced by one that
    records what it was given."""
    pyproject = project.root / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    pyproject.write_text(
        text.replace(
            'version = "0"\n', 'version = "0"\ndependencies = ["torch==2.13.0", "numpy==2.1.0"]\n'
        ),
        encoding="utf-8",
    )
    project.page("a.md", "# A\n\nSin bloques.\n")
    w = World(
        root=project.root,
        probed=[],
        probe_error=None,
        candidate=CANDIDATE,
        executors=[],
        identity={"executable": CANDIDATE.executable, "torch_file": CANDIDATE.torch_file},
        observed=[],
        written=[],
        created=[],
        ready=True,
        asked=[],
    )

    def probe(python: str) -> interpreter.Interpreter:
        w.probed.append(python)
        if w.probe_error:
            raise w.probe_error
        return w.candidate

    class Executor:
        def __init__(self, workers: int | None, *, python: str, path: list[str]) -> None:
            w.executors.append((workers, python, path))

        def identity(self) -> dict[str, str]:
            return w.identity

        def resolve_runner(self, asked: str | None) -> str:
            w.asked.append(asked)
            return "cpu" if asked == "auto" else asked

    origin = project.root / "docs" / "a.md"
    outcome = SimpleNamespace(
        status=SimpleNamespace(label="otra salida"), block=SimpleNamespace(origin=origin)
    )
    w.verification = SimpleNamespace(outcomes={"a/uno": outcome})
    w.section = SimpleNamespace(
        counts={"blocks": 3, "diverge": 1, "error": 0, "missing": 1, "warnings": 2},
        changed=["a/uno"],
        warnings={"a/dos": ["UserWarning: cuidado", "otro"]},
        sources=[{"reference": "Ref", "path": "docs/a.md", "line": 4}],
        headline="1 bloque cambiaría",
    )

    def observe(*args):
        w.observed.append(args)
        return w.verification, w.section

    monkeypatch.setattr(interpreter, "probe", probe)
    monkeypatch.setattr(interpreter, "this_side", lambda: dict(PROJECT_SIDE))
    monkeypatch.setattr(executor_mod, "Executor", Executor)
    monkeypatch.setattr(canary_command, "observe", observe)
    monkeypatch.setattr(canary_output, "write", lambda *a: w.written.append(a))
    w.checked, w.resolved, w.sized = [], [], []

    def ready(env: Path, plan: list) -> bool:
        w.checked.append((env, plan))
        return w.ready

    def resolve(plan: list, version: str) -> list[dict]:
        w.resolved.append((plan, version))
        return [{"url": "torch.whl"}]

    def download_size(items: list[dict]) -> SimpleNamespace:
        w.sized.append(items)
        return SimpleNamespace(describe=lambda: "3 archivos, 1,2 GB")

    monkeypatch.setattr(environments, "ready", ready)
    monkeypatch.setattr(environments, "resolve", resolve)
    monkeypatch.setattr(environments, "download_size", download_size)
    monkeypatch.setattr(environments, "create", lambda env, plan: w.created.append((env, plan)))
    return w


TAIL = (
    "  a/uno: otra salida (docs/a.md)\n"
    "  a/dos: 2 aviso(s) nuevo(s): UserWarning: cuidado\n"
    "  fuente «Ref» (docs/a.md:4): cambia\n"
    "docverify canary: 1 bloque cambiaría de 3 ejecutados (1 con otra salida, 0 fallarían, 1 "
    "sin grabación) · 2 avisos nuevos · 1 fuente con huella cuyo código cambia\n"
)


def test_python_runs_every_page_there_and_says_what_would_change(world: World) -> None:
    done = world.run("--python", OTHER, "--workers", "2")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == HEAD.format(python=OTHER, runner="cpu") + TAIL
    assert world.probed == [OTHER] and world.asked == ["auto"]
    assert world.executors == [(2, OTHER, [str(interpreter.HOOKS)])]
    [(cfg, pages, runner, _, project, candidate, search_path)] = world.observed
    assert cfg.root == world.root.resolve() and [p.path.name for p in pages] == ["a.md"]
    assert runner == "cpu" and search_path == ("/otro/site",)
    assert project == PROJECT_SIDE | {"pins": {"torch": "2.13.0", "numpy": "2.1.0"}}
    assert candidate == CANDIDATE.data() | {"requested": None, "index": ""}
    assert world.written == []


def test_report_writes_the_folder_and_names_its_summary(world: World) -> None:
    done = world.run("--python", OTHER, "--runner", "gpu", "--report", "informe")
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        HEAD.format(python=OTHER, runner="gpu")
        + TAIL
        + "Informe: informe/resumen.md (y report.json, para docverify accept)\n"
    )
    [(cfg, folder, verification, section)] = world.written
    assert folder == Path("informe") and verification is world.verification
    assert section is world.section and cfg.root == world.root.resolve()


def test_nothing_changed_prints_only_the_counts(world: World) -> None:
    world.section.changed, world.section.warnings, world.section.sources = [], {}, []
    world.section.counts = {"blocks": 1, "diverge": 0, "error": 0, "missing": 0, "warnings": 1}
    world.section.headline = "ningún bloque cambiaría"
    done = world.run("--python", OTHER)
    assert done.stdout == HEAD.format(python=OTHER, runner="cpu") + (
        "docverify canary: ningún bloque cambiaría de 1 ejecutados (0 con otra salida, 0 "
        "fallarían, 0 sin grabación) · 1 aviso nuevo · 0 fuentes con huella cuyo código cambia\n"
    )


def test_an_interpreter_that_fails_the_probe_is_refused(world: World) -> None:
    world.probe_error = interpreter.InterpreterError("no es Python 3.11")
    done = world.run("--python", OTHER)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == REFUSED + "no es Python 3.11\n"
    assert world.executors == [] and world.observed == []


def test_no_page_process_started_is_refused(world: World) -> None:
    world.identity = {}
    done = world.run("--python", OTHER)
    assert (done.returncode, done.stdout, world.observed) == (2, "", [])
    assert done.stderr == (
        REFUSED + f"{OTHER}: no arrancó ningún proceso de página con ese intérprete.\n"
    )


@pytest.mark.parametrize(
    ("identity", "shown"),
    [
        ({"executable": "/este/python", "torch_file": CANDIDATE.torch_file}, "/este/python"),
        ({"executable": CANDIDATE.executable, "torch_file": "/este/torch"}, None),
        ({"pid": "1"}, "?"),
    ],
)
def test_page_processes_of_another_interpreter_are_refused(
    world: World, identity: dict[str, str], shown: str | None
) -> None:
    world.identity = identity
    done = world.run("--python", OTHER)
    assert (done.returncode, done.stdout, world.observed) == (2, "", [])
    executable = shown or CANDIDATE.executable
    torch_file = identity.get("torch_file", "?")
    assert done.stderr == REFUSED + (
        f"los procesos de las páginas no corren en {OTHER} (sino en {executable}, con torch de "
        f"{torch_file}): este proceso ya tenía en marcha su servidor de fork. Ejecuta docverify "
        "canary en un proceso propio.\n"
    )


def _env(world: World, version: str, index: str | None = None) -> tuple[Path, str]:
    env = environments.folder(world.root.resolve(), version, "2.1.0", index)
    return env, env.relative_to(world.root.resolve()).as_posix()


def test_torch_reuses_a_ready_environment(world: World) -> None:
    env, rel = _env(world, "2.14.0")
    done = world.run("--torch", " 2.14.0 ")
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    python = str(environments.python_of(env))
    assert done.stdout == (
        f"docverify canary: reutiliza {rel}\n" + HEAD.format(python=python, runner="cpu") + TAIL
    )
    assert world.probed == [python] and world.created == world.resolved == []
    assert world.checked == [(env, environments.steps("2.14.0", "2.1.0", None))]
    [(*_, candidate, _)] = world.observed
    assert candidate == CANDIDATE.data() | {"requested": " 2.14.0 ", "index": ""}


def test_torch_makes_the_environment_with_pip_and_names_the_index(world: World) -> None:
    world.ready = False
    index = "https://indice.example/whl"
    env, rel = _env(world, "2.14.0", index)
    done = world.run("--torch", "2.14.0", env={environments.INDEX_ENV: f" {index} "})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == (
        f"docverify canary: torch 2.14.0 con pip ({environments.INDEX_ENV}={index}): "
        f"3 archivos, 1,2 GB; se instala en {rel}"
    )
    plan = environments.steps("2.14.0", "2.1.0", index)
    assert world.checked == [(env, plan)] and world.resolved == [(plan, "2.14.0")]
    assert world.sized == [[{"url": "torch.whl"}]] and world.created == [(env, plan)]
    [(*_, candidate, _)] = world.observed
    assert candidate["index"] == f" {index} " and candidate["requested"] == "2.14.0"


def test_torch_without_an_index_says_pip_alone(world: World) -> None:
    world.ready = False
    env, rel = _env(world, "2.14.0")
    done = world.run("--torch", "2.14.0", env={environments.INDEX_ENV: "  "})
    assert done.stdout.splitlines()[0] == (
        f"docverify canary: torch 2.14.0 con pip: 3 archivos, 1,2 GB; se instala en {rel}"
    )
    assert world.created == [(env, environments.steps("2.14.0", "2.1.0", None))]


def test_torch_of_another_version_than_asked_is_refused(world: World) -> None:
    env, _ = _env(world, "2.15.0")
    done = world.run("--torch", "2.15.0")
    assert done.returncode == 2 and world.observed == []
    assert done.stderr == (
        REFUSED + f"{environments.python_of(env)}: tiene torch 2.14.0, no 2.15.0.\n"
    )


def test_torch_without_a_numpy_pin_is_refused(world: World) -> None:
    pyproject = world.root / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text(encoding="utf-8").replace(', "numpy==2.1.0"', ""), encoding="utf-8"
    )
    done = world.run("--torch", "2.14.0")
    assert (done.returncode, done.stdout, world.probed) == (2, "", [])
    assert done.stderr == REFUSED + (
        "pyproject.toml: no fija numpy («numpy==VERSIÓN» en [project].dependencies), y el "
        "entorno del canario usa la versión del proyecto.\n"
    )


def test_a_bad_torch_version_is_refused(world: World) -> None:
    done = world.run("--torch", "nueva")
    assert (done.returncode, world.probed) == (2, [])
    assert done.stderr.startswith(REFUSED + "--torch 'nueva': no es una versión de torch")


def test_the_help_says_what_each_option_does() -> None:
    from docverify.cli import main as cli  # noqa: PLC0415

    sub = next(a for a in cli.build_parser()._actions if a.dest == "command")
    parser = sub.choices["canary"]
    assert parser.description == (
        "ejecuta los bloques con otra versión de torch y dice qué cambiaría (no graba nada)"
    )
    args = {a.dest: a for a in parser._actions}
    assert (args["python"].metavar, args["torch"].metavar, args["report"].metavar) == (
        "RUTA",
        "VERSIÓN",
        "CARPETA",
    )
    assert args["python"].help == (
        "intérprete con la otra versión de torch (p. ej. /tmp/torch-nuevo/bin/python): la "
        "misma versión menor de Python que el proyecto, con torch y numpy"
    )
    assert args["torch"].help == (
        "crea (o reutiliza) con pip un entorno con torch==VERSIÓN y el numpy del proyecto en "
        ".cache/docverify/canary/ (torch desde DOCS_TORCH_INDEX si está definida)"
    )
    assert args["report"].help == (
        "escribe report.json (el formato de docverify check --report, que lee docverify "
        "accept), findings.txt, diffs/ y resumen.md"
    )
    assert args["runner"].help == (
        "runner (por defecto DOCVERIFY_RUNNER o auto: gpu si hay CUDA con ese torch)"
    )
    with pytest.raises(SystemExit):
        parser.parse_args([])  # --python or --torch
    with pytest.raises(SystemExit):
        parser.parse_args(["--python", "x", "--torch", "2.14.0"])  # not both


def test_the_pip_line_and_the_head_reach_the_terminal_before_the_long_steps(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pip and the pages take minutes: what is about to happen is flushed first."""
    world.ready = False
    _, rel = _env(world, "2.14.0")
    terminal = Terminal()
    created_after: list[str] = []
    monkeypatch.setattr(
        environments, "create", lambda env, plan: created_after.append(terminal.text)
    )
    monkeypatch.setattr("sys.stdout", terminal)
    monkeypatch.chdir(world.root)
    monkeypatch.delenv(environments.INDEX_ENV, raising=False)
    monkeypatch.delenv("DOCVERIFY_RUNNER", raising=False)
    from docverify.cli import main as cli  # noqa: PLC0415

    assert cli.main(["canary", "--torch", "2.14.0"]) == 0
    pip = f"docverify canary: torch 2.14.0 con pip: 3 archivos, 1,2 GB; se instala en {rel}\n"
    assert terminal.flushed[0] == pip == created_after[0]
    python = str(environments.python_of(_env(world, "2.14.0")[0]))
    assert terminal.flushed[1] == pip + HEAD.format(python=python, runner="cpu")


def test_observe_judges_here_and_reads_the_sources_on_the_other_path(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docverify.report import canary  # noqa: PLC0415
    from docverify.sources import canary_sources  # noqa: PLC0415
    from docverify.verifying import verify as verify_mod  # noqa: PLC0415

    seen: dict[str, tuple] = {}
    verification = object()
    change = SimpleNamespace(data=lambda: {"reference": "Ref"})
    monkeypatch.setattr(
        verify_mod, "verify", lambda *a: seen.setdefault("verify", a) and verification
    )
    monkeypatch.setattr(
        canary_sources, "changes", lambda *a: seen.setdefault("changes", a) and [change]
    )
    monkeypatch.setattr(canary, "section", lambda *a: seen.setdefault("section", a) and "sec")
    cfg, pages, executor = project.config, ["pagina"], object()
    found = canary_command.observe(
        cfg, pages, "gpu", executor, {"lado": "proyecto"}, {"lado": "otro"}, ["/otro/site"]
    )
    assert found == (verification, "sec")
    assert seen["verify"] == (cfg, pages, "gpu", executor)
    assert seen["changes"] == (cfg, pages, ["/otro/site"])
    assert seen["section"] == (
        cfg,
        verification,
        {"lado": "proyecto"},
        {"lado": "otro"},
        [{"reference": "Ref"}],
    )
