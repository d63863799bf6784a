"""Run policies (device_policy, last_value): block over page over site, bad values located."""

from __future__ import annotations

from conftest import Project
from docverify.core import config as config_mod
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_site
from docverify.running.specs import spec

BLOCK = '```python exec="on" id="{id}"{extra}\nprint(1)\n```\n'


def page(meta: str, *blocks: tuple[str, str]) -> str:
    head = f"---\ntitle: P\n{meta}---\n\n" if meta else ""
    return head + "\n".join(BLOCK.format(id=i, extra=e) for i, e in blocks)


def policies_of(project: Project) -> dict[str, tuple[str, str]]:
    [p] = read_site(project.config)
    assert not p.findings, p.findings
    return {b.id: (b.device_policy, b.last_value) for b in p.blocks}


def test_defaults_keep_todays_behaviour(project: Project) -> None:
    project.page("a.md", page("", ("a", "")))
    assert policies_of(project) == {"a": ("default-cuda", "hide")}
    [p] = read_site(project.config)
    made = spec(project.config, p.blocks[0])
    assert made["device_policy"] == "default-cuda"
    assert made["show_last_value"] is False


def test_block_option_wins_over_page_which_wins_over_site(project: Project) -> None:
    pyproject = project.root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + 'device_policy = "as-written"\n')
    project.page("a.md", page("", ("a", "")))
    assert policies_of(project) == {"a": ("as-written", "hide")}
    project.page(
        "a.md",
        page(
            "device_policy: default-cuda\nlast_value: show\n",
            ("a", ""),
            ("b", ' device_policy="as-written" last_value="hide"'),
        ),
    )
    assert policies_of(project) == {"a": ("default-cuda", "show"), "b": ("as-written", "hide")}
    [p] = read_site(project.config)
    assert spec(project.config, p.blocks[0])["show_last_value"] is True


def test_bad_values_are_located_findings(project: Project) -> None:
    project.page(
        "a.md",
        page("device_policy: gpu\n", ("a", ' last_value="yes"')),
    )
    [p] = read_site(project.config)
    found = {(f.kind, f.where) for f in p.findings}
    assert found == {(Kind.INVALID_OPTION, "docs/a.md:3"), (Kind.INVALID_OPTION, "docs/a.md:6")}
    messages = " ".join(f.message for f in p.findings)
    assert "«gpu»" in messages and "«yes»" in messages
    # A bad value falls back to the next level: the build reports it and fails anyway.
    assert (p.blocks[0].device_policy, p.blocks[0].last_value) == ("default-cuda", "hide")


def test_bad_site_value_is_a_finding_naming_the_file_and_line(project: Project) -> None:
    pyproject = project.root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + 'last_value = "always"\n')
    cfg = config_mod.load(project.root)
    (finding,) = cfg.findings
    line = pyproject.read_text().split("\n").index('last_value = "always"') + 1
    assert (finding.kind, finding.where) == (Kind.CONFIG, f"pyproject.toml:{line}")
    assert 'last_value = "always"' in finding.message and "«show»" in finding.message
    assert cfg.last_value == "hide"  # the default stands in, and the build fails on the finding
