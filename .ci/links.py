#!/usr/bin/env python3
"""The weekly link check's two ends, around lychee: what it checks and the issue it files.

    python3 .ci/links.py inventory CARPETA   # CARPETA/enlaces.txt and CARPETA/enlaces.json
    python3 .ci/links.py issue CARPETA       # CARPETA/lychee.json → step output `issue`

`inventory` reads every page's source text (docs/**/*.md, the sources' `url:` in its front
matter included, and docs/**/*.yml): each external http(s) address, wherever it is written
(front matter, text, admonitions, tables, code), with every page:line where it appears. lychee
reading the Markdown itself would miss the links inside admonitions (CommonMark reads their
indented body as code) and cut a front-matter URL at `__init__` (emphasis), so it gets a plain
list instead: enlaces.txt, one address a line, and enlaces.json maps each back to its places.

`issue` turns lychee's JSON report (`--format json`, run on enlaces.txt) into the weekly notice
the `notices` job files: {format: 1, count, title, body, closing}, the body naming page and line
of every broken link. A broken link is one in lychee's error_map or timeout_map (after its own
retries and accepted codes). Python's standard library only; tested by
tests/workflows/test_links.py on a fixture report.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = ("docs/**/*.md", "docs/**/*.yml")
# An address ends at a space, a quote, an angle bracket, a backtick or a closing guillemet.
URL = re.compile(r"https?://[^\s<>\"'`»\]]+")
TRAILING = ".,;:!?*_"
MAX_BODY = 60000  # GitHub refuses an issue body over 65,536 characters


def addresses(line: str) -> list[str]:
    """The http(s) addresses written in `line`, without the punctuation that follows them."""
    found = []
    for match in URL.finditer(line):
        url = match.group(0)
        while url and (
            url[-1] in TRAILING or (url.endswith(")") and url.count(")") > url.count("("))
        ):
            url = url[:-1]
        found.append(url)
    return found


def inventory(root: Path = ROOT) -> dict[str, list[str]]:
    """Every external address of the pages → the page:line places that write it, in order."""
    places: dict[str, list[str]] = {}
    paths = sorted({p for pattern in PAGES for p in root.glob(pattern) if p.is_file()})
    for path in paths:
        rel = path.relative_to(root).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for url in addresses(line):
                places.setdefault(url, []).append(f"{rel}:{number}")
    return places


def write_inventory(folder: Path, root: Path = ROOT) -> int:
    found = inventory(root)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "enlaces.txt").write_text("".join(f"{url}\n" for url in found), encoding="utf-8")
    (folder / "enlaces.json").write_text(
        json.dumps(found, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    pages = len({place.rsplit(":", 1)[0] for spots in found.values() for place in spots})
    print(f"{len(found)} direcciones distintas en {pages} páginas → {folder}/enlaces.txt")
    return len(found)


def _same(url: str) -> str:
    """An address as compared with lychee's: no fragment, no trailing slash."""
    return url.split("#", 1)[0].rstrip("/")


def broken(report: dict, listed: list[str]) -> list[tuple[str, str]]:
    """(address as listed, lychee's answer) for each broken link of the report; `listed` is
    enlaces.txt, line by line (lychee's span names the line where it has one)."""
    found = []
    for key in ("error_map", "timeout_map"):
        for entries in (report.get(key) or {}).values():
            for entry in entries:
                line = (entry.get("span") or {}).get("line")
                url = str(entry.get("url", ""))
                if isinstance(line, int) and 0 < line <= len(listed):
                    url = listed[line - 1]
                else:
                    url = next((u for u in listed if _same(u) == _same(url)), url)
                status = entry.get("status") or {}
                text = str(status.get("text") or "sin respuesta")
                details = str(status.get("details") or "")
                if details and details not in text:
                    text += f": {details}"
                found.append((url, text))
    return sorted(set(found))


def notice(report: dict, places: dict[str, list[str]], listed: list[str]) -> dict:
    """The weekly notice: title, body (a row per page:line of each broken link), closing."""
    bad = broken(report, listed)
    rows = [
        f"| `{place}` | {url} | {answer.replace('|', '/')} |"
        for url, answer in bad
        for place in places.get(url, ["(no está en ninguna página)"])
    ]
    pages = {row.split("`")[1].rsplit(":", 1)[0] for row in rows}
    head = (
        f"La revisión semanal de enlaces (lychee, con reintentos) no pudo abrir {len(bad)} "
        f"{'dirección' if len(bad) == 1 else 'direcciones'}, en {len(pages)} "
        f"{'página' if len(pages) == 1 else 'páginas'}. Para cada fila: abre el enlace; si se "
        "movió, corrige la página (y, si es una fuente, vuelve a verificarla con `docverify "
        "sources --reverify`); si funciona en un navegador y el servidor rechaza a los robots, "
        "añade su host a `.github/lychee.toml` con el motivo (docs-dev/ci.md, «Enlaces»). Esta "
        "incidencia se actualiza cada semana y se cierra sola cuando no queda ninguno."
    )
    table = ["| Página:línea | Enlace | Respuesta |", "|---|---|---|"]
    body = "\n".join([head, "", *table])
    for row in rows:
        if len(body) + len(row) + 200 > MAX_BODY:
            body += f"\n\n… y {len(rows) - body.count(chr(10)) + 3} filas más (recortado)."
            break
        body += "\n" + row
    return {
        "format": 1,
        "count": len(bad),
        "title": f"Enlaces rotos: {len(bad)} en {len(pages)} "
        f"{'página' if len(pages) == 1 else 'páginas'}",
        "body": body,
        "closing": "La revisión semanal de enlaces no encontró ninguno roto.",
    }


def write_notice(folder: Path) -> int:
    report_path = folder / "lychee.json"
    if not report_path.is_file():
        print(f"::error title=Sin informe de lychee::falta {report_path}: lychee no terminó.")
        return 1
    report = json.loads(report_path.read_text(encoding="utf-8"))
    places = json.loads((folder / "enlaces.json").read_text(encoding="utf-8"))
    listed = (folder / "enlaces.txt").read_text(encoding="utf-8").splitlines()
    found = notice(report, places, listed)
    print(f"{found['count']} enlaces rotos")
    output = os.environ.get("GITHUB_OUTPUT")
    if not output:
        print("::error::falta GITHUB_OUTPUT: este guion es un paso de GitHub Actions")
        return 1
    with Path(output).open("a", encoding="utf-8") as out:
        out.write(f"issue={json.dumps(found)}\n")
    return 0


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("inventory", "issue"):
        print("uso: python3 .ci/links.py inventory|issue CARPETA", file=sys.stderr)
        return 2
    folder = Path(argv[1])
    if argv[0] == "inventory":
        write_inventory(folder)
        return 0
    return write_notice(folder)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
