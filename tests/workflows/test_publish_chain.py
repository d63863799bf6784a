"""The publishing chain: every shard of cpu and gpu keeps its report, `site` renders them (the gpu
ones only where a GPU runner is configured) and executes nothing, its canary comes from weekly.yml
on the default branch through a job that runs no repository code, `deploy` runs nothing but the
question «is this commit still the head of main?», asked again in its own job, and the Zensical
job holds up none of it.

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
CHECKOUT = "actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1"
# The always() upload of each runner's shard reports.
CPU_UPLOAD = (
    "        if: ${{ always() }}\n"
    "        uses: actions/upload-artifact@bbbca2ddaa5d8feaa63e36b76fdaad77386f024f # v7.0.0\n"
    "        with:\n"
    "          name: docverify-cpu-${{ matrix.shard }}\n"
)
GPU_UPLOAD = CPU_UPLOAD.replace("docverify-cpu-", "docverify-gpu-")
GPU_DOWNLOAD = """      - name: Descargar los informes de gpu (todas las partes)
        if: needs.gpu.result == 'success'
        uses: actions/download-artifact@3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c # v8.0.1
        with:
          pattern: docverify-gpu-*
          path: reports/gpu/
"""
CPU_PATTERN = "          pattern: docverify-cpu-*\n          path: reports/cpu/\n"
GPU_PATTERN = "          pattern: docverify-gpu-*\n          path: reports/gpu/\n"
CANARY_DOWNLOAD = (
    "          name: canario-semanal\n          path: canary/\n"
    "      - name: Dirección del sitio publicado"
)
# Only the variable's line: the build step keeps its other variables (PAGES_URL).
BUILD_ENV = "          DOCVERIFY_GPU_REPORT: reports/gpu\n"
FROM_REPORTS = "      DOCVERIFY_FROM_REPORTS: reports/cpu\n"
# When `site` runs: cpu passed and gpu passed, or no GPU runner is configured (gpu skipped).
SITE_GPU = (
    "      && (needs.gpu.result == 'success'\n"
    "      || needs.gpu.result == 'skipped' && needs.config.outputs.gpu == 'false') }}"
)
SITE_IF = (
    "    if: >-\n      ${{ !cancelled() && needs.config.result == 'success' && "
    "needs.cpu.result == 'success'\n      && needs.canario.result == 'success'\n" + SITE_GPU + "\n"
)
CPU_ONLY_IF = "        if: needs.config.outputs.gpu == 'false'\n"
SITE_NEEDS = "    needs: [config, cpu, gpu, canario]\n"
DEPLOY_IF = "        if: steps.head.outputs.publish == 'true'\n        uses: actions/deploy-pages"
DEPLOY_HEAD_STEP = (
    "      - name: ¿Sigue siendo este commit la cabeza de main? (otra vez, al publicar)\n"
    "        id: head\n"
)
PAGES_STEP = "      - name: Dirección del sitio publicado (configuración de GitHub Pages)\n"
CANARY_PERMISSIONS = (
    "      actions: read # list weekly.yml's runs and download their artifact docverify-canary\n"
)


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
    assert rules.all_needs(jobs, "site") == {"config", "partes", "cpu", "gpu", "canario"}
    assert rules.needs(jobs["deploy"]) == ["site"]
    for runner in ("cpu", "gpu"):
        shard = f"test-artifacts/docverify-{runner}-{rules.MATRIX_SHARD}"
        assert rules.report_folders(jobs[runner]) == [shard]
        assert rules.report_uploads(jobs[runner]) == [
            (f"docverify-{runner}-{rules.MATRIX_SHARD}", ".")
        ]
        others = rules.report_uploads(jobs["gpu" if runner == "cpu" else "cpu"])
        others_names = [a for a, _ in others]
        uploads = rules.report_uploads(jobs[runner])
        assert rules.landing(jobs["site"], uploads, others_names) == {f"reports/{runner}"}
    steps = jobs["deploy"]["steps"]
    assert [s.get("uses", "").split("@")[0] for s in steps] == ["", "actions/deploy-pages"]
    assert rules.is_head_check(steps[0]) and not rules.steps_using(
        jobs["deploy"], "actions/checkout"
    )
    assert rules.expression(steps[1]["if"]) == f"steps.{steps[0]['id']}.outputs.publish == 'true'"
    weekly = rules.load(text("weekly.yml"))["jobs"]
    assert rules.report_uploads(weekly["gpu"]) == [("weekly-gpu", "docverify-gpu")]
    for name in ("docs.yml", "weekly.yml"):
        assert not rules.check(text(name), name)


def without_deploy_head_step() -> str:
    """docs.yml with deploy's head check removed, up to its next step."""
    original = text()
    start = original.index(DEPLOY_HEAD_STEP)
    end = original.index("      - name: Publicar en GitHub Pages\n", start)
    return original[:start] + original[end:]


