"""The publishing chain: the gpu job keeps its report, `site` builds with it (or, with no GPU runner
configured, without it), `deploy` runs nothing.

Each rule of tests/support/workflow_rules.py about the chain is shown to hold on the real
workflows and to break when the chain is broken in a copy of the text.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support import workflow_rules as rules

WORKFLOWS = Path(__file__).resolve().parents[2] / ".github" / "workflows"
PAGES = "actions/upload-pages-artifact@fc324d3547104276b827a68afc52ff2a11cc49c9 # v5.0.0"
OTHER_ACTION = "actions/download-artifact@3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c # v8.0.1"
GPU_UPLOAD_IF = "        if: ${{ always() }}\n        uses: actions/upload-artifact"
DOWNLOAD = """      - name: Descargar el informe del runner gpu
        if: needs.gpu.result == 'success'
        uses: actions/download-artifact@3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c # v8.0.1
        with:
          name: docverify-gpu
          path: gpu-artifact/
"""
# Only the variable's line: the build step keeps its other variables (PAGES_URL).
BUILD_ENV = "          DOCVERIFY_GPU_REPORT: gpu-artifact/docverify-gpu\n"
# When `site` runs: cpu passed and gpu passed, or no GPU runner is configured (gpu skipped).
SITE_GPU = (
    "      && (needs.gpu.result == 'success'\n"
    "      || needs.gpu.result == 'skipped' && needs.config.outputs.gpu == 'false') }}"
)
CPU_ONLY_IF = "        if: needs.config.outputs.gpu == 'false'\n"


def text(name: str = "docs.yml") -> str:
    return (WORKFLOWS / name).read_text(encoding="utf-8")


def mutate(old: str, new: str, name: str = "docs.yml", count: int = 1) -> str:
    original = text(name)
    assert original.count(old) >= count, f"la mutación no aplica: «{old.strip()}»"
    return original.replace(old, new, count)


def broken(workflow: str, name: str = "docs.yml") -> set[str]:
    return {p.rule for p in rules.check(workflow, name)}


def test_the_chain_of_the_real_workflow() -> None:
    jobs = rules.load(text())["jobs"]
    publishers = [n for n, j in jobs.items() if rules.steps_using(j, rules.PAGES_UPLOAD)]
    assert publishers == ["site"]
    assert rules.all_needs(jobs, "site") == {"config", "cpu", "gpu"}
    assert rules.needs(jobs["deploy"]) == ["site"]
    assert rules.report_folders(jobs["gpu"]) == ["test-artifacts/docverify-gpu"]
    assert rules.report_uploads(jobs["gpu"]) == [("docverify-gpu", "docverify-gpu")]
    steps = jobs["deploy"]["steps"]
    assert [s["uses"].split("@")[0] for s in steps] == ["actions/deploy-pages"]
    assert not any("run" in s for s in steps)
    weekly = rules.load(text("weekly.yml"))["jobs"]
    assert rules.report_uploads(weekly["gpu"]) == [("weekly-gpu", "docverify-gpu")]
    for name in ("docs.yml", "weekly.yml"):
        assert not rules.check(text(name), name)


MUTATIONS = [
    # (id, workflow text, rule expected to break)
    (
        "informe-solo-si-falla",
        lambda: mutate(
            GPU_UPLOAD_IF, "        if: ${{ failure() }}\n        uses: actions/upload-artifact"
        ),
        "informe-gpu",
    ),
    (
        "informe-fuera-del-artefacto",
        lambda: mutate(
            "--runner gpu --report test-artifacts/docverify-gpu",
            "--runner gpu --report /tmp/docverify-gpu",
        ),
        "informe-gpu",
    ),
    (
        "gpu-sin-informe",
        lambda: mutate(" --report test-artifacts/docverify-gpu", ""),
        "informe-gpu",
    ),
    ("sitio-sin-descarga", lambda: mutate(DOWNLOAD, ""), "sitio-gpu"),
    (
        "sitio-descarga-otro-artefacto",
        lambda: mutate(
            "          name: docverify-gpu\n          path: gpu-artifact/",
            "          name: docverify-cpu\n          path: gpu-artifact/",
        ),
        "sitio-gpu",
    ),
    ("sitio-sin-variable", lambda: mutate(BUILD_ENV, ""), "sitio-gpu"),
    (
        "sitio-otra-ruta",
        lambda: mutate(
            "DOCVERIFY_GPU_REPORT: gpu-artifact/docverify-gpu", "DOCVERIFY_GPU_REPORT: gpu-artifact"
        ),
        "sitio-gpu",
    ),
    (
        "sitio-sin-gpu",
        lambda: mutate("    needs: [config, cpu, gpu]\n", "    needs: [config, cpu]\n"),
        "sitio-gpu",
    ),
    # Without a GPU runner the site is built all the same; with one, never after gpu failed.
    (
        "sitio-sin-if",
        lambda: mutate(
            "    if: >-\n      ${{ !cancelled() && needs.config.result == 'success' && "
            "needs.cpu.result == 'success'\n" + SITE_GPU + "\n",
            "",
        ),
        "sitio-sin-gpu",
    ),
    (
        "sitio-aunque-gpu-falle",
        lambda: mutate(
            SITE_GPU,
            "      && needs.gpu.result != 'failure' }}",
        ),
        "sitio-sin-gpu",
    ),
    (
        "sitio-si-gpu-omitido-por-la-puerta",
        lambda: mutate(
            SITE_GPU,
            "      && (needs.gpu.result == 'success' || needs.gpu.result == 'skipped') }}",
        ),
        "sitio-sin-gpu",
    ),
    (
        "sitio-sin-cpu",
        lambda: mutate(" && needs.cpu.result == 'success'\n", "\n"),
        "sitio-sin-gpu",
    ),
    (
        "sitio-exige-todo",
        lambda: mutate("${{ !cancelled() && needs.config", "${{ needs.config"),
        "sitio-sin-gpu",
    ),
    ("sitio-solo-cpu-siempre", lambda: mutate(CPU_ONLY_IF, ""), "sitio-sin-gpu"),
    (
        "cpu-publica",
        lambda: mutate(
            "      - name: Subir el informe y los diffs si algo falló\n",
            "      - name: Publicar desde cpu\n"
            f"        uses: {PAGES}\n"
            "        with:\n          path: site/\n"
            "      - name: Subir el informe y los diffs si algo falló\n",
        ),
        "sitio-gpu",
    ),
    (
        "deploy-ejecuta-codigo",
        lambda: mutate(
            "      - name: Publicar en GitHub Pages\n",
            "      - name: Preparar\n        run: echo hola\n"
            "      - name: Publicar en GitHub Pages\n",
        ),
        "deploy",
    ),
    (
        "deploy-otra-accion",
        lambda: mutate(
            "      - name: Publicar en GitHub Pages\n",
            "      - name: Otra acción\n"
            f"        uses: {OTHER_ACTION}\n"
            "      - name: Publicar en GitHub Pages\n",
        ),
        "deploy",
    ),
    (
        "deploy-sin-sitio",
        lambda: mutate("    needs: [site]\n", "    needs: [cpu, gpu]\n"),
        "deploy",
    ),
]


@pytest.mark.parametrize(
    ("make", "rule"), [m[1:] for m in MUTATIONS], ids=[m[0] for m in MUTATIONS]
)
def test_a_broken_chain_is_reported(make, rule: str) -> None:
    assert rule not in broken(text())
    assert rule in broken(make())


def test_the_weekly_gpu_report_is_kept_on_every_run() -> None:
    weekly = mutate(
        GPU_UPLOAD_IF,
        "        if: ${{ failure() }}\n        uses: actions/upload-artifact",
        "weekly.yml",
    )
    assert "informe-gpu" in broken(weekly, "weekly.yml")
