"""output.home: the reading time of an article, from its words and its blocks."""

from __future__ import annotations

from conftest import Project
from docverify.output import home
from docverify.parsing.pages import read_page


def _minutes(project: Project, body: str) -> int:
    text = f'---\ntitle: "T"\n---\n\n{body}\n'
    return home.reading_minutes(read_page(project.config, project.page("articulos/a.md", text)))


def _block(name: str) -> str:
    return f'```python exec="on" id="{name}"\nprint(1)\n```\n'


def test_reading_time_is_words_at_the_rate_plus_time_per_block(project: Project) -> None:
    rate = home.WORDS_PER_MINUTE
    words = " ".join(["palabra"] * (2 * rate - 1))  # with the title's word: 2 minutes exactly
    assert _minutes(project, words) == 2
    assert _minutes(project, words + " otra") == 3  # a word more rounds up
    blocks = "\n".join(_block(f"b{n}") for n in range(round(2 / home.MINUTES_PER_BLOCK)))
    assert _minutes(project, f"{words}\n\n{blocks}") == 4  # two minutes of blocks
    # Code is not prose: a long fence that does not run adds nothing.
    code = "```text\n" + " ".join(["x"] * 5 * rate) + "\n```\n"
    assert _minutes(project, f"{words}\n\n{code}") == 2
    assert _minutes(project, "") == 1
    assert str(home.WORDS_PER_MINUTE) in home.reading_rule()


def test_the_install_block_offers_the_cpu_build_of_the_pinned_torch() -> None:
    """The reader installs the pinned versions; on Linux without a GPU, first the CPU-only
    build of the same torch (the install line then finds it installed, not the CUDA one)."""
    block = home.install_block({"torch": "9.8.7", "numpy": "1.2.3"})
    lines = block.split("\n")
    assert lines[0] == "```bash" and lines[-1] == "```"
    assert "pip install torch==9.8.7 numpy==1.2.3" in lines
    assert f"# pip install torch==9.8.7 --index-url {home.CPU_INDEX}" in lines
    assert all(not line.startswith("pip") or "index-url" not in line for line in lines)
    unpinned = home.install_block({})
    assert "pip install torch numpy" in unpinned and "# pip install torch --index-url" in unpinned
