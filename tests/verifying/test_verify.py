"""verifying.verify on small fixture pages: recordings, divergences, exceptions, orphans."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import Project, docverify
from docverify.core.findings import Finding, errors
from docverify.core.kinds import Kind
from docverify.core.status import Status
from docverify.parsing.pages import read_site
from docverify.running.executor import Executor
from docverify.running.protocol import BlockResult
from docverify.site.usage import orphans
from docverify.verifying import recordings
from docverify.verifying.outcome import Provenance, SeenIn
from docverify.verifying.record import record
from docverify.verifying.verify import execute, unrun, verify
from support.blocks import block, kinds, run

pytestmark = pytest.mark.usefixtures("local_author")


def test_missing_recording_names_the_command(project: Project, executor: Executor) -> None:
    project.page("a.md", block("print(1)", "nuevo"))
    report = run(project, executor)
    (finding,) = errors(report.findings)
    assert finding.kind == Kind.MISSING_RECORDING
    assert finding.fix == "docverify record --runner cpu docs/a.md"
    assert finding.where == "docs/a.md:2"


def test_record_then_check_then_divergence_with_diff(project: Project, executor: Executor) -> None:
    project.snippet("a/uno.py", "print('hola')\nprint(41 + 1)\n")
    project.snippet("a/dos.py", "print('adiós')\n")
    project.page(
        "a.md",
        '```python exec="on" id="uno"\n--8<-- "a/uno.py"\n```\n\n'
        '```python exec="on" id="dos"\n--8<-- "a/dos.py"\n```\n',
    )
    cfg = project.config
    rec = record(cfg, read_site(cfg), "cpu", executor)
    assert len(rec.written) == 2 and not rec.findings
    assert not errors(run(project, executor).findings)
    # Change what both blocks print: every divergence is reported, each with a diff.
    project.snippet("a/uno.py", "print('hola')\nprint(41 + 2)\n")
    project.snippet("a/dos.py", "print('adios')\n")
    found = errors(run(project, executor).findings)
    assert kinds(found) == [Kind.DIVERGENCE, Kind.DIVERGENCE]
    assert found[0].where == "snippets/a/uno.py:2"  # the line that printed the 43
    assert "docs/a.md:1" in found[0].message and "a/uno" in found[0].message
    assert "-42" in found[0].detail and "+43" in found[0].detail
    assert found[1].where == "snippets/a/dos.py:1"


def test_hand_edited_recording_fails_and_record_restores_it(
    project: Project, executor: Executor, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1790000000")
    project.page("a.md", block("import torch\nprint(torch.arange(3) * 2)", "t"))
    cfg = project.config
    record(cfg, read_site(cfg), "cpu", executor)
    path = cfg.snippets_dir / "a" / "t.cpu.txt"
    original = path.read_bytes()
    path.write_text(path.read_text(encoding="utf-8").replace("4", "5"), encoding="utf-8")
    assert kinds(errors(run(project, executor).findings)) == [Kind.DIVERGENCE]
    record(cfg, read_site(cfg), "cpu", executor)
    assert path.read_bytes() == original
    # And a second record changes nothing.
    again = record(cfg, read_site(cfg), "cpu", executor)
    assert again.written == [] and again.unchanged == 1


def test_record_keeps_placeholders_that_still_match(project: Project, executor: Executor) -> None:
    project.page("a.md", block("print('id:', id(object()))\nprint('fijo')", "ph"))
    cfg = project.config
    record(cfg, read_site(cfg), "cpu", executor)
    path = cfg.snippets_dir / "a" / "ph.cpu.txt"
    text = path.read_text(encoding="utf-8")
    head, _, _ = text.partition("# ----\n")
    path.write_text(head + "# ----\nid: [..]\nfijo\n", encoding="utf-8")
    assert not errors(run(project, executor).findings)
    project.page("a.md", block("print('id:', id(object()))\nprint('cambiado')", "ph"))
    record(cfg, read_site(cfg), "cpu", executor)
    assert recordings.read(path, "cpu").body == "id: [..]\ncambiado\n"


def test_record_refuses_under_ci(
    project: Project, executor: Executor, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CI", "true")
    project.page("a.md", block("print(1)", "x"))
    rec = record(project.config, read_site(project.config), "cpu", executor)
    (refused,) = rec.findings
    assert refused.kind == Kind.REFUSED and "CI=true" in refused.message
    assert rec.written == [] and rec.env == {}  # nothing ran
    assert not (project.root / "snippets" / "a" / "x.cpu.txt").exists()


def test_record_refuses_unexpected_exception(project: Project, executor: Executor) -> None:
    project.page("a.md", block("print('antes')\n1 / 0", "boom"))
    rec = record(project.config, read_site(project.config), "cpu", executor)
    assert rec.written == []
    (finding,) = rec.findings
    assert finding.kind == Kind.UNEXPECTED_EXCEPTION and "ZeroDivisionError" in finding.message
    assert "docs/a.md:3: 1 / 0" in finding.detail


def test_expected_exception_is_recorded_and_shown(project: Project, executor: Executor) -> None:
    project.page(
        "a.md",
        block(
            "print('antes')\nraise ValueError('mal dato: 3')",
            "err",
            ' raises="ValueError: mal dato"',
        ),
    )
    cfg = project.config
    record(cfg, read_site(cfg), "cpu", executor)
    body = recordings.read(cfg.snippets_dir / "a" / "err.cpu.txt", "cpu").body
    assert body == "antes\nValueError: mal dato: 3\n"
    project.page("a.md", block("print('antes')", "err", ' raises="ValueError: mal dato"'))
    assert kinds(errors(run(project, executor).findings)) == [Kind.MISSING_EXCEPTION]
    project.page("a.md", block("raise KeyError('otra')", "err", ' raises="ValueError: mal"'))
    assert kinds(errors(run(project, executor).findings)) == [Kind.UNEXPECTED_EXCEPTION]


def test_orphan_recording_is_reported(project: Project, executor: Executor) -> None:
    project.page("a.md", block("print(1)", "vivo"))
    cfg = project.config
    record(cfg, read_site(cfg), "cpu", executor)
    project.page("a.md", block("print(1)", "renombrado"))
    record(cfg, read_site(cfg), "cpu", executor)
    found = orphans(cfg, read_site(cfg))
    assert [f.path for f in found] == ["snippets/a/vivo.cpu.txt"]
    assert "docverify prune --yes" in found[0].fix


def test_prune_lists_the_orphans_and_deletes_them_only_with_yes(
    project: Project, executor: Executor
) -> None:
    """`docverify prune` names each recording whose block is gone and deletes nothing;
    `--yes` deletes exactly those, never the recording of a block that is still there."""
    project.page("a.md", block("print(1)", "vivo"))
    cfg = project.config
    record(cfg, read_site(cfg), "cpu", executor)
    project.page("a.md", block("print(1)", "renombrado"))
    record(cfg, read_site(cfg), "cpu", executor)
    orphan, kept = (
        cfg.snippets_dir / "a" / "vivo.cpu.txt",
        cfg.snippets_dir / "a" / "renombrado.cpu.txt",
    )
    listed = docverify(project.root, "prune")
    assert listed.returncode == 0, listed.stderr
    assert "huérfana: snippets/a/vivo.cpu.txt (usa --yes para borrarla)" in listed.stdout
    assert listed.stdout.strip().endswith("docverify prune: 1 grabación huérfana")
    assert orphan.is_file() and kept.is_file()
    deleted = docverify(project.root, "prune", "--yes")
    assert deleted.returncode == 0, deleted.stderr
    assert "borrada: snippets/a/vivo.cpu.txt" in deleted.stdout
    assert not orphan.exists() and kept.is_file()
    again = docverify(project.root, "prune", "--yes")
    assert again.stdout.strip() == "docverify prune: 0 grabaciones huérfanas", again.stdout


def test_a_block_moved_to_another_runner_leaves_an_orphan(
    project: Project, executor: Executor
) -> None:
    """A block that now runs only on gpu keeps its old cpu recording: that file is an orphan."""
    project.page("a.md", block("print(1)", "x") + block("print(2)", "queda"))
    cfg = project.config
    record(cfg, read_site(cfg), "cpu", executor)
    assert not errors(run(project, executor).findings)
    project.page(
        "a.md",
        block("print(1)", "x", ' runner="gpu" reason="usa CUDA"') + block("print(2)", "queda"),
    )
    found = orphans(cfg, read_site(cfg))
    assert [f.path for f in found] == ["snippets/a/x.cpu.txt"]
    assert "(cpu)" in found[0].message


def test_expected_exception_with_another_message_is_refused(
    project: Project, executor: Executor
) -> None:
    """raises="Tipo: prefijo" checks the message too: the right type with another message is a
    located error, and `record` refuses to write it."""
    options = ' raises="ValueError: mal dato"'
    project.page(
        "a.md", "# A\n\n" + block("print('antes')\nraise ValueError('otro motivo')", "err", options)
    )
    cfg = project.config
    rec = record(cfg, read_site(cfg), "cpu", executor)
    assert rec.written == []
    assert not (cfg.snippets_dir / "a" / "err.cpu.txt").exists()
    (refused,) = rec.findings
    assert refused.kind == Kind.UNEXPECTED_EXCEPTION
    assert "ValueError: otro motivo" in refused.message and 'raises="' in refused.fix
    assert refused.path == "docs/a.md" and refused.line in (4, 5)  # the block's code lines
    (found,) = errors(run(project, executor).findings)
    assert found.kind == Kind.UNEXPECTED_EXCEPTION and found.where == refused.where


def test_runner_only_blocks_and_reasons(project: Project, executor: Executor) -> None:
    project.page(
        "a.md",
        block("print('solo gpu')", "g", ' runner="gpu" reason="usa CUDA"')
        + block("print(1)", "sin", ' runner="gpu"'),
    )
    pages = read_site(project.config)
    assert kinds(pages[0].findings) == [Kind.MISSING_REASON]
    report = run(project, executor)
    assert report.outcomes["a/g"].status == "other-runner"
    assert report.outcomes["a/g"].result is None


def test_gpu_recording_missing_never_fails_cpu(project: Project, executor: Executor) -> None:
    project.page("a.md", block("print(1)", "x"))
    cfg = project.config
    record(cfg, read_site(cfg), "cpu", executor)
    assert not errors(run(project, executor).findings)
    assert not (cfg.snippets_dir / "a" / "x.gpu.txt").exists()


def test_tolerance_from_block_options(project: Project, executor: Executor) -> None:
    project.page("a.md", block("print(0.1 + 0.2)", "num", ' rtol="0.01"'))
    cfg = project.config
    record(cfg, read_site(cfg), "cpu", executor)
    path = cfg.snippets_dir / "a" / "num.cpu.txt"
    path.write_text(
        path.read_text(encoding="utf-8").replace("0.30000000000000004", "0.301"), encoding="utf-8"
    )
    assert not errors(run(project, executor).findings)
    project.page("a.md", block("print(0.1 + 0.2)", "num"))
    assert kinds(errors(run(project, executor).findings)) == [Kind.DIVERGENCE]


def test_expectations(project: Project, executor: Executor) -> None:
    project.page(
        "a.md",
        block(
            "import torch\nx = torch.tensor(3.0)\nprint(x * 4)  # "
            "Expectativa: 12\nprint(x * 2)  # Expectativa: 7",
            "e",
        ),
    )
    report = run(project, executor)
    outcome = report.outcomes["a/e"]
    assert [(e["expected"], e["observed"], e["ok"]) for e in outcome.expectations] == [
        ("12", "tensor(12.)", True),
        ("7", "tensor(6.)", False),
    ]
    bad = [f for f in report.findings if f.kind == Kind.EXPECTATION]
    assert len(bad) == 1 and bad[0].where == "docs/a.md:5"
    assert "Esperado 7 · Observado tensor(6.)" in bad[0].message


def test_the_recording_header_is_never_compared(project: Project, executor: Executor) -> None:
    """Only the body is compared: a recording made with another torch still holds, and record
    leaves it as it is (its header says where it was recorded, not what is expected)."""
    project.page("a.md", block("print(6 * 2)", "x"))
    cfg = project.config
    record(cfg, read_site(cfg), "cpu", executor)
    path = cfg.snippets_dir / "a" / "x.cpu.txt"
    text = path.read_text(encoding="utf-8")
    torch_line = next(line for line in text.split("\n") if line.startswith("# torch: "))
    path.write_text(text.replace(torch_line, "# torch: 1.0.0"), encoding="utf-8")
    changed = path.read_bytes()
    assert not errors(run(project, executor).findings)
    rec = record(cfg, read_site(cfg), "cpu", executor)
    assert (rec.written, rec.unchanged) == ([], 1)
    assert path.read_bytes() == changed


def test_a_printed_header_end_line_is_part_of_the_body(
    project: Project, executor: Executor
) -> None:
    """A block that prints the line that ends a recording's header («# ----»): recorded with
    what follows it, and what follows it is still compared."""
    project.page("a.md", block("print('# ----')\nprint('fin')", "x"))
    cfg = project.config
    record(cfg, read_site(cfg), "cpu", executor)
    recording = recordings.of_block(cfg, read_site(cfg)[0].blocks[0]).get("cpu")
    assert recording is not None and recording.body == "# ----\nfin\n"
    assert not errors(run(project, executor).findings)
    project.page("a.md", block("print('# ----')\nprint('otro')", "x"))
    assert kinds(errors(run(project, executor).findings)) == [Kind.DIVERGENCE]


# --- verify and execute in process: a recorded runner, executor and cache (nothing runs) -----


def _result(output: str) -> BlockResult:
    return {
        "output": output,
        "error": None,
        "exception": None,
        "traceback": "",
        "expectations": [],
        "duration": 0.0,
        "device_dependent": [],
    }


class _Executor:
    """Runs nothing: each block «prints» its key; it reports `env` as a page process does."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env, self.jobs = env, []  # type: ignore[var-annotated]

    def run(self, jobs, on_env):  # type: ignore[no-untyped-def]
        self.jobs += [(j.page, j.runner, [b["key"] for b in j.blocks]) for j in jobs]
        on_env(self.env)
        return {b["key"]: _result(f"{b['key']}\n") for j in jobs for b in j.blocks}


