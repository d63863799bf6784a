"""verifying.messages: each finding of a block's verification, checked whole (kind, message,
file, line, fix, detail) against the words written out here.

The page: one block «a/b» whose code is on the page (fence on line 3, code on lines 4 and 5).
"""

from __future__ import annotations

import pytest
from conftest import Project
from docverify.core.findings import Finding, Level
from docverify.core.kinds import Kind
from docverify.parsing.pages import Block, read_site
from docverify.verifying import baselines, compare, messages, recordings

PAGE = '# A\n\n```python exec="on" id="b"\nprint("suma", 3)\nprint("id", id(PAGE))\n```\n'
WHERE = "(página docs/a.md:3)"
TOL = compare.Tolerance(rtol=1e-5, atol=1e-8)


@pytest.fixture
def block(project: Project) -> Block:
    project.page("a.md", PAGE)
    (found,) = read_site(project.config)[0].blocks
    return found


def _recording(project: Project, block: Block, body: str, header: str = "") -> recordings.Recording:
    project.snippet("a/b.cpu.txt", f"{header}# ----\n{body}")
    rec = recordings.of_block(project.config, block).get("cpu")
    assert rec is not None
    return rec


def test_located_is_at_the_blocks_first_line_without_a_detail(
    project: Project, block: Block
) -> None:
    found = messages.located(project.config, block, Kind.DIVERGENCE, "algo", "arréglalo")
    assert found == Finding(Kind.DIVERGENCE, f"algo {WHERE}", "docs/a.md", 4, "arréglalo")
    assert found.detail == ""


def test_a_divergence_shows_the_diff_with_its_labels(project: Project, block: Block) -> None:
    rec = _recording(project, block, "1\n2\n")
    found = messages.divergence(
        project.config, block, {"output": "1\n3\n"}, baselines.Baseline("cpu", rec), TOL
    )
    assert found == Finding(
        Kind.DIVERGENCE,
        f"la salida de «a/b» en cpu no coincide con su grabación (snippets/a/b.cpu.txt). {WHERE}",
        "docs/a.md",
        4,
        "si el cambio es correcto: docverify record --runner cpu docs/a.md; si no, corrige el "
        "código.",
        detail="--- grabación snippets/a/b.cpu.txt\n+++ observado (cpu)\n@@ -1,2 +1,2 @@\n"
        " 1\n-2\n+3",
    )


def test_a_divergence_in_volatile_values_says_how_to_mark_them(
    project: Project, block: Block
) -> None:
    rec = _recording(project, block, "suma 3\nid 123456789012\n")
    found = messages.divergence(
        project.config,
        block,
        # the run traced each output line to the block line that wrote it: the id, line 5
        {"output": "suma 3\nid 987654321098\n", "output_lines": [4, 5]},
        baselines.Baseline("cpu", rec),
        TOL,
    )
    assert found == Finding(
        Kind.VOLATILE_DIVERGENCE,
        "la salida de «a/b» en cpu solo difiere de su grabación en valores que parecen cambiar "
        f"en cada ejecución (hexadecimales, números de diez cifras o más). {WHERE}",
        "docs/a.md",
        5,
        "si esos valores cambian en cada ejecución (direcciones, identificadores), volver a "
        "grabar no sirve: edita b.cpu.txt y pon [..] en su lugar (línea 3: «id 123456789012» "
        "→ «id [..]»); docverify record conserva el marcador mientras la línea coincida. Si el "
        "cambio es real, corrige el código o vuelve a grabar.",
        detail="--- grabación snippets/a/b.cpu.txt\n+++ observado (cpu)\n@@ -1,2 +1,2 @@\n"
        " suma 3\n-id 123456789012\n+id 987654321098",
    )


def test_a_volatile_divergence_under_the_device_rule_numbers_the_files_lines(
    project: Project, block: Block
) -> None:
    """The cpu recording wraps a suffix that the gpu output does not: compared joined, the
    volatile value is on the recording file's line 4 (after «# ----» and the two-line repr)."""
    rec = _recording(project, block, "tensor([1.],\n       dtype=torch.float64)\nid 123456789012\n")
    observed = "tensor([1.], device='cuda:0', dtype=torch.float64)\nid 987654321098\n"
    found = messages.divergence(
        project.config, block, {"output": observed}, baselines.Baseline("gpu", rec), TOL
    )
    assert found.kind == Kind.VOLATILE_DIVERGENCE
    assert "(línea 4: «id 123456789012» → «id [..]»)" in found.fix
    assert found.detail.startswith(
        "--- grabación snippets/a/b.cpu.txt\n+++ observado (gpu, con la regla de dispositivo)\n"
    )


