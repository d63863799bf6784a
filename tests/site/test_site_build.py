"""The built site (the session's strict build, see conftest): every article with every part of
its own data, the outputs of the runs, and a broken copy whose plain build fails, located, and
still renders.

No test here names an article or its text: each check holds for whatever articles exist, the
new one that `docverify new` wrote included. Content is checked by the articles' own
expectations (`# Expectativa:`) and recordings.
"""

from __future__ import annotations

import datetime as dt
import importlib.metadata
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, SoupStrainer
from conftest import NEW_PAGE, NEW_SLUG, Built, mkdocs_build
from docverify import build
from docverify.core import config as config_mod
from docverify.core import volatile
from docverify.core.findings import errors
from docverify.parsing.pages import Page, read_site
from docverify.site import anatomy, scaffold
from docverify.verifying import recordings
from support import clock
from support.site import text_of
from support.sources import expected_review_by

# One worker runs this module (pytest-xdist): its module fixture builds twice.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("site-build")]


def plain(text: object) -> str:
    """Text as compared with a page: links as their text, no emphasis, code or escape marks
    (underscores included, on both sides), whitespace collapsed."""
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", str(text))
    return re.sub(r"\s+", " ", re.sub(r"[`*_\\]", "", text)).strip()


def squash(text: str) -> str:
    """Output text as a page shows it: whitespace collapsed."""
    return re.sub(r"\s+", " ", text).strip()


def articles(root: Path) -> list[Page]:
    found = [p for p in read_site(config_mod.load(root)) if anatomy.is_article(p)]
    assert found, "el sitio construido tiene artículos (al menos el nuevo)"
    return found


def url(page: Page) -> str:
    return page.rel.removesuffix(".md").removesuffix("index").rstrip("/")


def test_every_article_shows_every_part_of_its_data(built: Built) -> None:
    for page in articles(built.root):
        text = plain(text_of(built.site, url(page)))
        meta = page.meta
        parts = [meta["title"], meta["description"], meta["approach"]]
        parts += [*meta["goals"], *meta["prerequisites"], *meta["takeaways"]]
        parts += [item[key] for item in meta["faq"] for key in ("question", "answer")]
        parts += [s["reference"] for s in meta["sources"]]
        missing = [p for p in map(plain, parts) if p not in text]
        assert not missing, f"{page.rel}: faltan partes: {missing}"
        # The parts come in the seed's order.
        order = [
            "Qué aprenderás",
            "Antes de empezar",
            plain(meta["approach"]),
            "Conclusiones clave",
            *anatomy.BODY_SECTIONS,
            "Preguntas frecuentes",
            "Fuentes",
        ]
        positions = [text.find(part) for part in order]
        assert -1 not in positions and positions == sorted(positions), (page.rel, order)


PLACEHOLDERS = sorted({rule.placeholder for rule in volatile.RULES})


def test_every_block_shows_its_recorded_output(built: Built) -> None:
    """Each executed block of each page shows the output its cpu recording holds (the parts
    around any «[..]»), and each expectation with its verdict."""
    cfg = config_mod.load(built.root)
    torch_version = importlib.metadata.version("torch").split("+")[0]
    shown = 0
    for page in read_site(cfg):
        cpu_blocks = [b for b in page.blocks if b.runs_on("cpu")]
        if not cpu_blocks:
            continue
        text = text_of(built.site, url(page))
        assert f"torch {torch_version}" in text, page.rel
        for block in cpu_blocks:
            recording = recordings.of_block(cfg, block).get("cpu")
            assert recording is not None, block.key
            # «[..]» and the placeholders of volatile values (the page shows the value observed)
            gaps = re.compile("|".join(re.escape(g) for g in ["[..]", *PLACEHOLDERS]))
            for line in recording.body.splitlines():
                for piece in gaps.split(line):
                    assert squash(piece) in text, (block.key, piece)
            for match in re.finditer(r"# Expectativa: *(.+)$", block.code, re.MULTILINE):
                assert f"Esperado {match.group(1).strip()} · Observado" in text, block.key
            shown += 1
    assert shown == sum(1 for p in read_site(cfg) for b in p.blocks if b.runs_on("cpu")) > 0


