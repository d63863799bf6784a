""".ci/run on a fresh machine, with apt-get, sudo and python3 replaced by recording stubs.

Each case starts from a set of missing Debian packages and a user (root, with sudo, without it)
and checks what .ci/run installs, through what, and that it stops with a clear message when it
cannot. How to run it for real, as a user with sudo on a clean clone: docs-dev/pruebas.md.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from support import browser as bs

ROOT = Path(__file__).resolve().parents[2]
RUN = ROOT / ".ci" / "run"

STUBS = {
    "id": 'test "$1" = -u && echo "$STUB_UID"\n',
    # sudo -n true says whether passwordless sudo works; anything else runs as given.
    "sudo": (
        'echo "sudo $*" >> "$STUB_LOG"\n'
        'test "$1" = -n && shift\n'
        'if test "$1" = true; then exit "$STUB_SUDO"; fi\n'
        'exec "$@"\n'
    ),
    "apt-get": (
        'echo "apt-get $* (uid $STUB_UID)" >> "$STUB_LOG"\n'
        'test "$1" = update && touch "$STUB_STATE/lists"\n'
        'test "$1" = install || exit 0\n'
        'for pkg in "$@"; do case "$pkg" in\n'
        '  chromium) test -n "$STUB_BROKEN_CHROMIUM" || { touch "$DOCS_CHROMIUM";'
        ' chmod +x "$DOCS_CHROMIUM"; } ;;\n'
        '  npm) printf "#!/bin/sh\\n" > "$STUB_BIN/npm"; chmod +x "$STUB_BIN/npm" ;;\n'
        '  python3-venv) touch "$STUB_STATE/venv" ;;\n'
        "esac; done\n"
    ),
    # What apt knows once its lists are read: Debian has a chromium deb; Ubuntu has none, only the
    # transitional chromium-browser that installs the snap (its real record depends on snapd).
    "apt-cache": (
        'test -e "$STUB_STATE/lists" || exit 0\n'
        'case "$1 $2" in\n'
        '  "policy chromium") if test -n "$STUB_SNAP_ONLY"; then\n'
        '      printf "chromium:\\n  Installed: (none)\\n  Candidate: (none)\\n"\n'
        '    else printf "chromium:\\n  Installed: (none)\\n  Candidate: 140.0-1\\n"; fi ;;\n'
        '  "show chromium-browser") test -n "$STUB_SNAP_ONLY$STUB_SNAP_BROWSER" || exit 100\n'
        '    printf "Package: chromium-browser\\nPre-Depends: debconf, snapd\\n"\n'
        '    printf "Description: Transitional package - chromium-browser -> chromium snap\\n" ;;\n'
        "  *) exit 100 ;;\n"
        "esac\n"
    ),
    # df -Pk FOLDER: the free KiB the test gives the temporary folder or any other folder.
    "df": (
        'case "$2" in /tmp) avail="$STUB_TMP_KB" ;; *) avail="$STUB_HERE_KB" ;; esac\n'
        'echo "Filesystem 1024-blocks Used Available Capacity Mounted on"\n'
        'echo "/dev/vda 264000000 1000 $avail 1% /"\n'
    ),
    "python3": (
        'case "$*" in\n'
        '  *ensurepip*) test -e "$STUB_STATE/venv" ;;\n'
        '  *version_info*) test -z "$STUB_OLD_PYTHON" ;;\n'
        '  --version) echo "Python 3.11.2" ;;\n'
        '  *tasks.py*) echo "python3 $*" >> "$STUB_LOG" ;;\n'
        "  *) exit 2 ;;\n"
        "esac\n"
    ),
}


def run_ci(
    tmp_path: Path,
    *,
    uid: int,
    sudo: str | None,
    missing: set[str],
    broken_chromium: bool = False,
    old_python: bool = False,
    python: bool = True,
    snap_only: bool = False,
    snap_browser: bool = False,
    apt_lists: bool = False,
    free_kib: int = 80_000_000,
    tmp_free_kib: int = 80_000_000,
    run: Path = RUN,
) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    bin_dir, state = tmp_path / "bin", tmp_path / "state"
    bin_dir.mkdir()
    state.mkdir()
    for name, body in STUBS.items():
        if (name == "sudo" and sudo is None) or (name == "python3" and not python):
            continue
        (bin_dir / name).write_text("#!/bin/sh\n" + body, encoding="utf-8")
        (bin_dir / name).chmod(0o755)
    # .ci/run calls env and dirname; the stubs, touch and chmod.
    for tool in ("env", "dirname", "touch", "chmod"):
        (bin_dir / tool).symlink_to(shutil.which(tool) or f"/usr/bin/{tool}")
    chromium = tmp_path / "chromium"
    if "chromium" not in missing:
        chromium.touch(mode=0o755)
    if "npm" not in missing:
        (bin_dir / "npm").write_text("#!/bin/sh\n", encoding="utf-8")
        (bin_dir / "npm").chmod(0o755)
    if "python3-venv" not in missing:
        (state / "venv").touch()
    if apt_lists:  # apt-get update ran before
        (state / "lists").touch()
    log = tmp_path / "log"
    log.touch()
    env = {
        "PATH": str(bin_dir),
        "HOME": str(tmp_path),
        "DOCS_CHROMIUM": str(chromium),
        "STUB_BIN": str(bin_dir),
        "STUB_STATE": str(state),
        "STUB_LOG": str(log),
        "STUB_UID": str(uid),
        "STUB_SUDO": sudo or "1",
        "STUB_BROKEN_CHROMIUM": "1" if broken_chromium else "",
        "STUB_OLD_PYTHON": "1" if old_python else "",
        "STUB_SNAP_ONLY": "1" if snap_only else "",
        "STUB_SNAP_BROWSER": "1" if snap_browser else "",
        "STUB_HERE_KB": str(free_kib),
        "STUB_TMP_KB": str(tmp_free_kib),
    }
    bash = shutil.which("bash") or "/bin/bash"
    result = subprocess.run(
        [bash, str(run)],
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    return result, log.read_text(encoding="utf-8").splitlines()


ALL = {"chromium", "npm", "python3-venv"}


def test_root_installs_what_is_missing_without_sudo(tmp_path: Path) -> None:
    result, log = run_ci(tmp_path, uid=0, sudo=None, missing=ALL)
    assert result.returncode == 0, result.stderr
    install = [line for line in log if line.startswith("apt-get install")]
    assert install == ["apt-get install -y -qq chromium npm python3-venv (uid 0)"], log
    assert not [line for line in log if line.startswith("sudo")], log
    assert log[-1] == "python3 tasks.py test", log


@pytest.mark.parametrize("missing", [{"chromium"}, {"npm"}, {"python3-venv"}, ALL])
def test_a_user_with_sudo_installs_through_sudo(tmp_path: Path, missing: set[str]) -> None:
    result, log = run_ci(tmp_path, uid=1000, sudo="0", missing=missing)
    assert result.returncode == 0, result.stderr
    installed = [line for line in log if line.startswith("sudo -n env DEBIAN_FRONTEND")]
    assert len(installed) == 2 and installed[1].endswith(" ".join(sorted(missing))), log
    assert log[-1] == "python3 tasks.py test", log


def test_nothing_missing_installs_nothing(tmp_path: Path) -> None:
    result, log = run_ci(tmp_path, uid=1000, sudo=None, missing=set())
    assert result.returncode == 0, result.stderr
    assert log == ["python3 tasks.py test"]


@pytest.mark.parametrize("sudo", [None, "1"], ids=["sin-sudo", "sudo-con-contraseña"])
def test_without_root_or_sudo_it_says_what_is_needed(tmp_path: Path, sudo: str | None) -> None:
    result, log = run_ci(tmp_path, uid=1000, sudo=sudo, missing={"chromium", "npm"})
    assert result.returncode == 1
    assert "faltan paquetes de Debian: chromium npm" in result.stderr, result.stderr
    assert "como root" in result.stderr and "sudo" in result.stderr, result.stderr
    assert not [line for line in log if "apt-get" in line or "tasks.py" in line], log


def test_chromium_elsewhere_does_not_count(tmp_path: Path) -> None:
    """apt-get succeeded, yet the binary the tests launch is not there: stop and say where."""
    result, log = run_ci(tmp_path, uid=0, sudo=None, missing={"chromium"}, broken_chromium=True)
    assert result.returncode == 1
    assert "sigue faltando: chromium" in result.stderr, result.stderr
    assert not [line for line in log if "tasks.py" in line], log


def test_a_python_the_pins_refuse_is_named_before_anything_runs(tmp_path: Path) -> None:
    result, log = run_ci(tmp_path, uid=0, sudo=None, missing=ALL, old_python=True)
    assert result.returncode == 1
    assert "Python 3.11.5 o posterior" in result.stderr, result.stderr
    assert "encontrado: Python 3.11.2" in result.stderr, result.stderr
    assert log == [], log


def test_it_checks_the_binary_the_browser_tests_launch() -> None:
    text = RUN.read_text(encoding="utf-8")
    assert f'chromium="${{DOCS_CHROMIUM:-{bs.CHROMIUM}}}"' in text
    assert "command -v chromium" not in text
    assert os.access(RUN, os.X_OK) or text.startswith("#!/usr/bin/env bash")


def test_the_python_it_asks_for_is_the_oldest_the_pins_accept() -> None:
    """The version .ci/run requires satisfies every pinned package, and one below it does not."""
    import re  # noqa: PLC0415
    import tomllib  # noqa: PLC0415
    from importlib import metadata  # noqa: PLC0415

    from packaging.requirements import Requirement  # noqa: PLC0415
    from packaging.specifiers import SpecifierSet  # noqa: PLC0415

    found = re.search(r"sys\.version_info < \((\d+), (\d+), (\d+)\)", RUN.read_text("utf-8"))
    assert found, "no encuentro la versión mínima de Python en .ci/run"
    major, minor, patch = (int(x) for x in found.groups())
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = [
        *project["dependencies"],
        *(d for e in project["optional-dependencies"].values() for d in e),
    ]
    specifiers = {}
    for pin in pins:
        name = Requirement(pin).name
        specifiers[name] = SpecifierSet(metadata.metadata(name).get("Requires-Python") or "")
    asked = f"{major}.{minor}.{patch}"
    assert all(s.contains(asked) for s in specifiers.values()), specifiers
    below = f"{major}.{minor}.{patch - 1}" if patch else f"{major}.{minor - 1}.99"
    assert not all(s.contains(below) for s in specifiers.values()), (below, specifiers)


def test_no_python3_at_all_is_named_before_anything_runs(tmp_path: Path) -> None:
    result, log = run_ci(tmp_path, uid=0, sudo=None, missing=ALL, python=False)
    assert result.returncode == 1
    assert "no hay ningún python3 en PATH" in result.stderr, result.stderr
    assert "No python3 on PATH" in result.stderr, result.stderr
    assert "command not found" not in result.stderr, result.stderr
    assert log == [], log


@pytest.mark.parametrize("missing", [{"chromium"}, ALL])
def test_a_snap_only_chromium_stops_before_installing(tmp_path: Path, missing: set[str]) -> None:
    """Ubuntu: apt-get would install the snap (or nothing) and /usr/bin/chromium stays missing."""
    result, log = run_ci(tmp_path, uid=0, sudo=None, missing=missing, snap_only=True)
    assert result.returncode == 1
    assert "solo da Chromium como snap" in result.stderr, result.stderr
    assert "ships Chromium only as a snap" in result.stderr, result.stderr
    assert [line for line in log if line.startswith("apt-get update")], log
    assert not [line for line in log if line.startswith("apt-get install")], log
    assert not [line for line in log if "tasks.py" in line], log


def test_a_snap_only_chromium_is_named_before_asking_for_root(tmp_path: Path) -> None:
    """With apt's lists already read, the user without root learns the real problem first."""
    result, log = run_ci(
        tmp_path, uid=1000, sudo=None, missing={"chromium"}, snap_only=True, apt_lists=True
    )
    assert result.returncode == 1
    assert "solo da Chromium como snap" in result.stderr, result.stderr
    assert "faltan paquetes de Debian" not in result.stderr, result.stderr
    assert log == [], log