class _Cache:
    """A cache that holds the pages of `hits` and records what it is asked to store."""

    def __init__(self, hits: dict[str, tuple[dict[str, BlockResult], dict[str, str]]]) -> None:
        self.hits, self.stored = hits, []  # type: ignore[var-annotated]

    def load(self, job):  # type: ignore[no-untyped-def]
        return self.hits.get(job.page)

    def store(self, job, results, env, raises):  # type: ignore[no-untyped-def]
        self.stored.append((job.page, sorted(results), dict(env), raises))
        return True


def _pages(project: Project) -> list:  # type: ignore[type-arg]
    gpu = ' runner="gpu" reason="usa CUDA"'
    project.page("a.md", block("print(1)", "uno") + block("print(2)", "g", gpu))
    project.page("b.md", block("raise ValueError('x')", "dos", ' raises="ValueError: x"'))
    project.page("c.md", block("print(3)", "solo", gpu))
    project.page("d.md", block("print(4)", "cpu", ' runner="cpu" reason="solo en CPU"'))
    return read_site(project.config)


def test_execute_runs_the_pages_the_cache_misses_and_stores_them(project: Project) -> None:
    pages = _pages(project)
    cached = _result("de la caché\n")
    cache = _Cache({"b.md": ({"b/dos": cached}, {"torch": "1.0", "cache": "sí"})})
    executor = _Executor({"torch": "2.0"})
    results, env = execute(project.config, pages, "cpu", executor, cache)  # type: ignore[arg-type]
    # c.md has no cpu block: neither loaded nor run; b.md came from the cache; d.md's block
    # runs on cpu only.
    assert executor.jobs == [("a.md", "cpu", ["a/uno"]), ("d.md", "cpu", ["d/cpu"])]
    assert results == {"a/uno": _result("a/uno\n"), "b/dos": cached, "d/cpu": _result("d/cpu\n")}
    assert env == {"torch": "2.0", "cache": "sí"}  # the run's own environment last
    raises = {"a/uno": None, "a/g": None, "b/dos": "ValueError: x", "c/solo": None, "d/cpu": None}
    ran = ["a/uno", "d/cpu"]  # given the whole run's results, the cache keeps its page's
    assert cache.stored == [("a.md", ran, env, raises), ("d.md", ran, env, raises)]


