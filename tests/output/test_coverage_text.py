"""Every sentence about where this version ran (output/coverage_text.py), written out in full.

Coverages are built by hand: a CPU build alone, one given the gpu job's report (from CI or
local), a GPU build, with and without cached blocks and GPU recordings.
"""

from __future__ import annotations

import pytest
from docverify.output import coverage_text
from docverify.site.coverage import Coverage, GpuObserved
from docverify.verifying.outcome import Provenance, SeenIn

RUNNER = "(un *runner* es la máquina que ejecuta los bloques)"
LABELS = (
    "Bajo cada salida, una línea dice en qué runner se ejecutó, con qué versión de torch y "
    "cuándo. Solo lleva ✓ lo que una ejecución ha observado para esta versión: «CPU ✓» o "
    "«GPU ✓» dicen que la salida observada coincide con la grabada."
)
WHY = (
    "dependen de números aleatorios, que CUDA genera con un generador distinto del de la CPU, "
    "preguntan por el acelerador o muestran un dispositivo"
)


def gpu(blocks: int = 4, source: SeenIn = SeenIn.REPORT, run_url: str = "") -> GpuObserved:
    seen = Provenance("gpu", "2.13.0", "NVIDIA H100_80GB", "2026-03-02", source, run_url)
    return GpuObserved(blocks, seen)


def coverage(
    runner: str = "cpu",
    observed: int = 5,
    cached: int = 0,
    reported: bool = False,
    observed_gpu: GpuObserved | None = None,
    own_gpu: int = 0,
    need_gpu: tuple[str, ...] = (),
) -> Coverage:
    return Coverage(
        runner, "2.13.0", 6, observed, cached, reported, observed_gpu, own_gpu, need_gpu, 2, 3
    )


@pytest.mark.parametrize(
    ("observed", "expected"),
    [
        (
            gpu(source=SeenIn.BUILD),
            "NVIDIA H100_80GB, torch 2.13.0, el 2 de marzo de 2026, en esta construcción",
        ),
        (
            gpu(source=SeenIn.CACHE, run_url="https://ci/9"),
            "NVIDIA H100_80GB, torch 2.13.0, el 2 de marzo de 2026, en esta construcción",
        ),
        (
            gpu(run_url="https://ci/9"),
            "NVIDIA H100_80GB, torch 2.13.0, el 2 de marzo de 2026, "
            "en la ejecución de CI https://ci/9",
        ),
        (gpu(), "NVIDIA H100_80GB, torch 2.13.0, el 2 de marzo de 2026, según un informe local"),
    ],
)
def test_gpu_where(observed: GpuObserved, expected: str) -> None:
    assert coverage_text.gpu_where(observed) == expected


def test_description_of_a_cpu_build_alone() -> None:
    assert coverage_text.description(coverage(observed=1)) == (
        "Esta versión del sitio se verificó solo en CPU. 1 bloque observado en CPU y 0 en una GPU."
    )


def test_description_of_a_cpu_build_with_the_gpu_report() -> None:
    assert coverage_text.description(coverage(observed_gpu=gpu(blocks=1))) == (
        "Esta versión del sitio se verificó en CPU y en GPU. 5 bloques observados en CPU y "
        "1 en una GPU (NVIDIA H100_80GB)."
    )


def test_description_of_a_gpu_build() -> None:
    cov = coverage(runner="gpu", observed_gpu=gpu(blocks=3, source=SeenIn.BUILD))
    assert coverage_text.description(cov) == (
        "Esta versión del sitio se verificó en una GPU. 3 bloques observados en una GPU "
        "(NVIDIA H100_80GB) y 0 en CPU."
    )


def test_a_gpu_build_without_gpu_observation_says_gpu_but_counts_cpu() -> None:
    assert coverage_text.description(coverage(runner="gpu")) == (
        "Esta versión del sitio se verificó en una GPU. 0 bloques observados en CPU y 0 en una GPU."
    )


def test_home_of_a_cpu_build_alone_with_cached_blocks_and_recordings_needed() -> None:
    cov = coverage(cached=2, own_gpu=0, need_gpu=("a/b",))
    assert coverage_text.home(cov) == (
        f"**Esta versión del sitio se verificó solo en CPU.** Al construirla, 5 bloques se "
        f"verificaron en un runner de CPU {RUNNER} y cada salida se comparó con la grabada; "
        "ningún bloque se ha ejecutado en una GPU para esta versión (0 bloques observados en "
        "una GPU). De ellos, 2 bloques no se volvieron a ejecutar: la caché local de docverify "
        "guardaba lo que ya se había observado con este mismo código y estas versiones, y cada "
        "panel dice cuándo.\n\n"
        "Ningún bloque tiene su propia grabación de GPU; 1 bloque la necesita y aún no la "
        f"tiene, porque su salida en una GPU puede no ser la de CPU ({WHY}).\n\n"
        f"{LABELS} «GPU: pendiente» quiere decir que ninguna GPU ha ejecutado ese bloque para "
        "esta versión; si añade «con salida propia», en una GPU puede imprimir otra cosa y esa "
        "salida tendrá que grabarse aparte."
    )