@pytest.mark.parametrize("snap_browser", [False, True], ids=["debian", "chromium-y-snap"])
def test_a_chromium_package_is_not_mistaken_for_a_snap(tmp_path: Path, snap_browser: bool) -> None:
    """A chromium deb to install is enough, even where chromium-browser is the snap's."""
    result, log = run_ci(
        tmp_path,
        uid=0,
        sudo=None,
        missing={"chromium"},
        apt_lists=True,
        snap_browser=snap_browser,
    )
    assert result.returncode == 0, result.stderr
    assert "snap" not in result.stderr, result.stderr
    assert "apt-get install -y -qq chromium (uid 0)" in log, log


def fresh_clone(tmp_path: Path) -> Path:
    """A folder laid out as a clean clone for .ci/run: the script, and no .venv yet."""
    script = tmp_path / "clone" / ".ci" / "run"
    script.parent.mkdir(parents=True)
    shutil.copy2(RUN, script)
    return script


MIB = 1024  # KiB


@pytest.mark.parametrize(
    ("free_mib", "stops"), [(2047, True), (2048, False)], ids=["poco", "justo"]
)
def test_a_fresh_clone_needs_room_for_the_install(
    tmp_path: Path, free_mib: int, stops: bool
) -> None:
    script = fresh_clone(tmp_path)
    result, log = run_ci(
        tmp_path, uid=0, sudo=None, missing=ALL, free_kib=free_mib * MIB, run=script
    )
    if not stops:
        assert result.returncode == 0, result.stderr
        assert log[-1] == "python3 tasks.py test", log
        return
    assert result.returncode == 1
    folder = str(script.parent.parent)
    assert f"queda poco disco en {folder}: {free_mib} MiB libres" in result.stderr, result.stderr
    assert "unos 2048 MiB" in result.stderr and "No se ha instalado nada" in result.stderr
    assert log == [], log  # nothing installed, no tests run


