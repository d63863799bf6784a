"""running.environments: the environment of `docverify canary --torch`, before pip runs.

What pip resolves and installs is tested where it can be without a network: an unknown version
(tests/cli/test_canary.py, pip offline). Here, the pure parts: the key of an environment, when
one is complete, and how big a download is (file:// on disk, https asked with HEAD, served
here on 127.0.0.1).
"""

from __future__ import annotations

import hashlib
import http.server
import json
import os
import sys
import threading
from pathlib import Path

import pytest
from docverify.running import environments as envs


def test_versions_pip_reads_are_accepted_anything_else_refused() -> None:
    for good in ("2.14.1", "2.15.0rc1", "2.13.0+cpu", "2.16.0.dev20260101"):
        assert envs.check_version(f" {good} ") == good
    for bad in ("", "2.x", "2.14.1; rm -rf /", ">=2.13", "2.14 1"):
        with pytest.raises(envs.SetupError, match="no es una versión de torch"):
            envs.check_version(bad)


def test_torch_comes_from_the_index_when_there_is_one_numpy_from_pip_config() -> None:
    plain = envs.steps("2.14.1", "2.4.6", None)
    assert [s.args() for s in plain] == [["torch==2.14.1", "numpy==2.4.6"]]
    cpu = envs.steps("2.14.1", "2.4.6", "https://download.pytorch.org/whl/cpu")
    assert [s.args() for s in cpu] == [
        ["torch==2.14.1", "--index-url", "https://download.pytorch.org/whl/cpu"],
        ["numpy==2.4.6"],
    ]


def test_one_environment_per_version_index_and_numpy_pin(tmp_path: Path) -> None:
    one = envs.folder(tmp_path, "2.14.1", "2.4.6", None)
    assert one.parent == tmp_path / ".cache/docverify/canary" and one.name.startswith("2.14.1-")
    assert one == envs.folder(tmp_path, "2.14.1", "2.4.6", None)
    others = {
        envs.folder(tmp_path, "2.14.0", "2.4.6", None),
        envs.folder(tmp_path, "2.14.1", "2.4.7", None),
        envs.folder(tmp_path, "2.14.1", "2.4.6", "https://download.pytorch.org/whl/cpu"),
    }
    assert one not in others and len(others) == 3


def test_an_environment_is_reused_only_when_complete_for_the_same_installs(
    tmp_path: Path,
) -> None:
    plan = envs.steps("2.14.1", "2.4.6", None)
    env = tmp_path / "env"
    (env / "bin").mkdir(parents=True)
    assert not envs.ready(env, plan)  # no marker: an install that never finished
    (env / envs.MARKER).write_text(json.dumps({"steps": [s.args() for s in plan]}))
    assert not envs.ready(env, plan)  # no python
    (env / "bin" / "python").write_text("")
    assert envs.ready(env, plan)
    assert not envs.ready(env, envs.steps("2.14.1", "2.4.6", "https://example.org/simple"))


class _Sizes(http.server.BaseHTTPRequestHandler):
    def do_HEAD(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "3145728")  # 3 MiB
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


def test_the_download_size_counts_disk_and_network_files(tmp_path: Path) -> None:
    wheel = tmp_path / "torch-9-py3-none-any.whl"
    wheel.write_bytes(b"x" * 2048)
    server = http.server.HTTPServer(("127.0.0.1", 0), _Sizes)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
    )
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/numpy.whl"
        items = [
            {"download_info": {"url": wheel.as_uri()}},
            {"download_info": {"url": url}},
            {"download_info": {"url": "git+https://example.org/x.git"}},
        ]
        size = envs.download_size(items)
    finally:
        server.shutdown()
        server.server_close()
    assert (size.files, size.size, size.local, size.unknown) == (3, 2048 + 3 * 2**20, 2048, 1)
    text = size.describe()
    assert text.startswith("3 archivos, 3,0 MiB") and "2,0 KiB ya en este disco" in text
    assert "de 1 no se pudo saber el tamaño" in text


@pytest.mark.parametrize(
    ("size", "shown"),
    [
        (1023, "1023 B"),
        (1024, "1,0 KiB"),
        (2**20 - 1, "1024,0 KiB"),
        (2**20, "1,0 MiB"),
        (2**30, "1,0 GiB"),
        (3 * 2**30 - 2**28, "2,8 GiB"),
    ],
)
def test_sizes_as_readers_read_them(size: int, shown: str) -> None:
    assert envs.human(size) == shown