def test_home_of_a_cpu_build_with_own_gpu_recordings_and_none_needed() -> None:
    cov = coverage(observed=1, cached=1, reported=True, own_gpu=2)
    assert coverage_text.home(cov) == (
        "**Esta versión del sitio se verificó solo en CPU.** En la verificación de este commit, "
        f"1 bloque se ejecutó en un runner de CPU {RUNNER} y cada salida se comparó con la "
        "grabada; ningún bloque se ha ejecutado en una GPU para esta versión (0 bloques "
        "observados en una GPU).\n\n"
        "2 bloques tienen su propia grabación de GPU; ningún bloque la necesita y aún no la "
        f"tiene, porque su salida en una GPU puede no ser la de CPU ({WHY}).\n\n"
        f"{LABELS} «GPU: pendiente» quiere decir que ninguna GPU ha ejecutado ese bloque para "
        "esta versión. «GPU: sin comprobar en esta versión» muestra la salida que se grabó "
        "antes en una GPU, con su fecha, sin que ninguna ejecución la haya comprobado ahora."
    )


def test_home_of_a_cpu_build_with_the_gpu_report() -> None:
    cov = coverage(
        observed_gpu=gpu(blocks=1, run_url="https://ci/9"), own_gpu=1, need_gpu=("a", "b")
    )
    assert coverage_text.home(cov) == (
        "**Esta versión del sitio se verificó en CPU y en GPU.** Al construirla, 5 bloques se "
        f"ejecutaron en un runner de CPU {RUNNER} y 1 bloque en una GPU (NVIDIA H100\\_80GB, "
        "torch 2.13.0, el 2 de marzo de 2026, en la ejecución de CI https://ci/9); cada salida "
        "se comparó con la grabada para su runner.\n\n"
        "1 bloque tiene su propia grabación de GPU; 2 bloques la necesitan y aún no la tienen, "
        f"porque su salida en una GPU puede no ser la de CPU ({WHY}).\n\n"
        f"{LABELS}"
    )


def test_home_of_a_gpu_build() -> None:
    cov = coverage(runner="gpu", cached=3, observed_gpu=gpu(blocks=3, source=SeenIn.BUILD))
    assert coverage_text.home(cov) == (
        "**Esta versión del sitio se verificó en una GPU.** Al construirla, 3 bloques se "
        f"verificaron en un runner de GPU {RUNNER} (NVIDIA H100\\_80GB, torch 2.13.0) y cada "
        "salida se comparó con la grabada; ninguno se ejecutó en CPU en esta construcción "
        "(0 bloques observados en CPU): las salidas de CPU que verás son las grabadas, con su "
        "fecha. De ellos, 3 bloques no se volvieron a ejecutar: la caché local de docverify "
        "guardaba lo que ya se había observado con este mismo código y estas versiones, y cada "
        "panel dice cuándo.\n\n"
        "Ningún bloque tiene su propia grabación de GPU; ningún bloque la necesita y aún no la "
        f"tiene, porque su salida en una GPU puede no ser la de CPU ({WHY}).\n\n"
        f"{LABELS} «CPU: sin comprobar en esta versión» muestra la salida grabada en CPU, con "
        "su fecha."
    )


def test_nothing_is_said_without_a_coverage() -> None:
    assert coverage_text.home(None) == ""
    assert coverage_text.verification_opening(None) == ""
    assert coverage_text.notebook(None) == ""
    assert coverage_text.legend_gpu(None) == ""


def test_verification_opening_of_a_cpu_build_alone() -> None:
    cov = coverage(need_gpu=("a/b", "a/c"), own_gpu=1)
    assert coverage_text.verification_opening(cov) == (
        "**Esta versión del sitio se verificó solo en CPU.**\n\n"
        "- Runner de esta construcción: CPU (torch 2.13.0).\n"
        "- Bloques observados en CPU: 5 de 6.\n"
        "- Bloques observados en una GPU: 0 (esta versión se verificó solo en CPU).\n"
        "- Bloques con su propia grabación de GPU: 1.\n"
        "- Bloques que necesitan su propia grabación de GPU y aún no la tienen: 2 "
        "(«GPU compara con» dice por qué).\n"
        "- Fuentes al día: 2 de 3."
    )


