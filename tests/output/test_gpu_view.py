"""What readers see of the GPU: its observation from the gpu job's report, or only what is known.

The "GPU reports" are reports of real CPU runs relabelled as gpu (support/relabel.py), in
temporary projects; the rendering is the engine's Markdown for one block.
"""

from __future__ import annotations

import datetime as dt
import html
import re
from pathlib import Path

import pytest
from conftest import Project
from docverify.core.kinds import Kind
from docverify.core.policies import DEFAULT_CUDA, DEVICE_LABEL
from docverify.output import panel, verification_page
from docverify.parsing.pages import read_site
from docverify.report import accept, gpu_report, report_json
from docverify.running.executor import Executor
from docverify.sources import freshness
from docverify.verifying import recordings
from docverify.verifying.outcome import Verification
from docverify.verifying.record import record
from docverify.verifying.verify import verify
from support.relabel import check_report, relabel

TODAY = dt.date(2026, 1, 1)
CI_RUN = {
    "GITHUB_SERVER_URL": "https://github.com",
    "GITHUB_REPOSITORY": "equipo/pytorch-es",
    "GITHUB_RUN_ID": "7",
}


@pytest.fixture(autouse=True)
def _local_author(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01


def one_block(project: Project, code: str) -> None:
    project.page("a.md", '# A\n\n```python exec="on" id="b"\n--8<-- "a/b.py"\n```\n')
    project.snippet("a/b.py", code)


def record_cpu(project: Project, executor: Executor) -> None:
    assert record(project.config, read_site(project.config), "cpu", executor).written


def cpu_build(project: Project, executor: Executor, gpu_folder: Path | None = None) -> Verification:
    cfg = project.config
    verification = verify(cfg, read_site(cfg), "cpu", executor)
    if gpu_folder is not None:
        verification = gpu_report.attach(cfg, verification, gpu_folder)
    return verification


def shown(project: Project, report: Verification) -> str:
    return panel.render_outcome(report.outcomes["a/b"])


def title(markdown: str) -> str:
    """The panel's one line under its output (folded parts aside)."""
    found = re.search(
        r'<(?:summary|p class="dv-(?:check|no-output)")>(.*?)</(?:summary|p)>', markdown
    )
    assert found, markdown
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1)))


