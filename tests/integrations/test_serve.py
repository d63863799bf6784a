"""A real `mkdocs serve` on 127.0.0.1 keeps serving through a verification error and shows it;
so does `docverify zensical serve`, the same site served by Zensical."""

from __future__ import annotations

import html
import os
import re
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import BIN
from support.mkdocs_site import EPOCH, Site

WAIT = 180  # seconds: a rebuild runs the page's block in a fresh fork server on 2 busy cores


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _text(raw: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", raw))


def _until(check: Callable[[], str | None], what: str, server: subprocess.Popen[str]) -> str:
    """Poll `check` (bounded) until it returns a page; the server must stay up meanwhile."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        assert server.poll() is None, f"el servidor terminó (código {server.returncode})"
        page = check()
        if page is not None:
            return page
        time.sleep(0.1)
    raise AssertionError(f"a los {WAIT} s, {what}")


SERVE = {
    "mkdocs": lambda port: [str(BIN / "mkdocs"), "serve", "-f", "mkdocs.yml", "-a", port],
    "zensical": lambda port: [str(BIN / "docverify"), "zensical", "serve", "--dev-addr", port],
}


@pytest.fixture(params=sorted(SERVE))
def served(
    tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[tuple[Site, str, subprocess.Popen[str]]]:
    site = Site(tmp_path / "site")
    site.edit(site.recording, "12", "13")  # the block prints 12: a divergence
    port = _free_port()
    env = {
        **os.environ,
        "NO_MKDOCS_2_WARNING": "1",
        "DOCVERIFY_RUNNER": "cpu",
        "DOCVERIFY_CACHE": "0",
        "SOURCE_DATE_EPOCH": EPOCH,
    }
    log = (tmp_path / "serve.log").open("w", encoding="utf-8")
    server = subprocess.Popen(
        SERVE[request.param](f"127.0.0.1:{port}"),
        cwd=site.root,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        yield site, f"http://127.0.0.1:{port}/articulos/a/", server
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


def _get(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.read().decode("utf-8")
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None


@pytest.mark.slow
def test_serve_shows_the_diff_then_a_clean_page_after_the_fix(
    served: tuple[Site, str, subprocess.Popen[str]], tmp_path: Path
) -> None:
    site, url, server = served
    raw = _until(lambda: _get(url), "la página no se sirve", server)
    text = _text(raw)
    lines = text.split("\n")
    assert "-13" in lines and "+12" in lines, text  # the recorded line and the observed one
    assert 'href="#dv-problema-uno"' in raw and 'id="dv-problema-uno"' in raw
    log = (tmp_path / "serve.log").read_text(encoding="utf-8")
    assert "[divergencia]" in log and "serve sigue sirviendo" in log, log

    site.edit(site.recording, "13", "12")  # the fix: the recording now says what the block prints

    # A clean page: no problem under a block and no banner of errors above. The edit is not
    # atomic (as an editor's save may not be): a rebuild that reads the file half-written shows
    # that error for a moment, and the next rebuild clears it.
    def clean() -> str | None:
        page = _get(url)
        if page is None or "dv-problem" in page or "dv-banner" in page:
            return None
        return page

    raw = _until(clean, "la página sigue mostrando el error", server)
    assert server.poll() is None
    assert "12" in _text(raw)
