"""running.environments: the environment of `docverify canary --torch`, before pip runs.

What pip resolves and installs is tested where it can be without a network: an unknown version
(tests/cli/test_canary.py, pip offline). Here, the pure parts: the key of an environment, when
one is complete, and how big a download is (file:// on disk, https asked with HEAD, served
here on 127.0.0.1).
"""

from __future__ import annotations

import http.server
import json
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
    thread = threading.Thread(target=server.serve_forever, daemon=True)
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
