"""The docs folder Zensical builds (docverify/zensical/docs_folder.py), on small tmp_path worlds
and a stand-in for the site's one render: URLs, what is written and copied, the finishing step on
what Zensical built, and each page's search boost in its index."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from docverify import api
from docverify.zensical import docs_folder
from support.locale_c import ascii_locale

ARTICLE = '<article class="md-content__inner md-typeset">{}</article>'


@dataclass
class Shown:
    markdown: str


@dataclass
class FakeSite:
    """What docs_folder uses of api.Site: generated files, pages, and the calls it makes."""

    pages: list[str]
    files: dict[str, str] = field(default_factory=dict)
    meta: dict[str, dict[str, object]] = field(default_factory=dict)
    seen: list[tuple[str, str, str]] = field(default_factory=list)

    def page(self, rel: str, links: api.Links) -> Shown:
        # Where this page's links go: to itself, to a generated file, to a static file, nowhere.
        targets = [rel, "verificacion.json", "img/logo.png", "falta.md"]
        return Shown(f"{links.url}: " + " ".join(str(links.where(t)) for t in targets))

    def front_matter(self, rel: str) -> str:
        return f"---\ntitle: {rel}\n---\n"

    def whole_meta(self, rel: str) -> dict[str, object]:
        return self.meta.get(rel, {})

    def finish(self, rel: str, content: str, links: api.Links) -> str:
        self.seen.append((rel, content, links.url))
        return f"{content}+{links.url_of(rel)}"


@pytest.mark.parametrize(
    ("rel", "directory", "flat"),
    [
        ("index.md", "", "index.html"),
        ("a/index.md", "a/", "a/index.html"),
        ("a/b.md", "a/b/", "a/b.html"),
        ("miindex.md", "miindex/", "miindex.html"),  # ends in «index», is not an index
        ("a/miindex.md", "a/miindex/", "a/miindex.html"),
    ],
)
def test_the_url_of_each_page(rel: str, directory: str, flat: str) -> None:
    assert docs_folder.page_url(rel) == directory
    assert docs_folder.page_url(rel, True) == directory
    assert docs_folder.page_url(rel, False) == flat


def test_where_a_file_of_the_folder_is_published() -> None:
    folder = docs_folder.Folder(texts={"index.md": "", "a/b.md": "", "x.json": "{}"})
    folder.copies["img/logo.png"] = Path("no-importa")
    assert folder.where("index.md", True) == ("", "index.html")
    assert folder.where("a/b.md", True) == ("a/b/", "a/b/index.html")
    assert folder.where("a/b.md", False) == ("a/b.html", "a/b.html")
    assert folder.where("x.json", True) == ("x.json", "x.json")
    assert folder.where("img/logo.png", False) == ("img/logo.png", "img/logo.png")
    assert folder.where("falta.md", True) is None
    assert folder.where("img/otro.png", True) is None


def _docs(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    for rel, text in {
        "index.md": "# Inicio",
        "a/b.md": "# B",
        "img/logo.png": "png",
        "glosario.yml": "términos: []",  # read by the build, never published
        "datos/tabla.csv": "x,y",
    }.items():
        (docs / rel).parent.mkdir(parents=True, exist_ok=True)
        (docs / rel).write_text(text, encoding="utf-8")
    return docs


@pytest.mark.parametrize("directory_urls", [True, False])
def test_the_folder_holds_the_render_and_the_static_files(
    tmp_path: Path, directory_urls: bool
) -> None:
    docs = _docs(tmp_path)
    site = FakeSite(
        pages=["index.md", "a/b.md", "verificacion.md"],
        files={"verificacion.json": "{}", "verificacion.md": "sin render"},
    )
    folder = docs_folder.build(site, docs, directory_urls)  # type: ignore[arg-type]
    if directory_urls:  # the default
        assert docs_folder.build(site, docs).texts == folder.texts  # type: ignore[arg-type]
    assert folder.copies == {
        "img/logo.png": docs / "img/logo.png",
        "datos/tabla.csv": docs / "datos/tabla.csv",
    }
    assert list(folder.copies) == ["datos/tabla.csv", "img/logo.png"]  # sorted
    b = "('a/b/', 'a/b/index.html')" if directory_urls else "('a/b.html', 'a/b.html')"
    home = "('', 'index.html')" if directory_urls else "('index.html', 'index.html')"
    rest = "('verificacion.json', 'verificacion.json') ('img/logo.png', 'img/logo.png') None"
    verification = (
        "('verificacion/', 'verificacion/index.html')"
        if directory_urls
        else "('verificacion.html', 'verificacion.html')"
    )
    assert folder.texts == {
        "verificacion.json": "{}",
        "index.md": f"---\ntitle: index.md\n---\nindex.md: {home} {rest}",
        "a/b.md": f"---\ntitle: a/b.md\n---\na/b.md: {b} {rest}",
        "verificacion.md": f"---\ntitle: verificacion.md\n---\nverificacion.md: {verification} "
        + rest,
    }


def _built(site_dir: Path, rel: str, html: str) -> Path:
    path = site_dir / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(html, encoding="utf-8")
    return path


def test_finish_runs_on_each_page_zensical_built_and_boosts_its_index(tmp_path: Path) -> None:
    site_dir = tmp_path / "site"
    home = _built(site_dir, "index.html", "<p>antes</p>" + ARTICLE.format("<h1>Inicio</h1>"))
    article = _built(site_dir, "a/b/index.html", ARTICLE.format("uno\ndos") + "<p>después</p>")
    plain = _built(site_dir, "c/index.html", "<article>sin la clase del tema</article>")
    index = site_dir / "search.json"
    items = [
        {"location": "", "title": "Inicio"},
        {"location": "a/b/", "title": "B"},
        {"location": "a/b/#seccion", "title": "Sección"},
        {"location": "c/", "title": "C"},
    ]
    index.write_text(json.dumps({"config": {"lang": ["es"]}, "items": items}), encoding="utf-8")
    site = FakeSite(
        pages=["no-construida.md", "index.md", "a/b.md", "c.md"],  # one not built: skipped
        meta={
            "a/b.md": {"search": {"boost": 4.0}},
            "index.md": {"search": {"exclude": False}},
            "c.md": {"search": None},
        },
    )
    folder = docs_folder.Folder(texts=dict.fromkeys(site.pages, ""))
    with ascii_locale():  # the pages are UTF-8 whatever the machine's locale
        docs_folder.finish(site, folder, site_dir)  # type: ignore[arg-type]
    assert site.seen == [("index.md", "<h1>Inicio</h1>", ""), ("a/b.md", "uno\ndos", "a/b/")]
    assert home.read_text(encoding="utf-8") == "<p>antes</p>" + ARTICLE.format("<h1>Inicio</h1>+")
    assert article.read_text(encoding="utf-8") == (
        ARTICLE.format("uno\ndos+a/b/") + "<p>después</p>"
    )
    assert plain.read_text(encoding="utf-8") == "<article>sin la clase del tema</article>"
    assert json.loads(index.read_text(encoding="utf-8"))["items"] == [
        items[0],
        {**items[1], "boost": 4.0},
        {**items[2], "boost": 4.0},
        items[3],
    ]


def test_finish_without_directory_urls_reads_the_flat_files(tmp_path: Path) -> None:
    site_dir = tmp_path / "site"
    page = _built(site_dir, "a/b.html", ARTICLE.format("x"))
    site = FakeSite(pages=["a/b.md"], meta={"a/b.md": {"search": {"boost": 2}}})
    folder = docs_folder.Folder(texts={"a/b.md": ""})
    docs_folder.finish(site, folder, site_dir, False)  # type: ignore[arg-type]
    assert page.read_text(encoding="utf-8") == ARTICLE.format("x+a/b.html")
    assert site.seen == [("a/b.md", "x", "a/b.html")]
    assert not (site_dir / "search.json").exists()  # no index: nothing to boost, no error


def test_a_page_the_finishing_step_leaves_alone_is_not_rewritten(tmp_path: Path) -> None:
    site_dir = tmp_path / "site"
    page = _built(site_dir, "index.html", ARTICLE.format("igual"))
    os.utime(page, ns=(10**9, 10**9))  # rewritten, it would have another time

    class Same(FakeSite):
        def finish(self, rel: str, content: str, links: api.Links) -> str:
            return content

    docs_folder.finish(Same(pages=["index.md"]), docs_folder.Folder(), site_dir)  # type: ignore[arg-type]
    assert page.stat().st_mtime_ns == 10**9
    assert page.read_text(encoding="utf-8") == ARTICLE.format("igual")


def test_write_puts_only_what_changed_and_removes_the_rest(tmp_path: Path) -> None:
    source = tmp_path / "logo.png"
    source.write_bytes(b"\x89PNG")
    dest = tmp_path / "out"
    folder = docs_folder.Folder(
        texts={"index.md": "# Año", "a/b/c.md": "hondo ñ"}, copies={"img/logo.png": source}
    )
    for stale in ("viejo/hondo/x.md", "a/quitado.md", "suelto.txt"):
        (dest / stale).parent.mkdir(parents=True, exist_ok=True)
        (dest / stale).write_text("viejo", encoding="utf-8")
    (dest / "index.md").write_text("# Año", encoding="utf-8")  # already as wanted
    (dest / "vacia").mkdir()
    assert docs_folder.write(folder, dest) == 3 + 2  # three removed, two written
    files = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*"))
    assert files == ["a", "a/b", "a/b/c.md", "img", "img/logo.png", "index.md"]
    assert (dest / "index.md").read_text(encoding="utf-8") == "# Año"
    assert (dest / "a/b/c.md").read_bytes() == "hondo ñ".encode()
    assert (dest / "img/logo.png").read_bytes() == b"\x89PNG"
    assert docs_folder.write(folder, dest) == 0  # nothing changed
    source.write_bytes(b"otro")
    assert docs_folder.write(folder, dest) == 1
    assert docs_folder.write(docs_folder.Folder(), tmp_path / "nueva") == 0
    assert not (tmp_path / "nueva").exists()


def test_put_writes_atomically_beside_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through a hidden temporary file in the same folder (a rename, never a half-written file
    that a serving generator could read)."""
    made: list[Path] = []
    real = tempfile.mkstemp

    def spy(*args: object, **kwargs: object) -> tuple[int, str]:
        handle, name = real(*args, **kwargs)  # type: ignore[call-overload]
        made.append(Path(name))
        return handle, name

    monkeypatch.setattr(tempfile, "mkstemp", spy)
    target = tmp_path / "nueva" / "carpeta" / "a.md"
    assert docs_folder.put(target, b"uno") == 1
    assert docs_folder.put(target, b"uno") == 0
    assert docs_folder.put(target.with_name("b.md"), b"dos") == 1  # the folder exists already
    assert [(p.parent, p.name.startswith(".tmp-")) for p in made] == [(target.parent, True)] * 2
    assert sorted(p.name for p in target.parent.iterdir()) == ["a.md", "b.md"]
    assert target.read_bytes() == b"uno"
