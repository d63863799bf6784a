"""Plain `mkdocs build` (no --strict, `strict: false` in mkdocs.yml) fails on every error kind.

Each case mutates a one-article site that builds cleanly into one verification error; the build
must exit non-zero, name the kind, and end with the one-line summary.
"""

from __future__ import annotations

import html
import os
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import mkdocs_build
from support import inprocess
from support.glossary import GLOSSARY
from support.mkdocs_site import EPOCH, Site

DRIFT = (
    '    verified: "2026-05-01"\n'
    "    fingerprint:\n"
    "      package: torch\n"
    '      version: "2.13.0"\n'
    "      object: torch.autograd.backward\n"
    f'      sha256: "{"0" * 64}"\n'
)
Mutation = Callable[[Site], dict[str, str]]


def _code(code: str, options: str = "") -> Mutation:
    def mutate(site: Site) -> dict[str, str]:
        site.code.write_text(code, encoding="utf-8")
        if options:
            site.edit(site.article, 'id="uno"', f'id="uno" {options}')
        return {}

    return mutate


def _date(old: str, new: str) -> Mutation:
    def mutate(site: Site) -> dict[str, str]:
        site.edit(site.article, old, new)
        return {}

    return mutate


def _output_cap(site: Site) -> dict[str, str]:
    site.set_pyproject("output_limit = 200\n")  # still inside [tool.docverify]
    site.code.write_text("print('x' * 5000)\n", encoding="utf-8")
    return {}


def _pyproject(old: str, new: str) -> Mutation:
    def mutate(site: Site) -> dict[str, str]:
        site.edit(site.root / "pyproject.toml", old, new)
        return {}

    return mutate


def _avoided_phrase(site: Site) -> dict[str, str]:
    (site.root / "docs/glosario.yml").write_text(GLOSSARY, encoding="utf-8")
    site.edit(site.article, "## Cuerpo\n\nTexto.", "## Cuerpo\n\nEl gráfico computacional.")
    return {}


def _no_recording(site: Site) -> dict[str, str]:
    site.recording.unlink()
    return {}


def _divergence(site: Site) -> dict[str, str]:
    site.edit(site.recording, "12", "13")
    return {}


# case → (the Spanish name of the kind it must report, as the log shows it, words of its
# message, the mutation)
CASES: dict[str, tuple[str, str, Mutation]] = {
    "divergencia": ("divergencia", "no coincide con su grabación", _divergence),
    "grabacion-ausente": ("grabacion-ausente", "no tiene grabación", _no_recording),
    "excepcion-inesperada": (
        "excepcion-inesperada",
        "ValueError: no",
        _code('raise ValueError("no")\n'),
    ),
    "timeout": (
        "fallo-ejecucion",
        "tiempo límite de 1 s",
        _code("import time\ntime.sleep(30)\n", 'timeout="1"'),
    ),
    "limite-de-salida": ("fallo-ejecucion", "supera el límite de 200", _output_cap),
    "fuente-caducada": ("fuente-caducada", "2020-01-01", _date('"2026-05-01"', '"2020-01-01"')),
    "fecha-futura": ("fecha-futura", "2026-12-01", _date('"2026-05-01"', '"2026-12-01"')),
    "fecha-mal-formada": ("fecha-invalida", "2026-13-45", _date('"2026-05-01"', '"2026-13-45"')),
    "fecha-ausente": (
        "fecha-invalida",
        "falta la fecha de verificación",
        _date('    verified: "2026-05-01"\n', ""),
    ),
    "huella-cambiada": (
        "fuente-cambiada",
        "cambió desde que se verificó",
        _date('    verified: "2026-05-01"\n', DRIFT),
    ),
    "parte-ausente": (
        "parte-ausente",
        "«Conclusiones clave»",
        _date("takeaways:\n  - Una conclusión.\n", ""),
    ),
    "tipo-incorrecto": (
        "tipo-incorrecto",
        "ponlo entre comillas",
        _date("  - Una conclusión.\n", "  - Forma: una conclusión.\n"),
    ),
    "clave-desconocida": (
        "clave-desconocida",
        "¿querías decir «last_value»?",
        _date('approach: "Enfoque."\n', 'approach: "Enfoque."\nlast_valu: show\n'),
    ),
    "configuracion-clave": (
        "configuracion",
        "clave desconocida «timeot»",
        _pyproject("timeout = 60\n", "timeot = 60\n"),
    ),
    "configuracion-valor": (
        "configuracion",
        'timeout = "sesenta" no es válido',
        _pyproject("timeout = 60\n", 'timeout = "sesenta"\n'),
    ),
    # pymdownx.snippets (check_paths) would stop the build at the fence, with a traceback.
    "snippet-ausente": (
        "snippet-ausente",
        "«articulos/a/dos.py» no existe",
        _date('"articulos/a/uno.py"', '"articulos/a/dos.py"'),
    ),
    "curva-ilegible": ("curva-ilegible", "ningún punto", _code("print(12)\n", 'curve="C"')),
    "expresion-a-evitar": ("expresion-a-evitar", "«grafo»", _avoided_phrase),
    "ejecucion-desactivada": (
        "ejecucion-desactivada",
        "ningún bloque se ejecutó",
        lambda s: {"DOCVERIFY_EXECUTE": "0"},
    ),
}
SUMMARY = re.compile(r"^(\d+) errore?s? de verificación: .+$", re.MULTILINE)


