"""report.digests: the digests that tie a report's entries to the code and options they ran."""

from __future__ import annotations

import hashlib

from conftest import Project
from docverify.core.status import Status
from docverify.parsing.pages import Page, read_site
from docverify.report import digests, report_json
from support.blocks import block

# sha256 of the UTF-8 bytes, from `printf 'print(1)\n' | sha256sum` and `printf 'a\xc3\xb1'`.
PRINT_1 = "cc42155088fca5730758db72b2a5bca33112a941dfaa2d43098ec422ce4ea213"
A_ENYE = "27932c05141e5e6fbd548930f61c04d791f5faac15c9798023f40ff2c031f650"


def test_a_codes_digest_is_the_sha256_of_its_utf8_text() -> None:
    assert digests.code_digest("print(1)\n") == PRINT_1
    assert digests.code_digest("añ") == A_ENYE


def _page(project: Project, text: str) -> Page:
    project.page("a.md", "# A\n\n" + text)
    (page,) = read_site(project.config)
    return page


def test_each_blocks_inputs_chain_its_code_to_the_code_run_before_it(project: Project) -> None:
    page = _page(
        project,
        block("print(1)", "uno") + block("print(2)", "gpu", ' runner="gpu"') + block("x", "dos"),
    )
    own = {b.key: digests.code_digest(b.code) for b in page.blocks}
    assert own["a/uno"] == PRINT_1
    chain = hashlib.sha256(own["a/uno"].encode())
    first = chain.hexdigest()
    chain.update(own["a/dos"].encode())
    assert digests.block_digests(page, "cpu") == {
        "a/uno": (own["a/uno"], first),
        "a/dos": (own["a/dos"], chain.hexdigest()),
    }
    gpu = digests.block_digests(page, "gpu")
    assert list(gpu) == ["a/uno", "a/gpu", "a/dos"]
    assert gpu["a/gpu"][0] == own["a/gpu"] and gpu["a/dos"][1] != chain.hexdigest()


def test_a_blocks_options_digest_covers_the_blocks_before_it(project: Project) -> None:
    plain = digests.setup_digests(
        project.config, _page(project, block("print(1)", "uno") + block("print(2)", "dos")), "cpu"
    )
    timed = digests.setup_digests(
        project.config,
        _page(project, block("print(1)", "uno", ' timeout="30"') + block("print(2)", "dos")),
        "cpu",
    )
    assert list(plain) == list(timed) == ["a/uno", "a/dos"]
    assert plain["a/uno"] != timed["a/uno"] and plain["a/dos"] != timed["a/dos"]
    assert plain["a/uno"] != plain["a/dos"]
    # A block that does not run on the runner changes nothing for it.
    gpu = block("print(3)", "gpu", ' runner="gpu" timeout="5"')
    page = _page(project, block("print(1)", "uno") + gpu + block("print(2)", "dos"))
    assert digests.setup_digests(project.config, page, "cpu") == plain
    # Only the fields asked for are digested.
    assert digests.setup_digests(project.config, page, "cpu", ()) == digests.setup_digests(
        project.config,
        _page(project, block("print(1)", "uno", ' timeout="30"') + block("print(2)", "dos")),
        "cpu",
        (),
    )


def test_the_site_digest_changes_with_any_page_block_code_or_option(project: Project) -> None:
    cfg = project.config

    def site(a: str, b: str = "") -> str:
        for name, text in (("a.md", a), ("b.md", b)):
            project.page(name, "# P\n\n" + text)
        return digests.site_digest(cfg, read_site(cfg), "cpu")

    base = site(block("print(1)", "uno"), block("print(2)", "dos"))
    assert base == site(block("print(1)", "uno"), block("print(2)", "dos"))
    variants = {
        site(block("print(1)", "otro"), block("print(2)", "dos")),  # a block's id
        site(block("print(9)", "uno"), block("print(2)", "dos")),  # its code
        site(block("print(1)", "uno", ' timeout="30"'), block("print(2)", "dos")),  # an option
        site(block("print(1)", "uno"), block("print(2)", "dos") + block("x", "tres")),
        site(block("print(2)", "dos"), block("print(1)", "uno")),  # on the other page
    }
    assert base not in variants and len(variants) == 5
    # The same blocks under other page names differ too (each page's name is digested).
    project.page("a.md", "# P\n\n")
    project.page("c.md", "# P\n\n" + block("print(1)", "uno"))
    renamed = digests.site_digest(cfg, read_site(cfg), "cpu")
    project.page("c.md", "# P\n\n")
    project.page("a.md", "# P\n\n" + block("print(1)", "uno"))
    assert renamed != digests.site_digest(cfg, read_site(cfg), "cpu")