def _step_before(anchor: str, step: str) -> str:
    """docs.yml with `step` (YAML lines of one step) inserted before the line `anchor`."""
    return mutate(anchor, step + anchor)


MUTATIONS = [
    # (id, workflow text, rule expected to break)
    # Every shard of each runner keeps its report on every run, passed or failed.
    (
        "informe-gpu-solo-si-falla",
        lambda: mutate(GPU_UPLOAD, GPU_UPLOAD.replace("always()", "failure()")),
        "informe-gpu",
    ),
    (
        "informe-cpu-solo-si-falla",
        lambda: mutate(CPU_UPLOAD, CPU_UPLOAD.replace("always()", "failure()")),
        "informe-cpu",
    ),
    (
        "informe-fuera-del-artefacto",
        lambda: mutate(
            '--report "test-artifacts/docverify-gpu-$SHARD"', '--report "/tmp/docverify-gpu-$SHARD"'
        ),
        "informe-gpu",
    ),
    (
        "informe-cpu-en-otra-carpeta",
        lambda: mutate(
            '--report "test-artifacts/docverify-cpu-$SHARD"',
            '--report "test-artifacts/cpu-$SHARD"',
        ),
        "informe-cpu",
    ),
    (
        "gpu-sin-informe",
        lambda: mutate('\n          --report "test-artifacts/docverify-gpu-$SHARD"', ""),
        "informe-gpu",
    ),
    # The site downloads every shard of the gpu job, and builds with them.
    ("sitio-sin-descarga", lambda: mutate(GPU_DOWNLOAD, ""), "sitio-gpu"),
    (
        "sitio-descarga-otro-artefacto",
        lambda: mutate(GPU_PATTERN, CPU_PATTERN.replace("reports/cpu/", "reports/gpu/")),
        "sitio-gpu",
    ),
    (
        "sitio-descarga-cpu-y-gpu-juntos",
        lambda: mutate(GPU_PATTERN, GPU_PATTERN.replace("docverify-gpu-*", "docverify-*")),
        "sitio-gpu",
    ),
    (
        "sitio-descarga-una-parte-gpu",
        lambda: mutate(GPU_PATTERN, GPU_PATTERN.replace("docverify-gpu-*", "docverify-gpu-1")),
        "sitio-gpu",
    ),
    ("sitio-sin-variable", lambda: mutate(BUILD_ENV, ""), "sitio-gpu"),
    (
        "sitio-otra-ruta",
        lambda: mutate(BUILD_ENV, BUILD_ENV.replace("reports/gpu", "reports/gpu/docverify-gpu-1")),
        "sitio-gpu",
    ),
    (
        "sitio-sin-gpu",
        lambda: mutate(SITE_NEEDS, SITE_NEEDS.replace(" gpu,", "")),
        "sitio-gpu",
    ),
    # The site renders the cpu shards' reports and executes nothing.
    ("sitio-ejecuta-los-bloques", lambda: mutate(FROM_REPORTS, ""), "sitio-informes"),
    (
        "sitio-lee-otra-carpeta",
        lambda: mutate(FROM_REPORTS, FROM_REPORTS.replace("reports/cpu", "reports")),
        "sitio-informes",
    ),
    (
        "sitio-descarga-una-parte-cpu",
        lambda: mutate(
            CPU_PATTERN, CPU_PATTERN.replace("pattern: docverify-cpu-*", "name: docverify-cpu-1")
        ),
        "sitio-informes",
    ),
    (
        "sitio-ejecuta-check",
        lambda: _step_before(
            PAGES_STEP,
            "      - name: Verificar otra vez\n"
            "        run: .venv/bin/docverify check --runner cpu\n",
        ),
        "sitio-informes",
    ),
    (
        "sitio-variable-solo-en-un-paso",
        lambda: mutate(FROM_REPORTS, "").replace(
            BUILD_ENV, BUILD_ENV + "          DOCVERIFY_FROM_REPORTS: reports/cpu\n", 1
        ),
        "sitio-informes",
    ),
    # Without a GPU runner the site is built all the same; with one, never after gpu failed.
    ("sitio-sin-if", lambda: mutate(SITE_IF, ""), "sitio-sin-gpu"),
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
            "      - name: Subir las capturas de las pruebas si algo falló (parte 1)\n",
            "      - name: Publicar desde cpu\n"
            f"        uses: {PAGES}\n"
            "        with:\n          path: site/\n"
            "      - name: Subir las capturas de las pruebas si algo falló (parte 1)\n",
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
    # Deploy asks again whether its commit is the head of main, and publishes only then.
    (
        "deploy-sin-preguntar-la-cabeza",
        without_deploy_head_step,
        "deploy-cabeza",
    ),
    (
        "deploy-publica-sin-mirar-la-respuesta",
        lambda: mutate(DEPLOY_IF, "        uses: actions/deploy-pages"),
        "deploy-cabeza",
    ),
    (
        "deploy-publica-si-no-es-la-cabeza",
        lambda: mutate(DEPLOY_IF, DEPLOY_IF.replace("'true'", "'false'")),
        "deploy-cabeza",
    ),
    (
        "la-consulta-ejecuta-codigo",
        lambda: mutate(
            '          head=$(gh api "repos/$REPOSITORY/commits/main" --jq .sha)\n'
            '          if [ "$head" = "$SHA" ]; then\n'
            '            echo "publish=true" >> "$GITHUB_OUTPUT"\n'
            "          else\n"
            '            echo "::notice title=No se publica este commit::main ya está en $head y',
            '          head=$(gh api "repos/$REPOSITORY/commits/main" --jq .sha)\n'
            "          python3 .ci/publicar.py\n"
            '          if [ "$head" = "$SHA" ]; then\n'
            '            echo "publish=true" >> "$GITHUB_OUTPUT"\n'
            "          else\n"
            '            echo "::notice title=No se publica este commit::main ya está en $head y',
        ),
        "deploy",
    ),
    (
        "deploy-solo-a-mano",
        lambda: mutate(
            "      && (github.event_name == 'push' || github.event_name == 'workflow_dispatch')\n"
            "      && github.ref == 'refs/heads/main'\n      && needs.site",
            "      && github.event_name == 'workflow_dispatch'\n"
            "      && github.ref == 'refs/heads/main'\n      && needs.site",
        ),
        "deploy",
    ),
    # The site's canary: weekly.yml's, on the default branch, read by a job that runs no code of
    # the repository and holds nothing but `actions: read`, passed on as this run's artifact.
    (
        "sitio-lee-el-canario-de-otra-ejecucion",
        lambda: mutate(
            CANARY_DOWNLOAD,
            CANARY_DOWNLOAD.replace(
                "      - name:",
                "          run-id: ${{ needs.canario.outputs.run }}\n"
                "          github-token: ${{ github.token }}\n      - name:",
            ),
        ),
        "sitio-canario",
    ),
    (
        "canario-de-cualquier-rama",
        lambda: mutate(
            "          BRANCH: ${{ github.event.repository.default_branch }}\n",
            "          BRANCH: ${{ github.head_ref }}\n",
        ),
        "sitio-canario",
    ),
    (
        "canario-de-cualquier-workflow",
        lambda: mutate(
            "repos/$REPOSITORY/actions/workflows/weekly.yml/runs?",
            "repos/$REPOSITORY/actions/runs?",
        ),
        "sitio-canario",
    ),
    (
        "canario-con-el-codigo",
        lambda: _step_before(
            "      - name: Buscar el canario de la última ejecución semanal",
            f"      - uses: {CHECKOUT}\n        with:\n          persist-credentials: false\n",
        ),
        "lector-actions",
    ),
    (
        "canario-con-mas-permisos",
        lambda: mutate(CANARY_PERMISSIONS, CANARY_PERMISSIONS + "      contents: read\n"),
        "lector-actions",
    ),
    (
        "sitio-con-actions-read",
        lambda: mutate(
            "      pages: read # the published address, for site_url\n",
            "      pages: read # the published address, for site_url\n      actions: read\n",
        ),
        "lector-actions",
    ),
    # Zensical audits its build and never holds up publishing.
    (
        "zensical-bloquea-el-sitio",
        lambda: mutate(SITE_NEEDS, SITE_NEEDS.replace("canario]", "canario, zensical]")),
        "zensical",
    ),
    (
        "zensical-bloquea-deploy",
        lambda: mutate("    needs: [site]\n", "    needs: [site, zensical]\n"),
        "zensical",
    ),
]


@pytest.mark.parametrize(
    ("make", "rule"), [m[1:] for m in MUTATIONS], ids=[m[0] for m in MUTATIONS]
)
def test_a_broken_chain_is_reported(make, rule: str) -> None:
    assert rule not in broken(text())
    assert rule in broken(make())


def test_the_weekly_gpu_report_is_kept_on_every_run() -> None:
    upload = "        if: ${{ always() }}\n        uses: actions/upload-artifact"
    weekly = mutate(upload, upload.replace("always()", "failure()"), "weekly.yml")
    assert "informe-gpu" in broken(weekly, "weekly.yml")
