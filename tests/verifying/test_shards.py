"""Shards: disjoint, complete, deterministic and balanced; and `check --shard` with its report."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import Project
from docverify.cli import main as cli
from docverify.parsing.pages import Page, read_site
from docverify.verifying import shards

# Block counts per page of the synthetic site: uneven on purpose, with a page without blocks.
SIZES = {"a.md": 5, "b.md": 1, "c.md": 3, "guia/d.md": 2, "guia/e.md": 4, "f.md": 0, "g.md": 1}


def block(page: str, number: int) -> str:
    return f'```python exec="on" id="b{number}"\nprint("{page} {number}")\n```\n'


@pytest.fixture
def site(project: Project) -> Project:
    for name, count in SIZES.items():
        project.page(name, f"# {name}\n\n" + "\n".join(block(name, i) for i in range(count)))
    return project


def keys(pages: list[Page]) -> set[str]:
    return {b.key for p in pages for b in p.blocks}


@pytest.mark.parametrize("total", [1, 2, 3, 4, 7, 9])
def test_shards_are_disjoint_and_cover_every_block(site: Project, total: int) -> None:
    pages = read_site(site.config)
    assert sum(len(p.blocks) for p in pages) == sum(SIZES.values())  # count what was collected
    seen_pages: list[str] = []
    seen_blocks: list[str] = []
    for index in range(1, total + 1):
        chosen, _ = shards.select(pages, "cpu", shards.Shard(index, total), {})
        seen_pages.extend(p.rel for p in chosen)
        seen_blocks.extend(b.key for p in chosen for b in p.blocks)
    assert sorted(seen_pages) == sorted(p.rel for p in pages)  # every page once, none twice
    assert len(seen_blocks) == len(set(seen_blocks)) == len(keys(pages))
    assert set(seen_blocks) == keys(pages)


def test_the_plan_does_not_depend_on_the_order_of_the_pages(site: Project) -> None:
    pages = read_site(site.config)
    reference = shards.assignment(pages, "cpu", 3, {})
    for seed in range(5):
        shuffled = pages[:]
        random.Random(seed).shuffle(shuffled)
        again = shards.assignment(shuffled, "cpu", 3, {})
        assert again.shards == reference.shards
        assert again.digest == reference.digest


def test_longest_first_to_the_lightest_shard() -> None:
    weights = {"a": 5.0, "b": 4.0, "c": 3.0, "d": 3.0, "e": 3.0}
    plan = shards.assign(weights, 2)
    # a→1 (5), b→2 (4), c→2 (4 < 5: 7), d→1 (5 < 7: 8), e→2 (7 < 8: 10).
    assert plan.shards == (("a", "d"), ("b", "c", "e"))
    assert plan.loads == (8.0, 10.0)
    # Equal loads go to the lower shard number, so ties cannot depend on anything else.
    assert shards.assign({"x": 1.0, "y": 1.0}, 2).shards == (("x",), ("y",))
    many = {f"p{i:02d}": float(w) for i, w in enumerate([9, 8, 7, 6, 5, 4, 3, 2, 2, 1, 1, 1])}
    loads = shards.assign(many, 3).loads
    assert max(loads) - min(loads) <= 2.0  # the ideal is 49/3 each; LPT lands within a page


def test_durations_decide_the_split_over_block_counts(site: Project) -> None:
    pages = read_site(site.config)
    by_blocks = shards.assignment(pages, "cpu", 2, {})
    assert by_blocks.basis == "bloques"
    assert "a.md" in by_blocks.shards[0]  # the page with most blocks goes first
    # b.md has one block but it is slow (say, it trains a model): it now weighs most of all.
    durations = {p.rel: 0.01 * len(p.blocks) for p in pages} | {"b.md": 30.0}
    by_time = shards.assignment(pages, "cpu", 2, durations)
    assert by_time.basis == "duraciones"
    assert by_time.shards[0] == ("b.md",)
    assert sorted(by_time.shards[1]) == sorted(p.rel for p in pages if p.rel != "b.md")


def test_a_page_without_duration_is_estimated_from_its_blocks(site: Project) -> None:
    pages = read_site(site.config)
    durations = {"a.md": 10.0, "b.md": 2.0}  # 2 s per block on the pages that have a time
    weights, basis = shards.weights(pages, "cpu", durations)
    assert basis == "duraciones"
    assert weights["c.md"] == pytest.approx(shards.PAGE_OVERHEAD + 6.0)
    assert weights["f.md"] == pytest.approx(shards.PAGE_OVERHEAD)


def test_runner_only_blocks_weigh_only_on_their_runner(project: Project) -> None:
    project.page("solo.md", '```python exec="on" id="x" runner="gpu"\nprint(1)\n```\n')
    pages = read_site(project.config)
    assert shards.weights(pages, "cpu", {})[0]["solo.md"] == pytest.approx(shards.PAGE_OVERHEAD)
    assert shards.weights(pages, "gpu", {})[0]["solo.md"] > 1


@pytest.mark.parametrize("text", ["", "2", "0/3", "4/3", "1/0", "a/b", "1/2/3", "-1/2"])
def test_a_bad_shard_says_how_to_write_it(text: str) -> None:
    with pytest.raises(ValueError, match="--shard") as info:
        shards.parse(text)
    assert "I/N" in str(info.value) or "entre 1 y N" in str(info.value)


def test_shard_parsing() -> None:
    assert shards.parse("2/4") == shards.Shard(2, 4)
    assert shards.parse(" 1 / 1 ") == shards.Shard(1, 1)
    assert str(shards.Shard(3, 5)) == "3/5"


def test_durations_file_merges_and_survives_corruption(tmp_path: Path) -> None:
    path = tmp_path / ".cache" / "docverify" / "durations.json"
    assert shards.load_durations(path, "cpu") == {}  # missing: block counts then
    shards.save_durations(path, "cpu", {"a.md": 1.5, "b.md": 0.25})
    shards.save_durations(path, "gpu", {"a.md": 0.5})
    shards.save_durations(path, "cpu", {"b.md": 0.75})
    assert shards.load_durations(path, "cpu") == {"a.md": 1.5, "b.md": 0.75}
    assert shards.load_durations(path, "gpu") == {"a.md": 0.5}
    path.write_text("{not json", encoding="utf-8")
    assert shards.load_durations(path, "cpu") == {}
    table = {"a.md": "lento", "b.md": -1, "c.md": 2, "d.md": 0}  # d.md: its blocks took no time
    path.write_text(json.dumps({"cpu": table}), encoding="utf-8")
    assert shards.load_durations(path, "cpu") == {"c.md": 2.0, "d.md": 0.0}
    shards.save_durations(path, "cpu", {"a.md": 1.0})  # rewritten from a readable base
    assert shards.load_durations(path, "cpu")["a.md"] == 1.0


def test_a_pages_duration_is_the_sum_of_its_blocks() -> None:
    """What a run measured per page, for the next plan: every block that ran counts, one that
    did not (no result) adds nothing."""

    def outcome(page: str, seconds: float | None) -> SimpleNamespace:
        result = None if seconds is None else {"duration": seconds}
        return SimpleNamespace(block=SimpleNamespace(page=page), result=result)

    outcomes = {
        "a/uno": outcome("a.md", 1.5),
        "b/uno": outcome("b.md", 0.25),
        "a/dos": outcome("a.md", 2.0),
        "a/tres": outcome("a.md", None),
    }
    assert shards.page_durations(outcomes) == {"a.md": 3.5, "b.md": 0.25}


# --- The command: `docverify check --shard I/N --report DIR` ------------------------------------


def check(root: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    monkeypatch.chdir(root)
    return cli.main(["check", "--runner", "cpu", "--workers", "2", *args])


def test_check_shards_verify_every_block_once_and_report(
    site: Project,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.chdir(site.root)
    assert cli.main(["record", "--runner", "cpu", "--workers", "2"]) == 0
    # One recording diverges, one belongs to no block: the report must carry both.
    recording = site.root / "snippets" / "c" / "b1.cpu.txt"
    recording.write_text(
        recording.read_text(encoding="utf-8").replace("c.md 1", "c.md uno"), encoding="utf-8"
    )
    orphan = site.root / "snippets" / "b" / "b9.cpu.txt"
    orphan.write_text(
        (site.root / "snippets" / "b" / "b0.cpu.txt").read_text(encoding="utf-8"), encoding="utf-8"
    )
    capsys.readouterr()
    durations = site.root / shards.DURATIONS
    durations.unlink(missing_ok=True)
    reports, codes, digests = [], [], set()
    for index in (1, 2, 3):
        folder = tmp_path / f"informe-{index}"
        codes.append(
            check(site.root, monkeypatch, "--shard", f"{index}/3", "--report", str(folder))
        )
        data = json.loads((folder / "report.json").read_text(encoding="utf-8"))
        reports.append(data)
        digests.add(data["plan"])
        assert data["shard"] == f"{index}/3"
        assert f"parte {index}/3" in capsys.readouterr().out
    assert len(digests) == 1  # every shard computed the same plan
    assert not durations.exists()  # shards read durations, never write them
    verified = [key for data in reports for key in data["blocks"]]
    assert sorted(verified) == sorted(set(verified))
    assert set(verified) == keys(read_site(site.config))
    owner = next(i for i, data in enumerate(reports) if "c/b1" in data["blocks"])
    assert reports[owner]["blocks"]["c/b1"] == "diverge"
    assert codes[owner] == 1
    diff = tmp_path / f"informe-{owner + 1}" / "diffs" / "c" / "b1.cpu.diff"
    assert "-c.md uno" in diff.read_text(encoding="utf-8")
    assert "+c.md 1" in diff.read_text(encoding="utf-8")
    assert "divergencia" in (tmp_path / f"informe-{owner + 1}" / "findings.txt").read_text(
        encoding="utf-8"
    )
    # The orphan is a site-wide finding: reported by shard 1 alone.
    orphan_kinds = [
        [f["kind"] for f in data["findings"] if f["kind"] == "orphan-recording"] for data in reports
    ]
    assert orphan_kinds == [["orphan-recording"], [], []]
    assert codes[0] == 1
    # A whole run records its durations, which the next plans then use.
    check(site.root, monkeypatch)
    assert set(shards.load_durations(durations, "cpu")) == {p for p, n in SIZES.items() if n}
    check(site.root, monkeypatch, "--shard", "1/3")
    assert "por duraciones" in capsys.readouterr().out


def test_check_refuses_a_bad_shard(
    site: Project, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert check(site.root, monkeypatch, "--shard", "4/3") == 2
    assert "--shard «4/3» no válido" in capsys.readouterr().err


def test_each_shard_gets_its_own_pages() -> None:
    """Shard I of N is the I-th list of the assignment (1-based), not a neighbour's."""
    lists = (("a.md",), ("b.md", "c.md"), ("d.md",))
    plan = shards.Assignment(lists, (1.0, 2.0, 1.0), "bloques")
    assert [plan.pages_of(shards.parse(f"{i}/3")) for i in (1, 2, 3)] == list(lists)


