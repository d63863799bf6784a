"""Browser test support: a local static server, Debian's Chromium, axe-core and request logs."""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
NODE_DIR = ROOT / "tests" / "node"  # package.json + package-lock.json pin axe-core
ARTIFACTS = ROOT / "test-artifacts"


# Where the server also answers with axe-core (tests/node), for `run_axe` to load it by URL: the
# browser then compiles it once per context and takes it from its cache on every later page
# (an inline copy of its ~570 KB was compiled again on each page).
AXE_PATH = "/__pruebas__/axe.min.js"
# Material's search index: `serve(..., search_index_once=True)` answers it in full once.
SEARCH_INDEX_PATH = "search/search_index.json"


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Static files as a static host serves them: 404.html (status 404) for a missing path;
    axe-core at AXE_PATH; with `search_index_once`, Material's search index (see `serve`)."""

    server: _Server

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        if path == AXE_PATH:
            self._send(axe_script().read_bytes(), "text/javascript", "max-age=86400")
        elif self.server.search_index_once and path.endswith("/" + SEARCH_INDEX_PATH):
            index = json.loads((Path(self.directory) / SEARCH_INDEX_PATH).read_bytes())
            if self.server.search_index_served:
                index["docs"] = []
            self.server.search_index_served = True
            self._send(json.dumps(index).encode(), "application/json", "no-store")
        else:
            super().do_GET()

    def _send(self, body: bytes, kind: str, cache: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", cache)
        self.end_headers()
        self.wfile.write(body)

    def send_error(
        self,
        code: int,
        message: str | None = None,
        explain: str | None = None,
    ) -> None:
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, *_: Any) -> None:  # keep the test output readable
        return


class _Server(http.server.ThreadingHTTPServer):
    """A browser that leaves a page drops the requests still open: not an error of the site."""

    search_index_once = False
    search_index_served = False

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def serve(directory: Path, *, search_index_once: bool = False) -> Iterator[str]:
    """Serve `directory` on 127.0.0.1 on a free port; yield its base URL (ending in /).

    `search_index_once`: Material's search index is served in full to the first page that asks
    for it and, to the pages after it, with no documents (never cached): each page's search
    still starts, asks for its index and is heard in the console, but a page audit spends the
    second of CPU that indexing the whole site costs only once. (Playwright's request routing
    could do the same, but it turns the browser's cache off.)"""
    handler = functools.partial(_Handler, directory=str(directory))
    server = _Server(("127.0.0.1", 0), handler)
    server.search_index_once = search_index_once
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def chromium_missing_reason() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if not CHROMIUM.is_file():
        return (
            f"no existe {CHROMIUM}: instala el paquete de Debian «chromium» "
            "(apt-get install chromium); .ci/run lo instala"
        )
    return None


def launch(playwright: Any) -> Any:
    """Debian's Chromium, headless, with nothing phoning home."""
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
    )


def axe_script() -> Path:
    """axe.min.js, installed from the lock file with `npm ci` the first time it is needed."""
    script = NODE_DIR / "node_modules" / "axe-core" / "axe.min.js"
    if not script.is_file():
        npm = shutil.which("npm")
        if npm is None:
            raise RuntimeError("hace falta npm (Node.js) para instalar axe-core en tests/node/")
        subprocess.run(
            [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"],
            cwd=NODE_DIR,
            check=True,
            capture_output=True,
            timeout=300,
        )
    wanted = json.loads((NODE_DIR / "package.json").read_text())["dependencies"]["axe-core"]
    installed = json.loads(script.with_name("package.json").read_text())["version"]
    if installed != wanted:
        raise RuntimeError(
            f"axe-core {installed} instalado, se esperaba {wanted}: borra "
            f"{NODE_DIR / 'node_modules'} y repite"
        )
    return script


# The rules whose verdict depends on the colours shown (contrast, links told apart by colour):
# the only ones a change of colour scheme can change, where nothing but colours change.
COLOUR_RULES = ("color-contrast", "link-in-text-block")


def run_axe(
    page: Any, *, within: str | None = None, rules: tuple[str, ...] = ()
) -> list[dict[str, Any]]:
    """axe-core's violations on the loaded page (WCAG 2.x A/AA and best practices): every rule,
    or only `rules`; on the whole document, or only inside the elements `within` selects. The
    page comes from `serve`, which answers axe-core at AXE_PATH."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        base = urlsplit(page.url)
        page.add_script_tag(url=f"{base.scheme}://{base.netloc}{AXE_PATH}")
    return page.evaluate(
        """async ([within, rules]) => {
        const context = within ? {include: [[within]]} : document;
        const options = {resultTypes: ["violations"]};
        if (rules.length) options.runOnly = {type: "rule", values: rules};
        const result = await axe.run(context, options);
        return result.violations.map(v => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 5).map(n => n.target.join(" ") + " :: " +
                                                 (n.failureSummary || "").split("\\n")[1]),
        }));
    }""",
        [within, list(rules)],
    )


def describe_violations(violations: list[dict[str, Any]]) -> str:
    lines = []
    for v in violations:
        lines.append(f"  - {v['id']} ({v['impact']}): {v['help']}")
        lines.extend(f"      {node}" for node in v["nodes"])
    return "\n".join(lines)


class RequestLog:
    """Every request a browser context makes, to tell the site's own from any other host."""

    def __init__(self, context: Any) -> None:
        self.urls: list[str] = []
        self.pending = 0  # requests started and not yet finished or failed
        context.on("request", self._started)
        context.on("requestfinished", self._ended)
        context.on("requestfailed", self._ended)

    def _started(self, request: Any) -> None:
        self.urls.append(request.url)
        self.pending += 1

    def _ended(self, _: Any) -> None:
        self.pending = max(0, self.pending - 1)

    def settle(self, page: Any, limit: float = 15.0) -> None:
        """Wait until every request started so far has ended (at most `limit` seconds)."""
        deadline = time.monotonic() + limit
        while self.pending and time.monotonic() < deadline:
            page.wait_for_timeout(40)  # lets Playwright deliver the request events

    def foreign(self, base: str) -> list[str]:
        """Requests to any host other than the site's (data: and blob: URLs are local)."""
        own = urlsplit(base).netloc
        return [
            u
            for u in self.urls
            if urlsplit(u).scheme not in ("data", "blob", "about") and urlsplit(u).netloc != own
        ]


def screenshot(page: Any, name: str) -> Path:
    """Save a full-page screenshot under test-artifacts/ and return its path."""
    ARTIFACTS.mkdir(exist_ok=True)
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_") or "pagina"
    path = ARTIFACTS / f"{safe}.png"
    with contextlib.suppress(Exception):  # a screenshot must never hide the real failure
        page.screenshot(path=str(path), full_page=True)
    return path


def unaccented(text: str) -> str:
    """`text` as a reader types it without tildes: no diacritics (á→a, ü→u, ñ→n), lower-cased."""
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def fail(page: Any, name: str, message: str) -> None:
    """Fail the test with `message`, saving a screenshot of `page` and saying where it is."""
    path = screenshot(page, name)
    print(f"Captura de pantalla del fallo: {path}")
    raise AssertionError(f"{message}\nCaptura de pantalla: {path}")


def site_pages(site: Path) -> list[str]:
    """Site-relative URLs of every HTML page of a built site (directory URLs), 404 included."""
    pages = []
    for html in sorted(site.rglob("*.html")):
        rel = html.relative_to(site).as_posix()
        if rel.startswith(("assets/", "search/")):
            continue
        pages.append(rel[: -len("index.html")] if rel.endswith("index.html") else rel)
    return pages


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"