def test_same_output_shows_once_labelled_with_both(
    project: Project, executor: Executor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one_block(project, "import torch\nprint(torch.arange(3.))\n")
    record_cpu(project, executor)
    for name, value in CI_RUN.items():
        monkeypatch.setenv(name, value)
    check_report(project.config, executor, tmp_path / "gpu", runner="gpu")
    build = cpu_build(project, executor, tmp_path / "gpu")
    assert not build.findings, build.findings
    text = shown(project, build)
    assert "CPU ✓" in title(text) and "GPU ✓" in title(text)
    assert '=== "GPU"' not in text and text.count("dv-output\n") == 1
    # the gpu provenance names the device policy (core/policies.py), then the torch version
    assert f"GPU · {DEVICE_LABEL[DEFAULT_CUDA]} · torch 2." in text and "misma salida" in text
    assert "en la ejecución de CI de este commit" in text
    page = verification_page.render(
        project.config,
        build.pages,
        build,
        freshness.evaluate(project.config, build.pages, TODAY),
    )
    assert "GPU (ejecución de CI): coincide con su grabación ✓" in page
    assert "https://github.com/equipo/pytorch-es/actions/runs/7" in page


def test_different_outputs_show_as_tabs(
    project: Project, executor: Executor, tmp_path: Path
) -> None:
    data = tmp_path / "valor.txt"
    one_block(project, f"print(open({str(data)!r}).read())\n")
    data.write_text("observado en la GPU")
    check_report(project.config, executor, tmp_path / "gpu", runner="gpu")
    data.write_text("observado en la CPU")
    record_cpu(project, executor)
    cfg = project.config
    plan = accept.plan(cfg, read_site(cfg), report_json.read(tmp_path / "gpu"))
    accept.apply(plan)  # the GPU's output becomes its own recording
    text = shown(project, cpu_build(project, executor, tmp_path / "gpu"))
    assert '=== "CPU"' in text and '=== "GPU"' in text
    assert "CPU ✓" in title(text) and "GPU ✓" in title(text)
    cpu_tab, gpu_tab = text.split('=== "GPU"')
    assert "observado en la CPU" in cpu_tab and "observado en la GPU" in gpu_tab


def test_a_divergent_gpu_report_is_an_error_and_shows_a_cross(
    project: Project, executor: Executor, tmp_path: Path
) -> None:
    data = tmp_path / "valor.txt"
    one_block(project, f"print(open({str(data)!r}).read())\n")
    data.write_text("gpu")
    check_report(project.config, executor, tmp_path / "gpu", runner="gpu")
    data.write_text("cpu")
    record_cpu(project, executor)
    build = cpu_build(project, executor, tmp_path / "gpu")
    assert [f.kind for f in build.findings] == [Kind.REPORT_DIVERGENCE]
    assert "docverify accept" in build.findings[0].fix
    text = shown(project, build)
    assert "GPU ✗" in title(text) and "GPU ✓" not in text


def test_a_gpu_output_with_no_recording_to_compare_says_so_not_that_it_diverges(
    project: Project, executor: Executor, tmp_path: Path
) -> None:
    """A block that asks about the accelerator needs its own gpu recording (running/marks.py):
    with none, the report's output of it has nothing to be compared with. The error says that,
    and how to adopt it; it does not say the output differs (report fixture: a real CPU run
    labelled gpu)."""
    project.page("a.md", "# A\n\n" + MARKED)
    record_cpu(project, executor)
    check_report(project.config, executor, tmp_path / "gpu", runner="gpu")
    build = cpu_build(project, executor, tmp_path / "gpu")
    missing = [f for f in build.findings if "«a/cuda»" in f.message]
    assert [f.kind for f in missing] == [Kind.REPORT_DIVERGENCE], build.findings
    assert "no tiene grabación con la que compararse" in missing[0].message, missing[0].message
    assert "no coincide" not in missing[0].message and "docverify accept" in missing[0].fix


def test_without_a_report_only_what_is_known(project: Project, executor: Executor) -> None:
    one_block(project, "import torch\nprint(torch.ones(2))\n")
    record_cpu(project, executor)
    text = shown(project, cpu_build(project, executor))
    assert "GPU ✓" not in text
    assert title(text).endswith("GPU: pendiente"), title(text)  # nothing more is known
    # What «pendiente» means is said once, on the page that explains the verification.
    assert "coincidir" not in text
    # with its own recording: that recording, its date and device, and still no ✓
    cfg = project.config
    (block,) = read_site(cfg)[0].blocks
    gpu = recordings.path_for(cfg, block, "gpu")
    gpu.write_text(
        recordings.path_for(cfg, block, "cpu").read_text().replace("cpu (", "NVIDIA H200 (", 1)
    )
    text = shown(project, cpu_build(project, executor))
    assert "GPU ✓" not in text and "GPU: sin comprobar en esta versión" in title(text)
    assert "salida del 1 de enero de 2026 en NVIDIA H200 (x86_64), sin comprobar en esta" in text


# Blocks whose GPU output cannot be their CPU output (running/marks.py), and one that can.
MARKED = (
    '```python exec="on" id="modelo" session="s"\nimport torch\nmodelo = torch.nn.Linear(2, 1)\n'
    "print(modelo.out_features)\n```\n\n"
    '```python exec="on" id="aplica" session="s"\nprint(modelo(torch.ones(2)).shape)\n```\n\n'
    '```python exec="on" id="cuda"\nimport torch\nprint(torch.cuda.is_available())\n```\n\n'
    '```python exec="on" id="fijo"\nimport torch\nprint(torch.ones(2) * 2)\n```\n'
)


def test_no_device_dependent_block_carries_the_label_of_a_deterministic_one(
    project: Project, executor: Executor
) -> None:
    """A block that draws random numbers or asks about the accelerator, and a later block of
    its session, say their GPU output will be their own (why: the report's table); the
    deterministic one does not, and nothing sounds like a check that did not happen."""
    project.page("a.md", "# A\n\n" + MARKED)
    record_cpu(project, executor)
    build = cpu_build(project, executor)
    titles = {
        key.removeprefix("a/"): title(panel.render_outcome(o)) for key, o in build.outcomes.items()
    }
    own = "GPU: pendiente, con salida propia"
    assert titles["modelo"].endswith(own) and titles["aplica"].endswith(own)  # session's mark
    assert titles["cuda"].endswith(own)
    assert titles["fijo"].startswith("CPU ✓ · torch ") and titles["fijo"].endswith(
        " · GPU: pendiente"
    ), titles["fijo"]
    for shown in titles.values():
        assert "GPU ✓" not in shown and "compara" not in shown


@pytest.mark.parametrize(
    ("mutate", "kind"),
    [
        (lambda p, f: p.snippet("a/b.py", "print(2)\n"), Kind.STALE_REPORT),
        (lambda p, f: relabel(f, "cpu"), Kind.WRONG_REPORT_RUNNER),
        (
            lambda p, f: p.page("z.md", '# Z\n\n```python exec="on" id="c"\nprint(3)\n```\n'),
            Kind.INCOMPLETE_REPORT,
        ),
        (lambda p, f: (f / "report.json").write_text("{"), Kind.INVALID_REPORT),
    ],
    ids=["codigo-cambiado", "otro-runner", "sin-un-bloque", "roto"],
)
def test_an_unusable_report_is_an_error(
    project: Project, executor: Executor, tmp_path: Path, mutate, kind: Kind
) -> None:
    one_block(project, "print(1)\n")
    record_cpu(project, executor)
    folder = tmp_path / "gpu"
    check_report(project.config, executor, folder, runner="gpu")
    assert not cpu_build(project, executor, folder).findings
    mutate(project, folder)
    kinds = [f.kind for f in cpu_build(project, executor, folder).findings]
    assert kind in kinds, kinds


def test_equal_but_for_the_device_shows_once_and_says_so(
    project: Project, executor: Executor, tmp_path: Path
) -> None:
    data = tmp_path / "valor.txt"
    one_block(project, f"print(open({str(data)!r}).read())\n")
    data.write_text("tensor([1., 2.], device='cuda:0')")  # what the GPU printed
    check_report(project.config, executor, tmp_path / "gpu", runner="gpu")
    data.write_text("tensor([1., 2.])")
    record_cpu(project, executor)
    build = cpu_build(project, executor, tmp_path / "gpu")
    assert not build.findings, build.findings
    text = shown(project, build)
    assert '=== "GPU"' not in text and "GPU ✓" in title(text)
    assert "misma salida salvo el argumento device=&#x27;cuda:N&#x27;" in text