def test_execute_without_a_cache_runs_every_page(project: Project) -> None:
    pages = _pages(project)
    executor = _Executor({"torch": "2.0"})
    results, env = execute(project.config, pages, "cpu", executor)  # type: ignore[arg-type]
    assert executor.jobs == [
        ("a.md", "cpu", ["a/uno"]),
        ("b.md", "cpu", ["b/dos"]),
        ("c.md", "cpu", []),
        ("d.md", "cpu", ["d/cpu"]),
    ]
    assert sorted(results) == ["a/uno", "b/dos", "d/cpu"] and env == {"torch": "2.0"}


def test_verify_observes_on_the_day_given_and_passes_the_cache_on(project: Project) -> None:
    pages = _pages(project)
    from_page = Finding(Kind.MISSING_REASON, "de la página", "docs/a.md", 1, "arréglalo")
    pages[0].findings.append(from_page)
    calls = []

    def run(config, pages, runner, executor, **options):  # type: ignore[no-untyped-def]
        calls.append((runner, executor, options))
        return {"a/uno": _result("1\n")}, {"torch": "2.0", "device": "cpu"}

    day = dt.date(2030, 1, 2)
    done = verify(project.config, pages, "cpu", "ejecutor", run=run, day=day)  # type: ignore[arg-type]
    seen = done.outcomes["a/uno"].verdict.provenance
    assert seen == Provenance("cpu", "2.0", "cpu", "2030-01-02", SeenIn.BUILD)
    assert done.outcomes["b/dos"].verdict.provenance is None  # no result: nothing observed
    assert done.env == {"torch": "2.0", "device": "cpu"}
    assert done.findings[0] is from_page  # the pages' findings come first
    cache = _Cache({})
    verify(project.config, pages, "cpu", "ejecutor", run=run, cache=cache, day=day)  # type: ignore[arg-type]
    assert calls == [("cpu", "ejecutor", {}), ("cpu", "ejecutor", {"cache": cache})]


def test_with_execution_off_nothing_runs_and_an_error_says_so(project: Project) -> None:
    pages = _pages(project)
    pages[0].findings.append(
        Finding(Kind.MISSING_REASON, "de la página", "docs/a.md", 1, "arréglalo")
    )

    def run(*args, **options):  # type: ignore[no-untyped-def]
        raise AssertionError("nothing runs")

    done = verify(project.config, pages, "cpu", None, run=run, execute_blocks=False)  # type: ignore[arg-type]
    assert done.findings == [
        pages[0].findings[-1],
        Finding(
            Kind.EXECUTION_DISABLED,
            "DOCVERIFY_EXECUTE=0: ningún bloque se ejecutó ni se verificó; las salidas mostradas "
            "son las grabadas.",
            "DOCVERIFY_EXECUTE",
            1,
            "quita DOCVERIFY_EXECUTE=0 (solo sirve para medir con docverify bench).",
        ),
    ]
    assert {o.status for o in done.outcomes.values()} == {Status.NOT_RUN}
    assert done.env == {}
    given = Finding(Kind.MISSING_REASON, "dada", "docs/b.md", 2, "arréglala")
    assert unrun(project.config, pages, "cpu", [given]).findings == [given]
