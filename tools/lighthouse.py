"""Benchmark, not a test: Lighthouse scores and page weight of each article page.

    python3 tools/lighthouse.py [--site DIR] [--runs N]

Builds the site (strict, cpu runner) unless --site names a built one, serves it on 127.0.0.1
with gzip as a static host does, runs npm's lighthouse@12.2.3 (installed into tools/.node/ on
first use) with Debian's Chromium on each article page, and prints the scores against the
targets: performance ≥ 95, accessibility 100, best practices ≥ 95, SEO ≥ 95, ≤ 300 KB.
Each score is the median of N runs (3 by default; Lighthouse's own advice, since total blocking
time varies with the machine's load). Exit status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gzip
import http.server
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE_DIR = ROOT / "tools" / ".node"
LIGHTHOUSE = "lighthouse@12.2.3"
CHROMIUM = "/usr/bin/chromium"
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-background-networking "
    "--disable-component-update --disable-sync --no-first-run"
)
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
TARGETS = {"performance": 95, "accessibility": 100, "best-practices": 95, "seo": 95}
MAX_KB = 300
COMPRESSIBLE = (".html", ".css", ".js", ".json", ".svg", ".xml", ".txt", ".map")


class _GzipHandler(http.server.SimpleHTTPRequestHandler):
    """Static files, gzip-compressed for clients that accept it, as static hosts serve them."""

    def send_head(self):  # type: ignore[no-untyped-def]
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not self.path.split("?")[0].endswith("/"):
                return super().send_head()  # the base class redirects to the trailing slash
            path = path / "index.html"
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and path.suffix in COMPRESSIBLE and path.is_file()):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=600")
        self.end_headers()
        return io.BytesIO(body)

    def log_message(self, *_: object) -> None:
        return


@contextlib.contextmanager
def serve(directory: Path) -> Iterator[str]:
    handler = functools.partial(_GzipHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def lighthouse_cli() -> Path:
    cli = NODE_DIR / "node_modules" / "lighthouse" / "cli" / "index.js"
    if not cli.is_file():
        npm = shutil.which("npm") or sys.exit("Hace falta npm (Node.js 20) para Lighthouse.")
        NODE_DIR.mkdir(parents=True, exist_ok=True)
        print(f"Instalando {LIGHTHOUSE} en {NODE_DIR} …", flush=True)
        subprocess.run(
            [
                npm,
                "install",
                "--no-save",
                "--no-audit",
                "--no-fund",
                "--prefix",
                str(NODE_DIR),
                LIGHTHOUSE,
            ],
            check=True,
        )
    return cli


def build(site: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "DOCVERIFY_RUNNER": "cpu"}
    mkdocs = Path(sys.executable).parent / "mkdocs"
    subprocess.run(
        [str(mkdocs), "build", "-q", "--strict", "-d", str(site)], cwd=ROOT, env=env, check=True
    )


def articles(site: Path) -> list[str]:
    return sorted(
        p.parent.relative_to(site).as_posix() + "/" for p in site.glob("articulos/*/index.html")
    )


def audit(cli: Path, url: str, out: Path) -> dict[str, float]:
    env = {**os.environ, "CHROME_PATH": CHROMIUM}
    subprocess.run(
        [
            "node",
            str(cli),
            url,
            "--quiet",
            "--output=json",
            f"--output-path={out}",
            f"--chrome-flags={CHROME_FLAGS}",
            f"--only-categories={','.join(CATEGORIES)}",
        ],
        env=env,
        check=True,
        timeout=300,
    )
    report = json.loads(out.read_text(encoding="utf-8"))
    scores = {c: round(report["categories"][c]["score"] * 100) for c in CATEGORIES}
    scores["kb"] = report["audits"]["total-byte-weight"]["numericValue"] / 1024
    return scores


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, help="sitio ya construido (por defecto se construye)")
    parser.add_argument("--runs", type=int, default=3, help="ejecuciones por página (mediana)")
    args = parser.parse_args(argv)
    cli = lighthouse_cli()
    with tempfile.TemporaryDirectory(prefix="lighthouse-") as scratch:
        site = args.site or Path(scratch) / "site"
        if args.site is None:
            build(site)
        missed = []
        print(f"{'página':40} {'rend.':>5} {'acces.':>6} {'prácticas':>9} {'SEO':>4} {'KB':>6}")
        with serve(site) as base:
            for page in articles(site):
                runs = [
                    audit(cli, base + page, Path(scratch) / "report.json")
                    for _ in range(max(1, args.runs))
                ]
                s = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
                print(
                    f"{page:40} {s['performance']:>5.0f} {s['accessibility']:>6.0f} "
                    f"{s['best-practices']:>9.0f} {s['seo']:>4.0f} {s['kb']:>6.0f}",
                    flush=True,
                )
                missed += [f"{page}: {c} {s[c]} < {t}" for c, t in TARGETS.items() if s[c] < t]
                if s["kb"] > MAX_KB:
                    missed.append(f"{page}: {s['kb']:.0f} KB > {MAX_KB} KB")
    for line in missed:
        print(f"OBJETIVO NO ALCANZADO: {line}")
    print(
        "Objetivos: rendimiento ≥ 95, accesibilidad 100, buenas prácticas ≥ 95, SEO ≥ 95, "
        f"peso ≤ {MAX_KB} KB" + ("" if missed else ": todos alcanzados.")
    )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