# --- Exact values: what each step computes, from literals worked out by hand -------------------


def test_the_digest_is_the_start_of_the_sha256_of_the_lists_as_json() -> None:
    """The plan line of every shard's report: 12 hex digits of the lists, non-ASCII kept."""
    plan = shards.Assignment((("a.md",), ("ñ.md", "z.md")), (1.0, 2.0), "bloques")
    text = '[["a.md"], ["ñ.md", "z.md"]]'  # json.dumps of the tuples, written by hand
    assert plan.digest == hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
    assert len(plan.digest) == 12


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("2", "--shard «2» no válido: escribe I/N, por ejemplo --shard 2/4."),
        (None, "--shard «None» no válido: escribe I/N, por ejemplo --shard 2/4."),
        (
            "5/4",
            "--shard «5/4» no válido: I debe estar entre 1 y N (N ≥ 1), "
            "por ejemplo --shard 1/4 … --shard 4/4.",
        ),
        (
            "0/0",
            "--shard «0/0» no válido: I debe estar entre 1 y N (N ≥ 1), "
            "por ejemplo --shard 1/4 … --shard 4/4.",
        ),
    ],
)
def test_a_bad_shard_is_refused_with_its_exact_message(text: str | None, says: str) -> None:
    with pytest.raises(ValueError) as info:
        shards.parse(text)  # type: ignore[arg-type]
    assert str(info.value) == says


