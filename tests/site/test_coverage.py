"""Where this version ran is data: every sentence about the runners comes from the build.

Two builds of the same small project: one with no GPU observation (an author's laptop) and one
given a GPU report, a real CPU run relabelled as the gpu runner's (support/relabel.py: its
"GPU" is this machine's CPU, and the sentences say what that report says). The home page, its
description, the site's description, the legend, the verification page and the notebook header say
what each build observed, and the GPU sentences of the two builds differ.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from pathlib import Path

import pytest
import yaml
from conftest import Project, mkdocs_build
from docverify import build
from docverify.core import config as config_mod
from docverify.core import request
from docverify.core.dates import spanish_date_of
from docverify.core.markdown import md_escape
from docverify.core.request import Request
from docverify.output import coverage_text as words
from docverify.output import (
    notebooks,
    page_parts,
    panel,
    render,
    verification_method,
    verification_page,
)
from docverify.parsing.pages import read_site
from docverify.report import accept, report_json
from docverify.running.executor import Executor
from docverify.site import coverage
from docverify.site.result import BuildResult
from docverify.sources import freshness
from docverify.verifying import judge
from docverify.verifying.outcome import Provenance, SeenIn
from docverify.verifying.record import record
from docverify.verifying.verify import verify
from docverify.zensical import adapter
from support.mkdocs_site import DAY
from support.relabel import check_report, cpu_run_as_gpu
from support.sources import source_page

pytestmark = pytest.mark.usefixtures("local_author")

HOME = f"""\
---
title: "Inicio"
description: "Un recorrido verificado."
---

# Inicio

Texto del autor.

{words.MARKER}
"""
PAGE = """\
# Bloques

```python exec="on" id="fijo"
import torch
print(torch.arange(3.) * 2)
```

```python exec="on" id="azar"
import torch
print(torch.rand(2).shape)
```
"""


def built(project: Project, executor: Executor, gpu_report: Path | None = None) -> BuildResult:
    cfg = project.config
    reports = (gpu_report,) if gpu_report else None
    return build.run(cfg, read_site(cfg), Request(runner="cpu", gpu_reports=reports), executor)


def home(result: BuildResult) -> str:
    return page_parts.page_markdown(result, "index.md", HOME.split("---\n", 2)[2], "", None)


def opening(result: BuildResult) -> str:
    """The verification page before its first table's section."""
    return verification_text(result).split("\n## ", 1)[0]


def verification_text(result: BuildResult) -> str:
    """The verification page's Markdown, as the site's render generates it."""
    return render.site(result).files[verification_page.URI]


def gpu_sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.:;])\s+", text) if "GPU" in s]


@pytest.fixture
def two_builds(project: Project, executor: Executor, tmp_path: Path) -> tuple[BuildResult, ...]:
    project.page("index.md", HOME)
    project.page("bloques.md", PAGE)
    cfg = project.config
    assert record(cfg, read_site(cfg), "cpu", executor).written
    cpu_only = built(project, executor)
    folder = tmp_path / "informe-gpu"
    check_report(cfg, executor, folder, runner="gpu")  # the relabelled "GPU" run
    accept.apply(accept.plan(cfg, read_site(cfg), report_json.read(folder)))  # azar.gpu.txt
    with_gpu = built(project, executor, folder)
    assert not with_gpu.errors, with_gpu.errors
    return cpu_only, with_gpu