def test_a_stale_entry_says_where() -> None:
    assert digests.Stale("a/b", "docs/a.md", 12, "porque").where == "docs/a.md:12"


def _report(project: Project, runner: str = "cpu") -> report_json.Report:
    """A report of the project's pages as they are now, as a run on `runner` digests them."""
    cfg = project.config
    table = {}
    for page in read_site(cfg):
        options = digests.setup_digests(cfg, page, runner)
        for key, (own, inputs) in digests.block_digests(page, runner).items():
            table[key] = report_json.Entry(key, Status.OK, "", own, inputs, "", options[key], {})
    return report_json.Report(
        path=project.root / "informe" / "report.json",
        runner=runner,
        env={},
        date="?",
        run_url="",
        observations=table,
    )


def _line(project: Project, name: str, block_id: str) -> int:
    text = (project.root / "docs" / name).read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(text, 2) if f'id="{block_id}"' in line)


def test_a_block_removed_before_others_makes_them_stale_without_a_name(project: Project) -> None:
    project.page("a.md", "# A\n\n" + block("print(1)", "uno") + block("print(2)", "dos"))
    report = _report(project)
    project.page("a.md", "# A\n\n" + block("print(2)", "dos") + block("print(3)", "tres"))
    cfg = project.config
    earlier = "cambió el código de un bloque anterior de la página de «a/dos», y la salida "
    assert digests.stale(cfg, read_site(cfg), report) == [
        digests.Stale(
            "a/uno", "informe/report.json", 1, "el bloque «a/uno» ya no existe o no corre en cpu"
        ),
        digests.Stale(
            "a/dos",
            "docs/a.md",
            _line(project, "a.md", "dos"),
            earlier + "puede depender de él",
        ),
    ]


def test_the_changed_earlier_block_is_named_across_pages_and_runners(project: Project) -> None:
    """«uno» (page a) now runs only on gpu: gone for a cpu report. On page b, the cpu-only
    «dos» changed: «tres» after it names it."""
    project.page("a.md", "# A\n\n" + block("print(1)", "uno"))
    only_cpu = ' runner="cpu" reason="solo en cpu"'
    project.page("b.md", "# B\n\n" + block("print(2)", "dos", only_cpu) + block("x", "tres"))
    report = _report(project)
    project.page("a.md", "# A\n\n" + block("print(1)", "uno", ' runner="gpu" reason="r"'))
    project.page("b.md", "# B\n\n" + block("print(9)", "dos", only_cpu) + block("x", "tres"))
    cfg = project.config
    found = digests.stale(cfg, read_site(cfg), report)
    assert [(s.key, s.reason) for s in found] == [
        ("a/uno", "el bloque «a/uno» ya no existe o no corre en cpu"),
        ("b/dos", "el código del bloque «b/dos» cambió desde el informe"),
        (
            "b/tres",
            "cambió el código de un bloque anterior de la página de «b/tres» («b/dos»), y la "
            "salida puede depender de él",
        ),
    ]
    assert [s.where for s in found] == [
        "informe/report.json:1",
        f"docs/b.md:{_line(project, 'b.md', 'dos')}",
        f"docs/b.md:{_line(project, 'b.md', 'tres')}",
    ]


def test_a_cpu_only_blocks_code_is_in_the_cpu_site_digest(project: Project) -> None:
    cfg = project.config
    only_cpu = ' runner="cpu" reason="solo en cpu"'
    project.page("a.md", "# A\n\n" + block("print(1)", "uno") + block("print(2)", "dos", only_cpu))
    before = digests.site_digest(cfg, read_site(cfg), "cpu")
    project.page("a.md", "# A\n\n" + block("print(1)", "uno") + block("print(9)", "dos", only_cpu))
    assert digests.site_digest(cfg, read_site(cfg), "cpu") != before
