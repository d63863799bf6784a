"""report.json as earlier engines wrote it: still read, merged, judged and written.

Each fixture folder holds a small project and the reports an engine wrote for it, documents the
tests never rewrite: a reader, a merge or a judge that no longer understands them, or a writer
that no longer writes them, fails here.

- tests/fixtures/informe-formato-3: written by the engine of commit e898b04 (format 3, before
  issue 32). Format 4 (issue 36) changed no key: its option digests also cover hash_seed. These
  reports are still judged as their run did (their digests compared with the options format 3
  knew), and today's report is the fixture's once its format-4 digests are computed as format 3
  did.
- tests/fixtures/informe-formato-4: written by the engine of commit bbb639d (format 4, before
  issue 45 gave report.json one owner), with the same project and the same commands.

Each holds a check report (`cpu`), the two shards of the same run (`partes/1`, `partes/2`), a
canary report (`canario`, canary section format 1) and a gpu report (`gpu`: a real CPU run
labelled gpu, as support/relabel.py makes them). Their blocks cover what a report carries: a
match, device marks through a session, a divergence, a missing recording, an expected error, an
expectation, a failure, a shown last value, a silent block, a page finding and an orphan
recording.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import docverify
from docverify import build
from docverify.core import config as config_mod
from docverify.core.findings import Finding
from docverify.core.request import Request
from docverify.core.status import Status
from docverify.parsing.pages import read_site
from docverify.report import accept, digests, from_reports, merge, report_json
from docverify.running import executor as executor_mod
from docverify.running.specs import FORMAT_3_FIELDS

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FORMATS = (3, 4)
KINDS = ("cpu", "partes/1", "partes/2", "canario", "gpu")
# How the fixtures' reports were written: the CI run and the day they name.
WRITTEN_WITH = {
    3: {
        "GITHUB_SERVER_URL": "https://github.com",
        "GITHUB_REPOSITORY": "equipo/pytorch-es",
        "GITHUB_RUN_ID": "32",
        "SOURCE_DATE_EPOCH": "1780272000",
    },
    4: {
        "GITHUB_SERVER_URL": "https://github.com",
        "GITHUB_REPOSITORY": "equipo/pytorch-es",
        "GITHUB_RUN_ID": "45",
        "SOURCE_DATE_EPOCH": "1780272000",
    },
}


def fixture(version: int) -> Path:
    return FIXTURES / f"informe-formato-{version}"


def reports(version: int) -> Path:
    return fixture(version) / "informes"


def raw(kind: str, version: int = 3) -> dict[str, Any]:
    return json.loads((reports(version) / kind / "report.json").read_text(encoding="utf-8"))


# The finding of an unknown option lists the options the engine knows: a new option (own=,
# issue 36) changes that list, not the format; and its wording (the block's id, the option
# meant) changed since, not the format either. Its kind, place and level still compare.
_UNKNOWN_OPTION = re.compile(r"(\[opcion-desconocida\]) .*\n  → Cómo arreglarlo: .*")
# The fix of a block the engine could not run ends with «si necesita más tiempo…» only for a
# timeout since: older reports say it of any failure (a syntax error here).
_MORE_TIME = re.compile(r'; si necesita más tiempo, añade timeout="segundos" al bloque\.')


def known_options_aside(text: str) -> str:
    """findings.txt (or a finding's text) without the wording that changed, not the format."""
    return _MORE_TIME.sub(".", _UNKNOWN_OPTION.sub(r"\1 …", text))


def _wording_aside(finding: Any) -> Any:
    """A report's finding without the unknown option's wording (known_options_aside)."""
    if isinstance(finding, dict) and finding.get("kind") == "unknown-option":
        return finding | {"message": "…", "fix": "…"}
    if isinstance(finding, dict) and isinstance(finding.get("fix"), str):
        return finding | {"fix": known_options_aside(finding["fix"])}
    return finding


def comparable(data: dict[str, Any]) -> dict[str, Any]:
    """A report without what two runs of the same code on two machines measure differently:
    the seconds each block took and the interpreter's patch version and CPU name; and the list
    of known options in a fix and its wording (known_options_aside)."""
    data = data | {"findings": [_wording_aside(f) for f in data.get("findings", [])]}
    observations = {
        key: {**item, "result": {k: v for k, v in item["result"].items() if k != "duration"}}
        for key, item in data["observations"].items()
    }
    kept = {k: v for k, v in data.items() if k not in ("durations", "env")}
    return kept | {"observations": list(observations.items()), "env": sorted(data["env"])}


@pytest.fixture(params=FORMATS, ids=lambda v: f"formato-{v}")
def version(request: pytest.FixtureRequest) -> int:
    """The format of the fixture a test reads."""
    return int(request.param)


@pytest.fixture
def copy(tmp_path: Path, version: int) -> Path:
    """A copy of the fixture's project (tests never edit the fixture)."""
    return Path(shutil.copytree(fixture(version) / "proyecto", tmp_path / "proyecto"))


@pytest.mark.parametrize("kind", KINDS)
def test_every_observation_reads_back_as_it_was_written(kind: str, version: int) -> None:
    data = raw(kind, version)
    assert data["format"] == version
    read = report_json.read(reports(version) / kind)
    assert (read.runner, read.date, read.run_url) == (data["runner"], data["date"], data["run_url"])
    assert read.env == data["env"]
    assert sorted(read.observations) == sorted(data["observations"]) != []
    for key, item in data["observations"].items():
        seen = read.observations[key]
        assert seen.status == Status(item["status"])
        assert (seen.output, seen.error) == (item["output"], item["error"])
        assert (seen.code_sha256, seen.inputs_sha256) == (
            item["code_sha256"],
            item["inputs_sha256"],
        )
        assert seen.spec_sha256 == item["spec_sha256"]
        assert list(seen.device_dependent) == item.get("device_dependent", [])
        assert seen.block_result() == {**item["result"], "output": item["output"]}
    assert (read.canary is not None) == (kind == "canario")


@pytest.mark.parametrize("kind", KINDS)
def test_each_report_written_back_is_the_file_it_was_read_from(kind: str, version: int) -> None:
    """The reader and the writer are one pair: what an engine wrote, read and written again,
    is the same file, byte for byte (keys, their order, every value)."""
    file = reports(version) / kind / "report.json"
    text = file.read_text(encoding="utf-8")
    written = report_json.Report.from_json(json.loads(text), file).to_json()
    assert json.dumps(written, ensure_ascii=False, indent=1) + "\n" == text


def test_the_shards_written_then_merge_into_the_whole_report(version: int) -> None:
    loaded = merge.load([reports(version) / "partes"])
    assert loaded.shards == "2"
    merged = loaded.to_json()
    plan = raw("partes/1", version)["plan"]
    assert merged["merged"] == {"shards": 2, "plan": plan, "basis": "bloques"}
    assert comparable(merged) == comparable(raw("cpu", version)) | {"merged": merged["merged"]}


@pytest.mark.parametrize("runner", ["cpu", "gpu"])
def test_the_same_run_today_writes_the_same_report(copy: Path, runner: str, version: int) -> None:
    """The on-disk format is unchanged: today's `check --report` of the same project writes
    what the fixture's engine wrote, durations and the machine aside."""
    out = copy.parent / "hoy"
    if runner == "cpu":
        args = ["check", "--runner", "cpu", "--no-cache", "--report", str(out)]
        done = docverify(copy, *args, env={**WRITTEN_WITH[version], "DOCVERIFY_CACHE": "0"})
        assert done.returncode == 1, done.stderr  # the fixture's errors, not a crash
    else:
        from support.relabel import check_report  # noqa: PLC0415

        check_report(config_mod.load(copy), executor_mod.shared(2), out, runner="gpu")
    today = json.loads((out / "report.json").read_text(encoding="utf-8"))
    before = raw(runner, version)
    if runner == "gpu":  # written in this process: the day and the run are this test's
        today |= {k: before[k] for k in ("date", "run_url")}
    if version == 3:
        today = as_format_3(today, copy, runner)
    assert comparable(today) == comparable(before)
    written = reports(version) / runner
    assert known_options_aside((out / "findings.txt").read_text(encoding="utf-8")) == (
        known_options_aside((written / "findings.txt").read_text(encoding="utf-8"))
    )
    diffs = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.diff"))
    assert diffs == sorted(p.relative_to(written).as_posix() for p in written.rglob("*.diff"))
    for diff in diffs:
        assert (out / diff).read_text(encoding="utf-8") == (written / diff).read_text("utf-8")


def as_format_3(today: dict[str, Any], root: Path, runner: str) -> dict[str, Any]:
    """Today's report (format 4) with its option digests as format 3 made them, after checking
    that it holds today's: hash_seed is what format 4 added to them."""
    cfg = config_mod.load(root)
    pages = read_site(cfg)
    assert today["format"] == report_json.FORMAT == 4
    assert today["site_sha256"] == digests.site_digest(cfg, pages, runner)
    now: dict[str, str] = {}
    then: dict[str, str] = {}
    for page in pages:
        now |= digests.setup_digests(cfg, page, runner)
        then |= digests.setup_digests(cfg, page, runner, FORMAT_3_FIELDS)
    observations = {}
    for key, item in today["observations"].items():
        assert item["spec_sha256"] == now[key] != then[key]
        observations[key] = item | {"spec_sha256": then[key]}
    site = digests.site_digest(cfg, pages, runner, FORMAT_3_FIELDS)
    return today | {"format": 3, "site_sha256": site, "observations": observations}


@pytest.mark.parametrize("kinds", [["cpu"], ["partes/1", "partes/2"]])
def test_a_build_from_the_reports_judges_each_block_as_the_run_did(
    copy: Path, kinds: list[str], version: int
) -> None:
    cfg = config_mod.load(copy)
    folder = reports(version)
    source = from_reports.load(cfg, [folder / r for r in kinds], "cpu")
    assert source.report is not None, source.findings
    started = executor_mod.blocks_started()
    asked = Request(
        runner="cpu",
        from_reports=tuple(folder / r for r in kinds),
        gpu_reports=(folder / "gpu",),
        canary_report=folder / "canario",
    )
    result = build.run(cfg, read_site(cfg), asked, executor_mod.shared(2))
    assert executor_mod.blocks_started() == started  # nothing ran
    statuses = {k: str(o.status) for k, o in result.verification.outcomes.items()}
    assert statuses == raw("cpu", version)["blocks"]
    gpu = raw("gpu", version)["observations"]
    reported = {k: v for k, o in result.verification.outcomes.items() if (v := o.reported("gpu"))}
    assert {k: str(v.status) for k, v in reported.items()} == {
        k: item["status"] for k, item in gpu.items()
    }
    assert result.canary is not None and not result.canary.stale
    assert sorted(result.canary.changes) == sorted(raw("canario", version)["canary"]["changed"])
    unusable = {"invalid-report", "stale-report", "incomplete-report", "wrong-report-runner"}
    assert not [f for f in result.findings if f.kind in unusable]
    # Each block's findings, as the run wrote them in the report (its part `block`).
    written = [f for f in raw("cpu", version)["findings"] if f["part"] == "block"]
    found = [f for o in result.verification.outcomes.values() for f in o.findings]
    assert sorted(known_options_aside(Finding.from_json(f).format()) for f in written) == sorted(
        known_options_aside(f.format()) for f in found
    )
    assert written


def test_accept_plans_what_the_report_observed(copy: Path, version: int) -> None:
    cfg = config_mod.load(copy)
    read = report_json.read(reports(version) / "cpu")
    plan = accept.plan(cfg, read_site(cfg), read, environ={})
    statuses = raw("cpu", version)["blocks"]
    changed = {k for k, s in statuses.items() if s in ("diverge", "missing")}
    assert {w.key for w in plan.writes} == changed
    failed = sorted(k for k, s in statuses.items() if s == "error")
    assert failed and all(any(f"«{k}»" in r.message for r in plan.refusals) for k in failed)