def test_home_lists_every_article_with_its_goals(built: Built) -> None:
    home = plain(text_of(built.site, ""))  # plain on both sides, as for the article pages
    for page in articles(built.root):
        assert plain(page.meta["title"]) in home
        # A seed article's card shows our goals for a learner (editorial_goals) instead.
        for goal in page.meta.get("editorial_goals") or page.meta["goals"]:
            assert plain(goal) in home, (page.rel, goal)


# --- a broken copy: one plain build that fails with every finding and still renders its pages ---


@dataclass
class Broken:
    root: Path
    expected: list[str]  # the first line of each error the copy has, as the lint formats it
    loose: object  # a plain build (no --strict): a strict one can only fail more
    loose_site: Path


def _break_fingerprint(root: Path, source) -> None:
    """Give `source` a fingerprint that no installed file matches."""
    page = root / "docs" / source.page
    lines = page.read_text(encoding="utf-8").split("\n")
    zeros = '"' + "0" * 64 + '"'
    if source.fingerprint is not None:  # its hash: the first sha256 line after fingerprint:
        start = source.key_lines.get("fingerprint", source.line)
        at = next(i for i in range(start - 1, len(lines)) if "sha256:" in lines[i])
        lines[at] = lines[at].split("sha256:")[0] + f"sha256: {zeros}"
    else:
        verified = source.key_lines["verified"]
        indent = re.match(r"\s*", lines[verified - 1]).group(0)
        version = importlib.metadata.version("torch").split("+")[0]
        lines[verified:verified] = [
            f"{indent}fingerprint:",
            f"{indent}  package: torch",
            f'{indent}  version: "{version}"',
            f"{indent}  object: torch.autograd.backward",
            f"{indent}  sha256: {zeros}",
        ]
    page.write_text("\n".join(lines), encoding="utf-8")


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} no está en {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _cite_again(page: Path) -> None:
    """Give the page's first source a sibling: the same entry under another title and
    reference, so that more than one source goes past its review date."""
    lines = page.read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("- title:"))
    end = next(i for i in range(start, len(lines)) if "verified:" in lines[i])
    entry = lines[start : end + 1]
    entry = [line.replace("title: ", "title: Otra ", 1) for line in entry]
    entry = [line.replace("reference: ", "reference: Otra · ", 1) for line in entry]
    lines[end + 1 : end + 1] = entry
    page.write_text("\n".join(lines), encoding="utf-8")


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory, small: Path) -> Broken:
    """A copy of the one-article site (conftest `small`: the new article, which cites two
    sources here) where the new article's code prints something else, a section and a
    front-matter part are gone, a snippet is unused, a page is out of the nav, every source is
    past its review date and one fingerprint no longer matches. The real site's pages add no
    kind of error, only minutes of blocks to run again."""
    folder = tmp_path_factory.mktemp("roto")
    root = Path(shutil.copytree(small, folder / "src"))
    _cite_again(root / NEW_PAGE)
    snippets = root / f"snippets/articulos/{NEW_SLUG}"
    _edit(snippets / scaffold.FIRST_SNIPPET, "3.0", "4.0")
    (snippets / "olvidado.py").write_text("print(1)\n")
    (root / "docs/suelto.md").write_text("# Suelto\n", encoding="utf-8")
    _edit(root / NEW_PAGE, "## Cómo elegir\n", "## Comparativa\n")
    _edit(root / NEW_PAGE, "takeaways:\n", "conclusiones:\n")
    cited = clock.sources(root)
    cfg = config_mod.load(root)
    day = max(expected_review_by(cfg, s) for s in cited) + dt.timedelta(days=1)
    # The first source is verified on the build's day (a stale source is not judged for
    # drift), and its fingerprint no longer matches; every other source is past its date.
    changed = cited[0]
    page = root / "docs" / changed.page
    lines = page.read_text(encoding="utf-8").split("\n")
    at = changed.key_lines["verified"] - 1
    lines[at] = lines[at].replace(changed.verified.isoformat(), day.isoformat())
    page.write_text("\n".join(lines), encoding="utf-8")
    _break_fingerprint(root, changed)
    env = {"SOURCE_DATE_EPOCH": clock.epoch(day)}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", env["SOURCE_DATE_EPOCH"])
        expected = [f.format().split("\n")[0] for f in errors(build.lint(config_mod.load(root)))]
    loose = mkdocs_build(root, folder / "loose", strict=False, env=env)
    return Broken(root, expected, loose, folder / "loose")


