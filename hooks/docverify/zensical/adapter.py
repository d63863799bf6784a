"""`docverify zensical build|serve`: verify, write the rendered docs, let Zensical build them.

The engine runs first, exactly as in the MkDocs build (api.run_site, docverify/api.py): the same
findings, printed the same way, and on any error the same summary line and a non-zero exit
before Zensical runs (serve keeps serving, and each page shows its errors, as `mkdocs serve`
does). Then, in one folder (by default build/zensical/, ignored by git; Zensical wants the docs
and the site inside its configuration's folder, and keeps its cache there):

    docs/        the site's one render (api.render_site) on disk (docs_folder.py): pages,
                 verification page and its JSON, glossary, notebooks, static files
    overrides/   the project's theme overrides plus the patched search scripts (patches.py)
    mkdocs.yml   derived from the project's (zensical_config.py)
    site/        what Zensical builds

Zensical runs in a process of its own (`python -m zensical`): it executes nothing. After it,
the render's finishing step runs on the pages it built (docs_folder.finish): what the MkDocs
adapter does while MkDocs builds.
"""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from docverify import api
from docverify.zensical import docs_folder, patches, zensical_config

DEFAULT_DIR = Path("build") / "zensical"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")  # Zensical colours its messages whatever NO_COLOR says


def generate(root: Path, out: Path, executor: api.Executor) -> tuple[api.Site, docs_folder.Folder]:
    """Verify the project at `root` and write everything Zensical needs into `out`; print the
    findings as the MkDocs build logs them. Returns the rendered site (its result's errors
    decide) and the docs folder written."""
    mkdocs_yml = root / "mkdocs.yml"
    source = zensical_config.load(mkdocs_yml)
    docs_dir = (root / str(source.get("docs_dir", "docs"))).resolve()
    pages = sorted(p for p in docs_dir.rglob("*.md") if p.is_file())
    result = api.run_site(root, pages, executor, mkdocs_yml)
    for note in result.notes:
        print(note)
    site = api.render_site(result, notebook_pages=True)  # Zensical has no notebook plugin
    rendered = docs_folder.build(site, docs_dir, bool(source.get("use_directory_urls", True)))
    _emit(result.findings)
    docs_folder.write(rendered, out / zensical_config.DOCS)
    theme = docs_folder.Folder(texts=patches.patched())
    custom = (source.get("theme") or {}).get("custom_dir")
    if custom:
        folder = (root / custom).resolve()
        theme.copies = {
            p.relative_to(folder).as_posix(): p for p in sorted(folder.rglob("*")) if p.is_file()
        }
    docs_folder.write(theme, out / zensical_config.OVERRIDES)
    settings = zensical_config.derive(source, root)
    settings["site_description"] = site.description(source.get("site_description"))
    derived = zensical_config.dump(settings, mkdocs_yml)
    docs_folder.put(out / "mkdocs.yml", derived.encode("utf-8"))
    return site, rendered


def _emit(findings: list[api.Finding]) -> None:
    for finding in findings:
        stream = sys.stderr if finding.level is api.Level.ERROR else sys.stdout
        print(finding.format(), file=stream)


def zensical(*args: str, out: Path) -> list[str]:
    """The command line of `zensical ARGS` on the derived configuration in `out`."""
    return [sys.executable, "-m", "zensical", *args, "-f", str(out / "mkdocs.yml")]


def build(root: Path, out: Path, executor: api.Executor, *, strict: bool = False) -> int:
    """`docverify zensical build`: 0 when verified and built, 1 otherwise (said why)."""
    site, rendered = generate(root, out, executor)
    result = site.result
    if result.errors:
        shutil.rmtree(out / zensical_config.SITE, ignore_errors=True)  # no stale site left behind
        print(api.summary(result.errors), file=sys.stderr)
        return 1
    done = subprocess.run(
        zensical("build", *(["--strict"] if strict else []), out=out),
        cwd=out,
        capture_output=True,
        text=True,
        check=False,
    )
    print(_ANSI.sub("", done.stdout), end="")
    print(_ANSI.sub("", done.stderr), end="", file=sys.stderr)
    if done.returncode != 0:
        print(
            f"zensical build terminó con el código {done.returncode}"
            + (" (--strict: un aviso de arriba cuenta como error)" if strict else "")
            + f"; el árbol generado que construía está en {out}.",
            file=sys.stderr,
        )
        return 1
    source = zensical_config.load(root / "mkdocs.yml")
    directory_urls = bool(source.get("use_directory_urls", True))
    docs_folder.finish(site, rendered, out / zensical_config.SITE, directory_urls)
    print(f"Sitio verificado y construido con Zensical en {out / zensical_config.SITE}")
    return 0


def _watched(root: Path) -> dict[Path, tuple[int, int]]:
    """Every source file a rebuild depends on, with its modification time and size: the
    configuration files, the docs, the snippets and recordings, the theme overrides and the
    `watch:` folders of mkdocs.yml."""
    source = zensical_config.load(root / "mkdocs.yml")
    places = [
        root / "mkdocs.yml",
        root / "pyproject.toml",
        root / str(source.get("docs_dir", "docs")),
        api.load_config(root).snippets_dir,
        *(root / str(w) for w in source.get("watch") or []),
    ]
    if custom := (source.get("theme") or {}).get("custom_dir"):
        places.append(root / str(custom))
    found: dict[Path, tuple[int, int]] = {}
    for place in places:
        for path in [place, *place.rglob("*")] if place.is_dir() else [place]:
            if path.is_file():
                stat = path.stat()
                found[path] = (stat.st_mtime_ns, stat.st_size)
    return found


def serve(root: Path, out: Path, executor: api.Executor, address: str, poll: float = 1.0) -> int:
    """`docverify zensical serve`: Zensical serves `out` and rebuilds what changes in it; this
    process verifies again and rewrites the docs whenever a source changes. Errors are shown
    on the pages and here, and serving goes on (as `mkdocs serve` does)."""

    def once() -> None:
        result = generate(root, out, executor)[0].result
        if result.errors:
            print(
                api.summary(result.errors)
                + " docverify zensical serve sigue sirviendo: cada página muestra los suyos.",
                file=sys.stderr,
                flush=True,
            )

    once()
    seen = _watched(root)
    child = subprocess.Popen(zensical("serve", "-a", address, out=out), cwd=out)
    if threading.current_thread() is threading.main_thread():
        # Stopped by a signal (CI, a test, `kill`): stop Zensical too, through `finally`.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        while child.poll() is None:
            time.sleep(poll)
            now = _watched(root)
            if now != seen:
                seen = now
                print("docverify: cambió una fuente; verificando de nuevo…", flush=True)
                once()
    except KeyboardInterrupt:
        pass
    finally:
        if child.poll() is None:
            child.terminate()
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
    return 0