def test_the_last_and_the_only_shard_are_valid() -> None:
    assert shards.parse("4/4") == shards.Shard(4, 4)
    assert shards.parse("1/4") == shards.Shard(1, 4)
    assert shards.parse("1/1") == shards.Shard(1, 1)
    assert shards.parse("12/12") == shards.Shard(12, 12)


def test_the_durations_file_is_the_projects_unless_given(project: Project) -> None:
    root = project.config.root
    assert shards.durations_path(project.config) == root / ".cache" / "docverify" / "durations.json"
    assert shards.durations_path(project.config, "") == root / ".cache/docverify/durations.json"
    assert shards.durations_path(project.config, "otro/d.json") == Path("otro/d.json")


def test_without_durations_a_page_weighs_its_blocks_plus_the_overhead(site: Project) -> None:
    pages = read_site(site.config)
    weights, basis = shards.weights(pages, "cpu", {})
    assert basis == "bloques"
    assert weights == pytest.approx({rel: 0.05 + count for rel, count in SIZES.items()})


def test_durations_of_pages_without_blocks_estimate_one_second_per_block(site: Project) -> None:
    """Only f.md (no blocks) has a time: no seconds per block can be derived, so 1 s each."""
    weights, basis = shards.weights(read_site(site.config), "cpu", {"f.md": 7.0})
    assert basis == "duraciones"
    assert weights["f.md"] == pytest.approx(0.05 + 7.0)
    assert weights["a.md"] == pytest.approx(0.05 + 5.0)
    assert weights["c.md"] == pytest.approx(0.05 + 3.0)