def test_without_a_gpu_observation_the_site_says_cpu_only(
    two_builds: tuple[BuildResult, ...],
) -> None:
    result = two_builds[0]
    cov = result.coverage
    assert cov is not None and cov.gpu is None and cov.gpu_observed == 0
    assert cov.cpu_observed == 2 and cov.need_gpu == ("bloques/azar",) and cov.own_gpu == 0
    shown = home(result)
    assert words.MARKER not in shown
    assert "**Esta versión del sitio se verificó solo en CPU.**" in shown
    assert "0 bloques observados en una GPU" in shown and "2 bloques se ejecutaron" in shown
    assert f"«GPU: {words.NOT_RUN}»" in shown and f"«{words.NEEDS_OWN}»" in shown
    described = page_parts.description_meta(result, "index.md")["description"]
    assert described.startswith("Un recorrido verificado. ")
    assert described.endswith("solo en CPU. 2 bloques observados en CPU y 0 en una GPU.")
    assert page_parts.with_sentence("Autor.", result) == "Autor. " + words.description(cov)
    report = opening(result)
    assert "**Esta versión del sitio se verificó solo en CPU.**" in report
    assert "- Bloques observados en una GPU: 0 (esta versión se verificó solo en CPU)." in report
    assert "- Bloques observados en CPU: 2 de 2." in report
    assert "- Bloques que necesitan su propia grabación de GPU y aún no la tienen: 1" in report
    legend = verification_method.legend(cov)
    assert f"«GPU: {words.NOT_RUN}»" in legend and "«GPU ✓»" not in legend
    assert "«CPU ✓»" in legend  # it observed its blocks on CPU: the mark it shows is explained