# As an author builds locally: the cache on. The unmutated site's build fills it by really
# running its block; a mutation that leaves the code alone then needs no new run (and no
# torch), one that changes the code runs it. (Under CI=true the cache is never used.)
LOCAL = {"CI": "false", "DOCVERIFY_CACHE": "1"}


def _build(site: Site, out: Path, env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    return mkdocs_build(
        site.root, out, strict=False, env={"SOURCE_DATE_EPOCH": EPOCH, **LOCAL, **(env or {})}
    )


@dataclass
class Warm:
    site: Site
    done: subprocess.CompletedProcess[str]
    out: Path


@pytest.fixture(scope="module")
def warm(tmp_path_factory: pytest.TempPathFactory) -> Warm:
    folder = tmp_path_factory.mktemp("sin-mutar")
    site = Site(folder / "site")
    assert not (site.root / ".cache").exists()
    return Warm(site, _build(site, folder / "out"), folder / "out")


@pytest.mark.slow
def test_the_unmutated_site_builds(warm: Warm) -> None:
    """The baseline of every case below: without a mutation, the same build passes."""
    done = warm.done
    assert done.returncode == 0, done.stdout + done.stderr
    assert not SUMMARY.search(done.stdout + done.stderr)
    page = (warm.out / "articulos/a/index.html").read_text(encoding="utf-8")
    assert "dv-banner" not in page and "dv-problem" not in page
    assert any((warm.site.root / ".cache").rglob("*.json")), "la construcción no llenó la caché"


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(CASES))
def test_plain_build_fails_on_each_error_kind(case: str, warm: Warm, tmp_path: Path) -> None:
    kind, words, mutate = CASES[case]
    site = warm.site.copy(tmp_path / "site")
    env = mutate(site)
    done = _build(site, tmp_path / "out", env)
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    assert f"[{kind}]" in output and words in output, output
    summary = SUMMARY.findall(output)
    assert summary, f"sin la línea de resumen:\n{output}"
    # MkDocs prints the Abort's message last, on stdout; the located findings are logged.
    last = done.stdout.strip().splitlines()[-1]
    assert SUMMARY.match(last) and kind in last, last
    assert "Traceback" not in done.stderr.split(f"[{kind}]")[0]  # the hook did not crash


@pytest.mark.slow
def test_the_failing_page_shows_the_problem_at_its_block(warm: Warm, tmp_path: Path) -> None:
    """The page built with a divergence: a banner linking to the block, and the diff there."""
    site = warm.site.copy(tmp_path / "site")
    _divergence(site)
    done = _build(site, tmp_path / "out")
    assert done.returncode != 0
    raw = (tmp_path / "out/articulos/a/index.html").read_text(encoding="utf-8")
    banner = raw[raw.index("dv-banner") :]
    assert 'href="#dv-problema-uno"' in banner[: banner.index("</div>")]
    box = raw[raw.index('id="dv-problema-uno"') :]
    box = html.unescape(re.sub(r"<[^>]+>", "", box[: box.index("</div>")]))
    assert "-13" in box.split("\n") and "+12" in box.split("\n"), box
    assert "docverify record --runner cpu docs/articulos/a.md" in box


