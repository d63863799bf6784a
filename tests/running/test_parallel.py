"""Warm parallel execution: reports in page order whatever finishes first; a torch-free parent."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from conftest import Project
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_site
from docverify.running import child
from docverify.running.executor import Executor
from docverify.verifying.verify import verify

SLOW_PAGE = """\
# Lenta

```python exec="on" id="lenta"
import time
time.sleep(1.0)
print("fin", time.monotonic())
```

```python exec="on" id="falla"
raise ValueError("primera página")
```
"""

FAST_PAGE = """\
# Rápida

```python exec="on" id="rapida"
import time
print("fin", time.monotonic())
```

```python exec="on" id="falla"
raise ValueError("segunda página")
```
"""


def test_reports_follow_page_order_not_finishing_order(
    project: Project, executor: Executor
) -> None:
    project.page("a-lenta.md", SLOW_PAGE)
    project.page("b-rapida.md", FAST_PAGE)
    cfg = project.config
    pages = read_site(cfg)
    assert [p.rel for p in pages] == ["a-lenta.md", "b-rapida.md"]
    assert executor.workers == 2
    report = verify(cfg, pages, "cpu", executor)
    finished = {
        key: float(o.result["output"].split()[1])
        for key, o in report.outcomes.items()
        if key.endswith(("lenta", "rapida"))
    }
    # Precondition: both pages ran at once and the second one finished first.
    assert finished["b-rapida/rapida"] < finished["a-lenta/lenta"]
    assert list(report.outcomes) == [
        "a-lenta/lenta",
        "a-lenta/falla",
        "b-rapida/rapida",
        "b-rapida/falla",
    ]
    raised = [f.message for f in report.findings if f.kind == Kind.UNEXPECTED_EXCEPTION]
    assert len(raised) == 2
    assert "a-lenta/falla" in raised[0] and "b-rapida/falla" in raised[1]
    missing = [f.path for f in report.findings if f.kind == Kind.MISSING_RECORDING]
    assert missing == ["docs/a-lenta.md", "docs/b-rapida.md"]


def test_the_process_that_verifies_never_imports_torch(project: Project) -> None:
    """torch (and so CUDA) lives only in the fork server and its children, never in the parent."""
    project.page(
        "p.md",
        """\
        # P

        ```python exec="on" id="uno"
        import torch
        print(torch.tensor([1.0, 2.0]).sum(), torch.cuda.is_initialized())
        ```
        """,
    )
    script = textwrap.dedent(f"""
        import json, sys
        from pathlib import Path
        from docverify.core import config
        from docverify.running.executor import Executor
        from docverify.parsing.pages import read_site
        from docverify.verifying.verify import verify

        def main():
            cfg = config.load(Path({str(project.root)!r}))
            executor = Executor(2)
            report = verify(cfg, read_site(cfg), executor.resolve_runner("cpu"), executor)
            outcome = report.outcomes["p/uno"]
            print(json.dumps({{"torch": "torch" in sys.modules, "output": outcome.result["output"],
                              "env": report.env}}))

        if __name__ == "__main__":
            main()
        """)
    path = project.root / "probe.py"
    path.write_text(script, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        cwd=project.root,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout.strip().splitlines()[-1])
    assert data["torch"] is False
    assert data["output"] == "tensor(3.) False\n"  # the child ran torch, without CUDA set up
    assert data["env"]["torch"]


def test_the_fork_server_preload_does_not_initialise_cuda() -> None:
    """What the fork server imports before forking must leave CUDA untouched."""
    code = (
        "import docverify.running.child, torch, sys; "
        "print(torch.cuda.is_initialized(), 'torch' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        cwd=Path(__file__).parent,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True"]


def test_page_processes_do_not_rerun_the_main_script(project: Project) -> None:
    """multiprocessing would re-run the parent's main script in every page process (30-60 ms
    each); the fork server stands in for it, so the script's top level runs once."""
    for n in range(3):
        project.page(
            f"p{n}.md",
            f"""\
            # P{n}

            ```python exec="on" id="b"
            print({n})
            ```
            """,
        )
    marker = project.root / "imports.txt"
    script = project.root / "main_script.py"
    script.write_text(
        textwrap.dedent(f"""
        from pathlib import Path
        with Path({str(marker)!r}).open("a") as handle:  # a side effect at import
            handle.write("imported\\n")

        if __name__ == "__main__":
            from docverify.core import config
            from docverify.running.executor import Executor
            from docverify.parsing.pages import read_site
            from docverify.verifying.verify import execute

            cfg = config.load(Path({str(project.root)!r}))
            results, _ = execute(cfg, read_site(cfg), "cpu", Executor(2))
            print(sorted(r["output"] for r in results.values()))
        """),
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        cwd=project.root,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['0\\n', '1\\n', '2\\n']"
    assert marker.read_text().splitlines() == ["imported"]


THREADS_PAGE = """\
# Hilos

```python exec="on" id="hilos"
import torch
print(torch.get_num_threads())
```
"""


def test_each_page_process_uses_the_engines_intra_op_threads(
    project: Project, executor: Executor
) -> None:
    """Pages run in parallel processes, one per core: each uses child.INTRA_OP_THREADS
    intra-op threads, whatever torch would choose for the machine (this one has more than
    one core when the assertion can tell them apart)."""
    project.page("hilos.md", THREADS_PAGE)
    cfg = project.config
    report = verify(cfg, read_site(cfg), "cpu", executor)
    assert report.outcomes["hilos/hilos"].result["output"].strip() == str(child.INTRA_OP_THREADS)