def test_a_build_given_outputs_by_the_local_cache_says_so(
    project: Project, executor: Executor, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Outside CI the local cache gives a block's output instead of running it again: the home
    page and the verification page say how many, and a build that ran everything says «se
    ejecutaron» and nothing of the cache."""
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("DOCVERIFY_CACHE", "1")
    project.page("index.md", HOME)
    project.page("bloques.md", PAGE)
    cfg = project.config
    assert record(cfg, read_site(cfg), "cpu", executor).written
    local = request.from_env(runner="cpu")  # what the MkDocs hook and docverify check use
    assert local.cache is request.CacheUse.READ
    ran = build.run(cfg, read_site(cfg), local, executor)
    cached = build.run(cfg, read_site(cfg), local, executor)
    assert ran.coverage is not None and cached.coverage is not None
    assert (ran.coverage.cached, cached.coverage.cached) == (0, 2)
    assert "2 bloques se ejecutaron" in home(ran) and "caché" not in home(ran)
    assert "caché" not in opening(ran) and "salvo los que la caché" not in verification_text(ran)
    shown = home(cached)
    assert "2 bloques se verificaron" in shown, shown
    assert "De ellos, 2 bloques no se volvieron a ejecutar" in shown, shown
    assert "salvo los que la caché local de docverify" in verification_text(cached)
    assert "(2 en esta," in verification_text(cached)


def test_with_a_gpu_report_the_site_says_what_it_observed(
    two_builds: tuple[BuildResult, ...],
) -> None:
    cpu_only, result = two_builds
    cov = result.coverage
    assert cov is not None and cov.gpu is not None
    verdicts = [v for o in result.verification.outcomes.values() if (v := o.reported("gpu"))]
    peers = [v.provenance for v in verdicts if v.provenance]
    assert cov.gpu_observed == len(peers) == 2 and not cov.gpu.in_build
    assert (cov.gpu.seen.device, cov.gpu.seen.torch) == (peers[0].device, peers[0].torch)
    assert cov.own_gpu == 1 and cov.need_gpu == ()
    shown = home(result)
    assert "**Esta versión del sitio se verificó en CPU y en GPU.**" in shown
    assert f"2 bloques en una GPU ({md_escape(peers[0].device)}, torch {peers[0].torch}" in shown
    assert spanish_date_of(peers[0].date) in shown and "solo en CPU" not in shown
    described = page_parts.description_meta(result, "index.md")["description"]
    assert described.endswith(f"y 2 en una GPU ({peers[0].device}).")
    report = opening(result)
    assert f"- Bloques observados en una GPU: 2 ({md_escape(peers[0].device)}, torch" in report
    assert "«GPU ✓»" in verification_method.legend(cov)
    assert "«CPU ✓»" in verification_method.legend(cov)
    # The two builds' sentences about the GPU differ, wherever the site says them.
    for say in (
        home,
        opening,
        lambda r: page_parts.description_meta(r, "index.md")["description"],
        lambda r: verification_method.legend(r.coverage),
    ):
        before, after = gpu_sentences(say(cpu_only)), gpu_sentences(say(result))
        # The first one says what was observed on a GPU: never the same in the two builds.
        assert before and after and before[0] != after[0], (before, after)


def test_a_build_on_the_gpu_runner_says_so(project: Project, executor: Executor) -> None:
    """A local build on a CUDA machine runs on gpu: its blocks are its GPU observation (here a
    real CPU run relabelled as gpu), and it observed none on CPU."""
    project.page("bloques.md", PAGE)
    cfg = project.config
    pages = read_site(cfg)
    report = verify(cfg, pages, "gpu", executor, run=cpu_run_as_gpu)
    cov = coverage.of(report, freshness.evaluate(cfg, pages, DAY), DAY)
    assert cov.gpu is not None and cov.gpu.in_build and cov.gpu_observed == 2
    assert (cov.gpu.seen.device, cov.gpu.seen.date) == (report.env["device"], DAY.isoformat())
    assert cov.cpu_observed == 0
    assert words.verdict(cov) == "Esta versión del sitio se verificó en una GPU."
    assert words.description(cov).endswith(
        "2 bloques observados en una GPU (" + cov.gpu.seen.device + ") y 0 en CPU."
    )
    assert "en esta construcción" in words.verification_opening(cov)
    legend = verification_method.legend(cov)
    assert "«CPU ✓»" not in legend and f"«CPU: {words.RECORDED}»" in legend
    # With no coverage known (no build result), the legend still explains the CPU mark.
    assert "«CPU ✓»" in verification_method.legend(None)


def test_only_a_marker_on_its_own_line_is_replaced(two_builds: tuple[BuildResult, ...]) -> None:
    """A page that names the marker in its text (the author guide does) keeps its words and its
    description."""
    result = two_builds[0]
    text = f"Escribe `{words.MARKER}` donde va el párrafo.\n"
    assert page_parts.page_markdown(result, "bloques.md", text, "", None).endswith(text)
    assert page_parts.description_meta(result, "bloques.md") == {}


def test_notebooks_say_where_this_version_ran(two_builds: tuple[BuildResult, ...]) -> None:
    heads = []
    for result in two_builds:
        page = result.pages["bloques.md"]
        notebook = notebooks.build(
            result.config, page, result.verification, result.today, coverage=result.coverage
        )
        heads.append(notebook["cells"][0]["source"])
    assert "solo en CPU" in heads[0] and "Ninguna GPU ha ejecutado" in heads[0]
    assert "en CPU y en GPU" in heads[1] and "solo en CPU" not in heads[1]


def test_the_zensical_docs_say_it_as_the_mkdocs_hook_does(
    two_builds: tuple[BuildResult, ...],
) -> None:
    """Zensical renders through the same functions: the home page's front matter carries the
    description the MkDocs hook sets in page.meta."""
    for result in two_builds:
        site = render.site(result, notebook_pages=True)
        shown = site.page("index.md", render.Links("index.md"))
        text = site.front_matter("index.md") + shown.markdown
        front = yaml.safe_load(text.split("---\n", 2)[1])
        assert (
            front["description"] == page_parts.description_meta(result, "index.md")["description"]
        )
        assert front["title"] == "Inicio"
        assert words.home(result.coverage) in text


@pytest.mark.slow
def test_the_built_site_and_its_zensical_configuration_say_the_same(
    small_copy: Path, executor: Executor, tmp_path: Path
) -> None:
    """The real configuration, templates and hook on the one-article site (conftest `small`):
    built without a GPU report, then with a relabelled one, the <meta name="description"> of
    the page that holds the coverage marker («Cómo se verifica»), the site's description (on the
    report page, which has none of its own) and the derived Zensical configuration say what each
    build observed."""
    cfg = config_mod.load(small_copy)
    holder = next(p.rel for p in read_site(cfg) if words.MARKER_LINE.search(p.body))
    folder = "" if holder == "index.md" else holder.removesuffix(".md")
    report = tmp_path / "informe-gpu"
    check_report(cfg, executor, report, runner="gpu")
    said = []
    for name, env in (("cpu", {}), ("gpu", {"DOCVERIFY_GPU_REPORT": str(report)})):
        site = tmp_path / f"site-{name}"
        done = mkdocs_build(small_copy, site, env=env)
        assert done.returncode == 0, done.stderr
        index = (site / folder / "index.html").read_text(encoding="utf-8")
        verification = (site / "verificacion" / "index.html").read_text(encoding="utf-8")
        described = re.search(r'<meta name="description" content="([^"]*)"', index)
        site_wide = re.search(r'<meta name="description" content="([^"]*)"', verification)
        assert described and site_wide
        said.append((described.group(1), site_wide.group(1), index, verification))
        with pytest.MonkeyPatch.context() as patch:
            for key, value in {"DOCVERIFY_RUNNER": "cpu", "DOCVERIFY_CACHE": "0", **env}.items():
                patch.setenv(key, value)
            adapter.generate(small_copy, tmp_path / f"z-{name}", executor)
        derived = yaml.load(
            (tmp_path / f"z-{name}" / "mkdocs.yml").read_text("utf-8"), Loader=yaml.UnsafeLoader
        )
        assert derived["site_description"] == site_wide.group(1).replace("&#39;", "'")
        generated = (tmp_path / f"z-{name}" / "docs" / holder).read_text(encoding="utf-8")
        front = yaml.safe_load(generated.split("---\n", 2)[1])
        assert front["description"] == described.group(1).replace("&#39;", "'")
    (cpu_home, cpu_site, cpu_index, cpu_report), (gpu_home, gpu_site, gpu_index, _) = said
    assert "solo en CPU" in cpu_home and "0 en una GPU" in cpu_home
    assert "solo en CPU" in cpu_site and "0 en una GPU" in cpu_site
    assert "solo en CPU" in cpu_index and "0 bloques observados en una GPU" in cpu_index
    assert "Bloques observados en una GPU: 0" in cpu_report
    assert "en CPU y en GPU" in gpu_home and "solo en CPU" not in gpu_home
    assert "en CPU y en GPU" in gpu_site and "solo en CPU" not in gpu_index


def test_a_gpu_recording_is_no_gpu_observation(
    two_builds: tuple[BuildResult, ...], project: Project, executor: Executor
) -> None:
    """After `accept`, a block has its own GPU recording; a build given no GPU report has
    still observed nothing on a GPU: every sentence says CPU only, and the panels' legend says
    the GPU output shown is a recording nobody checked now."""
    result = built(project, executor)
    assert not result.errors, result.errors
    cov = result.coverage
    assert cov is not None and cov.own_gpu == 1
    assert cov.gpu is None and cov.gpu_observed == 0
    assert words.verdict(cov) == "Esta versión del sitio se verificó solo en CPU."
    shown = home(result)
    assert "**Esta versión del sitio se verificó solo en CPU.**" in shown
    assert "0 bloques observados en una GPU" in shown and "en CPU y en GPU" not in shown
    assert "1 bloque tiene su propia grabación de GPU" in shown
    assert words.description(cov).endswith("observados en CPU y 0 en una GPU.")
    assert "- Bloques observados en una GPU: 0 (" in opening(result)
    legend = verification_method.legend(cov)
    assert "«GPU ✓»" not in legend and f"«GPU: {words.RECORDED}»" in legend


PINNED = """\
# Bloques

