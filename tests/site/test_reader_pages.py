"""The built site read as a learner reads it (issue 33): on the home page, the articles and the
glossary no word of the build (runner, grabación, informe…), generated text included (panels,
the notebook line, the glossary page); on every page, no sentence of six words or more said more
than three times. Both over whatever pages the site has, code excluded (support/reading.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import Built
from docverify.core import config as config_mod
from docverify.parsing.pages import page_stem, read_site
from docverify.site import anatomy, navigation
from support import reading

pytestmark = pytest.mark.slow


def _reader_pages(built: Built) -> list[Path]:
    """The built home page, every article and the glossary page."""
    pages = [p for p in read_site(config_mod.load(built.root)) if anatomy.is_article(p)]
    found = [built.site / "index.html"]
    found += [built.site / page_stem(p.rel) / "index.html" for p in pages]
    found.append(built.site / page_stem(navigation.GLOSSARY_URI) / "index.html")
    assert len(found) > 2 and all(p.is_file() for p in found), found
    return found


def test_reader_pages_have_no_build_words(built: Built) -> None:
    pages = _reader_pages(built)
    for path in pages:
        assert reading.build_words(reading.article(path)) == [], path
    # The mutation it catches: a panel's old note, generated under a block.
    article = reading.article(pages[1])
    note = BeautifulSoup(
        "<p>GPU · aún sin ejecutar: cuando un runner GPU lo ejecute, su salida tendrá que "
        "coincidir con la grabada.</p>",
        "html.parser",
    )
    article.append(note)
    assert len(reading.build_words(article)) == 2


def test_no_sentence_repeats_more_than_three_times_on_any_page(built: Built) -> None:
    pages = sorted(built.site.rglob("index.html"))
    assert len(pages) > 3
    for path in pages:
        repeated = reading.repeated_sentences(reading.article(path))
        assert repeated == {}, f"{path.relative_to(built.site)}: {repeated}"
    # The mutation it catches: one sentence under every block, as the panels used to say.
    article = reading.article(pages[0])
    sentence = "Cuando una GPU lo ejecute, su salida tendrá que coincidir."
    for times in (3, 4):
        copy = BeautifulSoup(str(article), "html.parser")
        for _ in range(times):
            copy.find().append(BeautifulSoup(f"<p>{sentence}</p>", "html.parser"))
        assert bool(reading.repeated_sentences(copy)) == (times > 3), times


def test_every_label_folded_under_an_output_line_is_explained(built: Built) -> None:
    """What a reader unfolds under an output's line besides «Esperado · Observado» (a GPU
    device policy: «GPU: dispositivos del código») is a label the page that explains the
    verification, linked from every article, quotes: else the reader meets it nowhere."""
    explained = (built.site / "como-se-verifica" / "index.html").read_text(encoding="utf-8")
    folded: dict[str, Path] = {}
    for path in _reader_pages(built):
        soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
        for item in soup.select("details.dv-check > ul > li:not(.dv-expectation)"):
            folded.setdefault(item.get_text(" ", strip=True), path)
    assert folded, "ningún artículo pliega una etiqueta bajo la línea de una salida"
    for label, path in folded.items():
        # «GPU: dispositivos del código»: what it names follows the runner's mark.
        name = label.split(": ", 1)[-1]
        assert f"«{name}»" in explained or f"«{label}»" in explained, (label, path)