def test_a_download_says_only_what_it_has() -> None:
    assert envs.Download(files=2, size=2048, local=0, unknown=0).describe() == "2 archivos, 2,0 KiB"
    assert envs.Download(files=2, size=2048, local=1024, unknown=1).describe() == (
        "2 archivos, 2,0 KiB (de ellos 1,0 KiB ya en este disco, file://); "
        "de 1 no se pudo saber el tamaño"
    )


def test_a_bad_version_is_refused_with_its_message() -> None:
    with pytest.raises(envs.SetupError) as raised:
        envs.check_version("2.x")
    assert str(raised.value) == (
        "--torch '2.x': no es una versión de torch (se espera, p. ej., 2.14.1); no se ha "
        "escrito nada."
    )


def test_a_missing_file_and_a_head_without_length_are_of_unknown_size(tmp_path: Path) -> None:
    items = [
        {"download_info": {"url": (tmp_path / "no-hay.whl").as_uri()}},
        {"download_info": {"url": "https://example.org/a.whl"}},
        {},
    ]
    asked: list[str] = []

    def head(url: str) -> int | None:
        asked.append(url)
        return None

    assert envs.download_size(items, head) == envs.Download(files=3, size=0, local=0, unknown=3)
    assert asked == ["https://example.org/a.whl"]


# A stand-in for pip: records its arguments, then writes a report or fails as told (FAKE_PIP).
FAKE_PIP = """
import json, os, sys
args = sys.argv[1:]
with open(os.environ["FAKE_PIP_LOG"], "a", encoding="utf-8") as log:
    log.write(json.dumps(args) + "\\n")
if os.environ.get("FAKE_PIP_STDIN"):
    with open(os.environ["FAKE_PIP_STDIN"], "a", encoding="utf-8") as log:
        null = os.path.samestat(os.fstat(0), os.stat(os.devnull))
        log.write(("devnull" if null else "inherited") + "\\n")
how = os.environ.get("FAKE_PIP", "ok")
if how in ("ok", "nothing"):
    if "--report" in args:
        report = args[args.index("--report") + 1]
        item = {"download_info": {"url": "file:///" + args[-1]}}
        with open(report, "w", encoding="utf-8") as f:
            json.dump({"install": [item]} if how == "ok" else {"version": "1"}, f)
    sys.exit(0)
if how == "gone":  # the install fails after removing the environment itself
    import shutil
    shutil.rmtree(os.path.dirname(os.path.dirname(args[args.index("--python") + 1])))
sys.stderr.write(how)
sys.exit(3)
"""


@pytest.fixture
def pip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """pip replaced by FAKE_PIP; the log of its calls, one JSON list of arguments a line."""
    script = tmp_path / "pip.py"
    script.write_text(FAKE_PIP, encoding="utf-8")
    log = tmp_path / "pip.log"
    monkeypatch.setenv("FAKE_PIP_LOG", str(log))
    monkeypatch.setattr(
        envs, "_pip", lambda python=sys.executable: [sys.executable, str(script), f"<{python}>"]
    )
    return log