```python exec="on" id="azar"
import torch
print(torch.rand(2).shape)
```

```python exec="on" id="solo-cpu" runner="cpu" reason="mide la CPU"
import torch
print(torch.rand(3).shape)
```
"""


def test_a_block_pinned_to_cpu_needs_no_gpu_recording(project: Project, executor: Executor) -> None:
    """Two blocks draw random numbers; the one pinned to runner="cpu" never runs on a GPU, so
    only the other one is counted, and labelled, as needing its own GPU recording."""
    project.page("bloques.md", PINNED)
    cfg = project.config
    assert len(record(cfg, read_site(cfg), "cpu", executor).written) == 2
    result = built(project, executor)
    assert not result.errors, result.errors
    outcomes = result.verification.outcomes
    assert all(o.recordings["cpu"].marks == ("random",) for o in outcomes.values())
    cov = result.coverage
    assert cov is not None and cov.need_gpu == ("bloques/azar",)
    assert "1 bloque la necesita y aún no la tiene" in words.home(cov)
    assert "aún no la tienen: 1 (" in words.verification_opening(cov)
    page = result.pages["bloques.md"]
    panels = {
        b.id: panel.markdown(result.verification.outcomes[b.key], result.canary)
        for b in page.blocks
    }
    assert words.NEEDS_OWN in panels["azar"] and words.NEEDS_OWN not in panels["solo-cpu"]


def test_the_gpu_count_is_what_the_gpu_report_observed(
    project: Project, executor: Executor, tmp_path: Path
) -> None:
    """The GPU report observed only the block that runs on a GPU; the CPU, both."""
    project.page("bloques.md", PINNED)
    cfg = project.config
    assert record(cfg, read_site(cfg), "cpu", executor).written
    folder = tmp_path / "informe-gpu"
    check_report(cfg, executor, folder, runner="gpu")  # the relabelled "GPU" run
    cov = built(project, executor, folder).coverage
    assert cov is not None and cov.gpu is not None
    assert (cov.cpu_observed, cov.gpu_observed) == (2, 1)
    described = words.description(cov)
    assert described.endswith(
        f"2 bloques observados en CPU y 1 en una GPU ({cov.gpu.seen.device})."
    )


GPU_ONLY = """\
# Bloques