def _git(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Prueba",
        "GIT_AUTHOR_EMAIL": "prueba@example.org",
        "GIT_COMMITTER_NAME": "Prueba",
        "GIT_COMMITTER_EMAIL": "prueba@example.org",
    }
    return subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=True, env=env
    )


def _gh_deploy(site: Site, remote: Path) -> subprocess.CompletedProcess[str]:
    """`mkdocs gh-deploy` of the site, a git repository whose origin is the bare `remote`."""
    _git("init", "-q", "-b", "main", cwd=site.root)
    _git("add", "-A", cwd=site.root)
    _git("commit", "-q", "-m", "sitio", cwd=site.root)
    _git("remote", "add", "origin", str(remote), cwd=site.root)
    env = {
        "SOURCE_DATE_EPOCH": EPOCH,
        **LOCAL,
        "GIT_AUTHOR_NAME": "Prueba",
        "GIT_AUTHOR_EMAIL": "prueba@example.org",
        "GIT_COMMITTER_NAME": "Prueba",
        "GIT_COMMITTER_EMAIL": "prueba@example.org",
    }
    full_env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "DOCVERIFY_RUNNER": "cpu", **env}
    args = ["gh-deploy", "-q", "--force", "-f", str(site.root / "mkdocs.yml")]
    return inprocess.command("mkdocs", args, site.root, full_env)


def _branches(remote: Path) -> str:
    return _git("branch", "--list", cwd=remote).stdout


@pytest.mark.slow
def test_gh_deploy_publishes_nothing_when_verification_fails(warm: Warm, tmp_path: Path) -> None:
    """`mkdocs gh-deploy` builds with the same hook: a divergence aborts it before the push, so
    the remote never gets a gh-pages branch. The unmutated site, deployed the same way, does."""
    for name, broken in (("sano", False), ("roto", True)):
        site = warm.site.copy(tmp_path / name / "site")
        if broken:
            _divergence(site)
        remote = tmp_path / name / "remoto.git"
        _git("init", "-q", "--bare", str(remote), cwd=tmp_path)
        done = _gh_deploy(site, remote)
        output = done.stdout + done.stderr
        if broken:
            assert done.returncode != 0, output
            assert "[divergencia]" in output and SUMMARY.search(output), output
            assert "gh-pages" not in _branches(remote), "gh-deploy publicó un sitio con errores"
        else:
            assert done.returncode == 0, output
            assert "gh-pages" in _branches(remote), output


@pytest.mark.slow
def test_the_page_shows_the_code_the_engine_ran(warm: Warm, tmp_path: Path) -> None:
    """MkDocs never reads an executed fence: with pymdownx.snippets pointed at another folder,
    whose snippet prints something else, the page still shows the code that was verified, with
    its verified output (before issue 32 a second parse made this a «bloque-distinto» error)."""
    site = warm.site.copy(tmp_path / "site")
    elsewhere = site.root / "mostrados/articulos/a/uno.py"
    elsewhere.parent.mkdir(parents=True)
    elsewhere.write_text("print(6 * 3)\n", encoding="utf-8")
    site.edit(site.root / "mkdocs.yml", "base_path: [snippets]", "base_path: [mostrados]")
    done = _build(site, tmp_path / "out")
    assert done.returncode == 0, done.stdout + done.stderr
    page = (tmp_path / "out/articulos/a/index.html").read_text(encoding="utf-8")
    shown = re.sub(r"<[^>]+>", "", page)
    verified = site.code.read_text(encoding="utf-8").strip()
    assert verified != "print(6 * 3)" and html.escape(verified) in shown
    assert "print(6 * 3)" not in shown and "<samp>12</samp>" in page