@pytest.mark.parametrize(("free_mib", "stops"), [(511, True), (512, False)], ids=["poco", "justo"])
def test_an_installed_clone_needs_room_for_the_tests_only(
    tmp_path: Path, free_mib: int, stops: bool
) -> None:
    script = fresh_clone(tmp_path)
    venv_python = script.parent.parent / ".venv" / "bin" / "python"
    venv_python.parent.mkdir(parents=True)
    venv_python.touch(mode=0o755)
    result, log = run_ci(
        tmp_path, uid=0, sudo=None, missing=set(), free_kib=free_mib * MIB, run=script
    )
    assert (result.returncode == 1) is stops, result.stderr
    assert ("unos 512 MiB" in result.stderr) is stops, result.stderr
    assert (log == ["python3 tasks.py test"]) is not stops, log


@pytest.mark.parametrize(("free_mib", "stops"), [(511, True), (512, False)], ids=["poco", "justo"])
def test_the_temporary_folder_needs_room_too(tmp_path: Path, free_mib: int, stops: bool) -> None:
    result, log = run_ci(tmp_path, uid=0, sudo=None, missing=set(), tmp_free_kib=free_mib * MIB)
    assert (result.returncode == 1) is stops, result.stderr
    assert ("queda poco disco en /tmp: " in result.stderr) is stops, result.stderr
    assert (log == ["python3 tasks.py test"]) is not stops, log