```python exec="on" id="fijo"
import torch
print(torch.arange(3.) * 2)
```

```python exec="on" id="solo-gpu" runner="gpu" reason="mide la GPU"
import torch
print(torch.cuda.get_device_name(0))
```
"""


def test_a_build_from_reports_says_its_outputs_were_observed_by_the_check(
    project: Project, executor: Executor, tmp_path: Path
) -> None:
    """A build from the check's report ran nothing: it says the blocks ran in the verification
    of the commit (also when a block, pinned to the GPU, has no CPU output), and never that a
    local cache gave any of them."""
    project.page("index.md", HOME)
    project.page("bloques.md", GPU_ONLY)
    cfg = project.config
    assert record(cfg, read_site(cfg), "cpu", executor).written
    folder = tmp_path / "informe-cpu"
    check_report(cfg, executor, folder)
    pages = read_site(cfg)
    result = build.run(cfg, pages, Request(runner="cpu", from_reports=(folder,)), executor)
    assert not result.errors, result.errors
    cov = result.coverage
    assert cov is not None and cov.reported and cov.cpu_observed == 1
    shown = home(result)
    assert "En la verificación de este commit, 1 bloque se ejecutó " in shown
    assert "Al construirla" not in shown
    assert "caché" not in words.home(dataclasses.replace(cov, cached=1))


def test_the_sources_count_says_how_many_are_fresh(project: Project, executor: Executor) -> None:
    """Two sources verified on the day, one long before: two of three are fresh."""
    day = config_mod.today()
    source_page(project, f'"{day.isoformat()}"', name="nueva.md")
    source_page(project, f'"{day.isoformat()}"', name="otra.md")
    source_page(project, f'"{(day - dt.timedelta(days=400)).isoformat()}"', name="vieja.md")
    cfg = project.config
    pages = read_site(cfg)
    cov = coverage.of(verify(cfg, pages, "cpu", executor), freshness.evaluate(cfg, pages, day), day)
    assert (cov.sources_fresh, cov.sources_total) == (2, 3)
    assert "- Fuentes al día: 2 de 3." in words.verification_opening(cov)


POLICIES = """\
# Dispositivos

