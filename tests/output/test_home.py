"""output.home: the reading time of an article, from its words and its blocks."""

from __future__ import annotations

from types import SimpleNamespace

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


def test_the_reading_rule_says_the_rate_and_the_time_per_block(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    assert home.reading_rule() == (
        "El tiempo de lectura de cada artículo se calcula de sus palabras, sin contar el código: "
        "200 por minuto, más medio minuto por cada bloque que se ejecuta, redondeado al minuto "
        "siguiente."
    )
    monkeypatch.setattr(home, "MINUTES_PER_BLOCK", 1.5)
    assert "200 por minuto, más 1.5 minutos por cada bloque" in home.reading_rule()


def _articles(project: Project) -> SimpleNamespace:
    """A build's result with two articles, in the order it gives them (b before a)."""
    cfg = project.config
    pyproject = '[project]\nname = "x"\ndependencies = ["numpy==1.2.3", "torch == 9.8.7"]\n'
    (cfg.root / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    full = (
        '---\ntitle: "Uno"\ndescription: "Qué hace uno."\nprerequisites:\n  - Saber A\n'
        "  - Saber B\ngoals:\n  - Hacer C\n---\n\nTexto.\n"
    )
    blocks = "\n".join(_block(f"b{n}") for n in range(4))  # two minutes
    seed = (
        '---\nprerequisites: "un texto, no una lista"\ngoals:\n  - De la semilla\n'
        f"editorial_goals:\n  - Para el lector\n---\n\nTexto.\n\n{blocks}"
    )
    a = read_page(cfg, project.page("articulos/a.md", full))
    b = read_page(cfg, project.page("articulos/b.md", seed))
    return SimpleNamespace(config=cfg, articles=lambda: [b, a])


CARD_B = (
    "-   **1 de 2 · [articulos/b.md]({}b.md)** · 3 min\n\n    \n\n"
    "    Al terminar sabrás (añadido editorial):\n\n    - Para el lector"
)
CARD_A = (
    "-   **2 de 2 · [Uno]({}a.md)** · 1 min\n\n    Qué hace uno.\n\n"
    "    Antes de empezar:\n\n    - Saber A\n    - Saber B\n\n    Qué aprenderás:\n\n    - Hacer C"
)


def test_the_cards_follow_the_reading_path_with_links_from_the_page(project: Project) -> None:
    """Each article's place, title (else its path), link relative to the page that shows the
    cards, minutes, description and lists: the editorial one instead of its seed's, and no list
    where there is none."""
    result = _articles(project)
    for rel, up in (("index.md", "articulos/"), ("guia/inicio.md", "../articulos/")):
        cards = f"{CARD_B.format(up)}\n\n{CARD_A.format(up)}"
        assert (
            home.article_list(result, rel)
            == f'<div class="grid cards" markdown>\n\n{cards}\n\n</div>'
        )  # type: ignore[arg-type]


def test_fill_replaces_each_marker_on_a_line_of_its_own(project: Project) -> None:
    result = _articles(project)
    cards = home.article_list(result, "index.md")  # type: ignore[arg-type]
    install = home.install_block({"torch": "9.8.7", "numpy": "1.2.3"})
    text = f"# Inicio\n\n{home.ARTICLES}\n\n \t{home.INSTALL}\t \n"
    assert home.fill(result, "index.md", text) == f"# Inicio\n\n{cards}\n\n \t{install}\t \n"  # type: ignore[arg-type]
    inline = f"Escribe {home.INSTALL} en una línea sola.\n"
    assert home.fill(result, "index.md", inline) == inline  # type: ignore[arg-type]
    assert home.install(result) == install  # type: ignore[arg-type]
