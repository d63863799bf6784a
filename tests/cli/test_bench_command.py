"""`docverify bench` (cli/bench_command.py): its checks of the counts, what it hands the
measurement, what it prints and exits with. The measurements themselves are tests/bench/'s;
here they are stand-ins, so nothing is measured."""

from __future__ import annotations

import shutil
from types import SimpleNamespace

import pytest
from conftest import Project
from docverify.bench import measure, sharding
from docverify.cli import main as cli
from support.terminal import Terminal


@pytest.fixture
def calls(project: Project, monkeypatch: pytest.MonkeyPatch) -> SimpleNamespace:
    """measure.run and sharding.run replaced: each records its Bench (and counts), says one
    line of progress and answers `line`, or raises `error`."""
    seen = SimpleNamespace(measure=[], sharding=[], line="P1 1.0 · P2 2.0", error=None)

    def run(bench, out):
        seen.measure.append(bench)
        shutil.rmtree(bench.work, ignore_errors=True)  # the real run cleans up after itself
        out("midiendo…")
        if seen.error:
            raise seen.error
        return seen.line

    def run_shards(bench, counts, out):
        seen.sharding.append((bench, counts, bench.work.is_dir()))
        out("repartiendo…")
        if seen.error:
            raise seen.error
        return seen.line

    monkeypatch.setattr(measure, "run", run)
    monkeypatch.setattr(sharding, "run", run_shards)
    monkeypatch.chdir(project.root / "docs")  # the root is found upwards
    return seen


def test_bench_measures_with_the_defaults_and_prints_the_line_last(
    project: Project, calls: SimpleNamespace, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["bench"]) == 0
    [bench] = calls.measure
    assert bench.root == project.root.resolve()
    assert (bench.repeat, bench.pages, bench.blocks, bench.runner, bench.smoke) == (
        3,
        200,
        10,
        "cpu",
        False,
    )
    assert capsys.readouterr() == ("midiendo…\nP1 1.0 · P2 2.0\n", "")


def test_bench_passes_every_option_on(calls: SimpleNamespace) -> None:
    args = ["--repeat", "1", "--pages", "1", "--blocks", "1", "--runner", "gpu", "--smoke"]
    assert cli.main(["bench", *args]) == 0
    [bench] = calls.measure
    assert (bench.repeat, bench.pages, bench.blocks, bench.runner, bench.smoke) == (
        1,
        1,
        1,
        "gpu",
        True,
    )


@pytest.mark.parametrize("option", ["--repeat", "--pages", "--blocks"])
@pytest.mark.parametrize("value", ["0", "-1"])
def test_a_count_below_1_is_refused(
    calls: SimpleNamespace, option: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["bench", option, value]) == 2
    assert capsys.readouterr() == (
        "",
        "docverify bench: --repeat, --pages y --blocks deben ser ≥ 1.\n",
    )
    assert calls.measure == calls.sharding == []


def test_a_failed_measurement_is_one_line_and_exit_1(
    calls: SimpleNamespace, capsys: pytest.CaptureFixture[str]
) -> None:
    calls.error = RuntimeError("el build falló")
    assert cli.main(["bench"]) == 1
    assert capsys.readouterr() == ("midiendo…\n", "docverify bench: el build falló\n")


def test_shards_measures_each_count_once_in_order_and_cleans_up(
    project: Project, calls: SimpleNamespace, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--shards", "4,1, 2,2,", "--pages", "5", "--repeat", "2", "--blocks", "4", "--smoke"]
    assert cli.main(["bench", *args]) == 0
    assert calls.measure == []
    [(bench, counts, existed)] = calls.sharding
    assert counts == [1, 2, 4] and existed
    assert (bench.root, bench.repeat, bench.pages, bench.blocks, bench.smoke) == (
        project.root.resolve(),
        2,
        5,
        4,
        True,
    )
    assert not bench.work.exists()
    assert capsys.readouterr() == ("repartiendo…\nP1 1.0 · P2 2.0\n", "")


def test_a_failed_shards_measurement_is_exit_1_and_cleans_up(
    calls: SimpleNamespace, capsys: pytest.CaptureFixture[str]
) -> None:
    calls.error = RuntimeError("una parte falló")
    assert cli.main(["bench", "--shards", "2"]) == 1
    [(bench, _, _)] = calls.sharding
    assert not bench.work.exists()
    assert capsys.readouterr() == ("repartiendo…\n", "docverify bench: una parte falló\n")


@pytest.mark.parametrize("shards", ["", ",", "a,2", "0,2", "-1", "2,0"])
def test_shards_wants_numbers_from_1(
    calls: SimpleNamespace, shards: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["bench", "--shards", shards]) == 2
    assert capsys.readouterr() == (
        "",
        "docverify bench: --shards espera números ≥ 1 separados por comas (1,2,4).\n",
    )
    assert calls.sharding == []


def test_shards_1_alone_is_taken(calls: SimpleNamespace) -> None:
    assert cli.main(["bench", "--shards", "1"]) == 0
    assert calls.sharding[0][1] == [1]


def test_the_help_says_each_default() -> None:
    sub = next(a for a in cli.build_parser()._actions if a.dest == "command")
    parser = sub.choices["bench"]
    assert parser.description == "mide P1, P2 y P3 (velocidad del build) e imprime sus razones"
    args = {a.dest: a for a in parser._actions}
    assert args["repeat"].help == (
        "repeticiones de cada medida; se informa la mediana (por defecto 3)"
    )
    assert args["pages"].help == "páginas del corpus sintético de P2 (por defecto 200)"
    assert args["blocks"].help == "bloques por página del corpus sintético (por defecto 10)"
    assert args["runner"].help == "runner de P1 y P3; P2 corre siempre en cpu (por defecto cpu)"
    assert args["runner"].choices == ("cpu", "gpu")
    assert args["shards"].metavar == "N,N…"
    assert args["shards"].help == (
        "mide solo el reparto: la verificación del corpus sintético entera frente a cada parte "
        "de --shard I/N para cada N (p. ej. 1,2,4), combina los informes y construye desde ellos"
    )
    assert args["smoke"].help == (
        "prueba de humo: cada paso una vez, con las cuentas mínimas; comprueba que todo "
        "funciona, sus cifras no sirven para juzgar los objetivos"
    )
    defaults = parser.parse_args([])
    assert (defaults.shards, defaults.smoke) == (None, False)
    assert parser.parse_args(["--repeat", "5"]).repeat == 5  # an int


def test_a_work_folder_already_removed_is_no_error(
    calls: SimpleNamespace, monkeypatch: pytest.MonkeyPatch
) -> None:
    def run_shards(bench, counts, out):
        shutil.rmtree(bench.work)
        return "listo"

    monkeypatch.setattr(sharding, "run", run_shards)
    assert cli.main(["bench", "--shards", "2"]) == 0


@pytest.mark.parametrize("shards", [[], ["--shards", "2"]])
def test_each_progress_line_and_the_result_are_flushed(
    calls: SimpleNamespace, monkeypatch: pytest.MonkeyPatch, shards: list[str]
) -> None:
    terminal = Terminal()
    monkeypatch.setattr("sys.stdout", terminal)
    assert cli.main(["bench", *shards]) == 0
    progress = "repartiendo…\n" if shards else "midiendo…\n"
    assert terminal.flushed[:2] == [progress, f"{progress}P1 1.0 · P2 2.0\n"]