def calls(log: Path) -> list[list[str]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def test_resolve_asks_pip_for_each_step_installing_nothing(pip: Path) -> None:
    plan = envs.steps("2.14.1", "2.4.6", "https://example.org/simple")
    items = envs.resolve(plan, "2.14.1", python="/otro/bin/python")
    assert items == [
        {"download_info": {"url": "file:///https://example.org/simple"}},
        {"download_info": {"url": "file:///numpy==2.4.6"}},
    ]
    first, second = calls(pip)
    report = first[first.index("--report") + 1]
    assert first == [
        "</otro/bin/python>",
        "install",
        "--dry-run",
        "--ignore-installed",
        "--quiet",
        "--report",
        report,
        "torch==2.14.1",
        "--index-url",
        "https://example.org/simple",
    ]
    assert Path(report).name == "report.json" and not Path(report).exists()  # a folder removed
    assert second[-1] == "numpy==2.4.6"


@pytest.mark.parametrize(
    ("stderr", "index", "says"),
    [
        (
            "ERROR: No matching distribution found for torch==9.9\n",
            "https://example.org/simple",
            "--torch 9.9: pip no encuentra torch==9.9 en https://example.org/simple. Comprueba "
            "la versión (pip index versions torch) y el índice (DOCS_TORCH_INDEX); no se ha "
            "escrito nada.",
        ),
        (
            "ERROR: Could not find a version that satisfies torch==9.9\n",
            None,
            "--torch 9.9: pip no encuentra torch==9.9 numpy==2.4.6 con la configuración de pip. "
            "Comprueba la versión (pip index versions torch) y el índice (DOCS_TORCH_INDEX); no "
            "se ha escrito nada.",
        ),
        (
            "ERROR: la red falló\nWARNING: Location 'x' is ignored: it is neither a file nor a "
            "directory.\n\n",
            None,
            "--torch 9.9: pip no pudo resolver torch==9.9 numpy==2.4.6 con la configuración de "
            "pip (código 3: ERROR: la red falló); no se ha escrito nada.",
        ),
        (
            "",
            "https://example.org/simple",
            "--torch 9.9: pip no pudo resolver torch==9.9 en https://example.org/simple (código "
            "3: sin mensaje); no se ha escrito nada.",
        ),
    ],
)
def test_what_pip_could_not_resolve_is_said(
    pip: Path, monkeypatch: pytest.MonkeyPatch, stderr: str, index: str | None, says: str
) -> None:
    monkeypatch.setenv("FAKE_PIP", stderr or " ")
    with pytest.raises(envs.SetupError) as raised:
        envs.resolve(envs.steps("9.9", "2.4.6", index), "9.9")
    assert str(raised.value) == says


def test_create_makes_a_venv_installs_each_step_into_it_and_marks_it_last(
    pip: Path, tmp_path: Path
) -> None:
    env = tmp_path / "a" / "env"
    (env / "viejo").mkdir(parents=True)  # an install that never finished
    plan = envs.steps("2.14.1", "2.4.6", "https://example.org/simple")
    said: list[str] = []
    python = envs.create(env, plan, say=said.append)
    assert python == env / "bin" / "python" and python.exists()
    assert not (env / "viejo").exists()
    assert said == [
        "pip install torch==2.14.1 --index-url https://example.org/simple",
        "pip install numpy==2.4.6",
    ]
    assert calls(pip) == [
        [
            f"<{sys.executable}>",
            "--python",
            str(python),
            "install",
            "torch==2.14.1",
            "--index-url",
            "https://example.org/simple",
        ],
        [f"<{sys.executable}>", "--python", str(python), "install", "numpy==2.4.6"],
    ]
    assert json.loads((env / envs.MARKER).read_text(encoding="utf-8")) == {
        "steps": [s.args() for s in plan]
    }
    assert envs.ready(env, plan)


def test_a_failed_install_removes_the_environment(
    pip: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_PIP", "no")
    env = tmp_path / "env"
    with pytest.raises(envs.SetupError) as raised:
        envs.create(env, envs.steps("2.14.1", "2.4.6", None), say=lambda _: None)
    assert str(raised.value) == (
        f"pip no pudo instalar torch==2.14.1 numpy==2.4.6 en {env} (código 3); el entorno "
        "incompleto se ha borrado."
    )
    assert not env.exists()


def test_pip_is_run_as_a_module_of_the_python_given() -> None:
    assert envs._pip("/otro/bin/python") == [
        "/otro/bin/python",
        "-m",
        "pip",
        "--disable-pip-version-check",
    ]
    assert envs._pip()[0] == sys.executable


def test_the_key_digests_the_index_and_the_numpy_pin(tmp_path: Path) -> None:
    """12 hex digits of the JSON list [index or "", numpy], written here by hand."""
    for index, text in (
        (None, '["", "2.4.6"]'),
        ("https://x.org/s", '["https://x.org/s", "2.4.6"]'),
    ):
        key = hashlib.sha256(text.encode()).hexdigest()[:12]
        assert envs.folder(tmp_path, "2.14.1", "2.4.6", index).name == f"2.14.1-{key}"


def test_a_marker_that_is_not_json_means_not_ready(tmp_path: Path) -> None:
    plan = envs.steps("2.14.1", "2.4.6", None)
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "python").write_text("")
    (tmp_path / envs.MARKER).write_text("{a medias", encoding="utf-8")
    assert not envs.ready(tmp_path, plan)


def test_a_report_without_installs_adds_nothing(pip: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_PIP", "nothing")
    assert envs.resolve(envs.steps("2.14.1", "2.4.6", None), "2.14.1") == []
    assert len(calls(pip)) == 1


def test_the_dry_run_report_lives_in_a_temporary_folder_of_ours(pip: Path) -> None:
    envs.resolve(envs.steps("2.14.1", "2.4.6", None), "2.14.1")
    (args,) = calls(pip)
    report = Path(args[args.index("--report") + 1])
    assert report.parent.name.startswith("docverify-pip-")


@pytest.fixture
def stdin_pipe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """This process's stdin (fd 0) a pipe for the test: a child that inherits it is told apart
    from one given /dev/null. The log says, per pip call, which it got."""
    log = tmp_path / "stdin.log"
    monkeypatch.setenv("FAKE_PIP_STDIN", str(log))
    read, write = os.pipe()
    saved = os.dup(0)
    os.dup2(read, 0)
    try:
        yield log
    finally:
        os.dup2(saved, 0)
        for fd in (saved, read, write):
            os.close(fd)


def test_pip_never_reads_our_terminal(pip: Path, stdin_pipe: Path, tmp_path: Path) -> None:
    """pip gets /dev/null as stdin, so a prompt of its own cannot wait on the author's keys."""
    plan = envs.steps("2.14.1", "2.4.6", "https://example.org/simple")
    envs.resolve(plan, "2.14.1")
    envs.create(tmp_path / "env", plan, say=lambda _: None)
    said = stdin_pipe.read_text(encoding="utf-8").split()
    assert said == ["devnull"] * 4


def test_create_makes_missing_parents_and_a_venv_without_pip(pip: Path, tmp_path: Path) -> None:
    env = tmp_path / "nuevo" / "canary" / "env"
    python = envs.create(env, envs.steps("2.14.1", "2.4.6", None), say=lambda _: None)
    assert python.exists()
    assert python.is_symlink() == (os.name != "nt")  # a link to this Python, as venv makes it
    assert not list((env / "bin").glob("pip*"))  # pip runs from here with --python
    assert (env / envs.MARKER).read_text(encoding="utf-8") == (
        '{\n "steps": [\n  [\n   "torch==2.14.1",\n   "numpy==2.4.6"\n  ]\n ]\n}\n'
    )


class _Lengths(http.server.BaseHTTPRequestHandler):
    """HEAD answers: /ok with a length, /sin without one, /mal with one that is not a number."""

    def do_HEAD(self) -> None:
        self.send_response(200)
        if self.path != "/sin.whl":
            self.send_header("Content-Length", "1024" if self.path == "/ok.whl" else "mucho")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


def test_sizes_add_up_over_several_files_spaces_in_names_included(tmp_path: Path) -> None:
    one, two = tmp_path / "torch 9.whl", tmp_path / "numpy-2.whl"
    one.write_bytes(b"x" * 3000)
    two.write_bytes(b"x" * 500)
    server = http.server.HTTPServer(("127.0.0.1", 0), _Lengths)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
    )
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        items = [{"download_info": {"url": u}} for u in (one.as_uri(), two.as_uri())]
        items += [{"download_info": {"url": f"{base}/{n}.whl"}} for n in ("ok", "sin", "mal", "ok")]
        size = envs.download_size(items)
    finally:
        server.shutdown()
        server.server_close()
    assert "%20" in one.as_uri()
    assert size == envs.Download(files=6, size=3500 + 2 * 1024, local=3500, unknown=2)


def test_a_failed_install_is_said_even_when_the_environment_is_already_gone(
    pip: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Removing what is left never hides pip's failure behind an error of its own."""
    monkeypatch.setenv("FAKE_PIP", "gone")
    env = tmp_path / "env"
    with pytest.raises(envs.SetupError) as raised:
        envs.create(env, envs.steps("2.14.1", "2.4.6", None), say=lambda _: None)
    assert str(raised.value).startswith("pip no pudo instalar torch==2.14.1 numpy==2.4.6 en ")
    assert not env.exists()


def test_head_asks_with_a_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A mirror that never answers cannot hang `docverify canary`: HEAD gives up after 30 s."""
    asked: list[tuple[str, str, object]] = []

    class Answer:
        def __init__(self) -> None:
            self.headers = {"Content-Length": "2048"}

        def __enter__(self) -> Answer:
            return self

        def __exit__(self, *exc: object) -> None:
            return None

    def urlopen(request: object, timeout: object = "sin límite") -> Answer:
        asked.append((request.full_url, request.get_method(), timeout))  # type: ignore[attr-defined]
        return Answer()

    monkeypatch.setattr(envs.urllib.request, "urlopen", urlopen)
    assert envs._head("https://example.org/t.whl") == 2048
    assert asked == [("https://example.org/t.whl", "HEAD", 30)]


@pytest.mark.parametrize("marker", ["[]", "null", '"steps"'])
def test_a_marker_that_is_not_an_object_means_not_ready(tmp_path: Path, marker: str) -> None:
    """A marker edited by hand into other JSON: the environment is made again, no traceback."""
    plan = envs.steps("2.14.1", "2.4.6", None)
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "python").write_text("")
    (tmp_path / envs.MARKER).write_text(marker, encoding="utf-8")
    assert not envs.ready(tmp_path, plan)