def test_a_recorded_duration_wins_over_the_estimate(site: Project) -> None:
    durations = {"a.md": 10.0, "b.md": 2.0, "c.md": 0.5}  # 12.5 s over 9 blocks
    weights, _ = shards.weights(read_site(site.config), "cpu", durations)
    assert weights["a.md"] == pytest.approx(10.05)
    assert weights["c.md"] == pytest.approx(0.55)
    assert weights["g.md"] == pytest.approx(0.05 + 12.5 / 9)


def test_heavier_pages_go_first_and_equal_weights_by_name() -> None:
    # Three shards, weights 3, 2, 2, 1, 1: «c» (3) to shard 1; «a» and «b» (2, by name) to 2, 3;
    # «d» and «e» (1, by name) to the lightest then: shard 2 (2 < 3), then shard 3 (2 < 3).
    plan = shards.assign({"e": 1.0, "b": 2.0, "d": 1.0, "a": 2.0, "c": 3.0}, 3, "duraciones")
    assert plan.shards == (("c",), ("a", "d"), ("b", "e"))
    assert plan.loads == (3.0, 3.0, 3.0)
    assert plan.basis == "duraciones"
    assert shards.assign({"x": 1.0}, 1).basis == "bloques"
    # Lighter pages first would give 1, 1, 2, 2, 3 → shards 1, 2, 3, 1, 2.
    assert shards.assign({"a": 1.0, "b": 2.0}, 2).shards == (("b",), ("a",))
    # A page never lands on a shard with more work while another has less.
    assert shards.assign({"a": 4.0, "b": 1.0, "c": 1.0}, 2).shards == (("a",), ("b", "c"))


def test_select_keeps_the_original_order_and_only_its_pages(site: Project) -> None:
    pages = read_site(site.config)
    for index in (1, 2):
        chosen, full = shards.select(pages, "cpu", shards.Shard(index, 2), {})
        mine = set(full.shards[index - 1])
        assert [p.rel for p in chosen] == [p.rel for p in pages if p.rel in mine]
        assert full == shards.assignment(pages, "cpu", 2, {})


def test_a_block_that_ran_without_a_duration_adds_nothing() -> None:
    outcome = SimpleNamespace(block=SimpleNamespace(page="a.md"), result={"stdout": "1"})
    assert shards.page_durations({"a/uno": outcome}) == {"a.md": 0.0}


def test_the_durations_file_is_written_sorted_rounded_and_indented(tmp_path: Path) -> None:
    path = tmp_path / "d" / "durations.json"
    shards.save_durations(path, "cpu", {})
    assert not path.exists()  # nothing measured: nothing written
    shards.save_durations(path, "gpu", {"b.md": 1.0})  # written first, but sorted after cpu
    shards.save_durations(path, "cpu", {"z.md": 0.123456, "á.md": 2})
    assert path.read_text(encoding="utf-8") == (
        '{\n "cpu": {\n  "z.md": 0.1235,\n  "á.md": 2\n },\n "gpu": {\n  "b.md": 1.0\n }\n}\n'
    )


@pytest.mark.parametrize("base", ['["a.md"]', '{"cpu": [1, 2], "gpu": {"a.md": 1}}', "{roto"])
def test_an_unusable_durations_file_is_rewritten_from_what_it_can_keep(
    tmp_path: Path, base: str
) -> None:
    path = tmp_path / "durations.json"
    path.write_text(base, encoding="utf-8")
    assert shards.load_durations(path, "cpu") == {}
    shards.save_durations(path, "cpu", {"c.md": 1.5})
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["cpu"] == {"c.md": 1.5}
    assert shards.load_durations(path, "cpu") == {"c.md": 1.5}
    if base.startswith('{"cpu"'):
        assert data["gpu"] == {"a.md": 1}  # the other runner is kept


def test_the_plan_weighs_the_blocks_of_the_runner_it_is_for(project: Project) -> None:
    """Blocks only for the GPU weigh on the GPU's plan, not on the CPU's (nor on no runner's)."""
    gpu_block = '```python exec="on" id="g{}" runner="gpu"\nprint(1)\n```\n'
    project.page("solo.md", "\n".join(gpu_block.format(i) for i in range(3)))
    project.page("x.md", block("x.md", 0) + "\n" + block("x.md", 1))
    project.page("y.md", block("y.md", 0))
    pages = read_site(project.config)
    # gpu: solo 3.05, x 2.05, y 1.05 → solo to 1, x to 2, y to 2 (2.05 < 3.05).
    chosen, full = shards.select(pages, "gpu", shards.Shard(1, 2), {})
    assert [p.rel for p in chosen] == ["solo.md"]
    assert full.shards == (("solo.md",), ("x.md", "y.md"))
    # cpu: x 2.05, y 1.05, solo 0.05 → x to 1, y to 2, solo to 2 (1.05 < 2.05).
    assert shards.assignment(pages, "cpu", 2, {}).shards == (("x.md",), ("solo.md", "y.md"))