def test_a_missing_recording_names_the_one_its_runner_uses(project: Project, block: Block) -> None:
    cfg = project.config
    assert messages.missing_recording(cfg, block, "cpu") == Finding(
        Kind.MISSING_RECORDING,
        f"el bloque «a/b» no tiene grabación para el runner cpu (snippets/a/b.cpu.txt). {WHERE}",
        "docs/a.md",
        4,
        "docverify record --runner cpu docs/a.md",
    )
    assert messages.missing_recording(cfg, block, "gpu") == Finding(
        Kind.MISSING_RECORDING,
        "el bloque «a/b» no tiene grabación para el runner gpu (snippets/a/b.cpu.txt, que el "
        f"runner gpu usa como referencia). {WHERE}",
        "docs/a.md",
        4,
        "docverify record --runner cpu docs/a.md",
    )


STALE_FIX = (
    "docverify record --runner cpu docs/a.md (reescribe solo la línea «# device-dependent:» de "
    "la cabecera; revisa el diff)."
)


@pytest.mark.parametrize(
    ("header", "seen", "now", "recorded"),
    [
        (
            "# device-dependent: accelerator\n",
            [],
            "no depende del dispositivo",
            "pregunta por el acelerador",
        ),
        ("", ["random"], "depende de números aleatorios", "no depende del dispositivo"),
    ],
)
def test_stale_marks_say_what_the_run_saw_and_what_the_header_says(
    project: Project, block: Block, header: str, seen: list[str], now: str, recorded: str
) -> None:
    rec = _recording(project, block, "1\n", header)
    result = {"output": "1\n", "device_dependent": seen}
    assert messages.stale_marks(project.config, block, rec, result) == Finding(
        Kind.DEVICE_MARKS,
        f"la salida de «a/b» coincide con su grabación, pero en esta ejecución el bloque {now} "
        f"y la cabecera de su grabación (snippets/a/b.cpu.txt) dice que {recorded}: el runner "
        f"gpu lee esa cabecera para decidir si lo compara con la salida de CPU. {WHERE}",
        "docs/a.md",
        4,
        STALE_FIX,
    )


def test_marks_that_agree_or_a_result_without_them_are_not_stale(
    project: Project, block: Block
) -> None:
    rec = _recording(project, block, "1\n", "# device-dependent: random\n")
    cfg = project.config
    assert messages.stale_marks(cfg, block, rec, {"output": "1\n"}) is None
    assert messages.stale_marks(cfg, block, rec, {"device_dependent": ["random"]}) is None


STOPPED_FIX = (
    "espera a que terminen dentro del bloque (proceso.wait(), «with subprocess.Popen(…) as "
    "proceso:», pool.close() y pool.join()) o termínalos (proceso.terminate()): ejecutado como "
    "script, el código los dejaría en marcha en la máquina de quien lo ejecute."
)


@pytest.mark.parametrize(
    ("count", "left"),
    [
        (1, "un proceso que seguía en marcha al terminar su página: «p1»; se detuvo"),
        (2, "2 procesos que seguían en marcha al terminar su página: «p1», «p2»; se detuvieron"),
        (
            5,
            "5 procesos que seguían en marcha al terminar su página: «p1», «p2», «p3», «p4», "
            "«p5»; se detuvieron",
        ),
        (
            6,
            "6 procesos que seguían en marcha al terminar su página: «p1», «p2», «p3», «p4», "
            "«p5» …; se detuvieron",
        ),
    ],
)
def test_stopped_processes_are_named_up_to_five(
    project: Project, block: Block, count: int, left: str
) -> None:
    commands = [f"p{i}" for i in range(1, count + 1)]
    assert messages.stopped_processes(project.config, block, commands) == Finding(
        Kind.STOPPED_PROCESSES,
        f"el bloque «a/b» dejó {left} con la página. {WHERE}",
        "docs/a.md",
        4,
        STOPPED_FIX,
        level=Level.INFO,
    )