def test_verification_opening_with_the_gpu_report() -> None:
    cov = coverage(observed_gpu=gpu(blocks=4))
    assert coverage_text.verification_opening(cov) == (
        "**Esta versión del sitio se verificó en CPU y en GPU.**\n\n"
        "- Runner de esta construcción: CPU (torch 2.13.0).\n"
        "- Bloques observados en CPU: 5 de 6.\n"
        "- Bloques observados en una GPU: 4 (NVIDIA H100\\_80GB, torch 2.13.0, el 2 de marzo de "
        "2026, según un informe local).\n"
        "- Bloques con su propia grabación de GPU: 0.\n"
        "- Bloques que necesitan su propia grabación de GPU y aún no la tienen: 0.\n"
        "- Fuentes al día: 2 de 3."
    )


def test_notebook() -> None:
    assert coverage_text.notebook(coverage()) == (
        "Esta versión del sitio se verificó solo en CPU. Ninguna GPU ha ejecutado estos bloques "
        "para esta versión."
    )
    assert coverage_text.notebook(coverage(observed_gpu=gpu())) == (
        "Esta versión del sitio se verificó en CPU y en GPU. GPU: NVIDIA H100\\_80GB, torch "
        "2.13.0, el 2 de marzo de 2026, según un informe local."
    )


def test_legend_of_a_gpu_build_and_of_one_with_the_gpu_report() -> None:
    cov = coverage(runner="gpu", observed_gpu=gpu(source=SeenIn.BUILD))
    assert coverage_text.legend_gpu(cov) == (
        "«CPU: sin comprobar en esta versión»: la salida grabada en CPU, que esta versión no ha "
        "ejecutado."
    )
    assert coverage_text.legend_gpu(coverage(observed_gpu=gpu())) == (
        "«GPU ✓»: la salida observada en una GPU (NVIDIA H100_80GB, torch 2.13.0, el 2 de marzo "
        "de 2026, según un informe local) coincide con la grabada."
    )


PENDING = (
    "«GPU: pendiente»: ninguna GPU ha ejecutado el bloque para esta versión; cuando un runner "
    "GPU lo ejecute, su salida tendrá que coincidir con la de CPU, salvo el argumento "
    "device='cuda:N'."
)
OWN = (
    " «con salida propia»: en una GPU puede imprimir otra cosa (números aleatorios, el "
    "acelerador o un dispositivo) y esa salida se grabará aparte."
)
RECORDED = (
    " «GPU: sin comprobar en esta versión»: una salida grabada antes en una GPU, que nadie ha "
    "comprobado ahora."
)


@pytest.mark.parametrize(
    ("need_gpu", "own_gpu", "expected"),
    [
        ((), 0, PENDING),
        (("a/b",), 0, PENDING + OWN),
        ((), 1, PENDING + RECORDED),
        (("a/b",), 2, PENDING + OWN + RECORDED),
    ],
)
def test_legend_of_a_cpu_build_alone(
    need_gpu: tuple[str, ...], own_gpu: int, expected: str
) -> None:
    assert coverage_text.legend_gpu(coverage(need_gpu=need_gpu, own_gpu=own_gpu)) == expected


def test_one_block_is_said_in_the_singular() -> None:
    """«1 bloque observado», «1 bloque se verificó», «1 bloque no se volvió a ejecutar»."""
    cov = coverage(runner="gpu", observed_gpu=gpu(blocks=1, source=SeenIn.BUILD))
    assert coverage_text.description(cov) == (
        "Esta versión del sitio se verificó en una GPU. 1 bloque observado en una GPU "
        "(NVIDIA H100_80GB) y 0 en CPU."
    )
    cov = coverage(observed=1, cached=1, observed_gpu=gpu(blocks=2))
    assert coverage_text.description(cov) == (
        "Esta versión del sitio se verificó en CPU y en GPU. 1 bloque observado en CPU y "
        "2 en una GPU (NVIDIA H100_80GB)."
    )
    assert coverage_text.home(cov).startswith(
        "**Esta versión del sitio se verificó en CPU y en GPU.** Al construirla, 1 bloque se "
        f"verificó en un runner de CPU {RUNNER} y 2 bloques en una GPU (NVIDIA H100\\_80GB, "
        "torch 2.13.0, el 2 de marzo de 2026, según un informe local); cada salida se comparó "
        "con la grabada para su runner. De ellos, 1 bloque no se volvió a ejecutar: la caché "
        "local de docverify guardaba"
    )
    cov = coverage(observed=1)
    assert coverage_text.home(cov).startswith(
        "**Esta versión del sitio se verificó solo en CPU.** Al construirla, 1 bloque se "
        f"ejecutó en un runner de CPU {RUNNER} y cada salida"
    )