```python exec="on" id="suyo" device_policy="as-written"
print(1)
```

```python exec="on" id="solo-gpu" runner="gpu" reason="usa cuda" device_policy="as-written"
print(2)
```

```python exec="on" id="solo-cpu" runner="cpu" reason="sin cuda" device_policy="as-written"
print(3)
```

```python exec="on" id="por-defecto"
print(4)
```
"""


def test_the_blocks_that_leave_their_devices_to_their_code_on_a_gpu_are_counted(
    project: Project,
) -> None:
    """`as_written` counts the blocks that run on the gpu runner (with or without the cpu
    runner) under device_policy="as-written": not one that runs only on CPU, where the policy
    has no effect, nor one with the default policy. Nothing runs: the count reads the fences."""
    project.page("bloques.md", POLICIES)
    cfg = project.config
    pages = read_site(cfg)
    cov = coverage.of(
        judge.verification(cfg, pages, "cpu", None), freshness.evaluate(cfg, pages, DAY), DAY
    )
    assert not [f for p in pages for f in p.findings], [f for p in pages for f in p.findings]
    assert cov.blocks == 4 and cov.as_written == 2


def test_a_gpu_build_records_where_and_when_it_observed(
    project: Project, executor: Executor
) -> None:
    """The provenance of a build on the gpu runner is the run's own environment, dated today;
    without an environment (nothing reported it) each unknown part is «?»."""
    project.page("bloques.md", PAGE)
    cfg = project.config
    pages = read_site(cfg)
    report = verify(cfg, pages, "gpu", executor, run=cpu_run_as_gpu)
    fresh = freshness.evaluate(cfg, pages, DAY)
    cov = coverage.of(report, fresh, DAY)
    env = report.env
    assert cov.torch == env["torch"] and cov.gpu is not None
    assert cov.gpu.seen == Provenance(
        "gpu", env["torch"], env["device"], DAY.isoformat(), SeenIn.BUILD
    )
    blind = coverage.of(dataclasses.replace(report, env={}), fresh, DAY)
    assert blind.torch == "?" and blind.gpu is not None
    assert (blind.gpu.seen.torch, blind.gpu.seen.device) == ("?", "?")


def test_the_data_of_verificacion_json() -> None:
    seen = Provenance("gpu", "2.13.0", "NVIDIA H100", "2026-01-02", SeenIn.REPORT, "https://ci/1")
    cov = coverage.Coverage(
        runner="cpu",
        torch="2.13.0",
        blocks=7,
        observed=5,
        cached=2,
        reported=False,
        gpu=coverage.GpuObserved(3, seen),
        own_gpu=1,
        need_gpu=("a/b",),
        sources_fresh=4,
        sources_total=6,
    )
    assert cov.data() == {
        "runner": "cpu",
        "torch": "2.13.0",
        "blocks": 7,
        "cpu_observed": 5,
        "from_local_cache": 2,
        "from_reports": False,
        "gpu_observed": 3,
        "gpu": {
            "device": "NVIDIA H100",
            "torch": "2.13.0",
            "date": "2026-01-02",
            "in_build": False,
            "run_url": "https://ci/1",
        },
        "own_gpu_recordings": 1,
        "need_gpu_recording": ["a/b"],
        "sources_fresh": 4,
        "sources_total": 6,
    }
    assert dataclasses.replace(cov, gpu=None).data()["gpu"] is None