def test_the_build_fails_with_every_finding_at_its_line(broken: Broken) -> None:
    """Not even --strict is needed: every verification error fails the build, located."""
    stderr = broken.loose.stderr
    assert broken.loose.returncode != 0
    for line in broken.expected:  # the build runs the lint's site-wide checks
        assert line in stderr, line
    snippet = f"snippets/articulos/{NEW_SLUG}"
    assert f"{snippet}/olvidado.py:1: [snippet-sin-uso]" in stderr
    assert "docs/suelto.md:1: [pagina-fuera-del-nav]" in stderr
    assert "falta la sección «## Cómo elegir»" in stderr and "falta «Conclusiones clave»" in stderr
    # Every source past its review date, at its page and the line of its date.
    changed, *stale = clock.sources(broken.root)
    assert stale, "la copia rota cita una sola fuente: no hay ninguna caducada que buscar"
    assert stderr.count("[fuente-caducada]") == len(stale)
    for source in stale:
        assert f"docs/{source.page}:{source.key_lines['verified']}: [fuente-caducada]" in stderr
        assert f"«{source.reference}»" in stderr and source.verified.isoformat() in stderr
    drift = re.findall(rf"docs/{re.escape(changed.page)}:(\d+): \[fuente-cambiada\]", stderr)
    assert len(drift) == 1 and int(drift[0]) > changed.key_lines["verified"], stderr
    assert "cambió desde que se verificó" in stderr
    # The changed code: a divergence, and the failed expectation at its snippet line.
    code = (broken.root / snippet / scaffold.FIRST_SNIPPET).read_text(encoding="utf-8")
    line = next(i for i, text in enumerate(code.split("\n"), 1) if "# Expectativa:" in text)
    assert "[divergencia]" in stderr and f"articulos/{NEW_SLUG}/{scaffold.FIRST_BLOCK_ID}" in stderr
    assert f"{snippet}/{scaffold.FIRST_SNIPPET}:{line}" in stderr


def test_loose_build_renders_what_the_code_printed_now(broken: Broken) -> None:
    """Without --strict the build still fails (any verification error does), but its pages are
    written and show the new run, not the recording."""
    assert broken.loose.returncode != 0
    assert "errores de verificación" in broken.loose.stdout + broken.loose.stderr
    text = text_of(broken.loose_site, f"articulos/{NEW_SLUG}")
    assert "tensor(7.)" in text  # 1 + 2 + 4, printed by the edited snippet
    assert "Esperado 6 · Observado tensor(7.) ✗" in text


def test_no_page_stops_for_a_script_before_it_paints(built_site: Path) -> None:
    """Every external script of every built page (the theme's bundle, extra_javascript) loads
    with defer or async: none blocks the parser, so the browser can paint the article first
    (overrides/main.html)."""
    pages = sorted(built_site.rglob("*.html"))
    assert pages
    blocking = [
        f"{page.relative_to(built_site)}: {tag['src']}"
        for page in pages
        for tag in BeautifulSoup(
            page.read_text(encoding="utf-8"), "html.parser", parse_only=SoupStrainer("script")
        ).find_all("script", src=True)
        if not (tag.has_attr("defer") or tag.has_attr("async") or tag.get("type") == "module")
    ]
    assert not blocking, blocking
